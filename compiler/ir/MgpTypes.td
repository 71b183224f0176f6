//===- MgpTypes.td - mgp types ---------------------------------*- tablegen -*-===//
//
// The mgp types (`!mgp.ptr`, `!mgp.memdesc`) and the type constraints the ops
// use for scalars and blocks.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TYPES_TD
#define MGP_TYPES_TD

include "compiler/ir/MgpDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

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
  let genVerifyDecl = 1;
}

def Mgp_MemDescType : Mgp_Type<"MemDesc", "memdesc", [ShapedTypeInterface]> {
  let summary = "A view of a buffer in shared memory";
  let description = [{
    A buffer in shared memory with a shape, an element type, a shared layout
    encoding (`#mgp.shared<...>`) and an optional `mutable` flag (set on
    buffers that `mgp.local_store` may write; `mgp.local_alloc` without a
    source gives a mutable buffer). An optional leading dimension indexes
    multiple buffers.
    Example: `!mgp.memdesc<64x32xf32, #mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, mutable>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding, DefaultValuedParameter<"bool", "false">:$isMutable);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [TypeBuilderWithInferredContext<(ins "::llvm::ArrayRef<int64_t>":$shape,
      "::mlir::Type":$elementType, "::mlir::Attribute":$encoding, CArg<"bool", "false">:$isMutable), [{
      return $_get(elementType.getContext(), shape, elementType, encoding, isMutable);
    }]>];
  let extraClassDeclaration = [{
    /// ShapedTypeInterface: a memdesc always has a rank.
    bool hasRank() const { return true; }
    /// ShapedTypeInterface: the same buffer type with another shape/element type.
    MemDescType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape, ::mlir::Type elementType) const {
      return MemDescType::get(getContext(), shape ? *shape : getShape(), elementType, getEncoding(), getIsMutable());
    }
  }];
}

def Mgp_Float : AnyTypeOf<[F16, BF16, F32, F64, F8E4M3FN, F8E5M2]>;
def Mgp_Int : AnyTypeOf<[I1, I8, I16, I32, I64]>;
def Mgp_Number : AnyTypeOf<[Mgp_Float, Mgp_Int]>;
def Mgp_Scalar : AnyTypeOf<[Mgp_Number, Mgp_PtrType]>;
def Mgp_Tensor : RankedTensorOf<[Mgp_Scalar]>;
def Mgp_Value : AnyTypeOf<[Mgp_Scalar, Mgp_Tensor]>;
def Mgp_IntLike : AnyTypeOf<[Mgp_Int, RankedTensorOf<[Mgp_Int]>]>;
def Mgp_BoolLike : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def Mgp_PtrLike : AnyTypeOf<[Mgp_PtrType, RankedTensorOf<[Mgp_PtrType]>]>;
def Mgp_NumberLike : AnyTypeOf<[Mgp_Number, RankedTensorOf<[Mgp_Number]>]>;
def Mgp_FloatTensor : RankedTensorOf<[Mgp_Float]>;
def Mgp_I32Tensor : RankedTensorOf<[I32]>;

#endif // MGP_TYPES_TD
