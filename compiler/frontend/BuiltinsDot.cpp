//===- BuiltinsDot.cpp - tl.dot --------------------------------------------===//
//
// This file implements `dot(a, b, acc=None, input_precision=, allow_tf32=,
// max_num_imprecise_acc=, out_dtype=)`: on 2-D blocks one mgp.dot with an
// fp32 (fp64, int32) accumulator, zeros when `acc` is absent, or several for
// the split-precision fp32 algorithms "tf32x3", "bf16x3" and "bf16x6"; a
// padded K (MLIRGenPadding.cpp) is zeroed in both operands. On 3-D blocks
// [B, M, K] @ [B, K, N] (Triton's batched dot) one 2-D dot per batch: the
// operands are cut into their B matrices along axis 0 exactly (a one-hot
// select of their bits, summed) and the results stacked back the same way.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

/// Triton's `input_precision` values for fp32 operands.
static constexpr llvm::StringLiteral kInputPrecisions[] = {
    "tf32", "tf32x3", "ieee", "bf16x3", "bf16x6"};

/// The fp32 dot `a @ b + acc` from products of narrower parts, Triton's
/// split-precision algorithms: "tf32x3" splits x = big + small with big
/// rounded to tf32 (cvt.rna: ties away from zero) and adds the tf32 products
/// small*big + big*small, then big*big (3xTF32, CUTLASS's trick); "bf16x3"
/// and "bf16x6" split x = hi + mid (+ lo) into bf16 parts (round to nearest
/// even) and add 3 or 6 bf16 products, smallest first. A NaN in the sum of
/// the small products (inf * 0 from a part that is zero) becomes 0 before the
/// large product is added; `acc` is added last. The products and their order
/// are Triton's, so the result rounds as Triton's does.
static mlir::Value splitPrecisionDot(Generator &g, mlir::Value a,
                                     mlir::Value b, mlir::Value acc,
                                     llvm::StringRef precision,
                                     llvm::ArrayRef<int64_t> shape,
                                     mlir::Location l) {
  mlir::OpBuilder &bd = g.builder;
  mlir::Type f32 = bd.getF32Type(), i32 = bd.getI32Type();
  auto splatLike = [&](mlir::Value like, mlir::Type elt, int64_t bits) {
    return g.materializeSplat(SemaValue::getInt(bits), elt,
                              getShapeOf(like.getType()), l);
  };
  auto withElement = [](mlir::Value v, mlir::Type elt) {
    return llvm::cast<mlir::RankedTensorType>(v.getType()).clone(elt);
  };
  auto zero = [&]() {
    return g.setLogicalShape(g.materializeSplat(SemaValue::getInt(0), f32,
                                                padShape(shape), l),
                             shape);
  };
  auto dot = [&](mlir::Value x, mlir::Value y, mlir::Value c,
                 InputPrecision p) {
    return DotOp::create(bd, l, x, y, c, p).getResult();
  };
  // NaN partial sums become zeros (Triton's replaceNansWithZeros).
  auto dropNaN = [&](mlir::Value v) -> mlir::Value {
    mlir::Value nan = mlir::arith::CmpFOp::create(
        bd, l, mlir::arith::CmpFPredicate::UNO, v, v);
    return mlir::arith::SelectOp::create(bd, l, nan, zero(), v);
  };
  mlir::Value sum;
  if (precision == "tf32x3") {
    // big = x rounded to tf32 on its bits ((bits + 0x1000) & ~0x1fff, which
    // is cvt.rna.tf32.f32 for finite values and infinities); NaN stays NaN.
    auto split = [&](mlir::Value x) -> std::pair<mlir::Value, mlir::Value> {
      mlir::Value bits =
          mlir::arith::BitcastOp::create(bd, l, withElement(x, i32), x);
      bits = mlir::arith::AddIOp::create(bd, l, bits,
                                         splatLike(x, i32, 0x1000));
      bits = mlir::arith::AndIOp::create(
          bd, l, bits, splatLike(x, i32, static_cast<int32_t>(0xffffe000u)));
      mlir::Value big =
          mlir::arith::BitcastOp::create(bd, l, withElement(x, f32), bits);
      mlir::Value nan = mlir::arith::CmpFOp::create(
          bd, l, mlir::arith::CmpFPredicate::UNO, x, x);
      big = mlir::arith::SelectOp::create(bd, l, nan, x, big);
      return {big, mlir::arith::SubFOp::create(bd, l, x, big)};
    };
    auto [aBig, aSmall] = split(a);
    auto [bBig, bSmall] = split(b);
    sum = dot(aSmall, bBig, zero(), InputPrecision::TF32);
    sum = dot(aBig, bSmall, sum, InputPrecision::TF32);
    sum = dot(aBig, bBig, dropNaN(sum), InputPrecision::TF32);
  } else {
    // x = hi + mid (+ lo), each part x minus the parts before, in bf16.
    unsigned n = precision == "bf16x6" ? 3 : 2;
    auto split = [&](mlir::Value x) {
      llvm::SmallVector<mlir::Value, 3> parts;
      for (unsigned i = 0; i < n; ++i) {
        mlir::Value part = g.castTo(x, bd.getBF16Type(), l);
        if (i + 1 < n)
          x = mlir::arith::SubFOp::create(bd, l, x, g.castTo(part, f32, l));
        parts.push_back(part);
      }
      return parts;
    };
    llvm::SmallVector<mlir::Value, 3> pa = split(a), pb = split(b);
    enum { Hi, Mid, Lo };
    sum = zero();
    if (n == 3) {
      sum = dot(pa[Mid], pb[Mid], sum, InputPrecision::IEEE);
      sum = dot(pa[Lo], pb[Hi], sum, InputPrecision::IEEE);
      sum = dot(pa[Hi], pb[Lo], sum, InputPrecision::IEEE);
    }
    sum = dot(pa[Mid], pb[Hi], sum, InputPrecision::IEEE);
    sum = dot(pa[Hi], pb[Mid], sum, InputPrecision::IEEE);
    sum = dot(pa[Hi], pb[Hi], dropNaN(sum), InputPrecision::IEEE);
  }
  return mlir::arith::AddFOp::create(bd, l, sum, acc);
}

