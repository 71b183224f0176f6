//===- DotReduceOps.cpp - mgp.dot and mgp.reduce --------------------------===//
//
// This file implements the interpreter's two ops that combine elements:
// mgp.dot (d = a @ b + c, 2-D or batched 3-D; float inputs accumulate in fp32
// (f64 in f64), with f32 inputs rounded to tf32 when the dot asks for tf32 and
// the launch emulates it; integer inputs accumulate with wraparound) and
// mgp.reduce, whose combiner region runs over whole vectors: the reduced axis
// is halved at each step (a tree, like the GPU's shuffles), combining the
// first half with the second, so a combiner of n ops costs n block ops per
// step and log2(axis) steps in all; and mgp.scan, position by position along
// its axis with the combiner over all lines at once.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/InterpProgram.h"

#include "compiler/ir/MgpDialect.h"

#include <memory>

using namespace mgp;
using namespace mgp::interp;

static llvm::Expected<bool> compileDot(Compiler &c, mgp::DotOp dot,
                                       std::vector<Instr> &out) {
  mlir::Operation *op = dot;
  llvm::Expected<DType> inKind = elemKindOf(op, dot.getA().getType());
  llvm::Expected<DType> accKind = elemKindOf(op, dot.getD().getType());
  if (!inKind)
    return inKind.takeError();
  if (!accKind)
    return accKind.takeError();
  std::vector<int64_t> as = shapeOf(dot.getA().getType()),
                       bs = shapeOf(dot.getB().getType());
  if (as.size() != bs.size() || (as.size() != 2 && as.size() != 3))
    return opError(op, "the interpreter supports 2-D and batched 3-D dots");
  size_t r = as.size();
  int64_t batch = r == 3 ? as[0] : 1, m = as[r - 2], kDim = as[r - 1],
          n = bs[r - 1];
  int a = c.slot(dot.getA()), b = c.slot(dot.getB()), cs = c.slot(dot.getC()),
      d = c.slot(dot.getD());
  DType ik = *inKind, ak = *accKind;
  bool tf32 = dot.getInputPrecision() == mgp::InputPrecision::TF32 &&
              ik == DType::F32;
  if (!isFloatDType(ik)) {
    unsigned w = intWidth(ak);
    out.push_back([=](Frame &frame) {
      const std::vector<int64_t> &x = frame.slots[a].i, &y = frame.slots[b].i;
      std::vector<int64_t> &res = frame.slots[d].i;
      res = frame.slots[cs].i;
      for (int64_t q = 0; q < batch; ++q)
        for (int64_t i = 0; i < m; ++i)
          for (int64_t k = 0; k < kDim; ++k) {
            uint64_t xv = static_cast<uint64_t>(x[(q * m + i) * kDim + k]);
            for (int64_t j = 0; j < n; ++j) {
              int64_t &acc = res[(q * m + i) * n + j];
              acc = wrapSigned(static_cast<uint64_t>(acc) +
                                   xv * static_cast<uint64_t>(y[(q * kDim + k) * n + j]),
                               w);
            }
          }
      return true;
    });
    return true;
  }
  out.push_back([=](Frame &frame) {
    const std::vector<double> &x = frame.slots[a].f, &y = frame.slots[b].f,
                              &z = frame.slots[cs].f;
    std::vector<double> &res = frame.slots[d].f;
    res.resize(z.size());
    if (ak == DType::F64) {
      for (size_t e = 0; e < z.size(); ++e)
        res[e] = z[e];
      for (int64_t q = 0; q < batch; ++q)
        for (int64_t i = 0; i < m; ++i)
          for (int64_t k = 0; k < kDim; ++k) {
            double xv = x[(q * m + i) * kDim + k];
            for (int64_t j = 0; j < n; ++j)
              res[(q * m + i) * n + j] += xv * y[(q * kDim + k) * n + j];
          }
      return true;
    }
    bool round = tf32 && frame.emulateTF32;
    std::vector<float> fa(x.size()), fb(y.size()), acc(z.size());
    for (size_t e = 0; e < x.size(); ++e)
      fa[e] = round ? roundTF32(static_cast<float>(x[e])) : static_cast<float>(x[e]);
    for (size_t e = 0; e < y.size(); ++e)
      fb[e] = round ? roundTF32(static_cast<float>(y[e])) : static_cast<float>(y[e]);
    for (size_t e = 0; e < z.size(); ++e)
      acc[e] = static_cast<float>(z[e]);
    for (int64_t q = 0; q < batch; ++q)
      for (int64_t i = 0; i < m; ++i) {
        float *row = &acc[(q * m + i) * n];
        for (int64_t k = 0; k < kDim; ++k) {
          float xv = fa[(q * m + i) * kDim + k];
          const float *col = &fb[(q * kDim + k) * n];
          for (int64_t j = 0; j < n; ++j)
            row[j] += xv * col[j];
        }
      }
    for (size_t e = 0; e < z.size(); ++e)
      res[e] = roundTo(ak, acc[e]);
    return true;
  });
  return true;
}

