//===- MLIRGen.cpp - kernels, scopes, names and helper inlining -----------===//
//
// This file implements the entry points of MLIRGen.h and the parts of the
// Generator that deal with functions and names: binding a kernel's signature
// to its parameters (constexprs folded in, runtime parameters becoming
// arguments of the generated func.func), resolving names (locals, module
// constants, functions, imports of triton / triton.language / mgp, bare
// builtins), attributes of modules and blocks, and inlining helper calls with
// their own scope.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/Diagnostics.h"
#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

using namespace mgp;
using namespace mgp::detail;
using llvm::Error;
using llvm::Expected;

/// Inlining deeper than this is reported as (probable) recursion.
static constexpr unsigned kMaxCallDepth = 64;

Generator::Generator(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
                     const ast::Module &module, ModuleLoader *loader,
                     KernelGenOptions options)
    : context(context), sourceMgr(sourceMgr), genOptions(std::move(options)),
      module(module), loader(loader), builder(&context) {}

const ast::Module &Generator::getModuleOf(const ast::FunctionDef &fn) {
  auto it = functionModules.find(&fn);
  return it == functionModules.end() ? module : *it->second;
}

Error Generator::error(llvm::SMLoc l, const llvm::Twine &message,
                       llvm::ArrayRef<llvm::SMRange> ranges) {
  return makeSourceError(sourceMgr, l, message, ranges);
}

mlir::Location Generator::loc(const ast::SourceLocation &l) {
  return mlir::FileLineColLoc::get(&context, currentModule().fileName, l.line,
                                   l.col);
}

OpSite Generator::site(const ast::Expr &e) {
  OpSite s{e.getLoc(), {e.getRange()}, loc(e)};
  return s;
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

bool mgp::detail::isConstexprAnnotation(const ast::Expr *annotation) {
  if (!annotation)
    return false;
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(annotation))
    return n->getName() == "constexpr";
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(annotation))
    return a->getAttr() == "constexpr";
  return false;
}

/// True if `annotation` spells `const` (`tl.const`, `const`).
static bool isConstAnnotation(const ast::Expr *annotation) {
  if (!annotation)
    return false;
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(annotation))
    return n->getName() == "const";
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(annotation))
    return a->getAttr() == "const";
  return false;
}

/// Python builtins a kernel may use bare.
static bool isPythonBuiltin(llvm::StringRef name) {
  return llvm::is_contained({"range", "float", "int", "bool", "min", "max",
                             "abs", "len", "print", "isinstance", "tuple",
                             "getattr", "hasattr"},
                            name);
}

Expected<SemaValue> Generator::lookupName(const ast::NameExpr &e) {
  llvm::StringRef name = e.getName();
  auto it = frame().vars.find(name);
  if (it != frame().vars.end())
    return it->second;
  if (name == "None")
    return SemaValue::getNone();
  Expected<std::optional<SemaValue>> global =
      lookupGlobal(currentModule(), name, e.getLoc(), e.getRange());
  if (!global)
    return global.takeError();
  if (*global)
    return **global;
  if (const ast::SkippedCode *skipped =
          currentModule().findSkippedFunction(name)) {
    std::string msg = formatDiagnostic(
        sourceMgr, e.getLoc(),
        "function '" + name + "' could not be parsed:", e.getRange());
    return llvm::createStringError(msg + skipped->diagnostic);
  }
  // Python's min/max in a kernel are tl.minimum/tl.maximum (as in Triton's
  // code generator), not the reductions tl.min/tl.max.
  if (name == "min" || name == "max")
    return SemaValue::getBuiltin(name == "min" ? kPyMin : kPyMax);
  if (isPythonBuiltin(name) || isBuiltinName(name))
    return SemaValue::getBuiltin(name);
  if (mlir::Type t = lookupDTypeName(&context, name))
    return SemaValue::getDType(t, isUnsignedDTypeName(name));
  if (name == "constexpr" || name == "jit")
    return SemaValue::getBuiltin(name);
  return error(e, "undefined name '" + name + "'");
}

