//===- PTXEmitter.h - the NVPTX target machine ------------------*- C++ -*-===//
//
// This file declares the creation of mgp's NVPTX target machine, shared by
// the lowering (data layout, triple) and by emitPTX.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PTXEMITTER_H
#define MGP_CODEGEN_LLVM_PTXEMITTER_H

#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mgp {

/// An O3 NVPTX target machine for `arch` (checked with checkArch).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(llvm::StringRef arch);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_PTXEMITTER_H