/// Copies elements [from, from + count) of every (outer, inner) row of the
/// reduced axis (length \p len) of \p src into \p dst, laid out as
/// [outer, count, inner].
static void sliceAxis(const Buf &src, Buf &dst, bool isFloat, int64_t outer,
                      int64_t len, int64_t inner, int64_t from, int64_t count) {
  if (isFloat)
    dst.f.resize(outer * count * inner);
  else
    dst.i.resize(outer * count * inner);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t r = 0; r < count; ++r) {
      int64_t s = (o * len + from + r) * inner, t = (o * count + r) * inner;
      if (isFloat)
        std::copy_n(src.f.begin() + s, inner, dst.f.begin() + t);
      else
        std::copy_n(src.i.begin() + s, inner, dst.i.begin() + t);
    }
}

/// Combiner regions run over whole vectors: only element-wise ops qualify.
static llvm::Error checkCombiner(mlir::Region &region) {
  for (mlir::Operation &inner : region.front().without_terminator()) {
    llvm::StringRef name = inner.getName().getStringRef();
    if (!name.starts_with("arith.") && !name.starts_with("math.") &&
        !llvm::isa<mgp::ExternElementwiseOp>(inner))
      return opError(&inner, "the interpreter supports combiners made of "
                             "arith, math and libdevice ops only");
  }
  return llvm::Error::success();
}

/// Copies \p src (outer x count x inner) into positions [from, from+count)
/// of the axis of \p dst (outer x len x inner).
static void storeAxis(const Buf &src, Buf &dst, bool isFloat, int64_t outer,
                      int64_t len, int64_t inner, int64_t from, int64_t count) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t r = 0; r < count; ++r) {
      int64_t t = (o * len + from + r) * inner, s = (o * count + r) * inner;
      size_t srcLen = isFloat ? src.f.size() : src.i.size();
      for (int64_t e = 0; e < inner; ++e) {
        size_t k = srcLen == 1 ? 0 : s + e;
        if (isFloat)
          dst.f[t + e] = src.f[k];
        else
          dst.i[t + e] = src.i[k];
      }
    }
}

/// mgp.scan: position by position along the axis (reversed when the op
/// says so), the combiner over all lines at once.
static llvm::Expected<bool> compileScan(Compiler &c, mgp::ScanOp scan,
                                        std::vector<Instr> &out) {
  mlir::Operation *op = scan;
  if (llvm::Error err = checkCombiner(scan.getCombineOp()))
    return std::move(err);
  auto region = std::make_shared<CompiledRegion>();
  if (llvm::Error err = c.compileRegion(scan.getCombineOp(), *region))
    return std::move(err);
  size_t numOps = scan.getSrcs().size();
  std::vector<int> srcs, results;
  std::vector<bool> isFloat;
  for (mlir::Value v : scan.getSrcs()) {
    llvm::Expected<DType> kind = elemKindOf(op, v.getType());
    if (!kind)
      return kind.takeError();
    srcs.push_back(c.slot(v));
    isFloat.push_back(isFloatDType(*kind));
  }
  for (mlir::Value v : scan.getResult())
    results.push_back(c.slot(v));
  std::vector<int64_t> shape = shapeOf(scan.getSrcs()[0].getType());
  int axis = static_cast<int>(scan.getAxis());
  bool reverse = scan.getReverse();
  int64_t outer = 1, inner = 1, len = shape[axis];
  for (int dim = 0; dim < axis; ++dim)
    outer *= shape[dim];
  for (size_t dim = axis + 1; dim < shape.size(); ++dim)
    inner *= shape[dim];
  out.push_back([=](Frame &frame) {
    std::vector<Buf> state(numOps), res(numOps);
    for (size_t j = 0; j < numOps; ++j) {
      const Buf &src = frame.slots[srcs[j]];
      res[j] = src;
      sliceAxis(src, state[j], isFloat[j], outer, len, inner,
                reverse ? len - 1 : 0, 1);
    }
    for (int64_t step = 1; step < len; ++step) {
      int64_t pos = reverse ? len - 1 - step : step;
      for (size_t j = 0; j < numOps; ++j) {
        frame.slots[region->args[j]] = state[j];
        sliceAxis(frame.slots[srcs[j]], frame.slots[region->args[numOps + j]],
                  isFloat[j], outer, len, inner, pos, 1);
      }
      if (!runBody(*region, frame))
        return false;
      for (size_t j = 0; j < numOps; ++j) {
        const Buf &y = frame.slots[region->yields[j]];
        storeAxis(y, res[j], isFloat[j], outer, len, inner, pos, 1);
        sliceAxis(res[j], state[j], isFloat[j], outer, len, inner, pos, 1);
      }
    }
    for (size_t j = 0; j < numOps; ++j)
      frame.slots[results[j]] = std::move(res[j]);
    return true;
  });
  return true;
}

