//===- CompileKernel.cpp - one kernel from source text to PTX -------------===//
//
// This file implements runStages (the stages after the front end, shared by
// compileKernel and mgpc), compileKernel (parse, MLIRGen, then runStages:
// target-independent passes, optionally GPU passes, LLVM IR and PTX, each
// timed) and getKernelParams, the parameter list a JIT checks launches
// against.
//
//===----------------------------------------------------------------------===//
#include "compiler/pipeline/CompileKernel.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>

using namespace mgp;

namespace {
/// Times one stage into a StageTimes field.
class StageTimer {
public:
  explicit StageTimer(double &slot)
      : slot(slot), start(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    slot = std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
               .count();
  }

private:
  double &slot;
  std::chrono::steady_clock::time_point start;
};

/// A parsed file: the SourceMgr must outlive the AST.
struct ParsedFile {
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<ast::Module> module;
};
} // namespace

static llvm::Error parseFile(ParsedFile &file, llvm::StringRef source,
                             llvm::StringRef fileName) {
  unsigned id = file.sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, fileName), llvm::SMLoc());
  auto module = parseSourceFile(file.sourceMgr, id);
  if (!module)
    return module.takeError();
  file.module = std::move(*module);
  return llvm::Error::success();
}

/// The kernel called \p name, or an error listing the file's kernels.
static llvm::Expected<const ast::FunctionDef *>
findKernel(const ast::Module &module, llvm::StringRef fileName,
           llvm::StringRef name) {
  if (const ast::FunctionDef *def = module.findKernel(name))
    return def;
  std::string known;
  for (const std::string &kernel : listKernels(module))
    known += (known.empty() ? "" : ", ") + kernel;
  return llvm::createStringError(
      llvm::Twine(fileName) + ": no @jit kernel '" + name + "' (kernels: " +
      (known.empty() ? std::string("none") : known) + ")");
}

llvm::Expected<std::vector<KernelParamInfo>>
mgp::getKernelParams(llvm::StringRef source, llvm::StringRef fileName,
                     llvm::StringRef kernelName) {
  ParsedFile file;
  if (llvm::Error err = parseFile(file, source, fileName))
    return std::move(err);
  auto def = findKernel(*file.module, fileName, kernelName);
  if (!def)
    return def.takeError();
  std::vector<KernelParamInfo> params;
  for (const ast::Param &param : (*def)->params) {
    KernelParamInfo info{param.name, false};
    if (const ast::Expr *annotation = param.annotation.get()) {
      if (const auto *n = llvm::dyn_cast<ast::NameExpr>(annotation))
        info.isConstexpr = n->getName() == "constexpr";
      else if (const auto *a = llvm::dyn_cast<ast::AttributeExpr>(annotation))
        info.isConstexpr = a->getAttr() == "constexpr";
    }
    params.push_back(std::move(info));
  }
  return params;
}

/// The PTX entry: the LLVM function of the kernel's name, else the only
/// PTX kernel of the module.
static std::string findEntryName(llvm::Module &module,
                                 llvm::StringRef kernelName) {
  if (module.getFunction(kernelName))
    return kernelName.str();
  for (llvm::Function &fn : module)
    if (fn.getCallingConv() == llvm::CallingConv::PTX_Kernel)
      return fn.getName().str();
  return kernelName.str();
}

