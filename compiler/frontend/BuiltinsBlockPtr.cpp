//===- BuiltinsBlockPtr.cpp - block pointers and tensor descriptors -------===//
//
// This file implements Triton's structured pointers as compound values of
// the front end (SemaValue::getCompound), lowered to ordinary blocks of
// pointers and masks:
//  - `make_block_ptr(base, shape, strides, offsets, block_shape, order)`,
//    `advance(ptr, offsets)`, and `load(ptr, boundary_check=, padding_option=)`
//    / `store(ptr, value, boundary_check=)` on one: element (i, j, ...) of the
//    block is base + sum_d (offsets[d] + i_d) * strides[d]; the dimensions in
//    boundary_check are masked to [0, shape[d]); padding "zero" (or none)
//    loads 0 and "nan" loads NaN;
//  - `make_tensor_descriptor(base, shape, strides, block_shape,
//    padding_option="zero")` with `desc.load(offsets)` /
//    `desc.store(offsets, value)` (and `tl.load_tensor_descriptor` /
//    `tl.store_tensor_descriptor`): the same with every dimension checked,
//    as TMA does, and `desc.atomic_add/min/max/and/or/xor(offsets, value)`:
//    relaxed atomics on the elements inside the shape. (mgp uses ordinary
//    loads, stores and atomics here, on every arch.)
// Block dimensions must be powers of two, as in Triton.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

namespace {
/// Element indices of a compound value.
enum BlockPtrField { kBase, kShape, kStrides, kOffsets, kBlockShape, kOrder };
enum DescField {
  kDescBase,
  kDescShape,
  kDescStrides,
  kDescBlockShape,
  kDescPadding,
  kDescTensorMap
};
} // namespace

/// The elements of a tuple argument (or of a single value), checked to have
/// `rank` entries when `rank` is not 0.
static Expected<std::vector<SemaValue>>
getTupleArg(Generator &g, const BoundArgs &b, unsigned i, llvm::StringRef what,
            size_t rank) {
  const SemaValue &v = b.get(i);
  std::vector<SemaValue> elts =
      v.isTuple() ? v.getElements() : std::vector<SemaValue>{v};
  if (rank && elts.size() != rank)
    return g.error(b.expr(i), what + " needs " + llvm::Twine(rank) +
                                  " entries, got " + llvm::Twine(elts.size()));
  for (const SemaValue &e : elts)
    if (!e.isInt() && !(e.isRuntime() && !e.isTensor() &&
                        getElementType(e.getType()).isInteger()))
      return g.error(b.expr(i),
                     what + " must be integers, got " + e.describe());
  return elts;
}

/// The constant block shape argument `i`, powers of two.
static Expected<std::vector<SemaValue>>
getBlockShape(Generator &g, const BoundArgs &b, unsigned i) {
  Expected<std::vector<SemaValue>> elts =
      getTupleArg(g, b, i, "block_shape", 0);
  if (!elts)
    return elts.takeError();
  for (const SemaValue &e : *elts)
    if (!e.isInt() || !isPowerOf2(e.getInt()))
      return g.error(b.expr(i), "block_shape must be compile-time powers of "
                                "two, got " +
                                    e.describe());
  return elts;
}

