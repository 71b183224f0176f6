//===- Passes.td - target-independent mgp passes ---------------*- tablegen -*-===//
//
// The passes that run on block-level mgp IR before any layout is assigned.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TRANSFORMS_PASSES_TD
#define MGP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MgpCombine : Pass<"mgp-combine", "mlir::ModuleOp"> {
  let summary = "Peephole combines of block-level mgp IR";
  let description = [{
    Rewrites, applied greedily to a fixed point:
    - `arith.select %m, (mgp.load %p, %m), %o` -> `mgp.load %p, %m, %o`
      (the masked-off lanes take `other` in the load itself);
    - `(mgp.dot %a, %b, zeros) + %c` -> `mgp.dot %a, %b, %c` (also `c + dot`,
      `arith.addf` for float and `arith.addi` for integer accumulators);
    - `mgp.addptr (mgp.addptr %p, %a), %b` -> `mgp.addptr %p, (%a + %b)`;
    - `mgp.broadcast`/`mgp.expand_dims`/`mgp.reshape`/`mgp.convert_layout` of
      `mgp.splat %x` -> `mgp.splat %x`, and splats/broadcasts of constants
      fold to dense constants (through the op folders).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mgp::MgpDialect"];
}

def MgpUnrollStatic : Pass<"mgp-unroll-static", "mlir::ModuleOp"> {
  let summary = "Fully unrolls scf.for loops marked mgp.static_range";
  let description = [{
    `tl.static_range` loops: MLIRGen unrolls them while it generates IR; this
    pass unrolls any `scf.for` that still carries the `mgp.static_range` unit
    attribute (e.g. from hand-written `.mlir`), with `mlir::loopUnrollFull`.
    The bounds and step must be constants.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

#endif // MGP_TRANSFORMS_PASSES_TD
