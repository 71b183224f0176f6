//===- BuiltinsMisc.cpp - compile-time helpers, hints and barriers --------===//
//
// This file implements the builtins that neither compute on blocks nor move
// data: `tl.debug_barrier` (mgp.barrier), `tl.static_print` (prints its
// compile-time values while compiling), `tl.assume` (a hint: its condition
// is evaluated and dropped), `triton.next_power_of_2` on constants,
// `tl.pointer_type`, and `tl.extra.cuda.gdc_wait` /
// `gdc_launch_dependents` (programmatic dependent launch, which mgp's
// launches do not use: no-ops, as Triton makes them where unsupported),
// `tl.device_print` / `print` (mgp.print) and `tl.device_assert`
// (mgp.assert, only with KernelGenOptions::debug, as Triton checks device
// assertions only in debug mode), and `tl.inline_asm_elementwise`
// (mgp.inline_asm_elementwise).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

/// Python's str() of a compile-time value (the type for runtime values).
static std::string pythonStr(const SemaValue &v) {
  switch (v.getKind()) {
  case SemaValue::Kind::Int:
    return std::to_string(v.getInt());
  case SemaValue::Kind::Bool:
    return v.getBool() ? "True" : "False";
  case SemaValue::Kind::None:
    return "None";
  case SemaValue::Kind::String:
    return v.getString().str();
  case SemaValue::Kind::Float: {
    char buffer[32];
    for (int precision = 1; precision <= 17; ++precision) {
      std::snprintf(buffer, sizeof(buffer), "%.*g", precision, v.getFloat());
      if (std::strtod(buffer, nullptr) == v.getFloat())
        break;
    }
    std::string s = buffer;
    if (s.find_first_of(".eni") == std::string::npos)
      s += ".0";
    return s;
  }
  case SemaValue::Kind::DType:
    return (v.isUnsigned() ? "u" : "") + getTypeName(v.getType());
  case SemaValue::Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < v.getElements().size(); ++i)
      s += (i ? ", " : "") + pythonStr(v.getElements()[i]);
    return s + (v.getElements().size() == 1 ? ",)" : ")");
  }
  case SemaValue::Kind::Runtime:
    return describeType(v.getLogicalType());
  default:
    return v.describe();
  }
}

/// `tl.target_info.NAME(...)`: compile-time answers about the target, as
/// Triton gives them (the CPU interpreter is no CUDA device, as Triton's
/// interpreter without a GPU driver is not).
static Expected<SemaValue> genTargetInfoCall(Generator &g, llvm::StringRef name,
                                             CallArgs &args,
                                             const ast::CallExpr &call) {
  int capability = g.genOptions.computeCapability;
  if (name != "cuda_capability_geq") {
    Expected<BoundArgs> b = g.bindArgs(name, args, call, {}, 0);
    if (!b)
      return b.takeError();
    return SemaValue::getBool(name == "is_cuda" && capability > 0);
  }
  Expected<BoundArgs> b = g.bindArgs(name, args, call, {"major", "minor"}, 1);
  if (!b)
    return b.takeError();
  int64_t version[2] = {0, 0};
  for (unsigned i = 0; i < 2; ++i) {
    if (!b->has(i))
      continue;
    if (!b->get(i).isInt())
      return g.error(b->expr(i), "cuda_capability_geq needs compile-time "
                                 "integers, got " +
                                     b->get(i).describe());
    version[i] = b->get(i).getInt();
  }
  return SemaValue::getBool(capability > 0 &&
                            capability >= version[0] * 10 + version[1]);
}

