//===- Jit.cpp - mgp::jit and Kernel::launch ------------------------------===//
//
// This file implements mgp::jit (parse, find the kernel, open the device) and
// the launch path: bind the arguments, look their fingerprint up in the
// kernel's table of warm entries, and on a miss specialize, get the kernel
// from the caches or the compiler (GPU: JitKernel and KernelCache; CPU: an
// in-memory table of interpreter kernels keyed by the same cache key), then
// launch.
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/JitImpl.h"

#include "runtime/Specialization.h"
#include "runtime/jit/CompileFn.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace mgp;

static bool debugEnabled() {
  const char *value = std::getenv("MGP_DEBUG");
  return value && *value && llvm::StringRef(value) != "0";
}

//===----------------------------------------------------------------------===//
// The interpreter's kernel cache (memory only: its input is IR, not PTX)
//===----------------------------------------------------------------------===//

namespace {
struct CpuCache {
  std::mutex mutex;
  llvm::StringMap<std::shared_ptr<InterpEntry>> entries;
  CpuCacheStats stats;
};
} // namespace

static CpuCache &cpuCache() {
  static CpuCache cache;
  return cache;
}

CpuCacheStats mgp::cpuCacheStats() {
  std::lock_guard<std::mutex> lock(cpuCache().mutex);
  return cpuCache().stats;
}

llvm::Expected<std::shared_ptr<InterpEntry>>
mgp::getInterpKernel(const Kernel::Impl &impl, const Specialization &spec) {
  std::string key = computeCacheKey(makeCacheKeyInput(
      impl.normalized, impl.kernelName, impl.kernelOptions, spec));
  std::string what = llvm::formatv("{0}[{1}] cpu w{2} {3}", impl.kernelName,
                                   spec.str(), impl.kernelOptions.numWarps,
                                   impl.kernelOptions.precision);
  CpuCache &cache = cpuCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto it = cache.entries.find(key);
  if (it != cache.entries.end()) {
    ++cache.stats.memoryHits;
    if (debugEnabled())
      llvm::errs() << "mgp: " << what << " from the memory cache\n";
    return it->second;
  }
  auto start = std::chrono::steady_clock::now();
  CompileRequest request{impl.normalized, impl.kernelName, nullptr, &spec,
                         impl.kernelOptions};
  llvm::Expected<KernelCompileInput> input =
      makeCompileInput(request, impl.source, impl.fileName);
  if (!input)
    return input.takeError();
  input->emitPTX = false;
  auto entry = std::make_shared<InterpEntry>();
  llvm::Expected<KernelCompileResult> compiled = compileKernel(*input);
  if (!compiled)
    return llvm::createStringError(
        llvm::formatv("compiling kernel '{0}' for {1}:\n{2}", impl.kernelName,
                      spec.str(), llvm::toString(compiled.takeError())));
  entry->compiled = std::move(*compiled);
  llvm::Expected<InterpKernel> kernel =
      InterpKernel::compile(entry->compiled.kernel);
  if (!kernel)
    return kernel.takeError();
  entry->kernel.emplace(std::move(*kernel));
  ++cache.stats.compiles;
  if (debugEnabled())
    llvm::errs() << llvm::formatv(
        "mgp: compiled {0} for the interpreter in {1:f1} ms (key {2})\n", what,
        std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - start)
            .count(),
        llvm::StringRef(key).take_front(16));
  cache.entries[key] = entry;
  return entry;
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

