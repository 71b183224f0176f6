//===- Builtins.cpp - builtin dispatch, argument binding, Python builtins -===//
//
// This file implements the table of the language's builtins (the functions
// of `triton.language` / `mgp`, usable bare too), the binding of a call's
// positional and keyword arguments to a builtin's parameter names (unknown
// keywords, missing and surplus arguments are located errors), helpers to
// read constant arguments (integers, shapes, dtypes), and the Python
// builtins a kernel may use: `float("inf")`, `int`, `bool`, `min`/`max` of
// constants, `len`, `abs`, and `tl.static_assert`.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/Prelude.h"
#include "compiler/frontend/SemaTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <limits>

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

namespace {
/// Which group of builtins implements a name.
enum class Group {
  None,
  Scan,
  Atomic,
  Composed,
  BlockPtr,
  Creation,
  Memory,
  Math,
  Shape,
  Reduce,
  Python,
  Misc
};
} // namespace

static Group getGroup(llvm::StringRef name) {
  return llvm::StringSwitch<Group>(name)
      .Cases({"program_id", "num_programs", "arange", "zeros", "full",
              "zeros_like", "full_like", "where", "cdiv", "triton.cdiv",
              "multiple_of",
              "max_contiguous", "cast", "to"},
             Group::Creation)
      .Cases({"load", "store"}, Group::Memory)
      .Cases({"maximum", "minimum", "exp",    "exp2", "log",     "log2",
              "sqrt",    "rsqrt",   "abs",    "fma",  "dot",     "erf",
              "floor",   "ceil",    "sin",    "cos",  "sigmoid", "fdiv",
              "div_rn",  "sqrt_rn", "umulhi", "clamp",  "dot_scaled"},
             Group::Math)
      .Cases({"broadcast_to", "reshape", "view", "trans", "permute",
              "expand_dims"},
             Group::Shape)
      .Cases({"sum", "max", "min", "argmax", "argmin"}, Group::Reduce)
      .Cases({"static_assert", "range", "static_range", "float", "int", "bool",
              "len", "constexpr", "jit", "isinstance", "tuple", "getattr",
              "hasattr"},
             Group::Python)
      .Cases({"atomic_add", "atomic_max", "atomic_min", "atomic_and",
              "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas"},
             Group::Atomic)
      .Cases({"make_block_ptr", "advance", "make_tensor_descriptor",
              "load_tensor_descriptor", "store_tensor_descriptor",
              "descriptor_atomic_add", "descriptor_atomic_min",
              "descriptor_atomic_max", "descriptor_atomic_and",
              "descriptor_atomic_or", "descriptor_atomic_xor"},
             Group::BlockPtr)
      .Cases(
          {"join", "split", "interleave", "cat", "flip", "ravel", "histogram",
           "sort", "topk", "bitonic_merge", "gather"},
          Group::Composed)
      .Cases({"cumsum", "cumprod", "associative_scan", "reduce", "xor_sum",
              "reduce_or", "map_elementwise"},
             Group::Scan)
      .Cases({"debug_barrier", "static_print", "assume", "next_power_of_2",
              "condition",
              "pointer_type", "gdc_wait", "gdc_launch_dependents",
              "device_print", "device_assert", "add", "sub", "mul", "to_tensor",
              "max_constancy", "broadcast", "inline_asm_elementwise"},
             Group::Misc)
      .Default(Group::None);
}

bool Generator::isBuiltinName(llvm::StringRef name) {
  if (isPreludeFunction(name))
    return true;
  return getGroup(name) != Group::None && name != "float" && name != "int" &&
         name != "bool" && name != "len" && name != "print" &&
         name != "isinstance" && name != "tuple" && name != "getattr" &&
         name != "hasattr";
}