Expected<std::optional<SemaValue>>
Generator::lookupGlobal(const ast::Module &m, llvm::StringRef name,
                        llvm::SMLoc useLoc, llvm::SMRange useRange) {
  if (const ast::FunctionDef *fn = m.findFunction(name))
    return SemaValue::getFunction(fn);
  if (const ast::ModuleConstant *c = m.findConstant(name)) {
    auto key = std::make_pair(&m, name.str());
    auto cached = constantCache.find(key);
    if (cached != constantCache.end())
      return cached->second;
    if (!constantsInProgress.insert(key).second)
      return error(useLoc,
                   "module constant '" + name +
                       "' is defined in terms of itself",
                   useRange);
    // Module constants see only globals: evaluate in an empty frame.
    frames.emplace_back();
    frames.back().module = &m;
    Expected<SemaValue> v = genExpr(*c->value);
    frames.pop_back();
    constantsInProgress.erase(key);
    if (!v)
      return v.takeError();
    if (!v->isConstexpr() && v->getKind() != SemaValue::Kind::Function)
      return error(c->value->getLoc(),
                   "module constant '" + name +
                       "' must be a compile-time constant",
                   c->value->getRange());
    constantCache[key] = *v;
    return *v;
  }
  // The last import of `name` that resolves: imports under a module-level
  // try/except or if/else bind the same name on every path, and the
  // alternatives that mgp cannot resolve are skipped.
  std::optional<llvm::Error> firstError;
  for (const ast::Import &imp : llvm::reverse(m.imports)) {
    if (imp.getBoundName() != name)
      continue;
    Expected<SemaValue> v =
        resolveImportPath(imp.getTargetPath(), imp, m, useLoc, useRange);
    if (v) {
      if (firstError)
        llvm::consumeError(std::move(*firstError));
      return *v;
    }
    if (!firstError)
      firstError = v.takeError();
    else
      llvm::consumeError(v.takeError());
  }
  if (firstError)
    return std::move(*firstError);
  return std::nullopt;
}

Expected<SemaValue> Generator::getAttribute(const SemaValue &base,
                                            const ast::AttributeExpr &e) {
  llvm::StringRef attr = e.getAttr();
  const ast::SourceLocation &al = e.getAttrLocation();
  if (base.getKind() == SemaValue::Kind::Module)
    return getModuleAttribute(base, e);
  if (base.isDType())
    return getDTypeAttribute(base, e);
  if (base.getTag() == kTensorDescTag) {
    // desc.load(offsets) / desc.store(offsets, value) and its fields.
    if (attr == "load" || attr == "store")
      return SemaValue::getMethod(base, (attr + "_tensor_descriptor").str());
    if (llvm::is_contained({"atomic_add", "atomic_min", "atomic_max",
                            "atomic_and", "atomic_or", "atomic_xor"},
                           attr))
      return SemaValue::getMethod(base, ("descriptor_" + attr).str());
    if (attr == "shape")
      return base.getElements()[1];
    if (attr == "strides")
      return base.getElements()[2];
    if (attr == "block_shape")
      return base.getElements()[3];
    if (attr == "dtype")
      return SemaValue::getDType(
          llvm::cast<PointerType>(base.getElements()[0].getType())
              .getPointeeType(),
          base.getElements()[0].isUnsigned());
  }
  if (base.isHeld() && (attr == "dtype" || attr == "type"))
    return SemaValue::getDType(base.getType(), base.isUnsigned());
  if (base.isHeld() && (attr == "to" || isBuiltinName(attr)))
    // A 0-d tensor's methods (`s.to(tl.float16)`): on the runtime scalar.
    return SemaValue::getMethod(
        runtime(materialize(base, base.getType(), loc(e)), base.isUnsigned()),
        attr);
  if (base.isConstNumber() && attr == "dtype") {
    // A number's dtype: the type Triton gives it as a tensor (to_tensor):
    // int1, int32 / uint32 / int64 by value, fp32 or fp64.
    mlir::Type t = base.isBool() ? mlir::Type(builder.getI1Type())
                   : base.isInt()
                       ? getIntLiteralType(&context, base.getWideInt(), true)
                       : getFloatLiteralType(&context, base.getFloat());
    return SemaValue::getDType(toSignless(t), isUnsignedType(t));
  }
  if (base.isRuntime()) {
    // `x.dtype`: the element type (a pointer type for pointers); `x.type`
    // is the same dtype here (blocks are described by their elements).
    if (attr == "dtype" || attr == "type")
      return SemaValue::getDType(getElementType(base.getType()),
                                 base.isUnsigned());
    if (attr == "shape") {
      std::vector<SemaValue> dims;
      for (int64_t d : getShapeOf(base.getLogicalType()))
        dims.push_back(SemaValue::getInt(d));
      return SemaValue::getTuple(std::move(dims));
    }
    if (attr == "numel") {
      // Triton's tensor.numel: the element count, a constexpr.
      int64_t n = 1;
      for (int64_t d : getShapeOf(base.getLogicalType()))
        n *= d;
      return SemaValue::getInt(n);
    }
    if (attr == "T") {
      // Triton's tensor.T: the transpose of a 2-D block (tl.trans(x)).
      auto type = llvm::dyn_cast<mlir::RankedTensorType>(base.getType());
      if (!type || type.getRank() != 2)
        return error(al.getLoc(),
                     "'.T' needs a 2-D block, got " + base.describe(),
                     al.getRange());
      mlir::Type t = mlir::RankedTensorType::get(
          {type.getShape()[1], type.getShape()[0]}, type.getElementType());
      return runtime(TransOp::create(builder, loc(e), t, base.getValue(),
                                     builder.getDenseI32ArrayAttr({1, 0})),
                     base.isUnsigned());
    }
    if (attr == "to" || isBuiltinName(attr))
      return SemaValue::getMethod(base, attr);
  }
  if (base.isTuple() && attr == "index")
    return error(al.getLoc(), "tuple methods are not supported", al.getRange());
  return error(al.getLoc(),
               base.describe() + " has no attribute '" + attr + "'",
               al.getRange());
}

