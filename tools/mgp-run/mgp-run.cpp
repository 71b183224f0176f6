//===- mgp-run.cpp - Runs a .graph model ----------------------------------===//
//
// This file implements the mgp-run driver: it parses a `.graph` file, binds
// its dimensions from the input, the weights and the command line, infers the
// shapes, loads or seeds the weights, and then prints the model (`--info`),
// saves the weights (`--save-weights`) or runs a batch on a backend
// (`--device`), printing top-5 per image, time per batch and images/s.
//
//===----------------------------------------------------------------------===//

#include "tools/mgp-run/BenchReport.h"
#include "tools/mgp-run/InputBatch.h"
#ifdef MGP_HAVE_KERNEL_RUN
#include "tools/mgp-run/KernelRun.h"
#endif
#include "tools/mgp-run/LaunchReport.h"
#include "tools/mgp-run/ModelReport.h"
#include "tools/mgp-run/PhaseTimer.h"

#include "compiler/api/Environment.h"
#include "graph/Backend.h"
#ifdef MGP_HAVE_CPU_BACKEND
#include "graph/backends/cpu/CpuBackend.h"
#endif
#include "graph/ir/Diagnostic.h"
#ifdef MGP_HAVE_GPU_BACKEND
#include "graph/backends/gpu/GpuBackend.h"
#include "graph/backends/gpu/GpuBackendConcurrency.h"
#include "graph/tune/ConvTuner.h"
#endif
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/ir/GraphParser.h"
#include "graph/passes/MemoryPlan.h"
#include "graph/ModelPlan.h"
#include "graph/io/Npy.h"
#include "graph/io/Safetensors.h"
#include "graph/ir/StorageTypes.h"
#include "graph/io/WeightInit.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "compiler/api/Version.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <ctime>
#include <optional>
#include <unistd.h>

using namespace mgp;
using namespace mgp::graph;
using llvm::Error;
namespace cl = llvm::cl;

static cl::OptionCategory category("mgp-run options");
/// --help ends with the MGP_* variables (compiler/api/Environment.h).
static const std::string environmentText = describeEnvironment();
static cl::extrahelp environmentHelp(environmentText);
static cl::opt<std::string> graphPath(cl::Positional, cl::Required,
                                      cl::desc("<model.graph>"),
                                      cl::cat(category));
static cl::opt<bool> info("info",
                          cl::desc("Print the layers, parameters, MACs and "
                                   "activation memory, then exit"),
                          cl::cat(category));
static cl::opt<int64_t> batchSize("batch",
                                  cl::desc("Batch size (random input)"),
                                  cl::init(0), cl::cat(category));
static cl::opt<std::string> sizeText("size",
                                     cl::desc("Input size H or HxW (default "
                                              "224)"),
                                     cl::cat(category));
static cl::opt<std::string> weightsPath("weights",
                                        cl::desc("Weights (.safetensors); "
                                                 "default: seeded init"),
                                        cl::cat(category));
static cl::list<std::string>
    inputPaths("input", cl::CommaSeparated,
               cl::desc("Input: x.npy (float32 NCHW) or images (PNG/JPEG, "
                        "comma-separated); default: a seeded random batch"),
               cl::cat(category));
static cl::opt<std::string>
    device("device",
           cl::desc("Where to run: reference | cpu | gpu (default: gpu when "
                    "a GPU is present, else reference)"),
           cl::cat(category));
static cl::opt<int> benchRuns("bench",
                              cl::desc("Also time N more runs (after "
                                       "--warmup runs): median ms per batch "
                                       "and images/s"),
                              cl::init(0), cl::cat(category));
static cl::opt<int> warmupRuns("warmup",
                               cl::desc("Untimed runs before --bench and "
                                        "--profile (default 5 on the gpu, 1 "
                                        "elsewhere)"),
                               cl::init(-1), cl::cat(category));
static cl::opt<bool> profileOpt(
    "profile",
    cl::desc("GPU time per kernel (CUDA events around each launch) over "
             "max(--bench, 3) runs, sorted (--device gpu)"),
    cl::cat(category));
