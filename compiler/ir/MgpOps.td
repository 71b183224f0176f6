//===- MgpOps.td - mgp operations ------------------------------*- tablegen -*-===//
#ifndef MGP_OPS_TD
#define MGP_OPS_TD

include "compiler/ir/MgpDialect.td"
include "compiler/ir/MgpTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Mgp_ProgramIdOp : Mgp_Op<"program_id", [Pure]> {
  let summary = "The index of this program along a grid axis";
  let description = [{
    Example: `%pid = mgp.program_id x : i32`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

#endif // MGP_OPS_TD