Error Generator::assignName(llvm::StringRef name, SemaValue value,
                            const ast::Expr &target) {
  if (frame().constexprParams.contains(name))
    return error(target, "cannot assign to constexpr parameter '" + name + "'");
  if (value.getKind() == SemaValue::Kind::Module ||
      value.getKind() == SemaValue::Kind::Method)
    return error(target,
                 "cannot assign " + value.describe() + " to '" + name + "'");
  frame().vars[name] = std::move(value);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Helper calls
//===----------------------------------------------------------------------===//

Expected<SemaValue> Generator::callFunction(const ast::FunctionDef &fn,
                                            CallArgs &args,
                                            const ast::CallExpr &call) {
  if (frames.size() > kMaxCallDepth)
    return error(call, "calls nested deeper than " +
                           llvm::Twine(kMaxCallDepth) +
                           " (recursive call to '" + fn.name + "'?)");
  if (args.args.size() > fn.params.size())
    return error(call, "'" + fn.name + "' takes " +
                           llvm::Twine(fn.params.size()) + " arguments but " +
                           llvm::Twine(args.args.size()) + " were given");
  std::vector<std::optional<SemaValue>> bound(fn.params.size());
  for (size_t i = 0; i < args.args.size(); ++i)
    bound[i] = args.args[i];
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const ast::Keyword &kw = *args.keywords[k];
    auto it = llvm::find_if(
        fn.params, [&](const ast::Param &p) { return p.name == kw.name; });
    if (it == fn.params.end())
      return error(kw.location.getLoc(),
                   "unknown keyword argument '" + kw.name + "' for '" +
                       fn.name + "'",
                   kw.location.getRange());
    size_t idx = it - fn.params.begin();
    if (bound[idx])
      return error(kw.location.getLoc(),
                   "argument '" + kw.name + "' given twice",
                   kw.location.getRange());
    bound[idx] = args.keywordValues[k];
  }
  Frame callee;
  callee.function = &fn;
  callee.module = &getModuleOf(fn);
  frames.push_back(std::move(callee));
  llvm::scope_exit popFrame([&] { frames.pop_back(); });
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const ast::Param &p = fn.params[i];
    if (!bound[i]) {
      if (!p.defaultValue)
        return error(call, "missing argument '" + p.name + "' in call to '" +
                               fn.name + "'");
      Expected<SemaValue> d = genExpr(*p.defaultValue);
      if (!d)
        return d.takeError();
      bound[i] = *d;
    }
    if (isConstexprAnnotation(p.annotation.get())) {
      if (!bound[i]->isConstexpr()) {
        const ast::Expr &where = i < args.args.size()
                                     ? *args.argExprs[i]
                                     : static_cast<const ast::Expr &>(call);
        return error(where, "argument for constexpr parameter '" + p.name +
                                "' of '" + fn.name +
                                "' is not a compile-time constant");
      }
      frame().constexprParams.insert(p.name);
      bound[i] = bound[i]->asLiteral();
    }
    frame().vars[p.name] = *bound[i];
  }
  if (Error err = genBlock(fn.body))
    return std::move(err);
  return frame().returnValue ? *frame().returnValue : SemaValue::getNone();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

