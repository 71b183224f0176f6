//===- ShapeOps.cpp - mgp ops that build and reshape blocks ---------------===//
//
// This file implements the interpreter's mgp ops that make or move block
// elements without arithmetic: program_id, num_programs, make_range, splat,
// broadcast, expand_dims, reshape, trans, gather, addptr (pointer arithmetic
// in elements of the pointee), and the identities hint and convert_layout.
// Shapes are static, so broadcast and trans gather through an index map
// computed once at compile time.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/InterpProgram.h"

#include "compiler/ir/MgpDialect.h"

#include <memory>

using namespace mgp;
using namespace mgp::interp;

namespace {

/// Copies slot \p a into slot \p d (float or integer storage).
Instr copyInstr(int a, int d, bool isFloat) {
  return [=](Frame &frame) {
    if (isFloat)
      frame.slots[d].f = frame.slots[a].f;
    else
      frame.slots[d].i = frame.slots[a].i;
    return true;
  };
}

/// r[k] = x[map[k]] for every element of the result.
Instr gatherInstr(int a, int d, bool isFloat,
                  std::shared_ptr<const std::vector<uint32_t>> map) {
  return [=](Frame &frame) {
    const std::vector<uint32_t> &m = *map;
    if (isFloat) {
      const std::vector<double> &x = frame.slots[a].f;
      std::vector<double> &r = frame.slots[d].f;
      r.resize(m.size());
      for (size_t k = 0; k < m.size(); ++k)
        r[k] = x[m[k]];
    } else {
      const std::vector<int64_t> &x = frame.slots[a].i;
      std::vector<int64_t> &r = frame.slots[d].i;
      r.resize(m.size());
      for (size_t k = 0; k < m.size(); ++k)
        r[k] = x[m[k]];
    }
    return true;
  };
}

/// Row-major strides of \p shape.
std::vector<int64_t> stridesOf(llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// The gather map of a result of shape \p dst whose element at index `idx`
/// reads the source at `sum(idx[srcDim[j]] * srcStride[j])`.
std::shared_ptr<std::vector<uint32_t>>
buildMap(llvm::ArrayRef<int64_t> dst,
         llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> srcIndex) {
  auto map = std::make_shared<std::vector<uint32_t>>();
  int64_t n = numElements(dst);
  map->resize(n);
  std::vector<int64_t> idx(dst.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    (*map)[k] = static_cast<uint32_t>(srcIndex(idx));
    for (int d = static_cast<int>(dst.size()) - 1; d >= 0; --d) {
      if (++idx[d] < dst[d])
        break;
      idx[d] = 0;
    }
  }
  return map;
}

} // namespace

llvm::Expected<bool> mgp::interp::tryCompileShapeOp(Compiler &c, mlir::Operation *op,
                                                    std::vector<Instr> &out) {
  if (auto pid = llvm::dyn_cast<mgp::ProgramIdOp>(op)) {
    int d = c.slot(pid.getResult()), axis = static_cast<int>(pid.getAxis());
    out.push_back([=](Frame &frame) {
      frame.slots[d].i.assign(1, frame.programId[axis]);
      return true;
    });
    return true;
  }
  if (auto num = llvm::dyn_cast<mgp::NumProgramsOp>(op)) {
    int d = c.slot(num.getResult()), axis = static_cast<int>(num.getAxis());
    out.push_back([=](Frame &frame) {
      frame.slots[d].i.assign(1, frame.numPrograms[axis]);
      return true;
    });
    return true;
  }
  if (auto range = llvm::dyn_cast<mgp::MakeRangeOp>(op)) {
    Buf values;
    for (int64_t v = range.getStart(); v < range.getEnd(); ++v)
      values.i.push_back(v);
    c.constants.push_back({c.slot(range.getResult()), std::move(values)});
    return true;
  }
  if (op->getNumResults() != 1 || op->getNumOperands() < 1)
    return false;
  mlir::Value result = op->getResult(0);
  llvm::Expected<DType> kind = elemKindOf(op, result.getType());
  if (!kind)
    return kind.takeError();
  bool isFloat = isFloatDType(*kind);
  int a = c.slot(op->getOperand(0)), d = c.slot(result);
  std::vector<int64_t> dstShape = shapeOf(result.getType());
  std::vector<int64_t> srcShape = shapeOf(op->getOperand(0).getType());

  if (llvm::isa<mgp::SplatOp>(op)) {
    int64_t n = numElements(dstShape);
    out.push_back([=](Frame &frame) {
      if (isFloat)
        frame.slots[d].f.assign(n, frame.slots[a].f[0]);
      else
        frame.slots[d].i.assign(n, frame.slots[a].i[0]);
      return true;
    });
    return true;
  }
  // A local_alloc of a tensor and the local_load of it (the staging of a
  // tensor-core operand) copy the tensor: layouts mean nothing here.
  if (llvm::isa<mgp::ExpandDimsOp, mgp::ReshapeOp, mgp::HintOp,
                mgp::ConvertLayoutOp, mgp::LocalAllocOp, mgp::LocalLoadOp>(
          op)) {
    out.push_back(copyInstr(a, d, isFloat));
    return true;
  }
  if (llvm::isa<mgp::BroadcastOp>(op)) {
    std::vector<int64_t> strides = stridesOf(srcShape);
    for (size_t j = 0; j < srcShape.size(); ++j)
      if (srcShape[j] == 1)
        strides[j] = 0;
    out.push_back(gatherInstr(a, d, isFloat,
                              buildMap(dstShape, [&](llvm::ArrayRef<int64_t> idx) {
                                int64_t s = 0;
                                for (size_t j = 0; j < idx.size(); ++j)
                                  s += idx[j] * strides[j];
                                return s;
                              })));
    return true;
  }
  if (auto trans = llvm::dyn_cast<mgp::TransOp>(op)) {
    // result dim j is source dim order[j].
    llvm::ArrayRef<int32_t> order = trans.getOrder();
    std::vector<int64_t> strides = stridesOf(srcShape);
    out.push_back(gatherInstr(a, d, isFloat,
                              buildMap(dstShape, [&](llvm::ArrayRef<int64_t> idx) {
                                int64_t s = 0;
                                for (size_t j = 0; j < idx.size(); ++j)
                                  s += idx[j] * strides[order[j]];
                                return s;
                              })));
    return true;
  }
  if (auto gather = llvm::dyn_cast<mgp::GatherOp>(op)) {
    // r[k] = x[base[k] + index[k] * stride]: base is k's source position
    // with the axis coordinate 0; an index outside the axis gives 0.
    int axis = static_cast<int>(gather.getAxis());
    std::vector<int64_t> strides = stridesOf(srcShape);
    int64_t stride = strides[axis], extent = srcShape[axis];
    auto base = buildMap(dstShape, [&](llvm::ArrayRef<int64_t> idx) {
      int64_t s = 0;
      for (size_t j = 0; j < idx.size(); ++j)
        if (static_cast<int>(j) != axis)
          s += idx[j] * strides[j];
      return s;
    });
    int ix = c.slot(gather.getIndices());
    out.push_back([=](Frame &frame) {
      const std::vector<uint32_t> &m = *base;
      const std::vector<int64_t> &index = frame.slots[ix].i;
      // A splat constant holds one element.
      size_t si = index.size() == 1 ? 0 : 1;
      auto pick = [&](auto &x, auto &r) {
        size_t sx = x.size() == 1 ? 0 : 1;
        r.resize(m.size());
        for (size_t k = 0; k < m.size(); ++k) {
          int64_t at = index[k * si];
          r[k] = at >= 0 && at < extent ? x[(m[k] + at * stride) * sx] : 0;
        }
      };
      if (isFloat)
        pick(frame.slots[a].f, frame.slots[d].f);
      else
        pick(frame.slots[a].i, frame.slots[d].i);
      return true;
    });
    return true;
  }
  if (auto addptr = llvm::dyn_cast<mgp::AddPtrOp>(op)) {
    llvm::Expected<DType> pointee =
        elemKindOf(op, getPointeeLikeType(result.getType()));
    if (!pointee)
      return pointee.takeError();
    int64_t size = dtypeBytes(*pointee);
    int off = c.slot(addptr.getOffset());
    out.push_back([=](Frame &frame) {
      const std::vector<int64_t> &p = frame.slots[a].i, &o = frame.slots[off].i;
      std::vector<int64_t> &r = frame.slots[d].i;
      size_t n = std::max(p.size(), o.size()), sp = p.size() == 1 ? 0 : 1,
             so = o.size() == 1 ? 0 : 1;
      r.resize(n);
      for (size_t k = 0; k < n; ++k)
        r[k] = static_cast<int64_t>(static_cast<uint64_t>(p[k * sp]) +
                                    static_cast<uint64_t>(o[k * so] * size));
      return true;
    });
    return true;
  }
  return false;
}