static cl::opt<std::string>
    precisionText("precision",
                  cl::desc("fp32 | tf32 | fp16 | bf16 (default: fp32 on the "
                           "reference device, tf32 elsewhere). fp32 (cpu, "
                           "gpu): dots as three tf32 products (tf32x3, "
                           "fp32 accuracy on tensor cores). fp16/bf16 "
                           "(cpu, gpu): activations and conv/linear weights "
                           "stored 16-bit, accumulation in fp32, logits "
                           "fp32"),
                  cl::cat(category));
static cl::opt<std::string> labelsPath("labels",
                                       cl::desc("int64 .npy of class labels: "
                                                "prints top-1 accuracy"),
                                       cl::cat(category));
static cl::opt<std::string> classesPath("classes",
                                        cl::desc("Class names, one per line"),
                                        cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of weights and input"),
                              cl::init(0), cl::cat(category));
static cl::opt<std::string>
    saveWeights("save-weights",
                cl::desc("Write the weights in use, after --passes "
                         "(.safetensors), and exit"),
                cl::cat(category));
static cl::opt<std::string> dumpLogits("dump-logits",
                                       cl::desc("Write the logits to a .npy"),
                                       cl::cat(category));
static cl::opt<bool>
    printGraphOpt("print-graph",
                  cl::desc("Print the graph after --passes (with concrete "
                           "shapes for new parameters) and exit"),
                  cl::cat(category));
static cl::opt<std::string>
    dumpInput("dump-input",
              cl::desc("Write the input batch in use (random, .npy or "
                       "preprocessed images) to a .npy"),
              cl::cat(category));
static cl::opt<bool> listKernels(
    "list-kernels",
    cl::desc("Print each kernel specialization the folded and fused graph "
             "needs (file, kernel, signature, warps), then exit"),
    cl::cat(category));
static cl::opt<bool> listPreparedKernels(
    "list-prepared-kernels",
    cl::desc("Prepare the --device's backend (compile, tune) and print the "
             "kernel specializations of the plan it runs, as --list-kernels "
             "does, then exit (tests compare the two)"),
    cl::cat(category));
static cl::opt<bool>
    check("check",
          cl::desc("Also run the reference executor on the same input and "
                   "compare: top-1 agreement and max relative error; fails "
                   "when they disagree beyond --check-tolerance"),
          cl::cat(category));
