//===- MLIRGenModules.cpp - the modules a kernel can name -----------------===//
//
// This file implements the resolution of imports and of attributes of
// modules: `triton`, `triton.language` (`tl`, also reached as `mgp`),
// `triton.language.math`, `triton.language.extra(.cuda)` and the libdevice
// modules (`triton.language.extra.libdevice`, `tl.extra.cuda.libdevice`, the
// HIP one and the old `triton.language.libdevice`), so that every spelling
// real kernels use reaches the same builtins: `tl.extra.cuda.libdevice.tanh`,
// `from triton.language.extra.libdevice import tanh`, `tl.math.erf`; and
// `triton.language.target_info` (`is_cuda()`, `cuda_capability_geq(9)`).
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGenImpl.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/LibdeviceTable.h"
#include "compiler/frontend/Prelude.h"
#include "compiler/frontend/SemaTypes.h"
#include "compiler/ir/MgpDialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>

using namespace mgp;
using namespace mgp::detail;
using llvm::Expected;

/// The canonical name of a module path the front end knows, if it is one.
static std::optional<llvm::StringRef> getCanonicalModule(llvm::StringRef path) {
  if (path == "triton")
    return kTritonModule;
  if (path == "triton.language" || path == "triton.language.core" ||
      path == "triton.language.standard")
    return kLanguageModule;
  if (path == "mgp")
    return llvm::StringRef("mgp");
  if (path == "triton.language.math")
    return kMathModule;
  if (path == kTargetInfoModule)
    return kTargetInfoModule;
  if (path == "triton.language.extra")
    return kExtraModule;
  if (path == "triton.language.extra.cuda" ||
      path == "triton.language.extra.hip")
    return kExtraCudaModule;
  if (path == "triton.language.extra.libdevice" ||
      path == "triton.language.extra.cuda.libdevice" ||
      path == "triton.language.extra.hip.libdevice" ||
      path == "triton.language.libdevice")
    return kLibdeviceModule;
  return std::nullopt;
}

