//===- CudaDriverTest.cpp - driver loading and error messages, no GPU -----===//
//
// This file tests, without a GPU, what the driver layer says when libcuda is
// missing or is not a CUDA driver, the format of a failed call's error, and
// that every runtime object (pinned host memory included) reports the missing
// driver instead of crashing.
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaGraph.h"
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Event.h"
#include "runtime/Module.h"
#include "runtime/PinnedBuffer.h"
#include "runtime/Stream.h"

#include "TestErrors.h"

#include "gtest/gtest.h"

using namespace mgp;
using mgp::test::errorText;

TEST(CudaDriver, MissingLibrary) {
  auto driver = CudaDriver::load("libmgp-no-such-cuda.so.1");
  ASSERT_FALSE(!!driver);
  llvm::Error err = driver.takeError();
  EXPECT_TRUE(err.isA<NoGpuError>()) << "no library is no GPU: tests skip";
  std::string message = llvm::toString(std::move(err));
  EXPECT_TRUE(llvm::StringRef(message).starts_with(
      "no CUDA driver: cannot open libmgp-no-such-cuda.so.1 ("))
      << message;
  EXPECT_TRUE(
      llvm::StringRef(message).ends_with("); GPU execution is unavailable"))
      << message;
}

TEST(CudaDriver, LibraryWithoutDriverFunctions) {
  auto driver = CudaDriver::load("libz.so.1");
  ASSERT_FALSE(!!driver);
  llvm::Error err = driver.takeError();
  EXPECT_FALSE(err.isA<NoGpuError>())
      << "a library that is not a driver is a broken install: tests fail";
  EXPECT_EQ(llvm::toString(std::move(err)),
            "broken CUDA driver: libz.so.1 lacks cuInit "
            "(driver too old for CUDA 13 headers?)");
}

TEST(CudaDriver, FailedCallMessage) {
  EXPECT_EQ(formatDriverError("cuMemAlloc", 2, "CUDA_ERROR_OUT_OF_MEMORY",
                              "out of memory"),
            "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)");
  EXPECT_EQ(formatDriverError("cuLaunchKernel", 999, nullptr, nullptr),
            "cuLaunchKernel failed: CUDA error 999");
}

TEST(CudaDriver, PinnedAllocationErrorNamesTheSize) {
  EXPECT_EQ(formatPinnedAllocationError(
                size_t(80) << 20, "cuMemHostAlloc failed: "
                                  "CUDA_ERROR_OUT_OF_MEMORY (out of memory)"),
            "cannot allocate 83886080 bytes (80.0 MiB) of page-locked host "
            "memory: cuMemHostAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of "
            "memory)");
}

TEST(CudaDriver, EveryObjectReportsAMissingDriver) {
  auto driver = CudaDriver::get();
  if (driver)
    GTEST_SKIP() << "a CUDA driver is present; the GPU tests cover it";
  std::string expected = errorText(driver);
  EXPECT_TRUE(llvm::StringRef(expected).starts_with("no CUDA driver: ") ||
              llvm::StringRef(expected).starts_with("no CUDA device: ") ||
              llvm::StringRef(expected).starts_with("broken CUDA driver: "))
      << expected;
  // The outcome is remembered: asking again gives the same answer.
  auto again = CudaDriver::get();
  EXPECT_EQ(errorText(again), expected);

  auto count = getDeviceCount();
  EXPECT_EQ(errorText(count), expected);
  // No library or no device is "no GPU" (GPU tests skip); a driver that is
  // there but fails is an error (GPU tests fail).
  auto present = hasGpu();
  if (llvm::StringRef(expected).starts_with("no CUDA ")) {
    ASSERT_TRUE(!!present) << errorText(present);
    EXPECT_FALSE(*present);
  } else {
    EXPECT_EQ(errorText(present), expected);
  }
  auto device = Device::open(0);
  EXPECT_EQ(errorText(device), expected);
  auto buffer = DeviceBuffer::allocate(64);
  EXPECT_EQ(errorText(buffer), expected);
  auto pinned = PinnedBuffer::allocate(64);
  EXPECT_EQ(errorText(pinned), expected);
  auto stream = Stream::create();
  EXPECT_EQ(errorText(stream), expected);
  auto event = Event::create();
  EXPECT_EQ(errorText(event), expected);
  auto module = Module::loadPTX(".version 8.0\n.target sm_80\n");
  EXPECT_EQ(errorText(module), expected);
  // A made-up stream handle: the driver is asked for before it is used.
  bool enqueued = false;
  auto graph = CudaGraph::capture(reinterpret_cast<CUstream>(0x10), [&] {
    enqueued = true;
    return llvm::Error::success();
  });
  EXPECT_EQ(errorText(graph), expected);
  EXPECT_FALSE(enqueued);
}

TEST(CudaDriver, DefaultStreamCannotBeCaptured) {
  bool enqueued = false;
  auto graph = CudaGraph::capture(nullptr, [&] {
    enqueued = true;
    return llvm::Error::success();
  });
  EXPECT_EQ(errorText(graph), "CUDA graph capture needs a created stream (the "
                              "legacy default stream cannot be captured)");
  EXPECT_FALSE(enqueued);
}
