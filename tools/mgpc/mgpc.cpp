//===- mgpc.cpp - the mgp ahead-of-time compiler --------------------------===//
//
// This file implements `mgpc`, which compiles the @jit kernels of a .mgp/.py
// file (or a .mlir module) to PTX, dumping any stage on request. The stages
// are those of compiler/pipeline/Pipeline.h: source -> mgp module
// (buildModuleFromSource, or a parsed .mlir file), then runStages - the same
// sequence the JIT's compileKernel runs - target-independent passes
// (-emit=mlir) -> GPU passes (-emit=mlir-gpu) -> LLVM IR (-emit=llvm) -> PTX.
// A .mlir input re-enters where it stands: a module whose tensors already
// carry layout encodings skips the passes before lowering.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/Environment.h"
#include "compiler/api/KernelOptions.h"
#include "compiler/api/Signature.h"
#include "compiler/api/Target.h"
#include "compiler/api/Version.h"
#include "compiler/pipeline/Pipeline.h"
#include "tools/mgpc/EmitAST.h"
#include "tools/mgpc/OutputFile.h"
#include "tools/mgpc/SourceInput.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

/// mgpc's own options: `--help` lists only these (`--help-hidden` adds
/// LLVM's).
static cl::OptionCategory mgpcCategory("mgpc options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input file>"),
                                          cl::init("-"), cl::cat(mgpcCategory));

static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"),
                                           cl::cat(mgpcCategory));

using mgp::Stage;

static cl::opt<Stage> emitKind(
    "emit", cl::desc("The stage to write out"), cl::init(Stage::PTX),
    cl::values(clEnumValN(Stage::AST, "ast", "the parsed syntax tree"),
               clEnumValN(Stage::MLIR, "mlir", "the mgp dialect (block level)"),
               clEnumValN(Stage::MLIRGPU, "mlir-gpu",
                          "mgp with layout encodings"),
               clEnumValN(Stage::LLVM, "llvm", "LLVM IR"),
               clEnumValN(Stage::PTX, "ptx", "PTX assembly")),
    cl::cat(mgpcCategory));

static cl::opt<std::string> kernelName("k",
                                       cl::desc("Compile only this kernel"),
                                       cl::value_desc("name"),
                                       cl::cat(mgpcCategory));
static cl::opt<std::string>
    signatureText("signature",
                  cl::desc("Kernel signature in Triton's AOT syntax, e.g. "
                           "\"*fp32:16,*fp32,i32,1024\""),
                  cl::value_desc("types"), cl::cat(mgpcCategory));
static cl::list<std::string> defines("D", cl::desc("Constexpr NAME=VALUE"),
                                     cl::value_desc("NAME=VALUE"), cl::Prefix,
                                     cl::cat(mgpcCategory));
static cl::list<std::string>
    importPaths("I",
                cl::desc("Folder searched for the modules a kernel file "
                         "imports helpers from (before the file's own folder "
                         "and its parents)"),
                cl::value_desc("DIR"), cl::Prefix, cl::cat(mgpcCategory));
static cl::opt<std::string> arch("arch",
                                 cl::desc("GPU architecture: sm_80, sm_86, "
                                          "sm_89, sm_90 or sm_90a"),
                                 cl::init(mgp::Target().arch().str()),
                                 cl::cat(mgpcCategory));
static cl::opt<int> numWarps("num-warps", cl::desc("Warps per program"),
                             cl::init(mgp::KernelOptions().numWarps),
                             cl::cat(mgpcCategory));
static cl::opt<int> numStages("num-stages",
                              cl::desc("Software pipelining stages"),
                              cl::init(mgp::KernelOptions().numStages),
                              cl::cat(mgpcCategory));
static cl::opt<std::string>
    precision("precision",
              cl::desc("Dot input precision: tf32 (each dot's own, Triton's "
                       "default) or ieee (every f32 dot exact)"),
              cl::init("tf32"), cl::cat(mgpcCategory));
static cl::opt<int>
    maxNumRegs("maxnreg",
               cl::desc("The most registers per thread (Triton's maxnreg: PTX "
                        ".maxnreg); 0, the default: no limit"),
               cl::init(mgp::KernelOptions().maxNumRegs),
               cl::cat(mgpcCategory));
static cl::opt<bool> reflectFtz(
    "enable-reflect-ftz",
    cl::desc("libdevice's f32 functions flush denormals to zero (Triton's "
             "enable_reflect_ftz; default true, =false keeps them)"),
    cl::init(mgp::KernelOptions().reflectFtz), cl::cat(mgpcCategory));
static cl::opt<bool>
    debugMode("debug",
              cl::desc("Compile tl.device_assert checks (Triton's debug mode)"),
              cl::cat(mgpcCategory));
static cl::opt<bool> timeStages("time",
                                cl::desc("Print the wall time of each stage"),
                                cl::cat(mgpcCategory));
/// --help ends with the MGP_* variables (compiler/api/Environment.h).
static const std::string environmentText = mgp::describeEnvironment();
static cl::extrahelp environmentHelp(environmentText);

