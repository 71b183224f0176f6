//===- MgpDialect.td - the mgp dialect -------------------------*- tablegen -*-===//
//
// The block-level dialect that mgp kernels are lowered to from the AST.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_DIALECT_TD
#define MGP_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Mgp_Dialect : Dialect {
  let name = "mgp";
  let cppNamespace = "::mgp";
  let summary = "Block-level tensor programs for GPU kernels";
  let description = [{
    Kernels are `func.func` with the `mgp.kernel` attribute. Blocks are builtin
    `tensor<...>` values of numbers or `!mgp.ptr`; element math uses `arith` and
    `math`, control flow uses `scf`. GPU passes attach layout encodings
    (`#mgp.blocked`, `#mgp.slice`, ...) to the tensor types. See
    docs/dialect.md for the contract.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class Mgp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mgp_Dialect, mnemonic, traits>;

#endif // MGP_DIALECT_TD
