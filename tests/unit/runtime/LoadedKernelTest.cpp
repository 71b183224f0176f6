//===- LoadedKernelTest.cpp - loading and launch slots, no GPU ------------===//
//
// This file tests, without a GPU, the two steps between a compiled kernel and
// its launch that every caller shares: LoadedKernel::load (here: a clean error
// naming the kernel when there is no driver) and packLaunchSlot (the 8-byte
// parameter slots, and the refusal of host pointers).
//
//===----------------------------------------------------------------------===//
#include "runtime/LoadedKernel.h"

#include "CacheTestSupport.h"
#include "TestErrors.h"

#include "runtime/KernelSignature.h"

#include <cstring>

using namespace mgp;
using mgp::test::errorText;

TEST(LoadedKernel, LoadWithoutADriverFailsCleanly) {
  auto driver = CudaDriver::get();
  if (driver)
    GTEST_SKIP() << "a CUDA driver is present; the GPU tests cover loads";
  std::string noDriver = errorText(driver);
  auto kernel =
      std::make_shared<const CompiledKernel>(test::makeKernel("scale", 200));
  auto loaded = LoadedKernel::load(kernel, "'scale'");
  EXPECT_EQ(errorText(loaded), "loading kernel 'scale': " + noDriver);
}

TEST(LoadedKernel, LaunchSlots) {
  KernelParam n = KernelParam::scalar("n", ParamKind::Int32);
  auto slot = packLaunchSlot(n, KernelArg::integer(-2), "k");
  ASSERT_TRUE(!!slot) << errorText(slot);
  int32_t low;
  std::memcpy(&low, &*slot, sizeof(low));
  EXPECT_EQ(low, -2);
  KernelParam alpha = KernelParam::scalar("alpha", ParamKind::Fp32);
  slot = packLaunchSlot(alpha, KernelArg::floating(0.5), "k");
  ASSERT_TRUE(!!slot) << errorText(slot);
  float value;
  std::memcpy(&value, &*slot, sizeof(value));
  EXPECT_EQ(value, 0.5f);
  KernelParam x = KernelParam::pointer("x_ptr", DType::F32);
  slot = packLaunchSlot(x, KernelArg::devicePointer(0x10000, DType::F32), "k");
  ASSERT_TRUE(!!slot) << errorText(slot);
  EXPECT_EQ(*slot, 0x10000u);
  float host[4];
  slot =
      packLaunchSlot(x, KernelArg::hostPointer(host, DType::F32), "vector_add");
  EXPECT_EQ(errorText(slot),
            "kernel 'vector_add', argument 'x_ptr': a host pointer cannot be "
            "passed to a GPU kernel; copy the data to a DeviceBuffer");
}
