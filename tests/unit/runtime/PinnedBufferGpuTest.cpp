//===- PinnedBufferGpuTest.cpp - page-locked host memory on a GPU ---------===//
//
// This file tests PinnedBuffer on a GPU (label gpu): random data goes from a
// pinned buffer to the device and back into another one with the
// stream-ordered copies and arrives bit for bit; a move leaves one owner; an
// allocation larger than any address space fails with a message naming the
// size and the driver's error, and pinned memory is still available after.
// Without a GPU every test reports "skipped: no GPU".
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/PinnedBuffer.h"
#include "runtime/Stream.h"
#include "tests/unit/support/GpuTestSupport.h"

#include "TestErrors.h"

#include "gtest/gtest.h"

#include <cstring>
#include <optional>
#include <vector>

using namespace mgp;
using mgp::test::errorText;
using mgp::test::randomSignedFloats;

namespace {
class PinnedBufferGpu : public ::testing::Test {
protected:
  void SetUp() override {
    MGP_SKIP_WITHOUT_GPU();
    llvm::Expected<Device> opened = Device::open(0);
    ASSERT_TRUE(!!opened) << errorText(opened);
    device.emplace(std::move(*opened));
  }
  std::optional<Device> device;
};
} // namespace

TEST_F(PinnedBufferGpu, RoundTripThroughTheCopyEngine) {
  const size_t n = (size_t(3) << 20) + 7; // 12 MiB and a ragged end
  std::vector<float> values = randomSignedFloats(n, 31);
  auto up = PinnedBuffer::allocate(n * sizeof(float));
  ASSERT_TRUE(!!up) << errorText(up);
  auto down = PinnedBuffer::allocate(n * sizeof(float));
  ASSERT_TRUE(!!down) << errorText(down);
  EXPECT_EQ(up->size(), n * sizeof(float));
  std::memcpy(up->data(), values.data(), n * sizeof(float));
  std::memset(down->data(), 0, n * sizeof(float));
  auto onDevice = DeviceBuffer::allocate(n * sizeof(float));
  ASSERT_TRUE(!!onDevice) << errorText(onDevice);
  auto stream = Stream::create();
  ASSERT_TRUE(!!stream) << errorText(stream);
  ASSERT_EQ(errorText(onDevice->copyFromHostAsync(up->data(), n * sizeof(float),
                                                  stream->handle())),
            "");
  ASSERT_EQ(errorText(onDevice->copyToHostAsync(down->data(), n * sizeof(float),
                                                stream->handle())),
            "");
  ASSERT_EQ(errorText(stream->synchronize()), "");
  EXPECT_EQ(std::memcmp(down->data(), values.data(), n * sizeof(float)), 0);
}

TEST_F(PinnedBufferGpu, MoveLeavesOneOwner) {
  auto allocated = PinnedBuffer::allocate(4096);
  ASSERT_TRUE(!!allocated) << errorText(allocated);
  void *address = allocated->data();
  ASSERT_NE(address, nullptr);
  PinnedBuffer owner(std::move(*allocated));
  EXPECT_EQ(allocated->data(), nullptr);
  EXPECT_EQ(allocated->size(), 0u);
  EXPECT_EQ(owner.data(), address);
  auto other = PinnedBuffer::allocate(64);
  ASSERT_TRUE(!!other) << errorText(other);
  owner = std::move(*other); // frees the 4096 bytes
  EXPECT_EQ(owner.size(), 64u);
  EXPECT_EQ(other->data(), nullptr);
  std::memset(owner.data(), 0x5a, owner.size());
  EXPECT_EQ(static_cast<unsigned char *>(owner.data())[63], 0x5a);
}

TEST_F(PinnedBufferGpu, ImpossibleSizeIsAnError) {
  size_t request = size_t(1) << 50; // 1 PiB: beyond the address space
  auto buffer = PinnedBuffer::allocate(request);
  ASSERT_FALSE(!!buffer) << "allocated " << request << " bytes";
  std::string message = errorText(buffer);
  EXPECT_EQ(message.rfind("cannot allocate 1125899906842624 bytes (", 0), 0u)
      << message;
  EXPECT_NE(message.find(" MiB) of page-locked host memory: cuMemHostAlloc "
                         "failed: CUDA_ERROR_"),
            std::string::npos)
      << message;
  auto small = PinnedBuffer::allocate(1024);
  EXPECT_TRUE(!!small) << errorText(small);
}
