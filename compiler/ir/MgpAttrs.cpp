//===- MgpAttrs.cpp - mgp layout encodings --------------------------------===//
//
// This file implements the layout encoding attributes: their dictionary-style
// syntax (`#mgp.blocked<{sizePerThread = [1, 4], ...}>`), and their verifiers.
// What the encodings mean is implemented in Layout.cpp.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mgp;

#include "compiler/ir/MgpEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "compiler/ir/MgpAttrs.cpp.inc"

void MgpDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "compiler/ir/MgpAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Parsing and printing: `<{key = value, ...}>`
//===----------------------------------------------------------------------===//

namespace {
/// Reads the named fields of the dictionary of a layout attribute, reporting
/// missing, malformed and unknown keys at the attribute's location.
class FieldReader {
public:
  FieldReader(AsmParser &parser, DictionaryAttr dict, SMLoc loc)
      : parser(parser), dict(dict), loc(loc) {}

  ParseResult readUnsigned(StringRef name, unsigned &out) {
    seen.push_back(name);
    auto attr = dyn_cast_or_null<IntegerAttr>(dict.get(name));
    if (!attr)
      return parser.emitError(loc) << "expected integer field '" << name << "'";
    if (attr.getValue().isNegative())
      return parser.emitError(loc)
             << "field '" << name << "' must be non-negative";
    out = static_cast<unsigned>(attr.getValue().getZExtValue());
    return success();
  }

  /// An unsigned field that may be left out (then `fallback`).
  ParseResult readOptionalUnsigned(StringRef name, unsigned &out,
                                   unsigned fallback) {
    if (!dict.get(name)) {
      out = fallback;
      return success();
    }
    return readUnsigned(name, out);
  }

  ParseResult readArray(StringRef name, SmallVectorImpl<unsigned> &out) {
    seen.push_back(name);
    auto attr = dyn_cast_or_null<ArrayAttr>(dict.get(name));
    if (!attr)
      return parser.emitError(loc)
             << "expected integer array field '" << name << "'";
    for (Attribute e : attr) {
      auto i = dyn_cast<IntegerAttr>(e);
      if (!i || i.getValue().isNegative())
        return parser.emitError(loc)
               << "field '" << name << "' must hold non-negative integers";
      out.push_back(static_cast<unsigned>(i.getValue().getZExtValue()));
    }
    return success();
  }

  ParseResult readAttr(StringRef name, Attribute &out) {
    seen.push_back(name);
    out = dict.get(name);
    if (!out)
      return parser.emitError(loc) << "expected field '" << name << "'";
    return success();
  }

  /// Fails on keys that no read* call asked for.
  ParseResult finish() {
    for (NamedAttribute entry : dict)
      if (!llvm::is_contained(seen, entry.getName().getValue()))
        return parser.emitError(loc)
               << "unknown field '" << entry.getName().getValue() << "'";
    return success();
  }

private:
  AsmParser &parser;
  DictionaryAttr dict;
  SMLoc loc;
  SmallVector<StringRef> seen;
};

/// Parses `<{...}>` into a dictionary.
FailureOr<DictionaryAttr> parseFieldDict(AsmParser &parser) {
  DictionaryAttr dict;
  if (parser.parseLess() || parser.parseAttribute(dict) ||
      parser.parseGreater())
    return failure();
  return dict;
}

void printArray(AsmPrinter &printer, ArrayRef<unsigned> values) {
  printer << "[";
  llvm::interleaveComma(values, printer);
  printer << "]";
}
} // namespace

Attribute BlockedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FailureOr<DictionaryAttr> dict = parseFieldDict(parser);
  if (failed(dict))
    return {};
  FieldReader reader(parser, *dict, loc);
  SmallVector<unsigned> spt, tpw, wpc, order;
  if (reader.readArray("sizePerThread", spt) ||
      reader.readArray("threadsPerWarp", tpw) ||
      reader.readArray("warpsPerCTA", wpc) ||
      reader.readArray("order", order) || reader.finish())
    return {};
  return parser.getChecked<BlockedEncodingAttr>(parser.getContext(), spt, tpw,
                                                wpc, order);
}

void BlockedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{sizePerThread = ";
  printArray(printer, getSizePerThread());
  printer << ", threadsPerWarp = ";
  printArray(printer, getThreadsPerWarp());
  printer << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", order = ";
  printArray(printer, getOrder());
  printer << "}>";
}

Attribute SliceEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FailureOr<DictionaryAttr> dict = parseFieldDict(parser);
  if (failed(dict))
    return {};
  FieldReader reader(parser, *dict, loc);
  unsigned dim;
  Attribute parent;
  if (reader.readUnsigned("dim", dim) || reader.readAttr("parent", parent) ||
      reader.finish())
    return {};
  return parser.getChecked<SliceEncodingAttr>(parser.getContext(), dim, parent);
}

void SliceEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{dim = " << getDim() << ", parent = " << getParent() << "}>";
}

Attribute MmaEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FailureOr<DictionaryAttr> dict = parseFieldDict(parser);
  if (failed(dict))
    return {};
  FieldReader reader(parser, *dict, loc);
  unsigned version;
  SmallVector<unsigned> wpc, instr;
  if (reader.readUnsigned("version", version) ||
      reader.readArray("warpsPerCTA", wpc) ||
      reader.readArray("instrShape", instr) || reader.finish())
    return {};
  return parser.getChecked<MmaEncodingAttr>(parser.getContext(), version, wpc,
                                            instr);
}

void MmaEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{version = " << getVersion() << ", warpsPerCTA = ";
  printArray(printer, getWarpsPerCTA());
  printer << ", instrShape = ";
  printArray(printer, getInstrShape());
  printer << "}>";
}

Attribute DotOperandEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FailureOr<DictionaryAttr> dict = parseFieldDict(parser);
  if (failed(dict))
    return {};
  FieldReader reader(parser, *dict, loc);
  unsigned opIdx, kWidth;
  Attribute parent;
  if (reader.readUnsigned("opIdx", opIdx) ||
      reader.readAttr("parent", parent) ||
      reader.readUnsigned("kWidth", kWidth) || reader.finish())
    return {};
  return parser.getChecked<DotOperandEncodingAttr>(parser.getContext(), opIdx,
                                                   parent, kWidth);
}

void DotOperandEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{opIdx = " << getOpIdx() << ", parent = " << getParent()
          << ", kWidth = " << getKWidth() << "}>";
}

Attribute SharedEncodingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FailureOr<DictionaryAttr> dict = parseFieldDict(parser);
  if (failed(dict))
    return {};
  FieldReader reader(parser, *dict, loc);
  unsigned vec, perPhase, maxPhase, blockCols;
  SmallVector<unsigned> order;
  if (reader.readUnsigned("vec", vec) ||
      reader.readUnsigned("perPhase", perPhase) ||
      reader.readUnsigned("maxPhase", maxPhase) ||
      reader.readArray("order", order) ||
      reader.readOptionalUnsigned("blockCols", blockCols, 0) ||
      reader.finish())
    return {};
  return parser.getChecked<SharedEncodingAttr>(
      parser.getContext(), vec, perPhase, maxPhase, order, blockCols);
}

