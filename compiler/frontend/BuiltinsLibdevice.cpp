//===- BuiltinsLibdevice.cpp - calls of libdevice functions ---------------===//
//
// This file implements the calls of `triton.language.extra.libdevice`
// functions (LibdeviceTable.h): the arguments become runtime values and are
// matched against the function's overloads, first as they are, then promoted
// to a common type as Triton's extern_elementwise does; fp16/bf16 values
// compute in fp32 and round back (Triton refuses them); the call becomes
// mgp.extern_elementwise with the overload's libdevice symbol, broadcast over
// the arguments' common shape.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/LibdeviceTable.h"
#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

/// The overload code of an element type (`f`, `d`, `i`, `l`), or 0.
static char getTypeCode(mlir::Type t) {
  if (t.isF32())
    return 'f';
  if (t.isF64())
    return 'd';
  if (t.isInteger(32))
    return 'i';
  if (t.isInteger(64))
    return 'l';
  return 0;
}

/// The element type of an overload code.
static mlir::Type getCodeType(mlir::MLIRContext *ctx, char code) {
  switch (code) {
  case 'f':
    return mlir::Float32Type::get(ctx);
  case 'd':
    return mlir::Float64Type::get(ctx);
  case 'i':
  case 'u':
    return mlir::IntegerType::get(ctx, 32);
  default:
    return mlir::IntegerType::get(ctx, 64);
  }
}

/// The Triton spelling of an overload's argument list: `(fp32, int32)`.
static std::string describeOverload(llvm::StringRef args) {
  std::string s = "(";
  for (size_t i = 0; i < args.size(); ++i) {
    static const char *const names[] = {"fp32",  "fp64",   "int32",
                                        "int64", "uint32", "uint64"};
    size_t k = llvm::StringRef("fdiluU").find(args[i]);
    s += (i ? ", " : "") + std::string(names[k]);
  }
  return s + ")";
}

/// The first overload of `fn` whose argument codes are `codes` (`u`/`U`
/// accept `i`/`l`).
static const LibdeviceOverload *findOverload(const LibdeviceFunction &fn,
                                             llvm::StringRef codes) {
  for (const LibdeviceOverload &o : fn.overloads) {
    llvm::StringRef args = o.args;
    if (args.size() != codes.size())
      continue;
    bool match = true;
    for (size_t i = 0; i < args.size() && match; ++i) {
      char want = args[i] == 'u' ? 'i' : args[i] == 'U' ? 'l' : args[i];
      match = want == codes[i];
    }
    if (match)
      return &o;
  }
  return nullptr;
}

llvm::StringRef mgp::exactRoundedSymbol(llvm::StringRef symbol) {
  return llvm::StringSwitch<llvm::StringRef>(symbol)
      .Case("__nv_fsqrt_rn", "llvm.nvvm.sqrt.rn.f")
      .Case("__nv_fdiv_rn", "llvm.nvvm.div.rn.f")
      .Default(symbol);
}

Expected<SemaValue> Generator::genLibdeviceCall(llvm::StringRef name,
                                                CallArgs &args,
                                                const ast::CallExpr &call,
                                                bool exact) {
  const LibdeviceFunction *fn = lookupLibdeviceFunction(name);
  if (!fn)
    return error(call.getCallee(),
                 "'" + name + "' is not a libdevice function");
  size_t arity = llvm::StringRef(fn->overloads[0].args).size();
  if (!args.keywords.empty())
    return error(args.keywords[0]->location.getLoc(),
                 "libdevice." + name + " takes no keyword arguments",
                 args.keywords[0]->location.getRange());
  if (args.args.size() != arity)
    return error(call, "libdevice." + name + " takes " + llvm::Twine(arity) +
                           " argument" + (arity == 1 ? "" : "s") + ", got " +
                           llvm::Twine(args.args.size()));
  mlir::Location l = loc(call);
  // Runtime values; fp16/bf16 compute in fp32 and round back.
  llvm::SmallVector<mlir::Value> values;
  mlir::Type halfType;
  for (size_t i = 0; i < arity; ++i) {
    Expected<mlir::Value> v = toRuntime(args.args[i], *args.argExprs[i]);
    if (!v)
      return v.takeError();
    mlir::Type t = getElementType(v->getType());
    if (!t.isIntOrFloat())
      return error(*args.argExprs[i], "libdevice." + name +
                                          " takes numbers, got " +
                                          args.args[i].describe());
    if (t.isF16() || t.isBF16()) {
      halfType = halfType ? halfType : t;
      *v = castTo(*v, builder.getF32Type(), l);
    } else if (t.isInteger() && t.getIntOrFloatBitWidth() < 32) {
      *v = castTo(*v, builder.getI32Type(), l);
    }
    values.push_back(*v);
  }
  auto codesOf = [&]() {
    std::string codes;
    for (mlir::Value v : values)
      codes += getTypeCode(getElementType(v.getType()));
    return codes;
  };
  const LibdeviceOverload *overload = findOverload(*fn, codesOf());
  if (!overload && arity > 1) {
    // Promote the arguments to their common type (Triton's arithmetic
    // check when the types do not match an overload).
    mlir::Type common = getElementType(values[0].getType());
    for (size_t i = 1; i < arity; ++i) {
      std::string why;
      common = computeArithmeticType(common, false,
                                     getElementType(values[i].getType()),
                                     args.args[i].isConstNumber() &&
                                         !args.args[i].isHeld(),
                                     false, why);
      if (!common)
        break;
    }
    if (common) {
      llvm::SmallVector<mlir::Value> promoted;
      for (mlir::Value v : values)
        promoted.push_back(castTo(v, common, l));
      std::string codes;
      for (mlir::Value v : promoted)
        codes += getTypeCode(getElementType(v.getType()));
      if ((overload = findOverload(*fn, codes)))
        values = std::move(promoted);
    }
  }
  if (!overload) {
    std::string have = "(";
    for (size_t i = 0; i < arity; ++i)
      have += (i ? ", " : "") +
              getTypeName(getElementType(args.args[i].isRuntime()
                                             ? args.args[i].getType()
                                             : values[i].getType()));
    std::string want;
    for (const LibdeviceOverload &o : fn->overloads)
      want += (want.empty() ? "" : " or ") + describeOverload(o.args);
    return error(call, "libdevice." + name + " takes " + want + ", got " +
                           have + ")");
  }
  // Broadcast to the common shape.
  OpSite s = site(call);
  if (Error err = broadcastAll(values, s))
    return std::move(err);
  mlir::Type resultElt = getCodeType(&context, overload->result);
  mlir::Type resultType = withShape(resultElt, getShapeOf(values[0].getType()));
  mlir::Value r = ExternElementwiseOp::create(
      builder, l, resultType, values,
      exact ? exactRoundedSymbol(overload->symbol) : overload->symbol);
  if (fn->toBool)
    r = toBool(r, l);
  else if (halfType && llvm::isa<mlir::FloatType>(resultElt))
    r = castTo(r, halfType, l);
  return runtime(r);
}
