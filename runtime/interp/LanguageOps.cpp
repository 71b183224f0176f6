//===- LanguageOps.cpp - libdevice calls and barriers ---------------------===//
//
// This file implements the interpreter's mgp.extern_elementwise (each
// element through the host implementation of its libdevice symbol,
// LibdeviceFunctions.h; float results rounded to their type, integers
// wrapped), mgp.map_elementwise (its region run once per `pack` elements,
// on scalars, so only the taken side of an `if` runs) and mgp.barrier (a
// no-op: a program runs as one thread here).
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/InterpProgram.h"
#include "runtime/interp/LibdeviceFunctions.h"

#include "compiler/ir/MgpDialect.h"

using namespace mgp;
using namespace mgp::interp;

/// The slots of `values` and whether each holds floats.
static llvm::Error slotsOf(Compiler &c, mlir::Operation *op,
                           mlir::ValueRange values, std::vector<int> &slots,
                           std::vector<bool> &isFloat) {
  for (mlir::Value v : values) {
    llvm::Expected<DType> k = elemKindOf(op, v.getType());
    if (!k)
      return k.takeError();
    slots.push_back(c.slot(v));
    isFloat.push_back(isFloatDType(*k));
  }
  return llvm::Error::success();
}

static llvm::Expected<bool> compileExtern(Compiler &c, ExternElementwiseOp op,
                                          std::vector<Instr> &out) {
  LibdeviceFn fn = lookupLibdeviceFunction(op.getSymbol());
  if (!fn)
    return opError(op, "the interpreter does not implement libdevice "
                       "function '" +
                           op.getSymbol() + "'");
  llvm::Expected<DType> kind = elemKindOf(op, op.getResult().getType());
  if (!kind)
    return kind.takeError();
  std::vector<int> in;
  std::vector<bool> inFloat;
  if (llvm::Error err = slotsOf(c, op, op.getSrcs(), in, inFloat))
    return std::move(err);
  DType k = *kind;
  bool outFloat = isFloatDType(k);
  unsigned width = outFloat ? 0 : intWidth(k);
  int d = c.slot(op.getResult());
  out.push_back([=](Frame &frame) {
    size_t n = 1;
    for (size_t a = 0; a < in.size(); ++a) {
      const Buf &b = frame.slots[in[a]];
      n = std::max(n, inFloat[a] ? b.f.size() : b.i.size());
    }
    Buf &r = frame.slots[d];
    if (outFloat)
      r.f.resize(n);
    else
      r.i.resize(n);
    LibValue args[4];
    for (size_t e = 0; e < n; ++e) {
      for (size_t a = 0; a < in.size(); ++a) {
        const Buf &b = frame.slots[in[a]];
        if (inFloat[a])
          args[a].f = b.f[b.f.size() == 1 ? 0 : e];
        else
          args[a].i = b.i[b.i.size() == 1 ? 0 : e];
      }
      LibValue v = fn(args);
      if (outFloat)
        r.f[e] = roundTo(k, v.f);
      else
        r.i[e] = wrapSigned(static_cast<uint64_t>(v.i), width);
    }
    return true;
  });
  return true;
}

/// mgp.map_elementwise: the region on scalars, `pack` elements per run (the
/// last run of a count that is not a multiple of `pack` gets zeros in the
/// missing places, as on the GPU, and its extra results are dropped).
static llvm::Expected<bool> compileMap(Compiler &c, MapElementwiseOp op,
                                       std::vector<Instr> &out) {
  auto region = std::make_shared<CompiledRegion>();
  if (llvm::Error err = c.compileRegion(op.getScalarOp(), *region))
    return std::move(err);
  std::vector<int> in, res;
  std::vector<bool> inFloat, resFloat;
  if (llvm::Error err = slotsOf(c, op, op.getSrcs(), in, inFloat))
    return std::move(err);
  if (llvm::Error err = slotsOf(c, op, op.getResults(), res, resFloat))
    return std::move(err);
  int64_t n = numElements(shapeOf(op.getResults()[0].getType()));
  int64_t pack = op.getPack();
  out.push_back([=](Frame &frame) {
    std::vector<Buf> results(res.size());
    for (size_t r = 0; r < res.size(); ++r) {
      if (resFloat[r])
        results[r].f.resize(n);
      else
        results[r].i.resize(n);
    }
    for (int64_t base = 0; base < n; base += pack) {
      for (size_t a = 0; a < in.size(); ++a)
        for (int64_t j = 0; j < pack; ++j) {
          const Buf &src = frame.slots[in[a]];
          Buf &arg = frame.slots[region->args[a * pack + j]];
          int64_t e = base + j;
          if (inFloat[a])
            arg.f.assign(1, e < n ? src.f[src.f.size() == 1 ? 0 : e] : 0.0);
          else
            arg.i.assign(1, e < n ? src.i[src.i.size() == 1 ? 0 : e] : 0);
        }
      if (!runBody(*region, frame))
        return false;
      for (size_t r = 0; r < res.size(); ++r)
        for (int64_t j = 0; j < pack && base + j < n; ++j) {
          const Buf &y = frame.slots[region->yields[r * pack + j]];
          if (resFloat[r])
            results[r].f[base + j] = y.f[0];
          else
            results[r].i[base + j] = y.i[0];
        }
    }
    for (size_t r = 0; r < res.size(); ++r)
      frame.slots[res[r]] = std::move(results[r]);
    return true;
  });
  return true;
}

llvm::Expected<bool>
mgp::interp::tryCompileLanguageOp(Compiler &c, mlir::Operation *op,
                                  std::vector<Instr> &out) {
  if (auto ext = llvm::dyn_cast<ExternElementwiseOp>(op)) {
    if (ext.getSrcs().size() > 4)
      return opError(op, "libdevice functions take at most 4 arguments");
    return compileExtern(c, ext, out);
  }
  if (auto map = llvm::dyn_cast<MapElementwiseOp>(op))
    return compileMap(c, map, out);
  if (llvm::isa<BarrierOp>(op))
    return true;
  if (llvm::isa<InlineAsmElementwiseOp>(op))
    return opError(op, "tl.inline_asm_elementwise runs PTX, which the "
                       "interpreter cannot: run this kernel on the GPU");
  return false;
}