static Expected<SemaValue> genDot2D(Generator &g, CallArgs &args,
                                    const ast::CallExpr &call) {
  Expected<BoundArgs> b =
      g.bindArgs("dot", args, call,
                 {"input", "other", "acc", "input_precision", "allow_tf32",
                  "max_num_imprecise_acc", "out_dtype"},
                 2);
  if (!b)
    return b.takeError();
  mlir::Value ops[2];
  // The operands' element type as written (before widening).
  mlir::Type given = b->get(0).isTensor()
                         ? getElementType(b->get(0).getType())
                         : mlir::Type();
  for (unsigned i = 0; i < 2; ++i) {
    const SemaValue &v = b->get(i);
    if (!v.isTensor() || getShapeOf(v.getType()).size() != 2 ||
        !getElementType(v.getType()).isIntOrFloat())
      return g.error(b->expr(i), "dot operands must be 2-D (or, both, 3-D) "
                                 "blocks of numbers, got " +
                                     v.describe());
    mlir::Type elt = getElementType(v.getType());
    if (elt.isInteger(1) || elt.isInteger(64))
      return g.error(b->expr(i), "dot operands must be 8-, 16- or 32-bit "
                                 "integers or floats, got " +
                                     getTypeName(elt));
    ops[i] = v.getValue();
  }
  // Integer dots accumulate in int32 (Triton's int8 dot). Two signed int8
  // operands stay int8: mgp.dot takes them as signed bytes, which run on
  // tensor cores (mma.sync / wgmma .s8). Other narrower operands widen to
  // int32 first, by their signedness.
  bool signedBytes = given.isInteger(8) &&
                     getElementType(b->get(1).getType()).isInteger(8) &&
                     !b->get(0).isUnsigned() && !b->get(1).isUnsigned();
  for (unsigned i = 0; i < 2; ++i) {
    mlir::Type elt = getElementType(ops[i].getType());
    if (elt.isInteger() && !elt.isInteger(32) && !signedBytes)
      ops[i] = g.castTo(ops[i], g.builder.getI32Type(), g.loc(b->expr(i)),
                        b->get(i).isUnsigned());
  }
  // Logical shapes (MLIRGenPadding.cpp); the MLIR ones are padded.
  llvm::SmallVector<int64_t> sa = g.getLogicalShape(ops[0]),
                             sb = g.getLogicalShape(ops[1]);
  if (sa[1] != sb[0])
    return g.error(call, "dot: the inner dimensions differ: " +
                             describeShape(sa) + " @ " + describeShape(sb));
  llvm::ArrayRef<int64_t> pa = getShapeOf(ops[0].getType()),
                          pb = getShapeOf(ops[1].getType());
  for (int64_t d : {pa[0], pa[1], pb[1]})
    if (d < 16)
      return g.error(call, "dot needs every dimension >= 16, got " +
                               describeShape(sa) + " @ " + describeShape(sb));
  // Integer and fp64 dots run on CUDA cores, each thread's share of the
  // M x N x K multiply-adds unrolled: refuse what would compile for minutes.
  mlir::Type opElt = getElementType(ops[0].getType());
  // Signed int8 blocks of tensor-core tiles (M % 16, N % 8, K % 32) take
  // mma.sync or wgmma on sm_80 and later.
  bool tensorCoreBytes = signedBytes && pa[0] % 16 == 0 && pb[1] % 8 == 0 &&
                         pa[1] % 32 == 0;
  if ((opElt.isInteger() && !tensorCoreBytes) || opElt.isF64()) {
    int64_t macs = pa[0] * pb[1] * pa[1];
    auto perThread = [&](int warps) { return (macs + 32 * warps - 1) / (32 * warps); };
    int warps = g.genOptions.numWarps;
    if (perThread(warps) > Generator::kFmaDotBudget) {
      std::string hint = g.warpsHint(perThread, Generator::kFmaDotBudget);
      return g.error(call, "a dot of " + describeShape(sa) + " @ " +
                               describeShape(sb) + " of " +
                               (b->get(0).isUnsigned() ? "u" : "") +
                               getTypeName(given) +
                               " runs on CUDA cores and unrolls " +
                               std::to_string(perThread(warps)) +
                               " multiply-adds per thread at num_warps=" +
                               std::to_string(warps) +
                               ", more than mgp's budget of " +
                               std::to_string(Generator::kFmaDotBudget) +
                               "; " + hint);
    }
  }
  // fp8 operands: exactly representable in fp16, whose dot accumulates in
  // fp32 like an fp8 one.
  for (mlir::Value &op : ops)
    if (isFp8Type(getElementType(op.getType())))
      op = g.castTo(op, g.builder.getF16Type(), g.loc(call));
  mlir::Type ea = getElementType(ops[0].getType()),
             eb = getElementType(ops[1].getType());
  if (ea != eb)
    return g.error(call, "dot operands must have the same element type, got " +
                             getTypeName(ea) + " and " + getTypeName(eb));
  mlir::Type accType = ea.isF64() || ea.isInteger(32) ? ea
                       : ea.isInteger(8) ? g.builder.getI32Type()
                                         : mlir::Type(g.builder.getF32Type());
  llvm::SmallVector<int64_t> shape = {sa[0], sb[1]};
  mlir::Location l = g.loc(call);
  // out_dtype: the result's type for fp16 and fp8 operands. The product
  // accumulates in accType (fp32, fp64 or int32) and converts to out_dtype
  // (an fp16 out_dtype rounds once at the end, where Triton's tensor cores
  // accumulate in fp16). As in Triton, integer operands give int32, fp32 and
  // bf16 ones fp32 and fp64 ones fp64 whatever out_dtype says (any integer
  // for integer operands; any dtype but bf16 for fp32, bf16 and fp64 ones;
  // a float for fp16 and fp8 ones).
  mlir::Type outType = accType;
  if (b->has(6) && !b->get(6).isNone()) {
    const SemaValue &o = b->get(6);
    bool outIsResult = given.isF16() || isFp8Type(given);
    bool ok = o.isDType() &&
              (accType.isInteger() ? o.getType().isInteger() &&
                                         !o.getType().isInteger(1)
               : outIsResult ? llvm::isa<mlir::FloatType>(o.getType())
                             : o.getType().isIntOrFloat());
    if (!ok)
      return g.error(b->expr(6),
                     "out_dtype must be " +
                         std::string(accType.isInteger()
                                         ? "an integer type"
                                         : "a floating-point type") +
                         " for " + getTypeName(ea) + " operands, got " +
                         o.describe());
    if (o.getType().isBF16() && !accType.isInteger())
      return g.error(b->expr(6),
                     "out_dtype=bfloat16 is unsupported. Please use "
                     "out_dtype=float32/float16 and cast with "
                     "`.to(tl.bfloat16)`");
    if (outIsResult)
      outType = o.getType();
  }
  mlir::Value acc;
  if (b->has(2) && !b->get(2).isNone()) {
    const SemaValue &c = b->get(2);
    mlir::Type ct = c.isTensor() ? getElementType(c.getType()) : mlir::Type();
    if (!c.isTensor() ||
        getShapeOf(c.getLogicalType()) != llvm::ArrayRef(shape) ||
        (ct != accType && ct != outType))
      return g.error(b->expr(2), "dot accumulator must be a " +
                                     describeType(mlir::RankedTensorType::get(
                                         shape, outType)) +
                                     " block, got " + c.describe());
    acc = g.castTo(c.getValue(), accType, l);
  } else {
    acc = g.setLogicalShape(
        g.materializeSplat(SemaValue::getInt(0), accType, padShape(shape), l),
        shape);
  }
  // A padded K must add nothing: zero the padding of both operands.
  if (pa[1] != sa[1])
    for (mlir::Value &op : ops)
      op = g.fillPadding(op, SemaValue::getInt(0), l);
  std::string precision = "tf32";
  if (b->has(4) && !b->get(4).isTruthy())
    precision = "ieee";
  if (b->has(3) && !b->get(3).isNone()) {
    const SemaValue &p = b->get(3);
    std::string name = p.isString() ? p.getString().lower() : "";
    if (!llvm::is_contained(kInputPrecisions, name))
      return g.error(b->expr(3), "input_precision must be one of \"tf32\", "
                                 "\"tf32x3\", \"ieee\", \"bf16x3\" or "
                                 "\"bf16x6\", got " +
                                     p.describe());
    precision = name;
  }
  mlir::Value d;
  if (ea.isF32() && precision != "tf32" && precision != "ieee")
    d = splitPrecisionDot(g, ops[0], ops[1], acc, precision, shape, l);
  else
    d = DotOp::create(g.builder, l, ops[0], ops[1], acc,
                      precision == "ieee" ? InputPrecision::IEEE
                                          : InputPrecision::TF32);
  return g.runtime(g.castTo(d, outType, l));
}