/// The member `name` of the known module `module`; null (with `why` set)
/// when it has none.
static std::optional<SemaValue> getMember(mlir::MLIRContext *ctx,
                                          llvm::StringRef module,
                                          llvm::StringRef name,
                                          std::string &why) {
  if (module == kTritonModule) {
    if (name == "language")
      return SemaValue::getModule(kLanguageModule);
    if (name == "cdiv") // Python's, not tl.cdiv
      return SemaValue::getBuiltin("triton.cdiv");
    if (llvm::is_contained({"jit", "constexpr", "next_power_of_2"}, name))
      return SemaValue::getBuiltin(name);
    why = "'triton." + name.str() + "' is not supported in kernels";
    return std::nullopt;
  }
  if (module == kLanguageModule || module == "mgp") {
    if (mlir::Type t = lookupDTypeName(ctx, name))
      return SemaValue::getDType(t, isUnsignedDTypeName(name));
    if (name == "TRITON_MAX_TENSOR_NUMEL")
      return SemaValue::getInt(1048576);
    if (name == "pi32_t")
      return SemaValue::getDType(
          PointerType::get(mlir::IntegerType::get(ctx, 32)));
    if (name == "math")
      return SemaValue::getModule(kMathModule);
    if (name == "PropagateNan")
      return SemaValue::getModule(kPropagateNanModule);
    if (name == "extra")
      return SemaValue::getModule(kExtraModule);
    if (name == "target_info")
      return SemaValue::getModule(kTargetInfoModule);
    if (name == "language" || name == "core" || name == "standard")
      return SemaValue::getModule(module);
    if (name == "constexpr" || name == "jit" || name == "tuple" ||
        Generator::isBuiltinName(name))
      return SemaValue::getBuiltin(name);
    if (name == "float8e4b8" || name == "float8e5b16") {
      why = "'" + name.str() +
            "' is an AMD fp8 format, which NVIDIA GPUs do not have (Triton's "
            "NVIDIA backend rejects it too): use float8e4nv or float8e5";
      return std::nullopt;
    }
    why = "unknown builtin '" + name.str() + "' of " + module.str();
    return std::nullopt;
  }
  if (module == kMathModule) {
    if (Generator::isBuiltinName(name))
      return SemaValue::getBuiltin(name);
    if (lookupLibdeviceFunction(name))
      return SemaValue::getBuiltin((kLibdevicePrefix + name).str());
    why = "unknown function '" + name.str() + "' of triton.language.math";
    return std::nullopt;
  }
  if (module == kPropagateNanModule) {
    if (name == "NONE" || name == "ALL")
      return SemaValue::getInt(name == "ALL" ? 0xffff : 0);
    why = "tl.PropagateNan has NONE and ALL, not '" + name.str() + "'";
    return std::nullopt;
  }
  if (module == kExtraModule) {
    if (name == "cuda" || name == "hip")
      return SemaValue::getModule(kExtraCudaModule);
    if (name == "libdevice")
      return SemaValue::getModule(kLibdeviceModule);
    why = "unknown module 'triton.language.extra." + name.str() + "'";
    return std::nullopt;
  }
  if (module == kExtraCudaModule) {
    if (name == "libdevice")
      return SemaValue::getModule(kLibdeviceModule);
    if (Generator::isBuiltinName(name) &&
        (name == "gdc_wait" || name == "gdc_launch_dependents"))
      return SemaValue::getBuiltin(name);
    why = "'triton.language.extra.cuda." + name.str() +
          "' is not supported in kernels";
    return std::nullopt;
  }
  if (module == kTargetInfoModule) {
    if (llvm::is_contained({"is_cuda", "cuda_capability_geq", "is_hip",
                            "is_hip_cdna3", "is_hip_cdna4"},
                           name))
      return SemaValue::getBuiltin((kTargetInfoPrefix + name).str());
    if (name == "current_target")
      why = "'triton.language.target_info.current_target' returns a host "
            "object, which kernels cannot use in mgp: ask is_cuda() or "
            "cuda_capability_geq(major, minor)";
    else
      why = "unknown function '" + name.str() +
            "' of triton.language.target_info";
    return std::nullopt;
  }
  if (module == kLibdeviceModule) {
    if (lookupLibdeviceFunction(name))
      return SemaValue::getBuiltin((kLibdevicePrefix + name).str());
    why = "'" + name.str() + "' is not a libdevice function";
    return std::nullopt;
  }
  why = "module '" + module.str() + "' cannot be used in a kernel";
  return std::nullopt;
}

/// The prefix of the value names of modules imported from files.
static constexpr llvm::StringLiteral kUserModulePrefix = "py:";

Expected<SemaValue> Generator::getUserModule(llvm::StringRef file,
                                             llvm::StringRef dotted) {
  Expected<const ast::Module *> m = loader->loadFile(file);
  if (!m)
    return m.takeError();
  for (const auto &fn : (*m)->functions)
    functionModules[fn.get()] = *m;
  std::string key = (kUserModulePrefix + file).str();
  userModules[key] = UserModule{*m, dotted.str()};
  return SemaValue::getModule(key);
}

