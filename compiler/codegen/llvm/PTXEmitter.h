//===- PTXEmitter.h - the NVPTX target machine ------------------*- C++ -*-===//
//
// This file declares the creation of mgp's NVPTX target machine, shared by
// the lowering (data layout, triple) and by emitPTX.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PTXEMITTER_H
#define MGP_CODEGEN_LLVM_PTXEMITTER_H

#include "compiler/api/Target.h"

#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mgp {

/// An O3 NVPTX target machine for the GPU target `gpu`.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(const Target &gpu);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_PTXEMITTER_H
