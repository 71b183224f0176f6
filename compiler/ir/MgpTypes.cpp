//===- MgpTypes.cpp - mgp types -------------------------------------------===//
//
// This file implements the mgp types: registration, the verifiers of
// `!mgp.ptr` and `!mgp.memdesc`, and the custom syntax of `!mgp.memdesc`
// (`!mgp.memdesc<64x32xf32, #mgp.shared<...>[, mutable]>`).
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mgp;

#define GET_TYPEDEF_CLASSES
#include "compiler/ir/MgpTypes.cpp.inc"

void MgpDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "compiler/ir/MgpTypes.cpp.inc"
      >();
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType, int addressSpace) {
  if (!pointeeType.isIntOrFloat())
    return emitError() << "pointee type must be an integer or float, got "
                       << pointeeType;
  if (addressSpace != 1 && addressSpace != 3)
    return emitError() << "address space must be 1 (global) or 3 (shared), got "
                       << addressSpace;
  return success();
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, bool isMutable) {
  if (shape.empty())
    return emitError() << "memdesc needs a rank of at least 1";
  for (int64_t d : shape)
    if (d <= 0)
      return emitError() << "memdesc dimensions must be positive";
  if (!elementType.isIntOrFloat())
    return emitError()
           << "memdesc element type must be an integer or float, got "
           << elementType;
  auto shared = dyn_cast_or_null<SharedEncodingAttr>(encoding);
  if (!shared)
    return emitError() << "memdesc encoding must be #mgp.shared";
  size_t rank = shared.getOrder().size();
  if (rank != shape.size() && rank + 1 != shape.size())
    return emitError() << "memdesc rank " << shape.size()
                       << " does not match the shared order of rank " << rank
                       << " (plus an optional leading buffer dimension)";
  return success();
}

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding))
    return {};
  bool isMutable = false;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("mutable"))
      return {};
    isMutable = true;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType,
                                        encoding, isMutable);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape())
    printer << d << "x";
  printer << getElementType() << ", " << getEncoding();
  if (getIsMutable())
    printer << ", mutable";
  printer << ">";
}