static SemaValue toSemaValue(mlir::MLIRContext &ctx, const ConstValue &c) {
  switch (c.kind) {
  case ConstValue::Kind::Int:
    if (c.isUInt64)
      return SemaValue::getUInt64(uint64_t(c.intValue));
    return SemaValue::getInt(c.intValue);
  case ConstValue::Kind::Float:
    return SemaValue::getFloat(c.floatValue);
  case ConstValue::Kind::Bool:
    return SemaValue::getBool(c.intValue != 0);
  case ConstValue::Kind::String:
    return SemaValue::getString(c.text);
  case ConstValue::Kind::None:
    return SemaValue::getNone();
  case ConstValue::Kind::DType: {
    llvm::StringRef name = c.text;
    name.consume_front("tl.");
    name.consume_front("triton.language.");
    return SemaValue::getDType(lookupDTypeName(&ctx, name),
                               isUnsignedDTypeName(name));
  }
  }
  llvm_unreachable("bad ConstValue kind");
}

/// The MLIR type of a signature scalar type (unsigned types are signless:
/// isUnsignedDType says which they are).
static mlir::Type getSignatureType(mlir::MLIRContext &ctx, DType t) {
  switch (t) {
  case DType::F16:
    return mlir::Float16Type::get(&ctx);
  case DType::BF16:
    return mlir::BFloat16Type::get(&ctx);
  case DType::F32:
    return mlir::Float32Type::get(&ctx);
  case DType::F64:
    return mlir::Float64Type::get(&ctx);
  case DType::F8E4NV:
    return mlir::Float8E4M3FNType::get(&ctx);
  case DType::F8E5:
    return mlir::Float8E5M2Type::get(&ctx);
  case DType::F8E4B15:
    return getFp8E4B15Type(&ctx);
  default:
    return mlir::IntegerType::get(&ctx, dtypeBits(t));
  }
}

/// The position of `where` in the source buffers (none if it is not there).
static llvm::SMLoc findSourceLoc(llvm::SourceMgr &sourceMgr,
                                 mlir::FileLineColLoc where) {
  for (unsigned id = 1; id <= sourceMgr.getNumBuffers(); ++id)
    if (sourceMgr.getMemoryBuffer(id)->getBufferIdentifier() ==
        where.getFilename().getValue())
      return sourceMgr.FindLocForLineAndColumn(id, where.getLine(),
                                               where.getColumn());
  return llvm::SMLoc();
}

/// A located error at the first arith/math operation that computes on
/// float8e4b15 values (which become bytes: MLIRGenFp8E4B15.cpp) rather than
/// moving or converting them; the builtins convert them to fp16 first, so
/// this names what does not.
static llvm::Error checkFp8E4B15Uses(llvm::SourceMgr &sourceMgr,
                                     mlir::func::FuncOp func) {
  auto holds = [](mlir::Type t) {
    return isFp8E4B15(mlir::getElementTypeOrSelf(t));
  };
  mlir::Operation *bad = nullptr;
  func.walk([&](mlir::Operation *op) {
    if (bad || llvm::isa<mlir::arith::BitcastOp, mlir::arith::SelectOp,
                         mlir::arith::ConstantOp>(op))
      return;
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    if (dialect != "arith" && dialect != "math")
      return;
    if (llvm::any_of(op->getOperandTypes(), holds) ||
        llvm::any_of(op->getResultTypes(), holds))
      bad = op;
  });
  if (!bad)
    return Error::success();
  llvm::SMLoc at;
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(bad->getLoc()))
    at = findSourceLoc(sourceMgr, file);
  return makeSourceError(
      sourceMgr, at,
      "'" + bad->getName().getStringRef() +
          "' on float8e4b15 values is not supported: float8e4b15 is stored "
          "and converted only; convert with .to(tl.float16) first");
}