llvm::Expected<LaunchEntry *>
Kernel::Impl::entryFor(llvm::ArrayRef<KernelArg> bound) {
  std::string key = fingerprint(bound);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = entries.find(key);
  if (it != entries.end())
    return it->second.get();

  KernelSignature signature;
  if (llvm::Error err = signatureFor(bound, signature))
    return std::move(err);
  auto entry = std::make_unique<LaunchEntry>();
  entry->signature = signature;
  if (options.device == DeviceKind::CPU) {
    llvm::Expected<Specialization> spec =
        deriveSpecialization(signature, bound);
    if (!spec)
      return spec.takeError();
    auto interp = getInterpKernel(*this, *spec);
    if (!interp)
      return interp.takeError();
    entry->interp = std::move(*interp);
  } else {
    if (!device)
      return llvm::createStringError(llvm::formatv(
          "kernel '{0}' is compiled for {1} without a device "
          "(JitOptions::deviceOrdinal < 0); it cannot be launched",
          kernelName, kernelOptions.arch));
    JitKernel jitKernel(normalized, signature, kernelOptions,
                        makeKernelCompileFn(source, fileName));
    auto compiled = jitKernel.compile(bound);
    if (!compiled)
      return compiled.takeError();
    entry->compiled = std::move(*compiled);
    llvm::Expected<Module> module = Module::loadPTX(entry->compiled->ptx);
    if (!module)
      return llvm::createStringError(
          llvm::formatv("loading kernel '{0}': {1}", kernelName,
                        llvm::toString(module.takeError())));
    llvm::Expected<Function> function =
        module->getFunction(entry->compiled->name);
    if (!function)
      return function.takeError();
    entry->module.emplace(std::move(*module));
    entry->function.emplace(std::move(*function));
  }
  LaunchEntry *result = entry.get();
  entries.emplace(std::move(key), std::move(entry));
  return result;
}

llvm::Error Kernel::Impl::launchGPU(LaunchEntry &entry, Grid grid,
                                    CUstream stream,
                                    llvm::ArrayRef<KernelArg> bound) {
  // One 8-byte slot per passed parameter (constexprs are compiled in);
  // cuLaunchKernel reads as many bytes as the PTX parameter has.
  constexpr size_t kInline = 16;
  uint64_t slots[kInline];
  void *pointers[kInline];
  std::vector<uint64_t> moreSlots;
  std::vector<void *> morePointers;
  uint64_t *slotData = slots;
  void **pointerData = pointers;
  if (bound.size() > kInline) {
    moreSlots.resize(bound.size());
    morePointers.resize(bound.size());
    slotData = moreSlots.data();
    pointerData = morePointers.data();
  }
  size_t count = 0;
  for (auto [param, arg] : llvm::zip_equal(entry.signature.params, bound)) {
    if (param.kind == ParamKind::Constexpr)
      continue;
    llvm::Expected<uint64_t> slot = packLaunchSlot(param, arg, kernelName);
    if (!slot)
      return slot.takeError();
    slotData[count] = *slot;
    pointerData[count] = &slotData[count];
    ++count;
  }
  LaunchConfig config;
  config.grid = grid.dims;
  config.numWarps = entry.compiled->numWarps;
  config.sharedBytes = entry.compiled->sharedBytes;
  config.stream = stream;
  return entry.function->launch(config, pointerData);
}

llvm::Error Kernel::Impl::launchCPU(LaunchEntry &entry, Grid grid,
                                    llvm::ArrayRef<KernelArg> bound,
                                    llvm::ArrayRef<uint64_t> bytes) {
  std::vector<InterpArg> args;
  for (auto [param, arg, size] :
       llvm::zip_equal(entry.signature.params, bound, bytes)) {
    if (param.kind == ParamKind::Constexpr)
      continue;
    if (arg.kind() == KernelArg::Kind::DevicePointer)
      return llvm::createStringError(llvm::formatv(
          "kernel '{0}', argument '{1}': a device pointer cannot be passed to "
          "a CPU kernel; pass host memory (mgp::host)",
          kernelName, param.name));
    args.push_back({arg, size});
  }
  InterpOptions interpOptions;
  // Dots marked tf32 round their inputs as the tensor cores do; with
  // precision=ieee every dot was marked ieee at compile time.
  interpOptions.emulateTF32 = true;
  interpOptions.numThreads = options.cpuThreads;
  std::array<int, 3> dims{static_cast<int>(grid.dims[0]),
                          static_cast<int>(grid.dims[1]),
                          static_cast<int>(grid.dims[2])};
  return entry.interp->kernel->run(dims, args, interpOptions);
}

llvm::Error Kernel::launchArgs(Grid grid, CUstream stream,
                               llvm::ArrayRef<LaunchArg> args) {
  std::vector<KernelArg> bound;
  std::vector<uint64_t> bytes;
  bound.reserve(args.size());
  bytes.reserve(args.size());
  if (llvm::Error err = impl->bindValues(args, bound, bytes))
    return err;
  llvm::Expected<LaunchEntry *> entry = impl->entryFor(bound);
  if (!entry)
    return entry.takeError();
  for (unsigned dim : grid.dims)
    if (dim == 0)
      return llvm::createStringError(llvm::formatv(
          "kernel '{0}': grid ({1}, {2}, {3}) has an empty dimension",
          impl->kernelName, grid.dims[0], grid.dims[1], grid.dims[2]));
  if (impl->options.device == DeviceKind::CPU)
    return impl->launchCPU(**entry, grid, bound, bytes);
  return impl->launchGPU(**entry, grid, stream, bound);
}