void SharedEncodingAttr::print(AsmPrinter &printer) const {
  printer << "<{vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = ";
  printArray(printer, getOrder());
  if (getBlockCols())
    printer << ", blockCols = " << getBlockCols();
  printer << "}>";
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

namespace {
bool isPermutation(ArrayRef<unsigned> order) {
  SmallVector<bool> seen(order.size(), false);
  for (unsigned o : order) {
    if (o >= order.size() || seen[o])
      return false;
    seen[o] = true;
  }
  return true;
}

bool allPowersOfTwo(ArrayRef<unsigned> values) {
  return llvm::all_of(values,
                      [](unsigned v) { return llvm::isPowerOf2_32(v); });
}
} // namespace

LogicalResult BlockedEncodingAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0 || sizePerThread.size() != rank ||
      threadsPerWarp.size() != rank || warpsPerCTA.size() != rank)
    return emitError()
           << "blocked: sizePerThread, threadsPerWarp, warpsPerCTA and order "
              "must have the same non-zero rank";
  if (!isPermutation(order))
    return emitError() << "blocked: order must be a permutation of 0.."
                       << rank - 1;
  if (!allPowersOfTwo(sizePerThread) || !allPowersOfTwo(threadsPerWarp) ||
      !allPowersOfTwo(warpsPerCTA))
    return emitError() << "blocked: sizes must be powers of two";
  return success();
}

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  if (!isDistributedEncoding(parent))
    return emitError() << "slice: parent must be a distributed encoding";
  unsigned rank = getEncodingRank(parent);
  if (dim >= rank)
    return emitError() << "slice: dim " << dim
                       << " out of range for a parent of rank " << rank;
  if (rank < 2)
    return emitError() << "slice: parent must have rank >= 2";
  return success();
}

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned version, ArrayRef<unsigned> warpsPerCTA,
                        ArrayRef<unsigned> instrShape) {
  if (version != 2 && version != 3)
    return emitError() << "mma: version must be 2 or 3";
  if (warpsPerCTA.size() != 2 || !allPowersOfTwo(warpsPerCTA))
    return emitError() << "mma: warpsPerCTA must be two powers of two";
  if (version == 2 &&
      (instrShape.size() != 2 || instrShape[0] != 16 || instrShape[1] != 8))
    return emitError() << "mma: version 2 needs instrShape = [16, 8]";
  if (version == 3 &&
      (instrShape.size() != 3 || instrShape[0] != 16 ||
       instrShape[1] % 8 != 0 || instrShape[1] == 0 || instrShape[1] > 256 ||
       !llvm::isPowerOf2_32(instrShape[1])))
    return emitError()
           << "mma: version 3 needs instrShape = [16, n, k] with n a power of "
              "two, 8 <= n <= 256";
  if (version == 3 && warpsPerCTA[0] % 4 != 0)
    return emitError()
           << "mma: version 3 needs warpsPerCTA[0] to be a multiple of 4";
  return success();
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent,
                               unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "dot_op: opIdx must be 0 (A) or 1 (B)";
  if (auto blocked = dyn_cast<BlockedEncodingAttr>(parent)) {
    if (blocked.getRank() != 2)
      return emitError() << "dot_op: a blocked parent must have rank 2";
    return success();
  }
  if (auto mma = dyn_cast<MmaEncodingAttr>(parent)) {
    if (kWidth == 0 || !llvm::isPowerOf2_32(kWidth) || kWidth > 16)
      return emitError()
             << "dot_op: an mma parent needs kWidth in {1, 2, 4, 8, 16}";
    return success();
  }
  return emitError() << "dot_op: parent must be #mgp.blocked or #mgp.mma";
}

LogicalResult
SharedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           unsigned vec, unsigned perPhase, unsigned maxPhase,
                           ArrayRef<unsigned> order, unsigned blockCols) {
  if (order.empty() || !isPermutation(order))
    return emitError() << "shared: order must be a permutation";
  if (!llvm::isPowerOf2_32(vec) || !llvm::isPowerOf2_32(perPhase) ||
      !llvm::isPowerOf2_32(maxPhase))
    return emitError()
           << "shared: vec, perPhase and maxPhase must be powers of two";
  if (blockCols && (!llvm::isPowerOf2_32(blockCols) || blockCols < vec))
    return emitError() << "shared: blockCols must be 0 or a power of two of "
                          "at least vec";
  return success();
}