/// True if `message` starts with `FILE:LINE:COL: error: `.
static bool isLocatedDiagnostic(StringRef message) {
  StringRef first = message.split('\n').first;
  size_t at = first.find(": error: ");
  if (at == StringRef::npos)
    return false;
  auto [rest, col] = first.take_front(at).rsplit(':');
  StringRef line = rest.rsplit(':').second;
  unsigned n;
  return !line.getAsInteger(10, n) && !col.getAsInteger(10, n);
}

/// Prints `err` (front-end errors are already formatted with their source
/// line) and returns the exit status.
static int reportError(Error err) {
  std::string message = toString(std::move(err));
  // A located diagnostic (`file:line:col: error: ...` with its source line)
  // is printed alone; other errors get the tool's prefix.
  if (!isLocatedDiagnostic(message))
    errs() << "mgpc: error: ";
  errs() << message;
  if (!StringRef(message).ends_with("\n"))
    errs() << "\n";
  return 1;
}

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// Measures stages and prints them to stderr with --time.
class StageTimer {
public:
  template <typename Fn> auto run(StringRef stage, Fn &&fn) {
    auto start = std::chrono::steady_clock::now();
    auto result = fn();
    record(stage, std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count());
    return result;
  }
  /// A stage that took \p ms (runStages reports its own).
  void record(StringRef stage, double ms) {
    if (!timeStages)
      return;
    total += ms;
    errs() << format("mgpc: %-20s %8.2f ms\n", stage.str().c_str(), ms);
  }
  void printTotal() const {
    if (timeStages)
      errs() << format("mgpc: %-20s %8.2f ms\n", "total", total);
  }

private:
  double total = 0;
};

/// The command line's kernel options and target, checked before any work is
/// done.
static Error getCompileOptions(mgp::KernelOptions &options,
                               mgp::Target &target) {
  Expected<mgp::Target> parsed = mgp::Target::parse(arch);
  if (!parsed)
    return parsed.takeError();
  if (parsed->isCPU())
    return makeError("--arch cpu: mgpc writes GPU code; the interpreter runs "
                     "kernels through mgp-run --device cpu");
  target = *parsed;
  options.numWarps = numWarps;
  options.numStages = numStages;
  Expected<mgp::DotPrecision> dots = mgp::parseDotPrecision(precision);
  if (!dots)
    return dots.takeError();
  options.precision = *dots;
  options.reflectFtz = reflectFtz;
  options.maxNumRegs = maxNumRegs;
  return options.verify();
}

static Expected<mgp::SourceOptions>
getSourceOptions(const mgp::Target &target) {
  mgp::SourceOptions options;
  options.kernelName = kernelName;
  if (signatureText.getNumOccurrences()) {
    Expected<mgp::Signature> signature = mgp::parseSignature(signatureText);
    if (!signature)
      return signature.takeError();
    options.signature = std::move(*signature);
    options.hasSignature = true;
  }
  for (const std::string &define : defines) {
    auto [name, value] = StringRef(define).split('=');
    if (name.empty() || value.empty() || !StringRef(define).contains('='))
      return makeError("invalid -D '" + define + "': expected NAME=VALUE");
    options.defines.emplace_back(name.str(), value.str());
  }
  options.importPaths.assign(importPaths.begin(), importPaths.end());
  options.numWarps = numWarps;
  options.debug = debugMode;
  options.computeCapability = target.computeCapability();
  return options;
}

/// True when some tensor in `module` already carries a layout encoding.
static bool hasLayouts(mlir::ModuleOp module) {
  bool found = false;
  module.walk([&](mlir::Operation *op) {
    for (mlir::Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<mlir::RankedTensorType>(type))
        found |= static_cast<bool>(tensor.getEncoding());
  });
  return found;
}

/// Keeps only kernel `name` of a .mlir module.
static Error selectKernel(mlir::ModuleOp module, StringRef name) {
  SmallVector<std::string> names;
  mlir::func::FuncOp keep;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    names.push_back(func.getSymName().str());
    if (func.getSymName() == name)
      keep = func;
  }
  if (!keep)
    return makeError("no kernel named '" + name + "' in " + inputFilename +
                     " (functions: " + join(names, ", ") + ")");
  for (auto func :
       llvm::make_early_inc_range(module.getOps<mlir::func::FuncOp>()))
    if (func != keep)
      func.erase();
  return Error::success();
}