Expected<SemaValue> Generator::blockAccess(
    const SemaValue &base, llvm::ArrayRef<SemaValue> shape,
    llvm::ArrayRef<SemaValue> strides, llvm::ArrayRef<SemaValue> offsets,
    llvm::ArrayRef<SemaValue> blockShape, llvm::ArrayRef<int64_t> checked,
    const ast::Expr &where, mlir::Value &mask) {
  mlir::Location l = loc(where);
  OpSite s = site(where);
  size_t rank = blockShape.size();
  SemaValue address = SemaValue::getInt(0);
  std::optional<SemaValue> inBounds;
  for (size_t d = 0; d < rank; ++d) {
    int64_t n = blockShape[d].getInt();
    mlir::Value range = MakeRangeOp::create(builder, l, 0, n);
    for (size_t e = 0; e < rank; ++e)
      if (e != d)
        range = ExpandDimsOp::create(builder, l, range, e);
    Expected<SemaValue> index =
        binaryOp(ast::BinaryOp::Add, offsets[d], runtime(range), s);
    if (!index)
      return index.takeError();
    Expected<SemaValue> term =
        binaryOp(ast::BinaryOp::Mul, *index, strides[d], s);
    if (!term)
      return term.takeError();
    Expected<SemaValue> sum = binaryOp(ast::BinaryOp::Add, address, *term, s);
    if (!sum)
      return sum.takeError();
    address = *sum;
    if (!llvm::is_contained(checked, int64_t(d)))
      continue;
    Expected<SemaValue> lo =
        compareOp(ast::CmpOp::GtE, *index, SemaValue::getInt(0), s);
    if (!lo)
      return lo.takeError();
    Expected<SemaValue> hi = compareOp(ast::CmpOp::Lt, *index, shape[d], s);
    if (!hi)
      return hi.takeError();
    Expected<SemaValue> both = binaryOp(ast::BinaryOp::BitAnd, *lo, *hi, s);
    if (!both)
      return both.takeError();
    if (inBounds) {
      both = binaryOp(ast::BinaryOp::BitAnd, *inBounds, *both, s);
      if (!both)
        return both.takeError();
    }
    inBounds = *both;
  }
  llvm::SmallVector<int64_t> full;
  for (const SemaValue &b : blockShape)
    full.push_back(b.getInt());
  Expected<SemaValue> ptrs = binaryOp(ast::BinaryOp::Add, base, address, s);
  if (!ptrs)
    return ptrs.takeError();
  Expected<mlir::Value> p = broadcastTo(ptrs->getValue(), full, s);
  if (!p)
    return p.takeError();
  mask = {};
  if (inBounds) {
    Expected<mlir::Value> m = broadcastTo(inBounds->getValue(), full, s);
    if (!m)
      return m.takeError();
    mask = *m;
  }
  return runtime(*p);
}

/// The `scf.for` whose induction variable `v` is, if it is one.
static mlir::scf::ForOp loopOfInductionVar(mlir::Value v) {
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(v);
  if (!arg)
    return {};
  auto loop = llvm::dyn_cast<mlir::scf::ForOp>(arg.getOwner()->getParentOp());
  return loop && arg == loop.getInductionVar() ? loop : mlir::scf::ForOp();
}

/// Whether integer `v` is a multiple of `k`, provably from its definition:
/// constants, products with a multiple, sums and differences of multiples,
/// extensions of one, the induction variable of an `scf.for` whose start and
/// step are multiples (`pid_n * BLOCK_N`, `k * BLOCK_K + 64`, `k` of
/// `range(0, K, BLOCK_K)`).
static bool isKnownMultiple(mlir::Value v, int64_t k, unsigned depth = 0) {
  if (k <= 1)
    return true;
  llvm::APInt c;
  if (mlir::matchPattern(v, mlir::m_ConstantInt(&c)))
    return c.getSExtValue() % k == 0;
  if (depth > 8)
    return false;
  if (mlir::scf::ForOp loop = loopOfInductionVar(v))
    return isKnownMultiple(loop.getLowerBound(), k, depth + 1) &&
           isKnownMultiple(loop.getStep(), k, depth + 1);
  mlir::Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (llvm::isa<mlir::arith::MulIOp>(def))
    return isKnownMultiple(def->getOperand(0), k, depth + 1) ||
           isKnownMultiple(def->getOperand(1), k, depth + 1);
  if (llvm::isa<mlir::arith::AddIOp, mlir::arith::SubIOp>(def))
    return isKnownMultiple(def->getOperand(0), k, depth + 1) &&
           isKnownMultiple(def->getOperand(1), k, depth + 1);
  if (llvm::isa<mlir::arith::ExtSIOp, mlir::arith::ExtUIOp>(def))
    return isKnownMultiple(def->getOperand(0), k, depth + 1);
  return false;
}

