//===- MgpTypes.td - mgp types ---------------------------------*- tablegen -*-===//
#ifndef MGP_TYPES_TD
#define MGP_TYPES_TD

include "compiler/ir/MgpDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Mgp_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Mgp_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Mgp_PtrType : Mgp_Type<"Pointer", "ptr"> {
  let summary = "A pointer to elements of a scalar type in an address space";
  let description = [{
    A pointer to global (address space 1, the default) or shared (3) memory.
    Example: `!mgp.ptr<f32>`, `!mgp.ptr<f16, 3>`.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, DefaultValuedParameter<"int", "1">:$addressSpace);
  let assemblyFormat = "`<` $pointeeType (`,` $addressSpace^)? `>`";
  let builders = [TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                                      CArg<"int", "1">:$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>];
}

#endif // MGP_TYPES_TD