Expected<SemaValue> Generator::genMiscBuiltin(llvm::StringRef name,
                                              CallArgs &args,
                                              const ast::CallExpr &call) {
  mlir::Location l = loc(call);
  if (name == "debug_barrier") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {}, 0);
    if (!b)
      return b.takeError();
    BarrierOp::create(builder, l);
    return SemaValue::getNone();
  }
  if (name.starts_with(kTargetInfoPrefix))
    return genTargetInfoCall(*this, name.drop_front(kTargetInfoPrefix.size()),
                             args, call);
  if (name == "condition") {
    // `while tl.condition(c, disable_licm=True):` is `while c:`; the hint
    // only keeps Triton's LICM from hoisting, so it does not change results.
    Expected<BoundArgs> b =
        bindArgs(name, args, call, {"arg1", "disable_licm"}, 1);
    if (!b)
      return b.takeError();
    if (b->has(1) && !b->get(1).isConstexpr())
      return error(b->expr(1), "disable_licm of tl.condition must be a "
                               "compile-time bool, got " +
                                   b->get(1).describe());
    const SemaValue &c = b->get(0);
    if (c.isTensor() ||
        !(c.isConstexpr() ||
          (c.isRuntime() && getElementType(c.getType()).isIntOrFloat())))
      return error(b->expr(0),
                   "tl.condition needs a scalar condition, got " +
                       c.describe());
    return c;
  }
  if (name == "gdc_wait" || name == "gdc_launch_dependents") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {}, 0);
    if (!b)
      return b.takeError();
    return SemaValue::getNone();
  }
  if (name == "static_print") {
    std::string sep = " ", end = "\n";
    for (size_t k = 0; k < args.keywords.size(); ++k) {
      llvm::StringRef kw = args.keywords[k]->name;
      const SemaValue &v = args.keywordValues[k];
      if ((kw == "sep" || kw == "end") && v.isString())
        (kw == "sep" ? sep : end) = v.getString().str();
      else if (kw != "file" && kw != "flush")
        return error(args.keywords[k]->location.getLoc(),
                     "unknown keyword argument '" + kw + "' for 'static_print'",
                     args.keywords[k]->location.getRange());
    }
    std::string line;
    for (size_t i = 0; i < args.args.size(); ++i)
      line += (i ? sep : "") + pythonStr(args.args[i]);
    llvm::errs() << line << end;
    llvm::errs().flush();
    return SemaValue::getNone();
  }
  if (name == "assume") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"cond"}, 1);
    if (!b)
      return b.takeError();
    const SemaValue &c = b->get(0);
    if (c.isConstexpr() && !c.isTruthy())
      return error(b->expr(0), "tl.assume of a condition that is false");
    if (!c.isConstexpr() &&
        !(c.isRuntime() && getElementType(c.getType()).isIntOrFloat()))
      return error(b->expr(0),
                   "tl.assume needs a condition, got " + c.describe());
    return SemaValue::getNone();
  }
  if (name == "next_power_of_2") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"n"}, 1);
    if (!b)
      return b.takeError();
    if (!b->get(0).isInt())
      return error(b->expr(0),
                   "triton.next_power_of_2 needs a compile-time integer, got " +
                       b->get(0).describe());
    int64_t n = b->get(0).getInt();
    if (n <= 0)
      return SemaValue::getInt(0); // Triton's bit trick gives 0 there
    if (n > (int64_t(1) << 62))
      return error(b->expr(0), "triton.next_power_of_2 of " + llvm::Twine(n) +
                                   " overflows");
    int64_t p = 1;
    while (p < n)
      p <<= 1;
    return SemaValue::getInt(p);
  }
  if (name == "pointer_type")
    return genPointerType(args, call);
  if (name == "add" || name == "sub" || name == "mul") {
    // tl.add(x, y, sanitize_overflow=True): the operators.
    Expected<BoundArgs> b =
        bindArgs(name, args, call, {"x", "y", "sanitize_overflow"}, 2);
    if (!b)
      return b.takeError();
    ast::BinaryOp op = name == "add"   ? ast::BinaryOp::Add
                       : name == "sub" ? ast::BinaryOp::Sub
                                       : ast::BinaryOp::Mul;
    return binaryOp(op, b->get(0), b->get(1), site(call));
  }
  if (name == "to_tensor") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x"}, 1);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> v = toRuntime(b->get(0), b->expr(0));
    if (!v)
      return v.takeError();
    return runtime(*v);
  }
  if (name == "max_constancy") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"input", "values"}, 2);
    if (!b)
      return b.takeError();
    return b->get(0); // a hint the coalescing analysis does not use
  }
  if (name == "broadcast") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"input", "other"}, 2);
    if (!b)
      return b.takeError();
    Expected<mlir::Value> x = toRuntime(b->get(0), b->expr(0));
    if (!x)
      return x.takeError();
    Expected<mlir::Value> y = toRuntime(b->get(1), b->expr(1));
    if (!y)
      return y.takeError();
    mlir::Value xv = *x, yv = *y;
    if (Error err = broadcastPair(xv, yv, site(call)))
      return std::move(err);
    return SemaValue::getTuple({runtime(xv), runtime(yv)});
  }
  if (name == "device_print" || name == "print") {
    // device_print(prefix, *args, hex=False); Python's print(*args).
    std::string prefix;
    size_t first = 0;
    if (name == "device_print") {
      if (args.args.empty() || !args.args[0].isString())
        return error(call, "device_print needs a string prefix first");
      prefix = args.args[0].getString().str();
      first = 1;
    }
    bool hex = false;
    for (size_t k = 0; k < args.keywords.size(); ++k) {
      if (args.keywords[k]->name == "hex" &&
          args.keywordValues[k].isConstexpr())
        hex = args.keywordValues[k].isTruthy();
      else if (args.keywords[k]->name != "sep" &&
               args.keywords[k]->name != "end")
        return error(args.keywords[k]->location.getLoc(),
                     "unknown keyword argument '" + args.keywords[k]->name +
                         "' for '" + name + "'",
                     args.keywords[k]->location.getRange());
    }
    llvm::SmallVector<mlir::Value> values;
    llvm::SmallVector<int32_t> isSigned;
    for (size_t i = first; i < args.args.size(); ++i) {
      const SemaValue &v = args.args[i];
      if (v.isString()) {
        prefix +=
            (prefix.empty() || first == 0 ? "" : " ") + v.getString().str();
        continue;
      }
      Expected<mlir::Value> r = toRuntime(v, *args.argExprs[i]);
      if (!r)
        return r.takeError();
      if (!values.empty() &&
          getShapeOf(r->getType()) != getShapeOf(values[0].getType()))
        return error(*args.argExprs[i],
                     "device_print's blocks must have one shape");
      values.push_back(*r);
      isSigned.push_back(1);
    }
    if (!prefix.empty() && prefix.back() != ' ' && !values.empty())
      prefix += first ? " " : "";
    PrintOp::create(builder, l, values, prefix, hex, isSigned);
    return SemaValue::getNone();
  }
  if (name == "inline_asm_elementwise")
    return genInlineAsm(args, call);
  if (name == "device_assert") {
    Expected<BoundArgs> b =
        bindArgs(name, args, call, {"cond", "msg", "mask"}, 1);
    if (!b)
      return b.takeError();
    std::string msg = b->has(1) && b->get(1).isString()
                          ? b->get(1).getString().str()
                          : std::string();
    const SemaValue &c = b->get(0);
    if (c.isConstexpr()) {
      if (!c.isTruthy())
        return error(b->expr(0), "device_assert of a condition that is "
                                 "always false" +
                                     (msg.empty() ? "" : ": " + msg));
      return SemaValue::getNone();
    }
    Expected<mlir::Value> cond = toCondition(c, b->expr(0));
    if (!cond)
      return cond.takeError();
    if (!genOptions.debug)
      return SemaValue::getNone(); // Triton checks only in debug mode
    mlir::Value v = *cond;
    if (b->has(2)) {
      // Where the mask is off the assertion holds.
      Expected<mlir::Value> m = toCondition(b->get(2), b->expr(2));
      if (!m)
        return m.takeError();
      mlir::Value mask = *m;
      if (Error err = broadcastPair(v, mask, site(call)))
        return std::move(err);
      mlir::Value ones =
          materializeSplat(SemaValue::getBool(true), builder.getI1Type(),
                           getShapeOf(mask.getType()), l);
      mlir::Value off = mlir::arith::XOrIOp::create(builder, l, mask, ones);
      v = mlir::arith::OrIOp::create(builder, l, v, off);
    }
    const ast::SourceLocation &where = call.getLocation();
    AssertOp::create(builder, l, v, msg, currentModule().fileName, where.line,
                     frame().function ? frame().function->name : "");
    return SemaValue::getNone();
  }
  llvm_unreachable("not a misc builtin");
}

/// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
/// the arguments broadcast to one shape (no type promotion, as in Triton);
/// a tuple of dtypes gives a tuple of results.
Expected<SemaValue> Generator::genInlineAsm(CallArgs &args,
                                            const ast::CallExpr &call) {
  llvm::StringRef name = "inline_asm_elementwise";
  Expected<BoundArgs> b = bindArgs(
      name, args, call,
      {"asm", "constraints", "args", "dtype", "is_pure", "pack"}, 6);
  if (!b)
    return b.takeError();
  for (unsigned i : {0u, 1u})
    if (!b->get(i).isString())
      return error(b->expr(i), llvm::Twine("the ") +
                                   (i ? "constraints" : "asm") +
                                   " of inline_asm_elementwise must be a "
                                   "constant string, got " +
                                   b->get(i).describe());
  if (!b->get(4).isConstexpr())
    return error(b->expr(4), "is_pure must be a compile-time bool, got " +
                                 b->get(4).describe());
  Expected<int64_t> pack = getConstInt(*b, 5, "pack");
  if (!pack)
    return pack.takeError();
  if (*pack < 1 || *pack > 16 || (*pack & (*pack - 1)) != 0)
    return error(b->expr(5), "pack must be 1, 2, 4, 8 or 16, got " +
                                 llvm::Twine(*pack));
  // The dtypes: one, or a tuple (or list) of them.
  std::vector<SemaValue> dtypes = b->get(3).isTuple()
                                      ? b->get(3).getElements()
                                      : std::vector<SemaValue>{b->get(3)};
  bool multiple = b->get(3).isTuple();
  if (dtypes.empty())
    return error(b->expr(3), "inline_asm_elementwise needs a result dtype");
  for (const SemaValue &d : dtypes)
    if (!d.isDType())
      return error(b->expr(3), "expected a dtype such as tl.int32, got " +
                                   d.describe());
  // The arguments: a tuple or list of values (a single value is one).
  std::vector<SemaValue> inputs = b->get(2).isTuple()
                                      ? b->get(2).getElements()
                                      : std::vector<SemaValue>{b->get(2)};
  llvm::SmallVector<mlir::Value> values;
  for (const SemaValue &v : inputs) {
    Expected<mlir::Value> r = toRuntime(v, b->expr(2));
    if (!r)
      return r.takeError();
    values.push_back(*r);
  }
  OpSite s = site(call);
  if (Error err = broadcastAll(values, s))
    return std::move(err);
  llvm::SmallVector<int64_t> shape;
  if (!values.empty())
    shape.assign(getShapeOf(values[0].getType()).begin(),
                 getShapeOf(values[0].getType()).end());
  llvm::SmallVector<mlir::Type> resultTypes;
  for (const SemaValue &d : dtypes)
    resultTypes.push_back(withShape(d.getType(), shape));
  // Check the constraints against the registers here, where the error can
  // point at the call.
  unsigned outputs = 0, inputRegs = 0;
  for (mlir::Type t : resultTypes)
    outputs += *pack / inlineAsmElementsPerRegister(getElementType(t), *pack);
  for (mlir::Value v : values)
    inputRegs += *pack / inlineAsmElementsPerRegister(
                             getElementType(v.getType()), *pack);
  InlineAsmConstraintCount count =
      countInlineAsmConstraints(b->get(1).getString());
  if (count.outputs != outputs || count.inputs != inputRegs)
    return error(b->expr(1),
                 "the constraints name " + llvm::Twine(count.outputs) +
                     " outputs and " + llvm::Twine(count.inputs) +
                     " inputs; with pack=" + llvm::Twine(*pack) +
                     " these results and arguments take " +
                     llvm::Twine(outputs) + " output and " +
                     llvm::Twine(inputRegs) +
                     " input registers (elements narrower than 32 bits "
                     "share one)");
  auto op = InlineAsmElementwiseOp::create(
      builder, loc(call), resultTypes, values, b->get(0).getString(),
      b->get(1).getString(), b->get(4).isTruthy(),
      static_cast<int32_t>(*pack));
  std::vector<SemaValue> results;
  for (size_t i = 0; i < dtypes.size(); ++i)
    results.push_back(runtime(op.getResult(i), dtypes[i].isUnsigned()));
  if (!multiple)
    return results.front();
  return SemaValue::getTuple(std::move(results));
}
