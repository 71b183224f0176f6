//===- GpuBackendCompile.cpp - PTX for every kernel a graph needs ---------===//
//
// This file implements the `gpu` backend's compile phase: each distinct
// specialization is one llvm::ThreadPool task that compiles its kernels_dsl
// kernel with mgp::compileKernel (its own MLIRContext and LLVMContext; dots
// forced to "ieee" in fp32), behind the runtime's KernelCache, whose key
// covers the kernel's normalized source as the JIT's does.
//
//===----------------------------------------------------------------------===//

#include "graph/GpuBackendCompile.h"

#include "graph/KernelSources.h"

#include "compiler/pipeline/CompileKernel.h"

#include "runtime/CacheKey.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <chrono>
#include <mutex>

using namespace mgp;
using namespace mgp::graph;

KernelOptions mgp::graph::gpuKernelOptions(const GpuCompileOptions &options) {
  KernelOptions result;
  result.arch = options.arch;
  result.precision = options.tf32 ? "tf32" : "ieee";
  return result;
}

Specialization mgp::graph::launchSpecialization(const KernelLaunch &launch) {
  Specialization spec;
  for (auto [index, p] : llvm::enumerate(launch.params)) {
    unsigned position = static_cast<unsigned>(index);
    switch (p.kind) {
    case LaunchParam::Kind::Buffer:
    case LaunchParam::Kind::Workspace:
      spec.argTypes.push_back(("*" + storageTypeName(p.type)).str());
      spec.divisibleBy16.push_back(position);
      break;
    case LaunchParam::Kind::Int:
      spec.argTypes.push_back("i32");
      if (p.intValue == 1)
        spec.equalToOne.push_back(position);
      else if (p.intValue % 16 == 0)
        spec.divisibleBy16.push_back(position);
      break;
    case LaunchParam::Kind::Float:
      spec.argTypes.push_back("fp32");
      break;
    case LaunchParam::Kind::Constexpr: {
      spec.argTypes.push_back("constexpr");
      ConstexprValue value;
      value.index = position;
      value.name = p.name;
      value.intValue = p.intValue;
      spec.constexprs.push_back(std::move(value));
      break;
    }
    }
  }
  return spec;
}

std::string mgp::graph::gpuCacheKey(const KernelLaunch &launch,
                                    const KernelOptions &options) {
  // The kernel and every function and constant it names, as the JIT keys
  // its kernels.
  std::optional<llvm::StringRef> source = findKernelSource(launch.file);
  std::string text =
      source ? normalizeKernelSource(*source, launch.kernel) : launch.file;
  return computeCacheKey(makeCacheKeyInput(text, launch.kernel, options,
                                           launchSpecialization(launch)));
}

llvm::Expected<CompiledKernel>
mgp::graph::compileLaunchToPTX(const KernelLaunch &launch,
                               const KernelOptions &options) {
  std::optional<llvm::StringRef> source = findKernelSource(launch.file);
  if (!source)
    return llvm::createStringError("no kernel file kernels_dsl/" + launch.file);
  auto signature = parseSignature(launch.signature());
  if (!signature)
    return signature.takeError();
  std::string fileName = "kernels_dsl/" + launch.file;
  KernelCompileInput input;
  input.source = *source;
  input.fileName = fileName;
  input.kernelName = launch.kernel;
  input.signature = std::move(*signature);
  input.options.arch = options.arch;
  input.options.numWarps = options.numWarps;
  input.options.numStages = options.numStages;
  input.precision =
      options.precision == "ieee" ? DotPrecision::IEEE : DotPrecision::Kernel;
  auto compiled = compileKernel(input);
  if (!compiled)
    return compiled.takeError();
  CompiledKernel result;
  result.name = compiled->symbolName;
  result.ptx = std::move(compiled->ptx);
  result.sharedBytes = compiled->sharedBytes;
  result.numWarps = compiled->numWarps;
  result.numStages = options.numStages;
  result.arch = options.arch;
  return result;
}

namespace {
/// The shared state of one compile phase's tasks.
struct CompilePhase {
  std::mutex mutex;
  unsigned done = 0;
  llvm::Error firstError = llvm::Error::success();
};
} // namespace

llvm::Expected<GpuKernelSet>
mgp::graph::compileGpuKernels(llvm::ArrayRef<KernelLaunch> launches,
                              const GpuCompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  std::vector<const KernelLaunch *> distinct;
  GpuKernelSet set;
  for (const KernelLaunch &launch : launches)
    if (launch.aliasOf < 0 && set.kernels.try_emplace(launch.key()).second)
      distinct.push_back(&launch);
  set.stats.kernels = static_cast<unsigned>(distinct.size());

  KernelCache &cache = options.cache ? *options.cache : KernelCache::global();
  KernelOptions kernelOptions = gpuKernelOptions(options);
  llvm::raw_ostream *progress =
      options.progress && options.progress->is_displayed() ? options.progress
                                                           : nullptr;
  CompilePhase phase;
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(options.threads));
    for (const KernelLaunch *launch : distinct) {
      pool.async([&, launch] {
        KernelOptions launchOptions = kernelOptions;
        launchOptions.numWarps = launch->numWarps;
        launchOptions.numStages = launch->numStages;
        std::string key = gpuCacheKey(*launch, launchOptions);
        std::string description =
            (launch->kernel + "[" + launch->signature() + "] " +
             launchOptions.arch + " " + launchOptions.precision + " w" +
             std::to_string(launchOptions.numWarps) + " s" +
             std::to_string(launchOptions.numStages));
        CacheSource source = CacheSource::Memory;
        auto kernel = cache.getOrCompile(
            key, description,
            [&]() -> llvm::Expected<CompiledKernel> {
              auto compiled = compileLaunchToPTX(*launch, launchOptions);
              if (!compiled)
                return llvm::createStringError(
                    "compiling kernels_dsl/" + launch->file + " kernel '" +
                    launch->kernel + "' for [" + launch->signature() +
                    "]: " + llvm::toString(compiled.takeError()));
              return compiled;
            },
            &source);
        std::lock_guard<std::mutex> lock(phase.mutex);
        ++phase.done;
        if (!kernel) {
          if (phase.firstError)
            llvm::consumeError(kernel.takeError());
          else
            phase.firstError = kernel.takeError();
          return;
        }
        set.kernels[launch->key()] = std::move(*kernel);
        set.stats.compiled += source == CacheSource::Compiled;
        set.stats.fromDisk += source == CacheSource::Disk;
        if (progress)
          *progress << "\rcompiling " << phase.done << "/" << distinct.size()
                    << " kernels (" << launch->kernel << ")"
                    << std::string(16, ' ');
      });
    }
    pool.wait();
  }
  set.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (progress)
    *progress << "\r" << std::string(72, ' ') << "\r";
  if (phase.firstError)
    return std::move(phase.firstError);
  if (options.progress && !distinct.empty())
    *options.progress << llvm::formatv(
        "gpu: {0} kernel specializations for {1} in {2:F2} s ({3} compiled, "
        "{4} from the disk cache, {5} in memory)\n",
        set.stats.kernels, options.arch, set.stats.seconds, set.stats.compiled,
        set.stats.fromDisk,
        set.stats.kernels - set.stats.compiled - set.stats.fromDisk);
  return std::move(set);
}