static bool isKnownMultiple(const SemaValue &v, int64_t k) {
  if (v.isInt())
    return v.getInt() % k == 0;
  return v.isRuntime() && !v.isTensor() && isKnownMultiple(v.getValue(), k);
}

/// Whether integer `v` is provably at least 0: non-negative constants,
/// program ids and counts, sums, products and quotients of such, extensions
/// of one, and the induction variable of an `scf.for` that starts at one and
/// steps up (`pid_m * BLOCK_M`, `k` of `range(0, K, BLOCK_K)`).
static bool isKnownNonNegative(mlir::Value v, unsigned depth = 0) {
  llvm::APInt c;
  if (mlir::matchPattern(v, mlir::m_ConstantInt(&c)))
    return !c.isNegative();
  if (depth > 8)
    return false;
  if (mlir::scf::ForOp loop = loopOfInductionVar(v)) {
    llvm::APInt step;
    return mlir::matchPattern(loop.getStep(), mlir::m_ConstantInt(&step)) &&
           step.isStrictlyPositive() &&
           isKnownNonNegative(loop.getLowerBound(), depth + 1);
  }
  mlir::Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (llvm::isa<ProgramIdOp, NumProgramsOp, mlir::arith::ExtUIOp>(def))
    return true;
  if (llvm::isa<mlir::arith::MulIOp, mlir::arith::AddIOp, mlir::arith::DivSIOp,
                mlir::arith::MaxSIOp>(def))
    return isKnownNonNegative(def->getOperand(0), depth + 1) &&
           isKnownNonNegative(def->getOperand(1), depth + 1);
  if (llvm::isa<mlir::arith::ExtSIOp, mlir::arith::IndexCastOp>(def))
    return isKnownNonNegative(def->getOperand(0), depth + 1);
  return false;
}

static bool isKnownNonNegative(const SemaValue &v) {
  if (v.isInt())
    return v.getInt() >= 0;
  return v.isRuntime() && !v.isTensor() && isKnownNonNegative(v.getValue());
}

/// The dims listed by a boundary_check argument.
static Expected<llvm::SmallVector<int64_t>>
getBoundaryCheck(Generator &g, const BoundArgs &b, unsigned i, size_t rank) {
  llvm::SmallVector<int64_t> dims;
  if (!b.has(i))
    return dims;
  const SemaValue &v = b.get(i);
  std::vector<SemaValue> elts =
      v.isTuple() ? v.getElements() : std::vector<SemaValue>{v};
  for (const SemaValue &e : elts) {
    if (!e.isInt() || e.getInt() < 0 || e.getInt() >= int64_t(rank))
      return g.error(b.expr(i), "boundary_check needs dimensions of the "
                                "block (0 to " +
                                    llvm::Twine(rank - 1) + "), got " +
                                    e.describe());
    dims.push_back(e.getInt());
  }
  return dims;
}

/// The padding value of `option` ("zero", "nan" or empty) for `elt`.
static Expected<SemaValue> getPadding(Generator &g, const SemaValue &option,
                                      const ast::Expr &where, mlir::Type elt) {
  if (option.isNone() || (option.isString() && (option.getString().empty() ||
                                                option.getString() == "zero")))
    return SemaValue::getInt(0);
  if (option.isString() && option.getString() == "nan") {
    if (!llvm::isa<mlir::FloatType>(elt))
      return g.error(where, "padding_option \"nan\" needs floating-point "
                            "elements, got " +
                                getTypeName(elt));
    return SemaValue::getFloat(std::numeric_limits<double>::quiet_NaN());
  }
  return g.error(where, "padding_option must be \"zero\" or \"nan\", got " +
                            option.describe());
}