static bool isBlockOfRank(const SemaValue &v, size_t rank) {
  return v.isTensor() && getShapeOf(v.getLogicalType()).size() == rank;
}

Expected<SemaValue> Generator::genDotBuiltin(CallArgs &args,
                                             const ast::CallExpr &call) {
  if (args.args.size() < 2 || !isBlockOfRank(args.args[0], 3) ||
      !isBlockOfRank(args.args[1], 3))
    return genDot2D(*this, args, call);
  // [B, M, K] @ [B, K, N] (+ acc [B, M, N]): one 2-D dot per batch, with the
  // call's other arguments.
  llvm::SmallVector<int64_t> sa(getShapeOf(args.args[0].getLogicalType())),
      sb(getShapeOf(args.args[1].getLogicalType()));
  if (sa[0] != sb[0])
    return error(call, "dot: the batch dimensions differ: " +
                           describeShape(sa) + " @ " + describeShape(sb));
  // acc: the third positional argument or a keyword one.
  std::optional<size_t> accKeyword;
  for (size_t i = 0; i < args.keywords.size(); ++i)
    if (args.keywords[i]->name == "acc")
      accKeyword = i;
  const SemaValue *acc = accKeyword             ? &args.keywordValues[*accKeyword]
                         : args.args.size() > 2 ? &args.args[2]
                                                : nullptr;
  if (acc && acc->isNone())
    acc = nullptr;
  if (acc && !(isBlockOfRank(*acc, 3) &&
               getShapeOf(acc->getLogicalType()) ==
                   llvm::ArrayRef<int64_t>({sa[0], sa[1], sb[2]})))
    return error(call, "a batched dot's accumulator must be a [" +
                           llvm::Twine(sa[0]) + ", " + llvm::Twine(sa[1]) +
                           ", " + llvm::Twine(sb[2]) + "] block, got " +
                           acc->describe());
  // The batch's matrices, cut out along axis 0 exactly (no layout of the
  // block changes: the matrices keep the distribution of their batch).
  auto batch = [&](const SemaValue &v, int64_t i) -> Expected<SemaValue> {
    for (int64_t d : getShapeOf(v.getLogicalType()))
      if (!llvm::isPowerOf2_64(d))
        return error(call, "a batched dot needs power-of-two dimensions, got " +
                               describeShape(getShapeOf(v.getLogicalType())));
    if (sa[0] == 1)
      return runtime(ReshapeOp::create(
          builder, loc(call),
          mlir::RankedTensorType::get(getShapeOf(v.getType()).drop_front(),
                                      getElementType(v.getType())),
          v.getValue()));
    return runtime(takeAlong(v.getValue(), 0, i, loc(call)), v.isUnsigned());
  };
  std::vector<mlir::Value> results;
  bool isUnsigned = false;
  for (int64_t i = 0; i < sa[0]; ++i) {
    CallArgs one = args;
    for (unsigned k = 0; k < 2; ++k) {
      Expected<SemaValue> m = batch(args.args[k], i);
      if (!m)
        return m.takeError();
      one.args[k] = *m;
    }
    if (acc) {
      Expected<SemaValue> m = batch(*acc, i);
      if (!m)
        return m.takeError();
      (accKeyword ? one.keywordValues[*accKeyword] : one.args[2]) = *m;
    }
    Expected<SemaValue> d = genDot2D(*this, one, call);
    if (!d)
      return d.takeError();
    results.push_back(d->getValue());
    isUnsigned = d->isUnsigned();
  }
  if (results.size() == 1) {
    mlir::Value r = results[0];
    llvm::SmallVector<int64_t> shape(getShapeOf(r.getType()));
    shape.insert(shape.begin(), 1);
    return runtime(ReshapeOp::create(
                       builder, loc(call),
                       mlir::RankedTensorType::get(shape,
                                                   getElementType(r.getType())),
                       r),
                   isUnsigned);
  }
  return runtime(stackLeading(results, loc(call)), isUnsigned);
}