/// Python's `min(a, b, ...)` / `max(...)`: on constants Python's; otherwise
/// tl.minimum / tl.maximum folded left to right.
static Expected<SemaValue> genPyMinMax(Generator &g, bool isMin, CallArgs &args,
                                       const ast::CallExpr &call) {
  llvm::StringRef name = isMin ? "min" : "max";
  if (!args.keywords.empty())
    return g.error(args.keywords[0]->location.getLoc(),
                   "keyword arguments of " + name + "() are not supported",
                   args.keywords[0]->location.getRange());
  if (args.args.size() == 1 && args.args[0].isTuple()) {
    // min((a, b, c))
    std::vector<SemaValue> elts = args.args[0].getElements();
    args.argExprs.assign(elts.size(), args.argExprs[0]);
    args.args = std::move(elts);
  }
  if (args.args.size() < 2)
    return g.error(call, name + "() needs at least two values (use tl." + name +
                             "(x, axis) to reduce a block)");
  // Triton's builtin_min/max: of literals, Python's (a literal); with a
  // runtime value or a number held as a 0-d tensor, minimum/maximum in turn.
  if (llvm::all_of(args.args, [](const SemaValue &v) {
        return v.isConstNumber() && !v.isHeld();
      }))
    return g.genPythonBuiltin(name, args, call);
  SemaValue acc = args.args[0];
  for (size_t i = 1; i < args.args.size(); ++i) {
    CallArgs pair;
    pair.args = {acc, args.args[i]};
    pair.argExprs = {args.argExprs[0], args.argExprs[i]};
    Expected<SemaValue> r =
        g.genMathBuiltin(isMin ? "minimum" : "maximum", pair, call);
    if (!r)
      return r.takeError();
    acc = *r;
  }
  return acc;
}

/// \p r, a result of a builtin that moves or reorders the elements of
/// \p from (reshape, trans, join, sort, ...), with \p from's signedness
/// (tuples of results: each element).
static SemaValue inheritSignedness(const SemaValue &from, SemaValue r) {
  if (!from.isUnsigned() || !from.isRuntime())
    return r;
  if (r.isTuple()) {
    std::vector<SemaValue> elts;
    for (const SemaValue &e : r.getElements())
      elts.push_back(inheritSignedness(from, e));
    return SemaValue::getTuple(std::move(elts));
  }
  if (r.isRuntime() &&
      getElementType(r.getType()) == getElementType(from.getType()))
    return r.withUnsigned(true);
  return r;
}

/// The builtins whose results hold their first argument's elements.
static bool keepsElements(llvm::StringRef name) {
  return llvm::is_contained({"reshape", "view", "trans", "permute",
                             "expand_dims", "broadcast_to", "broadcast",
                             "join", "split", "interleave", "flip", "sort",
                             "ravel", "gather", "cat", "topk", "bitonic_merge"},
                            name);
}

Expected<SemaValue> Generator::callBuiltin(llvm::StringRef name, CallArgs &args,
                                           const ast::CallExpr &call) {
  if (keepsElements(name) && !args.args.empty()) {
    SemaValue from = args.args[0];
    Expected<SemaValue> r = callBuiltinImpl(name, args, call);
    if (!r)
      return r.takeError();
    return inheritSignedness(from, std::move(*r));
  }
  return callBuiltinImpl(name, args, call);
}