/// A located error at the first tensor-map access (a descriptor made with
/// `_tensor_map=`) when the target has no TMA: before sm_90, and the
/// interpreter (capability 0).
static llvm::Error checkTensorMapsForTarget(llvm::SourceMgr &sourceMgr,
                                            int capability,
                                            mlir::func::FuncOp func) {
  if (capability >= 90)
    return Error::success();
  mlir::Operation *first = nullptr;
  func.walk([&](mlir::Operation *op) {
    if (!first && llvm::isa<TensorMapLoadOp, TensorMapStoreOp>(op))
      first = op;
  });
  if (!first)
    return Error::success();
  llvm::SMLoc at;
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(first->getLoc()))
    at = findSourceLoc(sourceMgr, file);
  std::string target = capability ? "sm_" + std::to_string(capability)
                                  : std::string("the interpreter");
  return makeSourceError(
      sourceMgr, at,
      "a tensor descriptor with a tensor map (_tensor_map=, TMA) needs sm_90 "
      "or newer (compiling for " +
          target + "); without _tensor_map it works everywhere");
}

/// The first compute capability with fp8 conversions (Ada); Triton's NVIDIA
/// backend accepts fp8e4nv from there on.
static constexpr int kFp8E4NVCapability = 89;

/// A located error at the first float8e4nv value of the user's code when
/// the target has no fp8 conversions (before sm_89), as Triton rejects the
/// type there.
static llvm::Error checkFp8ForTarget(llvm::SourceMgr &sourceMgr, int capability,
                                     mlir::func::FuncOp func) {
  if (capability == 0 || capability >= kFp8E4NVCapability)
    return Error::success();
  auto holdsE4M3 = [](mlir::Type t) {
    t = mlir::getElementTypeOrSelf(t);
    if (auto ptr = llvm::dyn_cast<PointerType>(t))
      t = mlir::getElementTypeOrSelf(ptr.getPointeeType());
    return llvm::isa<mlir::Float8E4M3FNType>(t);
  };
  // The first value in a user's file (the prelude's, e.g. dot_scaled's
  // "e4m3" operand, is reported at its call by genDotScaled).
  std::optional<mlir::FileLineColLoc> where;
  auto consider = [&](mlir::Location l, mlir::Type t) {
    auto file = llvm::dyn_cast<mlir::FileLineColLoc>(l);
    if (!where && file && file.getFilename() != "<mgp-prelude>" && holdsE4M3(t))
      where = file;
  };
  for (mlir::BlockArgument arg : func.getArguments())
    consider(arg.getLoc(), arg.getType());
  func.walk([&](mlir::Operation *op) {
    for (mlir::Value result : op->getResults())
      consider(op->getLoc(), result.getType());
  });
  if (!where)
    return Error::success(); // the lowering reports what is left
  return makeSourceError(
      sourceMgr, findSourceLoc(sourceMgr, *where),
      "float8e4nv needs sm_89 or newer (compiling for sm_" +
          llvm::Twine(capability) +
          "): older GPUs have no e4m3 conversions, and Triton rejects the "
          "type there too; float8e5 works on every GPU");
}