/// The element type an operand of format `fmt` may have: the format's own
/// type, or the unsigned integer of its width (bitcast), uint8 for e2m1.
static bool fitsScaledFormat(const SemaValue &v, llvm::StringRef fmt) {
  mlir::Type t = getElementType(v.getType());
  if (fmt == "e2m1")
    return t.isInteger(8) && v.isUnsigned();
  if (fmt == "e4m3")
    return llvm::isa<mlir::Float8E4M3FNType>(t) ||
           (t.isInteger(8) && v.isUnsigned());
  if (fmt == "e5m2")
    return llvm::isa<mlir::Float8E5M2Type>(t) ||
           (t.isInteger(8) && v.isUnsigned());
  if (fmt == "bf16")
    return t.isBF16() || (t.isInteger(16) && v.isUnsigned());
  return t.isF16() || (t.isInteger(16) && v.isUnsigned());
}

Expected<SemaValue> Generator::genDotScaled(CallArgs &args,
                                            const ast::CallExpr &call) {
  Expected<BoundArgs> b = bindArgs(
      "dot_scaled", args, call,
      {"lhs", "lhs_scale", "lhs_format", "rhs", "rhs_scale", "rhs_format",
       "acc", "fast_math", "lhs_k_pack", "rhs_k_pack", "out_dtype"},
      6);
  if (!b)
    return b.takeError();
  enum { kLhs = 0, kLhsScale, kLhsFmt, kRhs, kRhsScale, kRhsFmt, kAcc, kFast,
         kLhsPack, kRhsPack, kOut };
  static constexpr unsigned kFmtArgs[] = {kLhsFmt, kRhsFmt},
                            kPackArgs[] = {kLhsPack, kRhsPack},
                            kOperandArgs[] = {kLhs, kRhs},
                            kScaleArgs[] = {kLhsScale, kRhsScale};
  // Formats: constant strings of Triton's set.
  std::string fmts[2];
  for (auto [i, at] : llvm::enumerate(kFmtArgs)) {
    const SemaValue &f = b->get(at);
    fmts[i] = f.isString() ? f.getString().str() : "";
    if (!llvm::is_contained({"e2m1", "e4m3", "e5m2", "bf16", "fp16"},
                            llvm::StringRef(fmts[i])))
      return error(b->expr(at), "dot_scaled formats are \"e2m1\", \"e4m3\", "
                                "\"e5m2\", \"bf16\" or \"fp16\", got " +
                                    f.describe());
  }
  // e4m3 operands and fp8 scales need fp8 conversions (sm_89 on; Triton
  // rejects float8e4nv before).
  int capability = genOptions.computeCapability;
  if (capability != 0 && capability < 89)
    for (auto [i, at] : llvm::enumerate(kFmtArgs))
      if (fmts[i] == "e4m3")
        return error(b->expr(at),
                     "dot_scaled's \"e4m3\" format needs sm_89 or newer "
                     "(compiling for sm_" +
                         llvm::Twine(capability) +
                         "): older GPUs have no e4m3 conversions");
  bool kPack[2] = {true, true};
  for (auto [i, at] : llvm::enumerate(kPackArgs)) {
    if (!b->has(at))
      continue;
    const SemaValue &p = b->get(at);
    if (!p.isConstNumber())
      return error(b->expr(at), "dot_scaled's k_pack must be a constant, got " +
                                    p.describe());
    kPack[i] = p.isTruthy();
    if (!kPack[i] && fmts[i] != "e2m1")
      return error(b->expr(at), "only e2m1 (mxfp4) operands can be packed "
                                "along a dimension other than K");
  }
  // Operands: 2-D blocks of their format's type, or 3-D ones (a batch of
  // matrices, the same batch on both sides).
  int64_t dims[2][2];
  unsigned rank = isBlockOfRank(b->get(kLhs), 3) ? 3 : 2;
  int64_t batch = 0;
  for (auto [i, at] : llvm::enumerate(kOperandArgs)) {
    const SemaValue &v = b->get(at);
    if (!isBlockOfRank(v, rank) || !fitsScaledFormat(v, fmts[i]))
      return error(b->expr(at),
                   "a dot_scaled operand of format \"" + fmts[i] +
                       "\" must be a " + (rank == 3 ? "3-D" : "2-D") +
                       " block of " +
                       (fmts[i] == "e2m1"   ? "uint8 (two e2m1 values a byte)"
                        : fmts[i] == "e4m3" ? "float8e4nv or uint8"
                        : fmts[i] == "e5m2" ? "float8e5 or uint8"
                        : fmts[i] == "bf16" ? "bfloat16 or uint16"
                                            : "float16 or uint16") +
                       (i == 1 && !isBlockOfRank(v, rank) &&
                                (isBlockOfRank(v, 2) || isBlockOfRank(v, 3))
                            ? " (as the lhs)"
                            : "") +
                       ", got " + v.describe());
    auto shape = getShapeOf(v.getLogicalType());
    if (rank == 3) {
      if (i == 1 && shape[0] != batch)
        return error(b->expr(at), "a batched dot_scaled needs the same batch "
                                  "on both sides: the lhs has " +
                                      llvm::Twine(batch) + ", the rhs " +
                                      llvm::Twine(shape[0]));
      batch = shape[0];
      shape = shape.drop_front();
    }
    dims[i][0] = shape[0];
    dims[i][1] = shape[1];
  }
  // Unpacked sizes: e2m1 doubles K (k_pack) or M / N.
  int64_t m = dims[0][0], kl = dims[0][1], kr = dims[1][0], n = dims[1][1];
  if (fmts[0] == "e2m1")
    (kPack[0] ? kl : m) *= 2;
  if (fmts[1] == "e2m1")
    (kPack[1] ? kr : n) *= 2;
  if (kl != kr)
    return error(call, "dot_scaled: the operands hold " + llvm::Twine(kl) +
                           " and " + llvm::Twine(kr) +
                           " elements along K (e2m1 packs two a byte)");
  int64_t k = kl;
  if (m < 16 || n < 16 || k < 16)
    return error(call, "dot_scaled needs M, N and K >= 16, got M = " +
                           llvm::Twine(m) + ", N = " + llvm::Twine(n) +
                           ", K = " + llvm::Twine(k));
  // Scales: None, or [M, K / 32] (lhs) / [N, K / 32] (rhs) of uint8 (e8m0),
  // [.., K / 16] of float8e4nv; [B, .., ..] for a batched dot_scaled.
  std::string batchDims = rank == 3 ? std::to_string(batch) + ", " : "";
  for (auto [i, at] : llvm::enumerate(kScaleArgs)) {
    const SemaValue &s = b->get(at);
    if (s.isNone())
      continue;
    mlir::Type t = s.isTensor() ? getElementType(s.getType()) : mlir::Type();
    bool e8m0 = t && t.isInteger(8) && s.isUnsigned();
    bool fp8 = t && llvm::isa<mlir::Float8E4M3FNType>(t);
    int64_t group = fp8 ? 16 : 32;
    int64_t rows = i == 0 ? m : n;
    llvm::SmallVector<int64_t, 3> want;
    if (rank == 3)
      want.push_back(batch);
    want.append({rows, k / group});
    if (!isBlockOfRank(s, rank) || !(e8m0 || fp8) || k % group != 0 ||
        getShapeOf(s.getLogicalType()) != llvm::ArrayRef<int64_t>(want))
      return error(b->expr(at),
                   std::string(i == 0 ? "lhs" : "rhs") +
                       "_scale must be None or a [" + batchDims +
                       std::to_string(rows) + ", " +
                       std::to_string(k / group) + "] block of uint8 " +
                       "(e8m0, one scale per 32 elements of K) or [" +
                       batchDims + std::to_string(rows) + ", " +
                       std::to_string(k / 16) +
                       "] of float8e4nv (one per 16), got " + s.describe());
  }
  mlir::Type f32 = builder.getF32Type();
  mlir::Type out = f32;
  if (b->has(kOut) && !b->get(kOut).isNone()) {
    const SemaValue &o = b->get(kOut);
    if (!o.isDType() || !llvm::isa<mlir::FloatType>(o.getType()))
      return error(b->expr(kOut), "out_dtype must be a floating-point type, "
                                  "got " +
                                      o.describe());
    out = o.getType();
  }
  SemaValue acc = SemaValue::getNone();
  if (b->has(kAcc) && !b->get(kAcc).isNone()) {
    acc = b->get(kAcc);
    llvm::SmallVector<int64_t, 3> accShape;
    if (rank == 3)
      accShape.push_back(batch);
    accShape.append({m, n});
    if (!isBlockOfRank(acc, rank) ||
        getShapeOf(acc.getLogicalType()) != llvm::ArrayRef<int64_t>(accShape) ||
        getElementType(acc.getType()) != out)
      return error(b->expr(kAcc),
                   "dot_scaled's accumulator must be a " +
                       describeType(mlir::RankedTensorType::get(accShape, out)) +
                       " block (of out_dtype), got " + acc.describe());
  }
  bool fastMath = b->has(kFast) && b->get(kFast).isTruthy();
  mlir::Type compute = fmts[0] == "fp16" || fmts[1] == "fp16"
                           ? mlir::Type(builder.getF16Type())
                           : mlir::Type(builder.getBF16Type());
  CallArgs impl;
  impl.args = {b->get(kLhs),
               b->get(kLhsScale),
               b->get(kRhs),
               b->get(kRhsScale),
               acc,
               SemaValue::getString(fmts[0]),
               SemaValue::getString(fmts[1]),
               SemaValue::getDType(compute),
               SemaValue::getBool(fastMath),
               SemaValue::getBool(kPack[0]),
               SemaValue::getBool(kPack[1]),
               SemaValue::getDType(out)};
  impl.argExprs.assign(impl.args.size(), &call);
  return callPreludeFunction("_mx_dot_scaled", impl, call);
}
