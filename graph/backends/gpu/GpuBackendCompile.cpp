//===- GpuBackendCompile.cpp - PTX for every kernel a graph needs ---------===//
//
// This file implements the `gpu` backend's compile phase: each distinct
// specialization is one llvm::ThreadPool task that asks getCompiledKernel
// for its kernels_dsl kernel (the kernel cache, else compileKernel with its
// own MLIRContext and LLVMContext; each launch's options, whose precision
// forces every dot to "ieee" in fp32), and with jitImages the driver's JIT
// of the PTX in the same task, in the caller's context.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackendCompile.h"

#include "graph/LaunchRequest.h"

#include "runtime/jit/KernelCompiler.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <chrono>
#include <mutex>
#include <optional>

using namespace mgp;
using namespace mgp::graph;

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
  llvm::raw_ostream *progress =
      options.progress && options.progress->is_displayed() ? options.progress
                                                           : nullptr;
  // The context the JIT compiles for: the caller's.
  CUcontext jitContext = options.jitImages ? Module::currentContext() : nullptr;
  CompilePhase phase;
  {
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(options.threads));
    for (const KernelLaunch *launch : distinct) {
      pool.async([&, launch] {
        CacheSource source = CacheSource::Memory;
        auto request = getLaunchRequest(*launch, options.target);
        auto kernel =
            request ? getCompiledKernel(*request, cache, &source)
                    : llvm::Expected<std::shared_ptr<const CompiledKernel>>(
                          request.takeError());
        std::optional<DeviceImage> image;
        const DeviceImage *known = nullptr;
        if (kernel && jitContext && options.knownImages) {
          auto found = options.knownImages->find(launch->key());
          if (found != options.knownImages->end())
            known = &found->second;
        }
        if (known) {
          image = *known;
        } else if (kernel && jitContext) {
          llvm::Expected<DeviceImage> jitted =
              Module::compilePTX((*kernel)->ptx, jitContext);
          if (jitted)
            image = std::move(*jitted);
          else
            llvm::consumeError(jitted.takeError()); // loading reports it
        }
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
        if (image)
          set.images[launch->key()] = std::move(*image);
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
        set.stats.kernels, options.target.arch(), set.stats.seconds,
        set.stats.compiled, set.stats.fromDisk,
        set.stats.kernels - set.stats.compiled - set.stats.fromDisk);
  return std::move(set);
}