Expected<SemaValue>
Generator::tensorMapAccess(llvm::ArrayRef<SemaValue> fields,
                           llvm::ArrayRef<SemaValue> offsets,
                           const BoundArgs *store, const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  const SemaValue &base = fields[kDescBase];
  mlir::Type elt = llvm::cast<PointerType>(base.getType()).getPointeeType();
  llvm::SmallVector<int64_t> block;
  for (const SemaValue &b : fields[kDescBlockShape].getElements())
    block.push_back(b.getInt());
  llvm::SmallVector<mlir::Value> coords;
  for (const SemaValue &o : offsets) {
    Expected<mlir::Value> c = toRuntimeAs(o, builder.getI32Type(), call);
    if (!c)
      return c.takeError();
    coords.push_back(*c);
  }
  mlir::Value map = fields[kDescTensorMap].getValue();
  auto type = mlir::RankedTensorType::get(block, elt);
  if (!store)
    return runtime(TensorMapLoadOp::create(builder, l, type, map, coords),
                   base.isUnsigned());
  if (Error err = checkWritable(base.getValue(), store->expr(0), "store"))
    return std::move(err);
  Expected<mlir::Value> v = toRuntimeAs(store->get(2), elt, store->expr(2));
  if (!v)
    return v.takeError();
  Expected<mlir::Value> vb = broadcastTo(*v, block, site(store->expr(2)));
  if (!vb)
    return vb.takeError();
  TensorMapStoreOp::create(builder, l, map, coords, *vb);
  return SemaValue::getNone();
}

