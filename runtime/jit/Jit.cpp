//===- Jit.cpp - mgp::jit and Kernel::launch ------------------------------===//
//
// This file implements mgp::jit (parse, find the kernel, open the device) and
// the launch path: bind the arguments, look their fingerprint up in the
// kernel's table of warm entries, and on a miss specialize and get the kernel
// through getCompiledKernel (the kernel cache, else the compiler; for the CPU
// device an interpreter kernel), then launch.
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/JitImpl.h"

#include "runtime/Specialization.h"
#include "runtime/interp/Interpreter.h"
#include "runtime/jit/KernelCompiler.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <map>

using namespace mgp;

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

llvm::Expected<LaunchEntry *>
Kernel::Impl::entryFor(llvm::ArrayRef<KernelArg> bound) {
  llvm::SmallString<64> key;
  fingerprint(bound, key);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = entries.find(key);
  if (it != entries.end())
    return it->second.get();

  KernelSignature signature;
  if (llvm::Error err = signatureFor(bound, signature))
    return std::move(err);
  llvm::Expected<Specialization> spec = deriveSpecialization(signature, bound);
  if (!spec)
    return spec.takeError();
  llvm::Expected<Signature> specialized = parseSignature(spec->str());
  if (!specialized)
    return specialized.takeError();
  KernelRequest request;
  request.source = source;
  request.fileName = fileName;
  request.kernelName = kernelName;
  request.signature = std::move(*specialized);
  request.options = options; // the KernelOptions part of the JitOptions
  request.target = target;
  if (options.device == DeviceKind::GPU && !device)
    return llvm::createStringError(llvm::formatv(
        "kernel '{0}' is compiled for {1} without a device "
        "(JitOptions::deviceOrdinal < 0); it cannot be launched",
        kernelName, target.arch()));
  auto compiled = getCompiledKernel(request);
  if (!compiled)
    return compiled.takeError();
  auto entry = std::make_unique<LaunchEntry>();
  entry->signature = signature;
  entry->compiled = std::move(*compiled);
  if (options.device == DeviceKind::GPU) {
    auto loaded = LoadedKernel::load(entry->compiled, "'" + kernelName + "'");
    if (!loaded)
      return loaded.takeError();
    entry->loaded.emplace(std::move(*loaded));
  }
  LaunchEntry *result = entry.get();
  entries.try_emplace(key, std::move(entry));
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
  return entry.loaded->function.launch(
      entry.loaded->launchConfig(grid.dims, stream), pointerData);
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
  return entry.compiled->interp->run(dims, args, interpOptions);
}

llvm::Error Kernel::launchArgs(Grid grid, CUstream stream,
                               llvm::ArrayRef<LaunchArg> args) {
  llvm::SmallVector<KernelArg, 16> bound;
  llvm::SmallVector<uint64_t, 16> bytes;
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
  llvm::SmallVector<KernelArg, 16> values;
  llvm::SmallVector<uint64_t, 16> bytes;
  if (llvm::Error err = impl->bindValues(args, values, bytes))
    return err;
  bound.assign(values.begin(), values.end());
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
  if (llvm::Error err = options.verify())
    return std::move(err);
  if (options.device == DeviceKind::GPU && options.deviceOrdinal < 0) {
    if (options.arch.empty()) // compile only
      return llvm::createStringError(
          "compiling without a device needs the target arch (e.g. sm_90)");
    auto target = Target::parse(options.arch);
    if (!target)
      return target.takeError();
    impl->target = std::move(*target);
  } else if (options.device == DeviceKind::GPU) {
    auto device = getSharedDevice(options.deviceOrdinal);
    if (!device)
      return device.takeError();
    impl->device = std::move(*device);
    auto target = options.arch.empty()
                      ? getDeviceTarget(impl->device->properties())
                      : Target::parse(options.arch);
    if (!target)
      return target.takeError();
    impl->target = std::move(*target);
  } else {
    impl->target = Target::cpu();
  }
  return Kernel(std::move(impl));
}
