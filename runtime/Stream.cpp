//===- Stream.cpp - an owned CUDA stream ----------------------------------===//
//
// This file implements Stream: creation with CU_STREAM_NON_BLOCKING,
// synchronization and destruction.
//
//===----------------------------------------------------------------------===//
#include "runtime/Stream.h"

using namespace mgp;

llvm::Expected<Stream> Stream::create() {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  CUstream stream = nullptr;
  if (llvm::Error err =
          driver->check(driver->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
                        "cuStreamCreate"))
    return std::move(err);
  return Stream(*driver, stream);
}

llvm::Expected<Stream> Stream::createLowPriority() {
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  int least = 0, greatest = 0;
  if (llvm::Error err =
          driver->check(driver->cuCtxGetStreamPriorityRange(&least, &greatest),
                        "cuCtxGetStreamPriorityRange"))
    return std::move(err);
  CUstream stream = nullptr;
  if (llvm::Error err =
          driver->check(driver->cuStreamCreateWithPriority(
                            &stream, CU_STREAM_NON_BLOCKING, least),
                        "cuStreamCreateWithPriority"))
    return std::move(err);
  return Stream(*driver, stream);
}

llvm::Error Stream::waitFor(CUevent event) const {
  return driver->check(driver->cuStreamWaitEvent(stream, event, 0),
                       "cuStreamWaitEvent");
}

llvm::Error Stream::synchronize() const {
  return driver->check(driver->cuStreamSynchronize(stream),
                       "cuStreamSynchronize");
}

Stream &Stream::operator=(Stream &&other) noexcept {
  if (this != &other) {
    this->~Stream();
    new (this) Stream(std::move(other));
  }
  return *this;
}

Stream::~Stream() {
  if (stream)
    (void)driver->cuStreamDestroy(stream);
}