Expected<SemaValue> Generator::genBlockPtrBuiltin(llvm::StringRef name,
                                                  CallArgs &args,
                                                  const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  if (name == "make_block_ptr" || name == "make_tensor_descriptor") {
    bool isDesc = name == "make_tensor_descriptor";
    Expected<BoundArgs> b = isDesc
                                ? bindArgs(name, args, call,
                                           {"base", "shape", "strides",
                                            "block_shape", "padding_option",
                                            "_tensor_map"},
                                           4)
                                : bindArgs(name, args, call,
                                           {"base", "shape", "strides",
                                            "offsets", "block_shape", "order"},
                                           6);
    if (!b)
      return b.takeError();
    const SemaValue &base = b->get(0);
    if (!base.isRuntime() || base.isTensor() ||
        !llvm::isa<PointerType>(base.getType()))
      return error(b->expr(0), name + " needs a scalar pointer base, got " +
                                   base.describe());
    Expected<std::vector<SemaValue>> blockShape =
        getBlockShape(*this, *b, isDesc ? 3 : 4);
    if (!blockShape)
      return blockShape.takeError();
    size_t rank = blockShape->size();
    Expected<std::vector<SemaValue>> shape =
        getTupleArg(*this, *b, 1, "shape", rank);
    if (!shape)
      return shape.takeError();
    Expected<std::vector<SemaValue>> strides =
        getTupleArg(*this, *b, 2, "strides", rank);
    if (!strides)
      return strides.takeError();
    if (isDesc) {
      SemaValue padding = b->has(4) ? b->get(4) : SemaValue::getString("zero");
      mlir::Type elt = llvm::cast<PointerType>(base.getType()).getPointeeType();
      if (Error err = getPadding(*this, padding, b->expr(4), elt).takeError())
        return std::move(err);
      // mgp.jit's TMA descriptors: the host encoded a CUtensorMap of this
      // base, shape, strides, block shape and padding (docs/python.md).
      SemaValue tensorMap = b->has(5) ? b->get(5) : SemaValue::getNone();
      if (!tensorMap.isNone() &&
          (!tensorMap.isRuntime() || tensorMap.isTensor() ||
           !llvm::isa<PointerType>(tensorMap.getType())))
        return error(b->expr(5), "_tensor_map needs a scalar pointer (the "
                                 "device address of a CUtensorMap), got " +
                                     tensorMap.describe());
      return SemaValue::getCompound(
          kTensorDescTag,
          {base, SemaValue::getTuple(*shape), SemaValue::getTuple(*strides),
           SemaValue::getTuple(*blockShape), padding, tensorMap});
    }
    Expected<std::vector<SemaValue>> offsets =
        getTupleArg(*this, *b, 3, "offsets", rank);
    if (!offsets)
      return offsets.takeError();
    return SemaValue::getCompound(
        kBlockPtrTag,
        {base, SemaValue::getTuple(*shape), SemaValue::getTuple(*strides),
         SemaValue::getTuple(*offsets), SemaValue::getTuple(*blockShape),
         b->get(5)});
  }
  if (name == "advance") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"base", "offsets"}, 2);
    if (!b)
      return b.takeError();
    if (b->get(0).getTag() != kBlockPtrTag)
      return error(b->expr(0), "advance needs a block pointer, got " +
                                   b->get(0).describe());
    std::vector<SemaValue> fields = b->get(0).getElements();
    std::vector<SemaValue> offsets = fields[kOffsets].getElements();
    Expected<std::vector<SemaValue>> delta =
        getTupleArg(*this, *b, 1, "offsets", offsets.size());
    if (!delta)
      return delta.takeError();
    for (size_t d = 0; d < offsets.size(); ++d) {
      Expected<SemaValue> sum =
          binaryOp(ast::BinaryOp::Add, offsets[d], (*delta)[d], site(call));
      if (!sum)
        return sum.takeError();
      offsets[d] = *sum;
    }
    fields[kOffsets] = SemaValue::getTuple(std::move(offsets));
    return SemaValue::getCompound(kBlockPtrTag, std::move(fields));
  }
  if (name.consume_front("descriptor_")) {
    // desc.atomic_add(offsets, value) and friends: the atomic on each element
    // of the block inside the descriptor's shape (TMA's reduction).
    Expected<BoundArgs> b =
        bindArgs(name, args, call, {"desc", "offsets", "value"}, 3);
    if (!b)
      return b.takeError();
    const SemaValue &desc = b->get(0);
    if (desc.getTag() != kTensorDescTag)
      return error(b->expr(0),
                   name + " needs a tensor descriptor, got " + desc.describe());
    const std::vector<SemaValue> &fields = desc.getElements();
    std::vector<SemaValue> blockShape = fields[kDescBlockShape].getElements();
    Expected<std::vector<SemaValue>> offsets =
        getTupleArg(*this, *b, 1, "offsets", blockShape.size());
    if (!offsets)
      return offsets.takeError();
    llvm::SmallVector<int64_t> checked;
    for (size_t d = 0; d < blockShape.size(); ++d)
      checked.push_back(d);
    mlir::Value mask;
    Expected<SemaValue> ptrs = blockAccess(
        fields[kDescBase], fields[kDescShape].getElements(),
        fields[kDescStrides].getElements(), *offsets, blockShape, checked,
        call, mask);
    if (!ptrs)
      return ptrs.takeError();
    // Triton's element types for TMA reductions (semantic.py).
    const SemaValue &base = fields[kDescBase];
    mlir::Type elt =
        llvm::cast<PointerType>(base.getType()).getPointeeType();
    bool u = base.isUnsigned();
    unsigned bits = elt.getIntOrFloatBitWidth();
    bool isInt32or64 = elt.isInteger() && (bits == 32 || bits == 64);
    bool ok = name == "atomic_add"
                  ? (elt.isInteger(32) || (u && bits == 64) || elt.isF32() ||
                     elt.isF16() || elt.isBF16())
              : name == "atomic_min" || name == "atomic_max"
                  ? (isInt32or64 || elt.isF16() || elt.isBF16())
                  : isInt32or64;
    if (!ok)
      return error(b->expr(0), "desc." + name + " does not support " +
                                   (u ? "u" : "") + getTypeName(elt) +
                                   " elements (Triton's descriptor "
                                   "reductions: Unsupported dtype)");
    CallArgs atomic;
    atomic.args = {ptrs->withUnsigned(u), b->get(2),
                   mask ? runtime(mask) : SemaValue::getNone(),
                   SemaValue::getString("relaxed")};
    atomic.argExprs = {&b->expr(0), &b->expr(2), &b->expr(1), &b->expr(0)};
    Expected<SemaValue> old = genAtomicBuiltin(name, atomic, call,
                                               /*halfMinMax=*/true);
    if (!old)
      return old.takeError();
    return SemaValue::getNone();
  }
  // Loads and stores through a descriptor (or a block pointer, from
  // tl.load / tl.store).
  bool isStore = name == "store_tensor_descriptor" || name == "store";
  bool viaDesc =
      name == "load_tensor_descriptor" || name == "store_tensor_descriptor";
  Expected<BoundArgs> b =
      viaDesc
          ? (isStore
                 ? bindArgs(name, args, call, {"desc", "offsets", "value"}, 3)
                 : bindArgs(name, args, call, {"desc", "offsets"}, 2))
          : (isStore ? bindArgs(name, args, call,
                                {"pointer", "value", "mask", "boundary_check",
                                 "cache_modifier", "eviction_policy"},
                                2)
                     : bindArgs(name, args, call,
                                {"pointer", "mask", "other", "boundary_check",
                                 "padding_option", "cache_modifier",
                                 "eviction_policy", "volatile"},
                                1));
  if (!b)
    return b.takeError();
  const SemaValue &target = b->get(0);
  if (target.getTag() != (viaDesc ? kTensorDescTag : kBlockPtrTag))
    return error(b->expr(0),
                 name + " needs a " +
                     (viaDesc ? "tensor descriptor" : "block pointer") +
                     ", got " + target.describe());
  const std::vector<SemaValue> &fields = target.getElements();
  const SemaValue &base = fields[0];
  std::vector<SemaValue> shape = fields[1].getElements();
  std::vector<SemaValue> strides = fields[2].getElements();
  std::vector<SemaValue> blockShape =
      fields[viaDesc ? unsigned(kDescBlockShape) : unsigned(kBlockShape)]
          .getElements();
  size_t rank = blockShape.size();
  std::vector<SemaValue> offsets;
  llvm::SmallVector<int64_t> checked;
  SemaValue padding = SemaValue::getNone();
  if (viaDesc) {
    Expected<std::vector<SemaValue>> o =
        getTupleArg(*this, *b, 1, "offsets", rank);
    if (!o)
      return o.takeError();
    offsets = *o;
    for (size_t d = 0; d < rank; ++d)
      checked.push_back(d);
    padding = fields[kDescPadding];
  } else {
    offsets = fields[kOffsets].getElements();
    if (b->has(isStore ? 2 : 1) || (!isStore && b->has(2)))
      return error(call, "a load or store through a block pointer takes no "
                         "mask or other: use boundary_check");
    Expected<llvm::SmallVector<int64_t>> dims =
        getBoundaryCheck(*this, *b, 3, rank);
    if (!dims)
      return dims.takeError();
    checked = *dims;
    if (!isStore && b->has(4))
      padding = b->get(4);
  }
  auto maskedAccess = [&]() -> Expected<SemaValue> {
    mlir::Value mask;
    Expected<SemaValue> ptrs = blockAccess(base, shape, strides, offsets,
                                           blockShape, checked, call, mask);
    if (!ptrs)
      return ptrs.takeError();
    mlir::Value p = ptrs->getValue();
    mlir::Type elt =
        llvm::cast<PointerType>(getElementType(p.getType())).getPointeeType();
    if (isStore) {
      // A block pointer or descriptor made from a tl.const pointer is read-only.
      if (Error err = checkWritable(p, b->expr(0), "store"))
        return std::move(err);
      unsigned valueIdx = viaDesc ? 2 : 1;
      Expected<mlir::Value> v =
          toRuntimeAs(b->get(valueIdx), elt, b->expr(valueIdx));
      if (!v)
        return v.takeError();
      Expected<mlir::Value> vb =
          broadcastTo(*v, getLogicalShape(p), site(b->expr(valueIdx)));
      if (!vb)
        return vb.takeError();
      StoreOp::create(builder, l, p, *vb, mask);
      return SemaValue::getNone();
    }
    mlir::Value other;
    if (mask) {
      Expected<SemaValue> pad = getPadding(*this, padding, call, elt);
      if (!pad)
        return pad.takeError();
      other = materializeSplat(*pad, elt, getShapeOf(p.getType()), l);
    }
    auto load = LoadOp::create(builder, l, p, mask, other);
    if (!viaDesc)
      if (Error err = setCacheModifier(*b, 5, load))
        return std::move(err);
    return runtime(load, base.isUnsigned());
  };
  if (!viaDesc || fields[kDescTensorMap].isNone())
    return maskedAccess();
  // Through the tensor map. TMA faults (an illegal instruction) on a block
  // whose innermost coordinate is not at a multiple of 16 bytes, and a TMA
  // store on one with a negative coordinate (loads take those): where that is
  // not known at compile time, a run-time test picks the masked access.
  mlir::Type elt = llvm::cast<PointerType>(base.getType()).getPointeeType();
  int64_t perChunk = 16 / std::max<int64_t>(elt.getIntOrFloatBitWidth() / 8, 1);
  const BoundArgs *store = isStore ? &*b : nullptr;
  mlir::Type i32 = builder.getI32Type();
  mlir::Value viaMap; // the run-time test, null when always true
  auto require = [&](mlir::Value test) {
    viaMap = viaMap ? mlir::arith::AndIOp::create(builder, l, viaMap, test)
                    : test;
  };
  auto zero = [&] {
    return mlir::arith::ConstantIntOp::create(builder, l, i32, 0);
  };
  if (!isKnownMultiple(offsets.back(), perChunk)) {
    Expected<mlir::Value> inner = toRuntimeAs(offsets.back(), i32, call);
    if (!inner)
      return inner.takeError();
    mlir::Value low = mlir::arith::AndIOp::create(
        builder, l, *inner,
        mlir::arith::ConstantIntOp::create(builder, l, i32, perChunk - 1));
    require(mlir::arith::CmpIOp::create(
        builder, l, mlir::arith::CmpIPredicate::eq, low, zero()));
  }
  for (const SemaValue &o : offsets) {
    if (!isStore || isKnownNonNegative(o))
      continue;
    Expected<mlir::Value> c = toRuntimeAs(o, i32, call);
    if (!c)
      return c.takeError();
    require(mlir::arith::CmpIOp::create(
        builder, l, mlir::arith::CmpIPredicate::sge, *c, zero()));
  }
  if (!viaMap)
    return tensorMapAccess(fields, offsets, store, call);
  llvm::SmallVector<mlir::Type> types;
  if (!isStore) {
    llvm::SmallVector<int64_t> block;
    for (const SemaValue &d : blockShape)
      block.push_back(d.getInt());
    types.push_back(mlir::RankedTensorType::get(block, elt));
  }
  auto ifOp = mlir::scf::IfOp::create(builder, l, types, viaMap,
                                      /*withElseRegion=*/true);
  bool isUnsigned = base.isUnsigned();
  auto branch = [&](mlir::Block *block, bool throughMap) -> Error {
    mlir::OpBuilder::InsertionGuard guard(builder);
    if (!block->empty() && block->back().hasTrait<mlir::OpTrait::IsTerminator>())
      block->back().erase();
    builder.setInsertionPointToEnd(block);
    Expected<SemaValue> v =
        throughMap ? tensorMapAccess(fields, offsets, store, call)
                   : maskedAccess();
    if (!v)
      return v.takeError();
    if (isStore)
      mlir::scf::YieldOp::create(builder, l);
    else
      mlir::scf::YieldOp::create(builder, l, v->getValue());
    return Error::success();
  };
  if (Error err = branch(&ifOp.getThenRegion().front(), true))
    return std::move(err);
  if (Error err = branch(&ifOp.getElseRegion().front(), false))
    return std::move(err);
  if (isStore)
    return SemaValue::getNone();
  return runtime(ifOp.getResult(0), isUnsigned);
}