Expected<mlir::OwningOpRef<mlir::ModuleOp>>
Generator::generate(llvm::StringRef kernelName, const Signature &signature,
                    const llvm::StringMap<ConstValue> &defines) {
  const ast::FunctionDef *fn = module.findKernel(kernelName);
  if (!fn) {
    std::vector<std::string> kernels = listKernels(module);
    return llvm::createStringError(
        "no @jit kernel named '" + kernelName + "' in " + module.fileName +
        " (kernels: " +
        (kernels.empty() ? std::string("none") : llvm::join(kernels, ", ")) +
        ")");
  }
  // Match signature entries to parameters: one per parameter, or one per
  // parameter without a -D value; trailing parameters with a default value
  // may be left out (each then takes its default, a compile-time constant).
  size_t numParams = fn->params.size();
  size_t numUndefined = llvm::count_if(fn->params, [&](const ast::Param &p) {
    return !defines.contains(p.name);
  });
  size_t numEntries = signature.params.size();
  bool skipDefined = numEntries != numParams;
  const ast::Param *missing = nullptr; // the first left out without default
  if (numEntries < numUndefined) {
    size_t seen = 0;
    for (const ast::Param &p : fn->params)
      if (!defines.contains(p.name) && seen++ >= numEntries &&
          !p.defaultValue && !missing)
        missing = &p;
  }
  if (missing && numEntries == 0)
    return error(fn->nameLocation.getLoc(),
                 "kernel '" + fn->name + "' has " + llvm::Twine(numParams) +
                     " parameters: give their types with --signature "
                     "(e.g. \"*fp32:16,i32,1024\")",
                 fn->nameLocation.getRange());
  if ((numEntries > numUndefined && numEntries != numParams) || missing) {
    std::string why;
    if (missing)
      why = " ('" + missing->name + "' is left out and has no default value)";
    return error(fn->nameLocation.getLoc(),
                 "the signature has " + llvm::Twine(numEntries) +
                     " entries but kernel '" + fn->name + "' has " +
                     llvm::Twine(numParams) + " parameters" + why,
                 fn->nameLocation.getRange());
  }

  // `@triton.jit(debug=True)` turns on device assertions for its kernel.
  for (const ast::Decorator &d : fn->decorators)
    if (auto *call = llvm::dyn_cast<ast::CallExpr>(d.expr.get()))
      if (d.isJit)
        if (const ast::Keyword *kw = call->findKeyword("debug"))
          if (auto *c = llvm::dyn_cast<ast::ConstantExpr>(kw->value.get()))
            genOptions.debug |= c->isBool() && c->getBool();

  frames.clear();
  frames.emplace_back();
  frame().function = fn;
  frame().module = &module;
  mlir::Location fnLoc = loc(fn->location);
  mlir::OwningOpRef<mlir::ModuleOp> mod = mlir::ModuleOp::create(fnLoc);
  builder.setInsertionPointToEnd(mod->getBody());

  // First pass: decide each parameter's role and the function type.
  struct Role {
    const SignatureParam *sig = nullptr;
    std::optional<SemaValue> constant;
    int argIndex = -1;
  };
  std::vector<Role> roles(numParams);
  llvm::SmallVector<mlir::Type> argTypes;
  size_t next = 0;
  for (size_t i = 0; i < numParams; ++i) {
    const ast::Param &p = fn->params[i];
    auto def = defines.find(p.name);
    const SignatureParam *sig = nullptr;
    bool fromDefault = false;
    if (def == defines.end() || !skipDefined) {
      if (next < numEntries)
        sig = &signature.params[next++];
      else
        fromDefault = true; // checked above: it has a default value
    }
    Role &role = roles[i];
    role.sig = sig;
    bool annotated = isConstexprAnnotation(p.annotation.get());
    if (def != defines.end()) {
      role.constant = toSemaValue(context, def->second);
    } else if (fromDefault) {
      Expected<SemaValue> value = genExpr(*p.defaultValue);
      if (!value)
        return value.takeError();
      if (!value->isConstexpr())
        return error(p.location.getLoc(),
                     "parameter '" + p.name +
                         "' has no signature entry and its default value is "
                         "not a compile-time constant",
                     p.location.getRange());
      role.constant = value->asLiteral();
    } else if (sig->isConstexpr()) {
      role.constant = sig->isNone     ? SemaValue::getNone()
                      : sig->isString ? SemaValue::getString(sig->stringValue)
                      : sig->isFloat  ? SemaValue::getFloat(sig->floatValue)
                      : sig->type == DType::U64
                          ? SemaValue::getUInt64(uint64_t(sig->intValue))
                          : SemaValue::getInt(sig->intValue);
    } else if (annotated && !sig->isPointer()) {
      // A dtype constexpr: `X_dtype: tl.constexpr` given `bf16`.
      role.constant = SemaValue::getDType(getSignatureType(context, sig->type),
                                          isUnsignedDType(sig->type));
    } else if (annotated) {
      return error(p.location.getLoc(),
                   "constexpr parameter '" + p.name +
                       "' needs a value: give a number, a string or a dtype "
                       "in the signature (got '" +
                       (sig->isPointer() ? "*" : "") + dtypeName(sig->type) +
                       "') or -D " + p.name + "=...",
                   p.location.getRange());
    }
    if (role.constant) {
      frame().constexprParams.insert(p.name);
      continue;
    }
    mlir::Type t = getSignatureType(context, sig->type);
    if (sig->isPointer())
      t = PointerType::get(t);
    role.argIndex = argTypes.size();
    argTypes.push_back(t);
  }

  auto funcType = builder.getFunctionType(argTypes, {});
  auto func = mlir::func::FuncOp::create(builder, fnLoc, kernelName, funcType);
  func->setAttr(kKernelAttrName, builder.getUnitAttr());
  mlir::Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (size_t i = 0; i < numParams; ++i) {
    const ast::Param &p = fn->params[i];
    Role &role = roles[i];
    if (role.constant) {
      frame().vars[p.name] = *role.constant;
      continue;
    }
    mlir::Value arg = entry->getArgument(role.argIndex);
    arg.setLoc(loc(p.location));
    if (role.sig->isPointer() &&
        (role.sig->isConst || isConstAnnotation(p.annotation.get())))
      constPointers[arg] = p.name;
    if (role.sig->divisibility == 16)
      func.setArgAttr(role.argIndex, kDivisibilityAttrName,
                      builder.getI32IntegerAttr(16));
    bool isUnsigned = isUnsignedDType(role.sig->type);
    if (role.sig->equalsOne && arg.getType().isInteger()) {
      frame().vars[p.name] = runtime(
          materialize(SemaValue::getInt(1), arg.getType(), loc(p.location)),
          isUnsigned);
      continue;
    }
    frame().vars[p.name] = runtime(arg, isUnsigned);
  }

  if (Error err = genBlock(fn->body))
    return std::move(err);
  mlir::func::ReturnOp::create(builder, fnLoc);
  if (Error err =
          checkFp8ForTarget(sourceMgr, genOptions.computeCapability, func))
    return std::move(err);
  if (Error err = checkTensorMapsForTarget(
          sourceMgr, genOptions.computeCapability, func))
    return std::move(err);
  if (Error err = checkFp8E4B15Uses(sourceMgr, func))
    return std::move(err);
  eraseFp8E4B15(*mod);

  // The IR must verify; if it does not, that is a bug of ours, reported as
  // an error rather than a crash later on.
  std::string diag;
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      llvm::raw_string_ostream os(diag);
      os << d.getLocation() << ": " << d << "\n";
      return mlir::success();
    });
    if (mlir::failed(mlir::verify(*mod)))
      return llvm::createStringError(
          "internal error: the generated IR of kernel '" + kernelName +
          "' does not verify:\n" + diag);
  }
  return std::move(mod);
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

