//===- Device.cpp - a CUDA device and its primary context -----------------===//
//
// This file implements opening a device: querying its properties through
// cuDeviceGetAttribute and retaining (and finally releasing) its primary
// context, the context the CUDA runtime API would also use, so that mgp can
// share buffers with other CUDA code in the same process.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"

#include "compiler/api/Environment.h"

#include "llvm/Support/FormatVariadic.h"


using namespace mgp;

llvm::Expected<int> mgp::getDeviceCount() {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  int count = 0;
  if (llvm::Error err =
          driver->check(driver->cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return std::move(err);
  return count;
}

llvm::Expected<bool> mgp::hasGpu() {
  llvm::Expected<int> count = getDeviceCount();
  if (count)
    return *count > 0;
  llvm::Error err = count.takeError();
  if (!err.isA<NoGpuError>())
    return std::move(err);
  llvm::consumeError(std::move(err));
  return false;
}

static llvm::Error queryAttribute(CudaDriver &driver, CUdevice device,
                                  CUdevice_attribute attribute, int &value) {
  return driver.check(driver.cuDeviceGetAttribute(&value, attribute, device),
                      "cuDeviceGetAttribute");
}

std::string mgp::getTargetArch(int major, int minor, bool noWgmma) {
  bool wgmma = major == 9 && minor == 0 && !noWgmma;
  return llvm::formatv("sm_{0}{1}{2}", major, minor, wgmma ? "a" : "").str();
}

llvm::Expected<Target> mgp::getDeviceTarget(const DeviceProperties &props) {
  llvm::Expected<Target> target = Target::parse(props.arch);
  if (target || props.computeMajor < 9)
    return target ? std::move(target)
                  : llvm::createStringError(
                        props.name + " (" + props.arch +
                        ") is not a GPU mgp generates code for: " +
                        llvm::toString(target.takeError()));
  // PTX for sm_90 runs on newer GPUs through the driver's JIT.
  llvm::consumeError(target.takeError());
  return Target::parse("sm_90");
}

llvm::Expected<Device> Device::open(int ordinal) {
  llvm::Expected<int> count = getDeviceCount();
  if (!count)
    return count.takeError();
  if (ordinal < 0 || ordinal >= *count)
    return llvm::createStringError(llvm::formatv(
        "no CUDA device {0}: {1} device(s) present", ordinal, *count));
  CudaDriver &driver = cantFail(CudaDriver::get());
  CUdevice handle;
  if (llvm::Error err =
          driver.check(driver.cuDeviceGet(&handle, ordinal), "cuDeviceGet"))
    return std::move(err);
  Device device(driver, handle, ordinal);

  DeviceProperties &props = device.props;
  char name[256] = {0};
  if (llvm::Error err =
          driver.check(driver.cuDeviceGetName(name, sizeof(name) - 1, handle),
                       "cuDeviceGetName"))
    return std::move(err);
  props.name = name;
  struct {
    CUdevice_attribute attribute;
    int *value;
  } queries[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &props.computeMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &props.computeMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &props.smCount},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
       &props.maxSharedPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &props.maxSharedPerBlockOptin},
  };
  for (auto &query : queries)
    if (llvm::Error err =
            queryAttribute(driver, handle, query.attribute, *query.value))
      return std::move(err);
  props.arch = getTargetArch(props.computeMajor, props.computeMinor,
                             isEnvOn(EnvVar::NoWgmma));
  if (llvm::Error err =
          driver.check(driver.cuDeviceTotalMem(&props.totalMemory, handle),
                       "cuDeviceTotalMem"))
    return std::move(err);

  if (llvm::Error err =
          driver.check(driver.cuDevicePrimaryCtxRetain(&device.ctx, handle),
                       "cuDevicePrimaryCtxRetain"))
    return std::move(err);
  if (llvm::Error err = device.makeCurrent())
    return std::move(err);
  return std::move(device);
}

llvm::Error mgp::runInContext(CUcontext context,
                              llvm::function_ref<llvm::Error()> body) {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  CUcontext previous = nullptr;
  if (llvm::Error err =
          driver->check(driver->cuCtxGetCurrent(&previous), "cuCtxGetCurrent"))
    return err;
  if (previous == context)
    return body();
  if (llvm::Error err =
          driver->check(driver->cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return err;
  llvm::Error result = body();
  llvm::Error restored =
      driver->check(driver->cuCtxSetCurrent(previous), "cuCtxSetCurrent");
  return llvm::joinErrors(std::move(result), std::move(restored));
}

llvm::Error Device::makeCurrent() const {
  return driver->check(driver->cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}

llvm::Error Device::synchronize() const {
  if (llvm::Error err = makeCurrent())
    return err;
  return driver->check(driver->cuCtxSynchronize(), "cuCtxSynchronize");
}

Device::Device(Device &&other) noexcept
    : driver(other.driver), device(other.device),
      ordinalIndex(other.ordinalIndex), ctx(other.ctx),
      props(std::move(other.props)) {
  other.ctx = nullptr;
}

Device &Device::operator=(Device &&other) noexcept {
  if (this != &other) {
    this->~Device();
    new (this) Device(std::move(other));
  }
  return *this;
}

Device::~Device() {
  // Releasing can only fail when the driver is already torn down at exit;
  // there is nothing left to do about it then.
  if (ctx)
    (void)driver->cuDevicePrimaryCtxRelease(device);
}
