//===- PTXEmitter.h - the NVPTX target machine ------------------*- C++ -*-===//
//
// This file declares the creation of mgp's NVPTX target machine (emitPTX's),
// the triple and data layout the lowering gives its module, and which
// functions emitPTX runs straight-line strength reduction on.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PTXEMITTER_H
#define MGP_CODEGEN_LLVM_PTXEMITTER_H

#include "compiler/api/Target.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mgp {

/// An O3 NVPTX target machine for the GPU target `gpu`.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(const Target &gpu);

/// Gives `module` the triple and the data layout of those machines (64-bit
/// generic and global pointers, 32-bit shared, local and constant ones)
/// without creating one: a machine builds its subtarget and lowering tables,
/// which emitPTX then does once per compile, not twice (8 % of mgpc's time
/// over the Triton suite's kernels).
void setNVPTXTarget(llvm::Module &module);

/// Whether code generation runs straight-line strength reduction on
/// `function`: only where it has tensor-core dots (mma.sync or wgmma inline
/// asm). In LLVM 22 the pass takes about half of the code generation of a
/// small kernel (3 of 5.6 ms on an elementwise add, whose PTX it leaves
/// unchanged) and tens of milliseconds on larger ones; what it buys is in
/// the address arithmetic of the tiles that feed the tensor cores.
bool runsStrengthReduction(const llvm::Function &function);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_PTXEMITTER_H