std::vector<std::string> mgp::listKernels(const ast::Module &module) {
  return module.getKernelNames();
}

Expected<ConstValue> mgp::parseConstValue(llvm::StringRef text) {
  text = text.trim();
  if (text == "True" || text == "true")
    return ConstValue::getBool(true);
  if (text == "False" || text == "false")
    return ConstValue::getBool(false);
  if (text == "None") // an absent optional argument: `if Bias is not None:`
    return ConstValue::getNone();
  int64_t i;
  if (!text.getAsInteger(0, i))
    return ConstValue::getInt(i);
  uint64_t u;
  if (!text.getAsInteger(0, u))
    return ConstValue::getUInt64(u);
  double d;
  if (!text.getAsDouble(d))
    return ConstValue::getFloat(d);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front())
    return ConstValue::getString(text.drop_front().drop_back());
  llvm::StringRef dtype = text;
  dtype.consume_front("tl.");
  dtype.consume_front("triton.language.");
  if (isDTypeName(dtype))
    return ConstValue::getDType(dtype);
  if (text.empty())
    return llvm::createStringError("an empty -D value");
  return ConstValue::getString(text);
}

Expected<mlir::OwningOpRef<mlir::ModuleOp>> mgp::generateKernelModule(
    mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
    const ast::Module &module, llvm::StringRef kernelName,
    const Signature &signature, const llvm::StringMap<ConstValue> &defines,
    const KernelGenOptions &options) {
  context.loadDialect<MgpDialect, mlir::arith::ArithDialect,
                      mlir::func::FuncDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect>();
  ModuleLoader loader(sourceMgr, options.importPaths);
  Generator gen(context, sourceMgr, module, &loader, options);
  return gen.generate(kernelName, signature, defines);
}