static cl::opt<double> checkTolerance(
    "check-tolerance",
    cl::desc("Largest max relative error --check accepts (default 1e-4 in "
             "fp32, 2e-2 in bf16, 1e-2 otherwise)"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    passes("passes",
           cl::desc("Graph passes before running: none | fold (BatchNorm "
                    "folding) | fuse (folding + epilogue fusion)"),
           cl::init("none"), cl::cat(category));

static Error toolError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static void reportError(Error error) {
  llvm::handleAllErrors(
      std::move(error),
      [](const DiagnosticError &diag) { llvm::errs() << diag.getText(); },
      [](const llvm::ErrorInfoBase &e) {
        llvm::errs() << "mgp-run: error: " << e.message() << "\n";
      });
}

/// Refuses a run whose host-side buffers exceed the machine's memory, so a
/// huge --batch or --size is an error rather than an allocation failure. On
/// the host devices the activations live in host memory; on the gpu device
/// they live on the device (its backend checks and allocates them), and the
/// host holds only the input, the outputs and the weights.
static Error checkMemory(const Graph &graph) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return Error::success();
  double available = double(pages) * double(pageSize);
  double needed = 0;
  const char *what = "the activations need {0:F1} GiB at their peak";
  if (device == "gpu") {
    what = "the input, outputs and weights need {0:F1} GiB of host memory";
    for (size_t v = 0; v < graph.values.size(); ++v)
      if (graph.values[v].kind != ValueKind::Node ||
          llvm::is_contained(graph.outputs, int(v)))
        needed += double(numElements(graph.values[v].shape)) * sizeof(float);
  } else {
    needed = double(planMemory(graph).peakLiveBytes);
  }
  if (needed <= available)
    return Error::success();
  return toolError(
      llvm::formatv(what, needed / double(1 << 30)).str() +
      llvm::formatv(", more than this machine's {0:F1} GiB of memory (use a "
                    "smaller --batch or --size)",
                    available / double(1 << 30))
          .str());
}

/// Milliseconds from the process's start (exec) to now: /proc/self/stat's
/// starttime (clock ticks since boot, 10 ms) against CLOCK_BOOTTIME; negative
/// where that is not known. MGP_DEBUG prints it as the time before main.
static double processAgeMs() {
#ifdef __linux__
  auto stat = llvm::MemoryBuffer::getFileAsStream("/proc/self/stat");
  long ticks = sysconf(_SC_CLK_TCK);
  timespec now;
  if (!stat || ticks <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0)
    return -1;
  // The fields after the command's ")": state is field 3, starttime 22.
  llvm::StringRef text = (*stat)->getBuffer();
  llvm::SmallVector<llvm::StringRef, 24> fields;
  text.substr(text.rfind(')') + 1).split(fields, ' ', -1, false);
  unsigned long long start = 0;
  if (fields.size() < 20 || fields[19].getAsInteger(10, start))
    return -1;
  return (double(now.tv_sec) + double(now.tv_nsec) * 1e-9) * 1e3 -
         double(start) * 1e3 / double(ticks);
#else
  return -1;
#endif
}

/// --check: runs the reference executor on `x` and compares its logits with
/// `logits`; an error when top-1 differs or the error exceeds the tolerance.
static Error checkAgainstReference(const Model &model, const Tensor &x,
                                   const Tensor &logits, Precision precision) {
  BackendOptions referenceOptions;
  std::unique_ptr<Backend> reference = createReferenceBackend(referenceOptions);
  if (Error e = reference->prepare(model.graph, model.weights))
    return e;
  auto want = reference->run(x);
  if (!want)
    return want.takeError();
  run::LogitComparison comparison = run::compareLogits(logits, want->front());
  run::printComparison(comparison, device, llvm::outs());
  double tolerance = checkTolerance.getNumOccurrences() ? double(checkTolerance)
                     : precision == Precision::FP32     ? 1e-4
                     : precision == Precision::BF16     ? 2e-2
                                                        : 1e-2;
  if (!comparison.passes(tolerance))
    return toolError(llvm::formatv("--check failed: top-1 agreement {0}/{1}, "
                                   "{2} (tolerance {3:E1})",
                                   comparison.top1Agree, comparison.rows,
                                   comparison.values.describe(), tolerance)
                         .str());
  return Error::success();
}

/// The backend for --device; `gpu` is set when it is the GPU backend.
/// `gpuOpening` (a GpuDeviceOpening, when runTool started one) is the device
/// the GPU backend joins in prepare().
static llvm::Expected<std::unique_ptr<Backend>>
makeBackend(const BackendOptions &options, void *&gpu,
            [[maybe_unused]] std::shared_ptr<void> gpuOpening) {
#ifdef MGP_HAVE_GPU_BACKEND
  if (device == "gpu" && gpuOpening) {
    std::unique_ptr<GpuBackend> created = createGpuBackend(
        options, std::static_pointer_cast<GpuDeviceOpening>(gpuOpening));
    gpu = created.get();
    return std::unique_ptr<Backend>(std::move(created));
  }
  if (device == "gpu") {
    auto created = createGpuBackend(options);
    if (!created)
      return created.takeError();
    gpu = created->get();
    return std::unique_ptr<Backend>(std::move(*created));
  }
#endif
  gpu = nullptr;
  return createBackend(device, options);
}

/// --bench and --profile after the first run; with --bench, \p timedLogits
/// gets the logits of the last timed run.
static Error runTimings(Backend &backend, void *gpuHandle, const Tensor &x,
                        std::optional<Tensor> &timedLogits) {
  int warmup = warmupRuns >= 0 ? int(warmupRuns) : (gpuHandle ? 5 : 1);
  std::function<double()> kernelMs;
#ifdef MGP_HAVE_GPU_BACKEND
  auto *gpu = static_cast<GpuBackend *>(gpuHandle);
  if (gpu)
    kernelMs = [gpu] { return gpu->lastKernelMs(); };
#endif
  if (benchRuns > 0) {
    auto result = run::bench(backend, x, warmup, benchRuns, kernelMs);
    if (!result)
      return result.takeError();
    run::printBench(*result, benchRuns, x.shape[0], backend.name(),
                    llvm::outs());
    if (!result->lastOutputs.empty())
      timedLogits = std::move(result->lastOutputs.front());
#ifdef MGP_HAVE_GPU_BACKEND
    if (gpu)
      llvm::outs() << "bench (gpu): input and output copies through "
                   << (gpu->pinnedStaging()
                           ? "pinned host buffers\n"
                           : "pageable host memory (MGP_PINNED=off, or the "
                             "pinned allocation failed)\n");
#endif
    warmup = 0;
  }
#ifdef MGP_HAVE_GPU_BACKEND
  if (profileOpt && gpu) {
    int runs = std::max(int(benchRuns), 3);
    if (auto warmed = run::bench(backend, x, warmup, 0); !warmed)
      return warmed.takeError();
    gpu->setProfiling(true);
    auto result = run::bench(backend, x, 0, runs);
    gpu->setProfiling(false);
    if (!result)
      return result.takeError();
    run::printProfile(gpu->profile(), runs, llvm::outs());
    run::printLayerProfile(gpu->layerProfile(), runs, llvm::outs());
  }
#endif
  return Error::success();
}

/// The plan --info and --list-kernels print: the one --device's backend makes.
static llvm::Expected<ModelPlan> planForInfo(const Graph &fused,
                                             Precision precision) {
#ifdef MGP_HAVE_GPU_BACKEND
  if (device == "gpu")
    return planGpuModelFromCache(fused, precision);
#endif
  PlanOptions options;
  options.precision = precision;
  options.gpu = device == "gpu";
  return planModel(fused, options);
}

static Error runTool() {
  // Without --device: the GPU when there is one, else the mgp kernels on the
  // interpreter (the reference executor where that backend is not built),
  // with a note when a run happens.
  bool noGpuFallback = false;
  if (device.empty()) {
#ifdef MGP_HAVE_CPU_BACKEND
    const char *fallback = "cpu";
#else
    const char *fallback = "reference";
#endif
#ifdef MGP_HAVE_GPU_BACKEND
    noGpuFallback = !isGpuAvailable();
    device = noGpuFallback ? fallback : "gpu";
#else
    noGpuFallback = true;
    device = fallback;
#endif
  }
  if (benchRuns < 0 || warmupRuns < -1)
    return toolError("--bench and --warmup take a number of runs (0 or more)");
  if (profileOpt && device != "gpu")
    return toolError("--profile times GPU kernels: it needs --device gpu");
  // MGP_DEBUG: one line per startup phase (docs/graph.md, warm start).
  run::PhaseTimer timer(run::PhaseTimer::enabledByEnvironment());
  if (double age = timer.isEnabled() ? processAgeMs() : -1; age >= 0)
    llvm::errs() << llvm::format("mgp-run: phase process start to main "
                                 "(10 ms ticks): %.0f ms (at 0.0 ms)\n",
                                 age);
  // A run on the gpu device opens it (cuInit and the context, ~0.2 s of
  // driver time) on a thread of its own while the graph is parsed, the
  // weights made and the graph folded; prepare() joins it, and a GPU that
  // fails to open is prepare()'s error (the same message).
  std::shared_ptr<void> gpuOpening;
#ifdef MGP_HAVE_GPU_BACKEND
  if (device == "gpu" && !info && !listKernels && !printGraphOpt &&
      saveWeights.empty())
    gpuOpening = GpuDeviceOpening::start();
#endif
  auto parsed = parseGraphFile(graphPath);
  if (!parsed)
    return parsed.takeError();
  Graph graph = std::move(*parsed);
  timer.mark("parse");

  // Everything the user gave is read and checked before anything runs or
  // any file is written.
  run::InputRequest request;
  request.files.assign(inputPaths.begin(), inputPaths.end());
  if (batchSize.getNumOccurrences()) {
    if (batchSize < 1)
      return toolError("--batch must be at least 1");
    request.batch = batchSize;
  }
  if (!sizeText.empty()) {
    auto size = run::parseSize(sizeText);
    if (!size)
      return size.takeError();
    request.size = *size;
  }
  if (passes != "none" && passes != "fold" && passes != "fuse")
    return toolError("unknown --passes '" + passes +
                     "' (expected none, fold or fuse)");
  DimBindings bindings;
  auto inputBatch = run::loadInputs(graph, request, bindings);
  if (!inputBatch)
    return inputBatch.takeError();
  std::optional<SafetensorsFile> weightsFile;
  if (!weightsPath.empty()) {
    auto file = readSafetensors(weightsPath);
    if (!file)
      return file.takeError();
    weightsFile = std::move(*file);
    if (Error e = bindDimsFromWeights(graph, *weightsFile, bindings))
      return e;
  }
  if (Error e = inferShapes(graph, bindings))
    return e;
  timer.mark("inputs and shapes");
  WeightMap weights;
  if (weightsFile) {
    auto loaded = loadWeights(graph, *weightsFile);
    if (!loaded)
      return loaded.takeError();
    weights = std::move(*loaded);
    weightsFile.reset();
  } else {
    weights = initWeights(graph, seed);
  }
  timer.mark(weightsPath.empty() ? "weights (seeded init)" : "weights (read)");

  BackendOptions options;
  if (precisionText.empty()) {
    options.precision =
        device == "reference" ? Precision::FP32 : Precision::TF32;
  } else if (auto precision = parsePrecision(precisionText)) {
    options.precision = *precision;
  } else {
    return toolError("unknown --precision '" + precisionText +
                     "' (expected fp32, tf32, fp16 or bf16)");
  }
  if (info || listKernels) {
    Model folded = foldBatchNorm(graph, weights);
    Graph fused =
        device == "reference"
            ? fuseEpilogues(folded.graph)
            : fuseEpilogues(folded.graph, kernelFuseOptions(options.precision));
    // The plan the device's backend makes (graph/ModelPlan.h): on the gpu
    // with its SM count (split-K) and stored tuned configs.
    auto plan = planForInfo(fused, options.precision);
    if (!plan)
      return plan.takeError();
    if (listKernels) {
      run::printKernelList(plan->launches, llvm::outs());
      return Error::success();
    }
    run::printInfo(graph, fused, llvm::outs());
    // The gpu device runs some launches on a second stream, beside the
    // launch before them (graph/backends/gpu/GpuBackendConcurrency.h).
    std::vector<bool> side;
#ifdef MGP_HAVE_GPU_BACKEND
    if (device == "gpu")
      side = planGpuSideLaunches(fused, *plan);
#endif
    run::printLaunches(fused, plan->launches, precisionName(options.precision),
                       side, llvm::outs());
    return Error::success();
  }
  // Copies: the graph moves into the model below.
  const Shape inputShape = graph.values[graph.inputs[0]].shape;
  const Shape outputShape = graph.values[graph.outputs[0]].shape;
  Model model{std::move(graph), std::move(weights)};
  if (passes != "none")
    model = foldBatchNorm(model.graph, model.weights);
  if (passes == "fuse")
    model.graph = fuseEpilogues(model.graph);
  if (printGraphOpt) {
    printGraph(model.graph, llvm::outs());
    return Error::success();
  }
  if (!saveWeights.empty())
    return writeSafetensors(saveWeights, model.weights);

  std::vector<std::string> names;
  if (!classesPath.empty()) {
    auto read = run::readClassNames(classesPath);
    if (!read)
      return read.takeError();
    names = std::move(*read);
    int64_t classes = outputShape.back();
    if (int64_t(names.size()) != classes)
      return toolError(classesPath + ": " + llvm::Twine(names.size()) +
                       " class names, but the model has " +
                       llvm::Twine(classes) + " classes");
  }
  std::vector<int64_t> labels;
  if (!labelsPath.empty()) {
    Shape labelShape;
    auto read = readNpyInt64(labelsPath, labelShape);
    if (!read)
      return read.takeError();
    if (labelShape != Shape{inputShape[0]})
      return toolError(labelsPath + ": labels have shape " +
                       formatShape(labelShape) + ", expected [" +
                       llvm::Twine(inputShape[0]) + "] (one per image)");
    labels = std::move(*read);
  }

  options.progress = &llvm::errs();
  if (noGpuFallback)
    llvm::errs() << "mgp-run: no GPU here: running the mgp kernels on the "
                 << (device == "cpu" ? "CPU interpreter" : "reference executor")
                 << " (--device " << device << ")\n";
  if (Error e = checkMemory(model.graph))
    return e;
  void *gpu = nullptr;
  auto backend = makeBackend(options, gpu, gpuOpening);
  if (!backend)
    return backend.takeError();
  timer.mark(
      "open " + device +
      (gpuOpening ? " (started in the background, joined in prepare)" : ""));

  if (Error e = (*backend)->prepare(model.graph, model.weights))
    return e;
  timer.mark("prepare");
  if (listPreparedKernels) {
    const ModelPlan *plan = (*backend)->plan();
    if (!plan)
      return toolError("the " + device + " device runs no kernels_dsl kernels");
    run::printKernelList(plan->launches, llvm::outs());
    return Error::success();
  }
#ifdef MGP_HAVE_GPU_BACKEND
  if (gpu && timer.isEnabled()) {
    const GpuCompileStats &stats =
        static_cast<GpuBackend *>(gpu)->compileStats();
    llvm::errs() << llvm::format(
        "mgp-run: prepare's compile phase: %u kernels (%u from the disk "
        "cache, %u compiled) in %.1f ms; module loads %.1f ms\n",
        stats.kernels, stats.fromDisk, stats.compiled, stats.seconds * 1e3,
        stats.loadSeconds * 1e3);
    for (const GpuPrepareStep &step :
         static_cast<GpuBackend *>(gpu)->prepareSteps())
      llvm::errs() << llvm::format("mgp-run: prepare step %s: %.1f ms\n",
                                   step.name.c_str(), step.ms);
  }
#endif

  Tensor x = *inputBatch ? std::move(**inputBatch)
                         : randomNormalTensor(inputShape, seed);
  auto start = std::chrono::steady_clock::now();
  auto outputs = (*backend)->run(x);
  if (!outputs)
    return outputs.takeError();
  timer.mark("input and first run");
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const Tensor &logits = outputs->front();

  llvm::raw_ostream &os = llvm::outs();
  run::printTopK(logits, names, 5, os);
  int64_t batch = inputShape[0];
  os << llvm::format("%s: batch %lld at %lldx%lld in %.3f s (%.2f images/s)\n",
                     (*backend)->name().str().c_str(), (long long)batch,
                     (long long)inputShape[2], (long long)inputShape[3],
                     seconds, double(batch) / seconds);
  if (!labels.empty()) {
    int64_t correct = run::countCorrect(logits, labels);
    os << "top-1 accuracy: " << correct << "/" << batch
       << llvm::format(" (%.2f %%)\n", 100.0 * double(correct) / double(batch));
  }
  if (!dumpInput.empty())
    if (Error e = writeNpy(dumpInput, x))
      return e;
  // With --bench, the logits written are those of the last timed run (on the
  // gpu a CUDA graph replay), so that accuracy is measured on what was timed.
  std::optional<Tensor> timedLogits;
  if (Error e = runTimings(**backend, gpu, x, timedLogits))
    return e;
  if (!dumpLogits.empty()) {
    if (Error e = writeNpy(dumpLogits, timedLogits ? *timedLogits : logits))
      return e;
    if (timedLogits)
      os << "logits written (" << dumpLogits << ") from the last timed run\n";
  }
  if (check)
    if (Error e = checkAgainstReference(model, x, logits, options.precision))
      return e;
  // What exit would do anyway (for the gpu: modules, buffers, the context),
  // timed.
  backend->reset();
  gpuOpening.reset();
  timer.mark("teardown (backend and device released)");
  return Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
#ifdef MGP_HAVE_KERNEL_RUN
  // A .mgp/.py input is a one-kernel run (tools/mgp-run/KernelRun.h).
  if (mgp::run::isKernelRun(argc, argv))
    return mgp::run::runKernelMain(argc, argv);
#endif
#ifdef MGP_HAVE_CPU_BACKEND
  registerCpuBackend();
#endif
#ifdef MGP_HAVE_GPU_BACKEND
  registerGpuBackend();
#endif
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { os << "mgp-run " << mgp::kVersion << "\n"; });
  cl::ParseCommandLineOptions(argc, argv,
                              "mgp-run: runs a .graph model (ResNet18)\n");
  if (Error e = runTool()) {
    reportError(std::move(e));
    return 1;
  }
  return 0;
}