static Expected<mlir::OwningOpRef<mlir::ModuleOp>>
parseMLIRFile(mlir::MLIRContext &context, SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<MemoryBuffer> buffer =
      mlir::openInputFile(inputFilename, &error);
  if (!buffer)
    return makeError("cannot open input file '" + inputFilename +
                     "': " + error);
  sourceMgr.AddNewSourceBuffer(std::move(buffer), SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return makeError("cannot parse " + inputFilename);
  if (!kernelName.empty())
    if (Error err = selectKernel(*module, kernelName))
      return std::move(err);
  return std::move(module);
}

static std::string printModule(mlir::ModuleOp module) {
  std::string text;
  raw_string_ostream os(text);
  module.print(os);
  return text;
}

/// Runs the pipeline up to -emit and returns the text to write.
static Expected<std::string> compile(const mgp::KernelOptions &options,
                                     const mgp::Target &target,
                                     StageTimer &timer) {
  // The NVPTX target machine is created while the front end runs.
  std::optional<mgp::PendingTargetMachine> machine;
  if (emitKind == Stage::PTX)
    machine.emplace(target);
  // The context, the module and the LLVM module are left to the process
  // exit (BuryPointer, as clang's -disable-free, so leak checkers see them
  // as reachable): freeing them op by op is work the exit does not need,
  // about 3 % of mgpc's time on the Triton suite's kernels.
  std::unique_ptr<mlir::MLIRContext> contextOwner =
      timer.run("context", [] { return mgp::createCompileContext(); });
  mlir::MLIRContext &context = *contextOwner;
  llvm::BuryPointer(std::move(contextOwner));
  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  bool isMLIR = sys::path::extension(inputFilename) == ".mlir";
  Expected<mlir::OwningOpRef<mlir::ModuleOp>> module =
      timer.run("parse", [&]() {
        if (isMLIR)
          return parseMLIRFile(context, sourceMgr);
        Expected<mgp::SourceOptions> sourceOptions = getSourceOptions(target);
        if (!sourceOptions)
          return Expected<mlir::OwningOpRef<mlir::ModuleOp>>(
              sourceOptions.takeError());
        return mgp::buildModuleFromSource(context, inputFilename,
                                          *sourceOptions);
      });
  if (!module)
    return module.takeError();
  mlir::ModuleOp op = module->release();
  llvm::BuryPointer(op.getOperation());

  Stage first = Stage::MLIR;
  if (hasLayouts(op)) {
    if (emitKind == Stage::MLIR)
      return makeError("-emit=mlir: " + inputFilename +
                       " already has layout encodings (use -emit=mlir-gpu)");
    first = Stage::LLVM;
  }
  Expected<mgp::LoweredModule> lowered = mgp::runStages(
      op, options, target, first, emitKind,
      [&](StringRef stage, double ms) { timer.record(stage, ms); },
      machine ? &*machine : nullptr);
  if (!lowered)
    return lowered.takeError();
  llvm::Module *llvmModule = lowered->llvmModule.release();
  llvm::BuryPointer(llvmModule);
  llvm::BuryPointer(std::move(lowered->llvmContext));
  if (emitKind == Stage::MLIR || emitKind == Stage::MLIRGPU)
    return printModule(op);
  if (emitKind == Stage::LLVM) {
    std::string text;
    raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    return text;
  }
  return std::move(lowered->ptx);
}

/// --help lists mgpc's options only; --help-hidden adds LLVM's. (The options
/// are libLLVM's objects, without RTTI: UBSan's vptr check is off for this
/// file, tools/mgpc/CMakeLists.txt.)
static void hideLLVMOptions() {
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (!llvm::is_contained(option->Categories, &mgpcCategory) &&
        option->getOptionHiddenFlag() == cl::NotHidden && name != "help" &&
        name != "version")
      option->setHiddenFlag(cl::Hidden);
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::SetVersionPrinter(
      [](raw_ostream &os) { os << "mgpc " << mgp::kVersion << "\n"; });
  // --mlir-timing, --mlir-print-ir-after-all, ... for every stage's passes
  // (hidden by hideLLVMOptions: --help-hidden lists them).
  mlir::registerPassManagerCLOptions();
  hideLLVMOptions();
  cl::ParseCommandLineOptions(argc, argv,
                              "mgp ahead-of-time kernel compiler\n");
  if (emitKind == Stage::AST) {
    if (Error err = mgp::emitAST(inputFilename, outputFilename))
      return reportError(std::move(err));
    return 0;
  }
  mgp::KernelOptions options;
  mgp::Target target;
  if (Error err = getCompileOptions(options, target))
    return reportError(std::move(err));
  if (signatureText.getNumOccurrences())
    if (Expected<mgp::Signature> signature = mgp::parseSignature(signatureText);
        !signature)
      return reportError(signature.takeError());
  if (inputFilename != "-" && !sys::fs::exists(inputFilename))
    return reportError(makeError("cannot open input file '" + inputFilename +
                                 "': no such file"));

  StageTimer timer;
  Expected<std::string> output = compile(options, target, timer);
  if (!output)
    return reportError(output.takeError());
  if (Error err = timer.run("write", [&]() {
        return mgp::writeFileAtomically(outputFilename, *output);
      }))
    return reportError(std::move(err));
  timer.printTotal();
#ifndef __SANITIZE_ADDRESS__
  // The output is written: skip the exit handlers (LLVM's option and static
  // destructors, about 0.3 ms of a small kernel's 12). AddressSanitizer
  // builds exit normally, so that their leak check runs. The reports of
  // LLVM's timers (`-time-passes`, a hidden option) are printed here, as
  // their destructors would have.
  llvm::TimerGroup::printAll(llvm::errs());
  llvm::outs().flush();
  llvm::errs().flush();
  std::fflush(nullptr);
  std::_Exit(0);
#else
  return 0;
#endif
}
