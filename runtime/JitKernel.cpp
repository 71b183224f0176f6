//===- JitKernel.cpp - a kernel compiled per specialization ---------------===//
//
// This file implements JitKernel: specialization, the cache lookup that
// falls back on the compile function, loading into the current context and
// the packing of arguments into cuLaunchKernel's parameter array.
//
//===----------------------------------------------------------------------===//
#include "runtime/JitKernel.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <vector>

using namespace mgp;

JitKernel::JitKernel(std::string source, KernelSignature signature,
                     KernelOptions options, KernelCompileFn compile,
                     KernelCache &cache)
    : src(std::move(source)), sig(std::move(signature)),
      opts(std::move(options)), compileFn(std::move(compile)), cache(cache) {}

/// What MGP_DEBUG calls a specialization, e.g.
/// "add[*fp32:16,*fp32:16,i32:16,1024] sm_90 w4 s3 tf32".
static std::string describe(llvm::StringRef kernelName,
                            const Specialization &spec,
                            const KernelOptions &opts) {
  return llvm::formatv("{0}[{1}] {2} w{3} s{4} {5}", kernelName, spec.str(),
                       opts.arch, opts.numWarps, opts.numStages, opts.precision)
      .str();
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
mgp::getCompiledKernel(KernelCache &cache, const KernelCompileFn &compileFn,
                       llvm::StringRef source, llvm::StringRef kernelName,
                       const KernelOptions &opts, const Specialization &spec,
                       CacheSource *cacheSource, std::string *keyOut) {
  std::string key =
      computeCacheKey(makeCacheKeyInput(source, kernelName, opts, spec));
  CompileRequest request{source, kernelName, nullptr, &spec, opts};
  auto kernel = cache.getOrCompile(
      key, describe(kernelName, spec, opts),
      [&]() -> llvm::Expected<CompiledKernel> {
        llvm::Expected<CompiledKernel> compiled = compileFn(request);
        if (!compiled)
          return llvm::createStringError(
              llvm::formatv("compiling kernel '{0}' for {1}:\n{2}", kernelName,
                            spec.str(), llvm::toString(compiled.takeError())));
        return compiled;
      },
      cacheSource);
  if (keyOut)
    *keyOut = std::move(key);
  return kernel;
}

/// Specializes for \p args and gets the compiled kernel from \p cache.
static llvm::Expected<
    std::pair<std::string, std::shared_ptr<const CompiledKernel>>>
lookup(KernelCache &cache, const KernelCompileFn &compileFn,
       llvm::StringRef source, const KernelSignature &sig,
       const KernelOptions &opts, llvm::ArrayRef<KernelArg> args,
       CacheSource *cacheSource) {
  llvm::Expected<Specialization> spec = deriveSpecialization(sig, args);
  if (!spec)
    return spec.takeError();
  std::string key;
  auto kernel = getCompiledKernel(cache, compileFn, source, sig.kernelName,
                                  opts, *spec, cacheSource, &key);
  if (!kernel)
    return kernel.takeError();
  return std::make_pair(std::move(key), std::move(*kernel));
}

llvm::Expected<std::shared_ptr<const CompiledKernel>>
JitKernel::compile(llvm::ArrayRef<KernelArg> args, CacheSource *source) {
  auto found = lookup(cache, compileFn, src, sig, opts, args, source);
  if (!found)
    return found.takeError();
  return std::move(found->second);
}

llvm::Expected<JitKernel::Loaded *>
JitKernel::load(llvm::ArrayRef<KernelArg> args) {
  auto found = lookup(cache, compileFn, src, sig, opts, args, nullptr);
  if (!found)
    return found.takeError();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(found->first);
  if (it != loaded.end())
    return it->second.get();
  std::shared_ptr<const CompiledKernel> kernel = std::move(found->second);
  llvm::Expected<Module> module = Module::loadPTX(kernel->ptx);
  if (!module)
    return llvm::createStringError(
        llvm::formatv("loading kernel '{0}': {1}", sig.kernelName,
                      llvm::toString(module.takeError())));
  llvm::Expected<Function> function = module->getFunction(kernel->name);
  if (!function)
    return function.takeError();
  auto entry = std::make_unique<Loaded>(
      Loaded{std::move(kernel), std::move(*module), std::move(*function)});
  Loaded *result = entry.get();
  loaded.emplace(found->first, std::move(entry));
  return result;
}

llvm::Error JitKernel::launch(std::array<unsigned, 3> grid, CUstream stream,
                              llvm::ArrayRef<KernelArg> args) {
  llvm::Expected<Loaded *> entry = load(args);
  if (!entry)
    return entry.takeError();
  // One 8-byte slot per passed parameter; cuLaunchKernel reads as many bytes
  // as the PTX parameter has, from the start of the slot (little-endian).
  std::vector<uint64_t> slots;
  slots.reserve(args.size());
  for (auto [param, arg] : llvm::zip_equal(sig.params, args)) {
    if (param.kind == ParamKind::Constexpr)
      continue;
    llvm::Expected<uint64_t> slot = packLaunchSlot(param, arg, sig.kernelName);
    if (!slot)
      return slot.takeError();
    slots.push_back(*slot);
  }
  std::vector<void *> pointers;
  for (uint64_t &slot : slots)
    pointers.push_back(&slot);

  LaunchConfig config;
  config.grid = grid;
  config.numWarps = (*entry)->kernel->numWarps;
  config.sharedBytes = (*entry)->kernel->sharedBytes;
  config.stream = stream;
  return (*entry)->function.launch(config, pointers.data());
}