Expected<SemaValue> Generator::callBuiltinImpl(llvm::StringRef name,
                                               CallArgs &args,
                                               const ast::CallExpr &call) {
  if (name == kPyMin || name == kPyMax)
    return genPyMinMax(*this, name == kPyMin, args, call);
  if (name == "print") // Python's print in a kernel is tl.device_print
    return genMiscBuiltin(name, args, call);
  if (isPreludeFunction(name))
    return callPreludeFunction(name, args, call);
  if (name.starts_with(kTargetInfoPrefix))
    return genMiscBuiltin(name, args, call);
  if (name.starts_with(kLibdevicePrefix))
    return genLibdeviceCall(name.drop_front(kLibdevicePrefix.size()), args,
                            call);
  switch (getGroup(name)) {
  case Group::Creation:
    return genCreationBuiltin(name, args, call);
  case Group::Memory:
    if (!args.args.empty() && args.args[0].getTag() == kBlockPtrTag)
      return genBlockPtrBuiltin(name, args, call);
    return genMemoryBuiltin(name, args, call);
  case Group::Math:
    if (name == "abs" && !args.args.empty() && args.args[0].isConstNumber())
      return genPythonBuiltin(name, args, call);
    return genMathBuiltin(name, args, call);
  case Group::Shape:
    return genShapeBuiltin(name, args, call);
  case Group::Reduce: {
    // Python's min/max of compile-time numbers.
    bool allConst = args.args.size() >= 2 && args.keywords.empty() &&
                    llvm::all_of(args.args, [](const SemaValue &v) {
                      return v.isConstNumber();
                    });
    if ((name == "min" || name == "max") && allConst)
      return genPythonBuiltin(name, args, call);
    if ((name == "min" || name == "max") && args.args.size() == 2 &&
        args.keywords.empty() && !args.args[1].isInt() &&
        !args.args[1].isNone())
      return genMathBuiltin(name == "min" ? "minimum" : "maximum", args, call);
    return genReduceBuiltin(name, args, call);
  }
  case Group::Python:
    return genPythonBuiltin(name, args, call);
  case Group::Misc:
    return genMiscBuiltin(name, args, call);
  case Group::Scan:
    return genScanBuiltin(name, args, call);
  case Group::Atomic:
    return genAtomicBuiltin(name, args, call);
  case Group::Composed:
    return genComposedBuiltin(name, args, call);
  case Group::BlockPtr:
    return genBlockPtrBuiltin(name, args, call);
  case Group::None:
    break;
  }
  return error(call.getCallee(), "unknown builtin '" + name + "'");
}

Expected<BoundArgs> Generator::bindArgs(llvm::StringRef name, CallArgs &args,
                                        const ast::CallExpr &call,
                                        llvm::ArrayRef<llvm::StringRef> params,
                                        unsigned numRequired) {
  BoundArgs b;
  b.call = &call;
  b.values.resize(params.size());
  b.exprs.resize(params.size(), nullptr);
  if (args.args.size() > params.size())
    return error(*args.argExprs[params.size()],
                 "'" + name + "' takes at most " + llvm::Twine(params.size()) +
                     " arguments (" + llvm::Twine(args.args.size()) +
                     " given)");
  for (size_t i = 0; i < args.args.size(); ++i) {
    b.values[i] = args.args[i];
    b.exprs[i] = args.argExprs[i];
  }
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const ast::Keyword &kw = *args.keywords[k];
    auto it = llvm::find(params, kw.name);
    // `arg1`, `arg2`, ...: positional-only (range's start and end).
    llvm::StringRef kwName = kw.name;
    bool positionalOnly = kwName.size() > 3 && kwName.starts_with("arg") &&
                          llvm::isDigit(kwName[3]);
    if (it == params.end() || positionalOnly)
      return error(kw.location.getLoc(),
                   "unknown keyword argument '" + kw.name + "' for '" + name +
                       "'",
                   kw.location.getRange());
    size_t i = it - params.begin();
    if (b.values[i])
      return error(kw.location.getLoc(),
                   "argument '" + kw.name + "' of '" + name + "' given twice",
                   kw.location.getRange());
    b.values[i] = args.keywordValues[k];
    b.exprs[i] = kw.value.get();
  }
  for (unsigned i = 0; i < numRequired; ++i)
    if (!b.values[i])
      return error(call, "'" + name + "' is missing its argument '" +
                             params[i] + "'");
  // An explicit None means "not given".
  for (auto &v : b.values)
    if (v && v->isNone())
      v.reset();
  return b;
}

Expected<int64_t> Generator::getConstInt(const BoundArgs &b, unsigned i,
                                         llvm::StringRef what) {
  const SemaValue &v = b.get(i);
  if (v.isInt() || v.isBool())
    return v.getInt();
  return error(b.expr(i),
               what + " must be a compile-time integer, got " + v.describe());
}

