//===- BuiltinsMapElementwise.cpp - tl.map_elementwise --------------------===//
//
// This file implements `tl.map_elementwise(scalar_fn, *args, pack=1)`
// (mgp.map_elementwise): the arguments broadcast to one shape, and the
// `@jit` scalar function is inlined into the op's region on scalars, so an
// `if` in it branches per element instead of computing both sides. The
// region is generated first, in a detached block, because the result types
// are those the function returns.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

namespace {
/// A block not yet in a region; destroyed with the values it defines
/// forgotten unless released into an op.
class DetachedBlock {
public:
  explicit DetachedBlock(Generator &g) : g(g), block(new mlir::Block) {}
  ~DetachedBlock() {
    if (!block)
      return;
    g.forgetValues(*block);
    block->dropAllDefinedValueUses();
    block->dropAllReferences();
    delete block;
  }
  mlir::Block *get() const { return block; }
  mlir::Block *release() { return std::exchange(block, nullptr); }

private:
  Generator &g;
  mlir::Block *block;
};
} // namespace

Expected<SemaValue> Generator::genMapElementwise(CallArgs &args,
                                                 const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  int64_t pack = 1;
  for (auto [kw, value] : llvm::zip(args.keywords, args.keywordValues)) {
    if (kw->name != "pack")
      return error(kw->location.getLoc(),
                   "map_elementwise() got an unexpected keyword argument '" +
                       kw->name + "'",
                   kw->location.getRange());
    if (!value.isInt())
      return error(kw->location.getLoc(),
                   "pack must be a compile-time integer, got " +
                       value.describe(),
                   kw->location.getRange());
    pack = value.getInt();
    if (pack < 1 || pack > 16)
      return error(kw->location.getLoc(),
                   "pack must be between 1 and 16, got " + llvm::Twine(pack),
                   kw->location.getRange());
  }
  if (args.args.size() < 2)
    return error(call, "map_elementwise needs a @jit scalar function and at "
                       "least one block");
  const SemaValue &fn = args.args[0];
  if (fn.getKind() != SemaValue::Kind::Function)
    return error(*args.argExprs[0],
                 "the first argument of map_elementwise must be a @jit "
                 "function, got " +
                     fn.describe());

  // The operands, broadcast to one shape.
  llvm::SmallVector<mlir::Value> srcs;
  llvm::SmallVector<bool> unsignedSrcs;
  for (size_t i = 1; i < args.args.size(); ++i) {
    const SemaValue &v = args.args[i];
    Expected<mlir::Value> r = toRuntime(v, *args.argExprs[i]);
    if (!r)
      return r.takeError();
    if (!getElementType(r->getType()).isIntOrFloat())
      return error(*args.argExprs[i],
                   "map_elementwise maps numbers, got " + v.describe());
    srcs.push_back(*r);
    unsignedSrcs.push_back(v.isUnsigned() &&
                           getElementType(r->getType()).isInteger());
  }
  if (Error err = broadcastAll(srcs, site(call)))
    return std::move(err);
  llvm::SmallVector<int64_t> logical = getLogicalShape(srcs[0]);
  llvm::SmallVector<int64_t> shape(getShapeOf(srcs[0].getType()));

  // The region: `pack` scalars of each operand in, the function inlined.
  DetachedBlock block(*this);
  CallArgs scalarArgs;
  for (auto [i, src] : llvm::enumerate(srcs))
    for (int64_t j = 0; j < pack; ++j) {
      mlir::Value arg = block.get()->addArgument(getElementType(src.getType()), l);
      scalarArgs.args.push_back(
          SemaValue::getRuntime(arg).withUnsigned(unsignedSrcs[i]));
      scalarArgs.argExprs.push_back(args.argExprs[i + 1]);
    }
  std::vector<SemaValue> parts;
  llvm::SmallVector<mlir::Value> returned;
  bool returnsTuple = false;
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block.get());
    Expected<SemaValue> result =
        callFunction(*fn.getFunction(), scalarArgs, call);
    if (!result)
      return result.takeError();
    returnsTuple = result->isTuple();
    parts = returnsTuple ? result->getElements()
                              : std::vector<SemaValue>{*result};
    if (parts.empty() || parts.size() % pack != 0)
      return error(call, "the function of map_elementwise returns " +
                             llvm::Twine(parts.size()) +
                             " values; with pack=" + llvm::Twine(pack) +
                             " it must return a multiple of " +
                             llvm::Twine(pack) + " (pack values per result)");
    for (const SemaValue &p : parts) {
      mlir::Value v;
      if (p.isRuntime() && !p.isTensor() &&
          getElementType(p.getType()).isIntOrFloat())
        v = p.getValue();
      else if (p.isConstexpr() && (p.isInt() || p.isFloat() || p.isBool()))
        v = materialize(p, getDefaultType(builder.getContext(), p), l);
      if (!v)
        return error(call, "the function of map_elementwise must return "
                           "scalars, got " +
                               p.describe());
      returned.push_back(v);
    }
    // Results of one kind share a type across the pack.
    size_t numResults = parts.size() / pack;
    for (size_t r = 0; r < numResults; ++r)
      for (int64_t j = 1; j < pack; ++j)
        if (returned[r * pack + j].getType() != returned[r * pack].getType())
          return error(call, "the function of map_elementwise returns " +
                                 getTypeName(returned[r * pack].getType()) +
                                 " and " +
                                 getTypeName(
                                     returned[r * pack + j].getType()) +
                                 " for the same result of a pack");
    MapElementwiseReturnOp::create(builder, l, returned);
  }

  size_t numResults = parts.size() / pack;
  llvm::SmallVector<mlir::Type> resultTypes;
  for (size_t r = 0; r < numResults; ++r)
    resultTypes.push_back(withShape(returned[r * pack].getType(), shape));
  auto op = MapElementwiseOp::create(builder, l, resultTypes, srcs,
                                     static_cast<int32_t>(pack));
  op.getScalarOp().push_back(block.release());
  std::vector<SemaValue> results;
  for (size_t r = 0; r < numResults; ++r) {
    mlir::Value v = op.getResult(r);
    if (!logical.empty())
      v = setLogicalShape(v, logical);
    results.push_back(runtime(v, parts[r * pack].isUnsigned()));
  }
  // As in Triton: a function that returns a tuple gives a tuple (of one
  // block with pack=2 and two returned values).
  if (!returnsTuple)
    return results.front();
  return SemaValue::getTuple(std::move(results));
}