static llvm::Expected<bool> compileReduce(Compiler &c, mgp::ReduceOp reduce,
                                          std::vector<Instr> &out) {
  mlir::Operation *op = reduce;
  if (llvm::Error err = checkCombiner(reduce.getCombineOp()))
    return std::move(err);
  auto region = std::make_shared<CompiledRegion>();
  if (llvm::Error err = c.compileRegion(reduce.getCombineOp(), *region))
    return std::move(err);
  size_t numOps = reduce.getSrcs().size();
  std::vector<int> srcs, results;
  std::vector<bool> isFloat;
  for (mlir::Value v : reduce.getSrcs()) {
    llvm::Expected<DType> kind = elemKindOf(op, v.getType());
    if (!kind)
      return kind.takeError();
    srcs.push_back(c.slot(v));
    isFloat.push_back(isFloatDType(*kind));
  }
  for (mlir::Value v : reduce.getResult())
    results.push_back(c.slot(v));
  std::vector<int64_t> shape = shapeOf(reduce.getSrcs()[0].getType());
  int axis = static_cast<int>(reduce.getAxis());
  int64_t outer = 1, inner = 1, len = shape[axis];
  for (int dim = 0; dim < axis; ++dim)
    outer *= shape[dim];
  for (size_t dim = axis + 1; dim < shape.size(); ++dim)
    inner *= shape[dim];
  out.push_back([=](Frame &frame) {
    std::vector<Buf> cur(numOps), next(numOps);
    for (size_t j = 0; j < numOps; ++j)
      cur[j] = frame.slots[srcs[j]];
    for (int64_t r = len; r > 1;) {
      int64_t h = r / 2, odd = r & 1;
      for (size_t j = 0; j < numOps; ++j) {
        sliceAxis(cur[j], frame.slots[region->args[j]], isFloat[j], outer, r,
                  inner, 0, h);
        sliceAxis(cur[j], frame.slots[region->args[numOps + j]], isFloat[j],
                  outer, r, inner, h, h);
      }
      if (!runBody(*region, frame))
        return false;
      for (size_t j = 0; j < numOps; ++j) {
        const Buf &y = frame.slots[region->yields[j]];
        size_t ylen = isFloat[j] ? y.f.size() : y.i.size();
        int64_t newLen = h + odd;
        if (isFloat[j])
          next[j].f.resize(outer * newLen * inner);
        else
          next[j].i.resize(outer * newLen * inner);
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t q = 0; q < newLen; ++q)
            for (int64_t e = 0; e < inner; ++e) {
              int64_t t = (o * newLen + q) * inner + e;
              bool fromCombiner = q < h;
              size_t s = fromCombiner
                             ? (ylen == 1 ? 0 : (o * h + q) * inner + e)
                             : (o * r + 2 * h) * inner + e;
              const Buf &src = fromCombiner ? y : cur[j];
              if (isFloat[j])
                next[j].f[t] = src.f[s];
              else
                next[j].i[t] = src.i[s];
            }
      }
      std::swap(cur, next);
      r = h + odd;
    }
    for (size_t j = 0; j < numOps; ++j)
      frame.slots[results[j]] = std::move(cur[j]);
    return true;
  });
  return true;
}

llvm::Expected<bool> mgp::interp::tryCompileDotReduce(Compiler &c, mlir::Operation *op,
                                                      std::vector<Instr> &out) {
  if (auto dot = llvm::dyn_cast<mgp::DotOp>(op))
    return compileDot(c, dot, out);
  if (auto reduce = llvm::dyn_cast<mgp::ReduceOp>(op))
    return compileReduce(c, reduce, out);
  if (auto scan = llvm::dyn_cast<mgp::ScanOp>(op))
    return compileScan(c, scan, out);
  return false;
}