Expected<llvm::SmallVector<int64_t>>
Generator::getConstShape(const SemaValue &v, const ast::Expr &where) {
  llvm::SmallVector<int64_t> shape;
  std::vector<SemaValue> dims =
      v.isTuple() ? v.getElements() : std::vector<SemaValue>{v};
  for (const SemaValue &d : dims) {
    if (!d.isInt())
      return error(where, "a block shape must be compile-time integers, got " +
                              d.describe());
    if (d.getInt() <= 0)
      return error(where, "block dimensions must be positive, got " +
                              llvm::Twine(d.getInt()));
    shape.push_back(d.getInt());
  }
  return shape;
}

Expected<mlir::Type> Generator::getDTypeArg(const BoundArgs &b, unsigned i) {
  if (b.has(i) && b.get(i).isDType())
    return b.get(i).getType();
  return error(b.expr(i),
               "expected a dtype such as tl.float32, got " +
                   (b.has(i) ? b.get(i).describe() : std::string("nothing")));
}

Expected<mlir::Value> Generator::getRuntimeArg(const BoundArgs &b, unsigned i) {
  return toRuntime(b.get(i), b.expr(i));
}

Expected<SemaValue> Generator::genPythonBuiltin(llvm::StringRef name,
                                                CallArgs &args,
                                                const ast::CallExpr &call) {
  if (name == "static_assert") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"cond", "msg"}, 1);
    if (!b)
      return b.takeError();
    if (!b->get(0).isConstexpr())
      return error(b->expr(0), "static_assert needs a compile-time condition");
    if (b->get(0).isTruthy())
      return SemaValue::getNone();
    std::string msg = "static assertion failed";
    if (b->has(1) && b->get(1).isString())
      msg += ": " + b->get(1).getString().str();
    return error(b->expr(0), msg);
  }
  if (name == "range" || name == "static_range")
    return error(call, "'" + name +
                           "' can only be the iterator of a for "
                           "loop");
  if (name == "float" || name == "int" || name == "bool" ||
      name == "constexpr") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x"}, 1);
    if (!b)
      return b.takeError();
    const SemaValue &v = b->get(0);
    if (name == "constexpr") {
      if (!v.isConstexpr())
        return error(b->expr(0), "constexpr() needs a compile-time value");
      return v;
    }
    if (v.isString() && name == "float") {
      llvm::StringRef s = v.getString().trim();
      double inf = std::numeric_limits<double>::infinity();
      if (s.equals_insensitive("inf") || s.equals_insensitive("+inf") ||
          s.equals_insensitive("infinity"))
        return SemaValue::getFloat(inf);
      if (s.equals_insensitive("-inf") || s.equals_insensitive("-infinity"))
        return SemaValue::getFloat(-inf);
      if (s.equals_insensitive("nan"))
        return SemaValue::getFloat(std::numeric_limits<double>::quiet_NaN());
      double d;
      if (!s.getAsDouble(d))
        return SemaValue::getFloat(d);
      return error(b->expr(0), "could not convert '" + s + "' to float");
    }
    if (v.isConstNumber()) {
      if (name == "float")
        return SemaValue::getFloat(v.getAsDouble());
      if (name == "int" && v.isFloat()) {
        // Python's int() of a float, within the kernel's 64-bit integers.
        double d = v.getFloat();
        if (std::isnan(d))
          return error(b->expr(0), "cannot convert float NaN to integer");
        if (std::isinf(d))
          return error(b->expr(0), "cannot convert float infinity to integer");
        if (!(d >= -0x1p63 && d < 0x1p63))
          return error(b->expr(0),
                       llvm::formatv("invalid constant expression: integer "
                                     "overflow: int({0}) does not fit in "
                                     "int64",
                                     llvm::format("%g", d))
                           .str());
        return SemaValue::getInt(static_cast<int64_t>(d));
      }
      if (name == "int")
        return SemaValue::getInt(v.getInt());
      return SemaValue::getBool(v.isTruthy());
    }
    if (v.isRuntime() && !v.isTensor() &&
        getElementType(v.getType()).isIntOrFloat()) {
      mlir::Type t = builder.getI1Type();
      if (name == "float")
        t = builder.getF32Type();
      else if (name == "int")
        t = builder.getI32Type();
      return runtime(castTo(v.getValue(), t, loc(call)));
    }
    return error(b->expr(0),
                 "'" + name + "' of " + v.describe() + " is not supported");
  }
  if (name == "min" || name == "max") {
    SemaValue best = args.args[0];
    for (const SemaValue &v : args.args)
      if ((name == "min") ? v.getAsDouble() < best.getAsDouble()
                          : v.getAsDouble() > best.getAsDouble())
        best = v;
    return best;
  }
  if (name == "abs") {
    const SemaValue &v = args.args[0];
    if (v.isFloat())
      return SemaValue::getFloat(std::fabs(v.getFloat()));
    return SemaValue::getInt(v.getInt() < 0 ? -v.getInt() : v.getInt());
  }
  if (name == "getattr" || name == "hasattr") {
    // getattr(value, "name"[, default]) with a constant name: `value.name`
    // (Triton's tests pick builtins so: getattr(tl, op)); hasattr(value,
    // "name"): whether that succeeds (`if hasattr(tl, "fast_expf")`).
    bool has = name == "hasattr";
    Expected<BoundArgs> b =
        has ? bindArgs(name, args, call, {"object", "name"}, 2)
            : bindArgs(name, args, call, {"object", "name", "default"}, 2);
    if (!b)
      return b.takeError();
    if (!b->get(1).isString())
      return error(b->expr(1), name + "() needs a constant string name, got " +
                                   b->get(1).describe());
    ast::AttributeExpr attr(
        call.getLocation(),
        std::make_unique<ast::NameExpr>(b->expr(0).getLocation(), "getattr"),
        b->get(1).getString().str(), b->expr(1).getLocation());
    Expected<SemaValue> v = getAttribute(b->get(0), attr);
    if (has) {
      bool found = static_cast<bool>(v);
      if (!found)
        llvm::consumeError(v.takeError());
      return SemaValue::getBool(found);
    }
    if (v || !b->has(2))
      return v;
    llvm::consumeError(v.takeError());
    return b->get(2);
  }
  if (name == "tuple") {
    // Python's tuple(...) and tl.tuple(args): a tuple of a tuple (a list
    // literal is one) is itself; tuple() is empty.
    Expected<BoundArgs> b = bindArgs(name, args, call, {"args"}, 0);
    if (!b)
      return b.takeError();
    if (!b->has(0))
      return SemaValue::getTuple({});
    if (b->get(0).isTuple())
      return b->get(0);
    return error(b->expr(0), "tl.tuple takes a tuple or a list, got " +
                                 b->get(0).describe());
  }
  if (name == "len") {
    Expected<BoundArgs> b = bindArgs(name, args, call, {"x"}, 1);
    if (!b)
      return b.takeError();
    if (b->get(0).isTuple())
      return SemaValue::getInt(b->get(0).getElements().size());
    if (b->get(0).isTensor())
      return SemaValue::getInt(getShapeOf(b->get(0).getLogicalType())[0]);
    return error(b->expr(0), "len() of " + b->get(0).describe());
  }
  if (name == "jit") {
    // `triton.jit(fn)` is fn (a kernel alias at module level); `jit(...)`
    // with options is a decorator.
    if (args.args.size() == 1 &&
        args.args[0].getKind() == SemaValue::Kind::Function)
      return args.args[0];
    return error(call, "@jit is a decorator, not a function to call");
  }
  return error(call.getCallee(), "'" + name + "' is not supported in kernels");
}