/// Reads an integer module attribute (0 when absent).
static int64_t moduleIntAttr(mlir::ModuleOp module, llvm::StringRef name) {
  if (auto attr = module->getAttrOfType<mlir::IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

llvm::Expected<LoweredModule>
mgp::runStages(mlir::ModuleOp module, const KernelOptions &options,
               const Target &target, Stage first, Stage last,
               llvm::function_ref<void(llvm::StringRef, double)> onStage,
               PendingTargetMachine *machine) {
  auto runs = [&](Stage stage) { return first <= stage && stage <= last; };
  auto timed = [&](llvm::StringRef name, auto &&fn) {
    auto start = std::chrono::steady_clock::now();
    auto result = fn();
    if (onStage)
      onStage(name, std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
    return result;
  };
  LoweredModule lowered;
  if (runs(Stage::MLIR)) {
    if (options.precision == DotPrecision::IEEE)
      module->walk(
          [](DotOp dot) { dot.setInputPrecision(InputPrecision::IEEE); });
    if (llvm::Error err = timed("target-independent", [&] {
          return runTargetIndependentPasses(module);
        }))
      return std::move(err);
  }
  if (runs(Stage::MLIRGPU))
    if (llvm::Error err =
            timed("gpu", [&] { return runGPUPasses(module, options, target); }))
      return std::move(err);
  if (runs(Stage::LLVM)) {
    if (options.maxNumRegs > 0)
      module->setAttr(kMaxNumRegsAttrName,
                      mlir::Builder(module.getContext())
                          .getI32IntegerAttr(options.maxNumRegs));
    lowered.llvmContext = std::make_unique<llvm::LLVMContext>();
    auto llvmModule = timed("llvm", [&] {
      return lowerToLLVMIR(module, *lowered.llvmContext, target);
    });
    if (!llvmModule)
      return llvmModule.takeError();
    // Read by NVVMReflect in libdevice's functions (linked by emitPTX).
    (*llvmModule)
        ->addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                        options.reflectFtz ? 1u : 0u);
    lowered.llvmModule = std::move(*llvmModule);
  }
  if (runs(Stage::PTX)) {
    assert(lowered.llvmModule && "PTX is emitted from the LLVM stage's module");
    auto ptx = timed(
        "ptx", [&] { return emitPTX(*lowered.llvmModule, target, machine); });
    if (!ptx)
      return ptx.takeError();
    lowered.ptx = std::move(*ptx);
  }
  return std::move(lowered);
}

llvm::Expected<KernelCompileResult>
mgp::compileKernel(const KernelRequest &request) {
  KernelCompileResult result;
  // The target machine is created while the front end runs.
  std::optional<PendingTargetMachine> machine;
  if (!request.target.isCPU())
    machine.emplace(request.target);
  ParsedFile file;
  {
    StageTimer timer(result.times.parse);
    if (llvm::Error err = parseFile(file, request.source, request.fileName))
      return std::move(err);
  }
  if (auto def = findKernel(*file.module, request.fileName, request.kernelName);
      !def)
    return def.takeError();

  result.context = createCompileContext();
  {
    StageTimer timer(result.times.mlirgen);
    KernelGenOptions genOptions;
    genOptions.numWarps = request.options.numWarps;
    genOptions.computeCapability = request.target.computeCapability();
    auto module =
        generateKernelModule(*result.context, file.sourceMgr, *file.module,
                             request.kernelName, request.signature, {},
                             genOptions);
    if (!module)
      return module.takeError();
    result.module = std::move(*module);
  }
  StageTimes &times = result.times;
  auto onStage = [&times](llvm::StringRef stage, double ms) {
    if (stage == "target-independent")
      times.targetIndependent = ms;
    else if (stage == "gpu")
      times.gpu = ms;
    else if (stage == "llvm")
      times.llvm = ms;
    else
      times.ptx = ms;
  };
  if (auto lowered = runStages(*result.module, request.options, request.target,
                               Stage::MLIR, Stage::MLIR, onStage);
      !lowered)
    return lowered.takeError();
  for (auto func : result.module->getOps<mlir::func::FuncOp>())
    if (func.getSymName() == request.kernelName)
      result.kernel = func;
  if (!result.kernel)
    return llvm::createStringError("kernel '" + request.kernelName +
                                   "' vanished in the passes");
  result.symbolName = request.kernelName;
  result.numWarps = request.options.numWarps;
  if (request.target.isCPU())
    return result;

  // The GPU stages work on a copy: `module` stays block-level.
  mlir::OwningOpRef<mlir::ModuleOp> gpuModule = result.module->clone();
  auto lowered = runStages(*gpuModule, request.options, request.target,
                           Stage::MLIRGPU, Stage::PTX, onStage, &*machine);
  if (!lowered)
    return lowered.takeError();
  result.sharedBytes =
      static_cast<unsigned>(moduleIntAttr(*gpuModule, kSharedAttrName));
  if (int64_t warps = moduleIntAttr(*gpuModule, kNumWarpsAttrName))
    result.numWarps = static_cast<int>(warps);
  result.symbolName = findEntryName(*lowered->llvmModule, request.kernelName);
  result.ptx = std::move(lowered->ptx);
  return result;
}
