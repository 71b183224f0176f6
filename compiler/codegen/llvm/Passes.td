//===- Passes.td - mgp lowering passes -------------------------*- tablegen -*-===//
//
// This file declares the pass that lowers mgp IR with layout encodings to the
// LLVM dialect plus NVVM.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PASSES_TD
#define MGP_CODEGEN_LLVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def MgpToLLVM : Pass<"mgp-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower mgp with layout encodings to the LLVM and NVVM dialects";
  let description = [{
    Every distributed tensor becomes an `!llvm.struct` of the scalars one
    thread holds (in register order of its layout); kernels become `llvm.func`
    with `nvvm.kernel` and `nvvm.maxntid = 32 * mgp.num_warps`. Runs
    `scf-to-cf` first so that loop-carried structs become block arguments.
    Expects the GPU passes' contract: encodings on every tensor,
    `mgp.vector_width` on tensor loads/stores, `mgp.allocation.offset` on ops
    that use shared memory and the module attributes `mgp.num_warps` and
    `mgp.shared`.
  }];
  let options = [
    Option<"computeCapability", "compute-capability", "int", /*default=*/"90",
           "The target's compute capability (fp8 conversions: PTX's cvt from "
           "89 on, e5m2 in integer arithmetic before)">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

#endif // MGP_CODEGEN_LLVM_PASSES_TD