llvm::Error Kernel::bind(llvm::ArrayRef<LaunchArg> args,
                         std::vector<KernelArg> &bound,
                         KernelSignature &signature) const {
  std::vector<uint64_t> bytes;
  if (llvm::Error err = impl->bindValues(args, bound, bytes))
    return err;
  return impl->signatureFor(bound, signature);
}

llvm::Expected<std::string>
Kernel::specialization(llvm::ArrayRef<LaunchArg> args) const {
  std::vector<KernelArg> bound;
  KernelSignature signature;
  if (llvm::Error err = bind(args, bound, signature))
    return std::move(err);
  llvm::Expected<Specialization> spec = deriveSpecialization(signature, bound);
  if (!spec)
    return spec.takeError();
  return spec->str();
}

std::vector<std::string> Kernel::parameterNames() const {
  std::vector<std::string> names;
  for (const KernelParamInfo &param : impl->params)
    names.push_back(param.name);
  return names;
}

llvm::StringRef Kernel::name() const { return impl->kernelName; }
DeviceKind Kernel::device() const { return impl->options.device; }

//===----------------------------------------------------------------------===//
// mgp::jit
//===----------------------------------------------------------------------===//

llvm::Expected<std::shared_ptr<Device>> mgp::getSharedDevice(int ordinal) {
  static std::mutex mutex;
  static std::map<int, std::shared_ptr<Device>> devices;
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<Device> &device = devices[ordinal];
  if (!device) {
    llvm::Expected<Device> opened = Device::open(ordinal);
    if (!opened)
      return opened.takeError();
    device = std::make_shared<Device>(std::move(*opened));
  } else if (llvm::Error err = device->makeCurrent()) {
    return std::move(err);
  }
  return device;
}

llvm::Expected<Kernel> mgp::jit(llvm::StringRef source, llvm::StringRef name,
                                const JitOptions &options) {
  auto impl = std::make_shared<Kernel::Impl>();
  impl->source = source.str();
  impl->fileName = options.fileName;
  impl->kernelName = name.str();
  impl->options = options;
  auto params = getKernelParams(impl->source, impl->fileName, name);
  if (!params)
    return params.takeError();
  impl->params = std::move(*params);
  if (!options.signature.empty()) {
    auto declared = parseDeclaredTypes(options.signature, name, impl->params);
    if (!declared)
      return declared.takeError();
    impl->declared = std::move(*declared);
    for (auto [info, param] : llvm::zip_equal(impl->params, impl->declared))
      info.isConstexpr = param.kind == ParamKind::Constexpr;
  }
  if (options.numWarps < 1 || options.numWarps > 32 ||
      (options.numWarps & (options.numWarps - 1)))
    return llvm::createStringError(llvm::formatv(
        "num_warps must be a power of two in 1..32, got {0}",
        options.numWarps));
  if (options.numStages < 1)
    return llvm::createStringError(llvm::formatv(
        "num_stages must be at least 1, got {0}", options.numStages));
  if (llvm::Error err = parseDotPrecision(options.precision).takeError())
    return std::move(err);
  impl->normalized = normalizeKernelSource(impl->source, name);
  impl->kernelOptions.numWarps = options.numWarps;
  impl->kernelOptions.numStages = options.numStages;
  impl->kernelOptions.precision = options.precision;
  if (options.device == DeviceKind::GPU && options.deviceOrdinal < 0) {
    if (options.arch.empty()) // compile only
      return llvm::createStringError(
          "compiling without a device needs the target arch (e.g. sm_90)");
    impl->kernelOptions.arch = options.arch;
  } else if (options.device == DeviceKind::GPU) {
    auto device = getSharedDevice(options.deviceOrdinal);
    if (!device)
      return device.takeError();
    impl->device = std::move(*device);
    impl->kernelOptions.arch =
        options.arch.empty() ? impl->device->properties().arch : options.arch;
  } else {
    impl->kernelOptions.arch = "cpu";
  }
  return Kernel(std::move(impl));
}