Expected<SemaValue> Generator::resolveImportPath(llvm::StringRef path,
                                                 const ast::Import &import,
                                                 const ast::Module &from,
                                                 llvm::SMLoc useLoc,
                                                 llvm::SMRange useRange) {
  if (std::optional<llvm::StringRef> m = getCanonicalModule(path))
    return SemaValue::getModule(*m);
  // `from M import name` of a known module M.
  auto [parent, name] = path.rsplit('.');
  if (!name.empty())
    if (std::optional<llvm::StringRef> m = getCanonicalModule(parent)) {
      std::string why;
      if (std::optional<SemaValue> v = getMember(&context, *m, name, why))
        return *v;
      return error(import.location.getLoc(), why, import.location.getRange());
    }
  if (path == "triton" || path.starts_with("triton.") || !loader)
    return SemaValue::getModule(path);
  // A module file (`import pkg.utils as u`, `from . import utils`).
  std::vector<std::string> searched;
  std::string file = loader->findModuleFile(path, from, searched);
  if (!file.empty())
    return getUserModule(file, path);
  if (!import.isFrom)
    return SemaValue::getModule(path); // an error where it is used
  // A name of a module file (`from .utils import f`).
  searched.clear();
  std::string parentFile =
      loader->findModuleFile(import.module, from, searched);
  if (parentFile.empty()) {
    std::string where = searched.empty()
                            ? std::string("the importing file is not on disk")
                            : "searched " + llvm::join(searched, ", ");
    return error(useLoc,
                 "cannot find module '" + import.module + "' that '" +
                     import.getBoundName() + "' is imported from (" + where +
                     "; add the folder that holds it with -I)",
                 useRange);
  }
  Expected<SemaValue> parentModule = getUserModule(parentFile, import.module);
  if (!parentModule)
    return parentModule.takeError();
  const ast::Module &m = *userModules[parentModule->getName()].module;
  Expected<std::optional<SemaValue>> v =
      lookupGlobal(m, import.name, useLoc, useRange);
  if (!v)
    return v.takeError();
  if (*v)
    return **v;
  return error(useLoc,
               "module '" + import.module + "' (" + parentFile +
                   ") has no function, constant or import named '" +
                   import.name + "'",
               useRange);
}

Expected<SemaValue> Generator::getModuleAttribute(const SemaValue &module,
                                                  const ast::AttributeExpr &e) {
  llvm::StringRef path = module.getName();
  if (path.starts_with(kUserModulePrefix)) {
    const UserModule &user = userModules[path];
    llvm::StringRef attr = e.getAttr();
    Expected<std::optional<SemaValue>> v =
        lookupGlobal(*user.module, attr, e.getLoc(), e.getRange());
    if (!v)
      return v.takeError();
    if (*v)
      return **v;
    // A submodule: `pkg.utils` after `import pkg`.
    std::string dotted = user.dotted + "." + attr.str();
    std::vector<std::string> searched;
    std::string file = loader->findModuleFile(dotted, *user.module, searched);
    if (!file.empty())
      return getUserModule(file, dotted);
    const ast::SourceLocation &al = e.getAttrLocation();
    return error(al.getLoc(),
                 "module '" + user.dotted +
                     "' has no function, constant, "
                     "import or submodule named '" +
                     attr + "'",
                 al.getRange());
  }
  if (!getCanonicalModule(path) && path != kLibdeviceModule &&
      path != kExtraCudaModule && path != kMathModule &&
      path != kExtraModule && path != kPropagateNanModule)
    return error(e, "module '" + path + "' cannot be used in a kernel");
  std::string why;
  if (std::optional<SemaValue> v = getMember(&context, path, e.getAttr(), why))
    return *v;
  const ast::SourceLocation &al = e.getAttrLocation();
  return error(al.getLoc(), why, al.getRange());
}

Expected<SemaValue> Generator::callPreludeFunction(llvm::StringRef name,
                                                   CallArgs &args,
                                                   const ast::CallExpr &call) {
  if (!prelude) {
    unsigned id = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(getPreludeSource(), "<mgp-prelude>"),
        llvm::SMLoc());
    Expected<std::unique_ptr<ast::Module>> parsed =
        parseSourceFile(sourceMgr, id);
    if (!parsed)
      return parsed.takeError();
    prelude = std::move(*parsed);
    for (const auto &fn : prelude->functions)
      functionModules[fn.get()] = prelude.get();
  }
  const ast::FunctionDef *fn = prelude->findFunction(name);
  assert(fn && "prelude function missing");
  return callFunction(*fn, args, call);
}
