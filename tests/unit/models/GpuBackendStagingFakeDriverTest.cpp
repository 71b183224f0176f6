//===- GpuBackendStagingFakeDriverTest.cpp - staging through a fake driver ===//
//
// This file tests, without a GPU, HostStaging (graph/backends/gpu/GpuBackendStaging.h)
// and PinnedBuffer end to end through the runtime's driver table, with
// libcuda replaced by the host-only fake of tests/unit/support/
// FakeCudaDriver.h (device memory is host memory, copies are logged): random
// fp32 and fp16 inputs of several chunks arrive in "device" memory bit for bit
// (fp16 as converting the whole input gives), each chunk's copy from a pinned
// block, in order; fp32 and bf16 outputs come back (bf16 widened); a failing
// pinned allocation frees what was allocated, notes one line and leaves the
// pageable copies, which move the same bytes; dropping the buffers frees
// them.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackendStaging.h"

#include "runtime/DeviceBuffer.h"
#include "runtime/Stream.h"
#include "tests/unit/support/FakeCudaDriver.h"

#include "gtest/gtest.h"

#include <cstring>
#include <dlfcn.h>
#include <optional>
#include <random>

using namespace mgp;
using namespace mgp::graph;

namespace {

std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 2.0f);
  std::vector<float> values(n);
  for (float &v : values)
    v = dist(rng);
  return values;
}

class FakeDriverStaging : public ::testing::Test {
protected:
  // Two inputs of several 4 MiB chunks (12 MB fp32: 3 chunks; 6 MB fp16: 2)
  // and two outputs.
  static constexpr size_t kInputElements = (size_t(3) << 20) - 5;
  static constexpr size_t kLogits = 1000, kFeatures = 777;

  void SetUp() override {
    // Loaded before the first CudaDriver::get(), whose dlopen("libcuda.so.1")
    // then finds it by its SONAME.
    static void *fake = ::dlopen(MGP_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(fake, nullptr) << ::dlerror();
    auto driver = CudaDriver::get();
    ASSERT_TRUE(bool(driver)) << llvm::toString(driver.takeError());
    ASSERT_EQ(::dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD), fake)
        << "the driver in use is not the fake";
    ASSERT_EQ(driver->version(), 13000);
    copiesFn = reinterpret_cast<MgpFakeCudaCopiesFn>(
        ::dlsym(fake, "mgpFakeCudaCopies"));
    auto reset =
        reinterpret_cast<MgpFakeCudaResetFn>(::dlsym(fake, "mgpFakeCudaReset"));
    livePinned = reinterpret_cast<MgpFakeCudaLivePinnedFn>(
        ::dlsym(fake, "mgpFakeCudaLivePinned"));
    failHostAllocAfter = reinterpret_cast<MgpFakeCudaFailHostAllocAfterFn>(
        ::dlsym(fake, "mgpFakeCudaFailHostAllocAfter"));
    ASSERT_TRUE(copiesFn && reset && livePinned && failHostAllocAfter);
    reset();
    failHostAllocAfter(-1);

    types = {DType::F32, DType::F16, DType::F32, DType::BF16};
    sizes = {kInputElements, kInputElements, kLogits, kFeatures};
    for (size_t i = 0; i < 4; ++i) {
      auto buffer = DeviceBuffer::allocate(sizes[i] * dtypeBytes(types[i]));
      ASSERT_TRUE(bool(buffer)) << llvm::toString(buffer.takeError());
      buffers.push_back(std::move(*buffer));
    }
    auto created = Stream::create();
    ASSERT_TRUE(bool(created)) << llvm::toString(created.takeError());
    stream.emplace(std::move(*created));
    std::vector<StagedValue> in, out;
    for (size_t i = 0; i < 4; ++i)
      (i < 2 ? in : out).push_back({types[i], sizes[i], buffers[i].address()});
    staging.setValues(in, out);
  }

  void TearDown() override {
    if (failHostAllocAfter)
      failHostAllocAfter(-1);
  }

  std::vector<MgpFakeCudaCopy> copies() const {
    const MgpFakeCudaCopy *first = nullptr;
    size_t count = copiesFn(&first);
    return std::vector<MgpFakeCudaCopy>(first, first + count);
  }

  const unsigned char *deviceBytes(size_t value) const {
    return reinterpret_cast<const unsigned char *>(buffers[value].address());
  }

  /// Uploads two fresh random inputs and checks the "device" bytes.
  void uploadAndCheck(unsigned seed) {
    std::vector<float> a = randomValues(kInputElements, seed);
    std::vector<float> b = randomValues(kInputElements, seed + 1);
    ASSERT_FALSE(bool(staging.upload(0, a, stream->handle())));
    ASSERT_FALSE(bool(staging.upload(1, b, stream->handle())));
    ASSERT_FALSE(bool(stream->synchronize()));
    EXPECT_EQ(std::memcmp(deviceBytes(0), a.data(), a.size() * 4), 0);
    std::vector<uint16_t> half(b.size());
    convertFromF32(b, DType::F16, half.data());
    EXPECT_EQ(std::memcmp(deviceBytes(1), half.data(), half.size() * 2), 0);
  }

  /// Writes random outputs on the "device", downloads them and compares.
  void downloadAndCheck(unsigned seed) {
    std::vector<float> logits = randomValues(kLogits, seed);
    std::memcpy(reinterpret_cast<void *>(buffers[2].address()), logits.data(),
                kLogits * 4);
    std::mt19937 rng(seed);
    std::vector<uint16_t> features(kFeatures);
    std::vector<float> widened(kFeatures);
    for (size_t i = 0; i < kFeatures; ++i) {
      // Finite bf16 values: any sign and mantissa, exponent below 0xff.
      features[i] =
          uint16_t((rng() & 0x8000) | (rng() % 0xff) << 7 | (rng() & 0x7f));
      uint32_t word = uint32_t(features[i]) << 16; // bf16 is fp32's top half
      std::memcpy(&widened[i], &word, 4);
    }
    std::memcpy(reinterpret_cast<void *>(buffers[3].address()), features.data(),
                kFeatures * 2);
    ASSERT_FALSE(bool(staging.download(0, stream->handle())));
    ASSERT_FALSE(bool(staging.download(1, stream->handle())));
    ASSERT_FALSE(bool(stream->synchronize()));
    EXPECT_EQ(staging.output(0), logits);
    EXPECT_EQ(staging.output(1), widened);
  }

  MgpFakeCudaCopiesFn copiesFn = nullptr;
  MgpFakeCudaLivePinnedFn livePinned = nullptr;
  MgpFakeCudaFailHostAllocAfterFn failHostAllocAfter = nullptr;
  std::vector<DType> types;
  std::vector<size_t> sizes;
  std::vector<DeviceBuffer> buffers;
  std::optional<Stream> stream;
  HostStaging staging;
};

TEST_F(FakeDriverStaging, PinnedChunksCarryTheInputs) {
  std::string note;
  llvm::raw_string_ostream os(note);
  ASSERT_TRUE(staging.allocatePinned(&os));
  EXPECT_EQ(note, "");
  EXPECT_TRUE(staging.isPinned());
  EXPECT_EQ(livePinned(), 4u);
  EXPECT_EQ(staging.pinnedBytes(),
            kInputElements * 6 + kLogits * 4 + kFeatures * 2);
  for (unsigned run = 0; run < 2; ++run) {
    SCOPED_TRACE(run);
    uploadAndCheck(100 + 10 * run);
    downloadAndCheck(200 + 10 * run);
  }
  // Per run: 3 + 2 chunk copies up, each from a pinned block, in order and
  // contiguous on the device; 2 copies down into pinned blocks.
  std::vector<MgpFakeCudaCopy> log = copies();
  ASSERT_EQ(log.size(), 2u * (3 + 2 + 2));
  for (unsigned run = 0; run < 2; ++run) {
    const MgpFakeCudaCopy *c = &log[run * 7];
    size_t expectedBytes[] = {kStagingChunkBytes, kStagingChunkBytes,
                              kInputElements * 4 - 2 * kStagingChunkBytes,
                              kStagingChunkBytes,
                              kInputElements * 2 - kStagingChunkBytes};
    uintptr_t at[] = {buffers[0].address(), buffers[0].address() + (4u << 20),
                      buffers[0].address() + (8u << 20), buffers[1].address(),
                      buffers[1].address() + (4u << 20)};
    for (int i = 0; i < 5; ++i) {
      EXPECT_TRUE(c[i].toDevice) << i;
      EXPECT_TRUE(c[i].hostPinned) << i;
      EXPECT_EQ(c[i].device, at[i]) << i;
      EXPECT_EQ(c[i].bytes, expectedBytes[i]) << i;
    }
    for (int i = 5; i < 7; ++i) {
      EXPECT_FALSE(c[i].toDevice) << i;
      EXPECT_TRUE(c[i].hostPinned) << i;
      EXPECT_EQ(c[i].device, buffers[i - 3].address()) << i;
    }
  }
  staging.dropPinned();
  EXPECT_FALSE(staging.isPinned());
  EXPECT_EQ(livePinned(), 0u);
}

TEST_F(FakeDriverStaging, FailedPinnedAllocationFallsBackToPageable) {
  failHostAllocAfter(2); // both inputs' buffers, then the logits' fails
  std::string note;
  llvm::raw_string_ostream os(note);
  EXPECT_FALSE(staging.allocatePinned(&os));
  EXPECT_EQ(note, "mgp: gpu backend: no pinned staging (cannot allocate 4000 "
                  "bytes (0.0 MiB) of page-locked host memory: cuMemHostAlloc "
                  "failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)); the "
                  "input and output copies go through pageable memory\n");
  EXPECT_FALSE(staging.isPinned());
  EXPECT_EQ(staging.pinnedBytes(), 0u);
  EXPECT_EQ(livePinned(), 0u) << "the two allocated blocks are freed";
  EXPECT_FALSE(staging.allocatePinned(nullptr)); // no note: no output
  uploadAndCheck(300);
  downloadAndCheck(400);
  std::vector<MgpFakeCudaCopy> log = copies();
  ASSERT_EQ(log.size(), 4u); // one copy per value
  for (const MgpFakeCudaCopy &c : log)
    EXPECT_FALSE(c.hostPinned);
  EXPECT_EQ(log[0].bytes, kInputElements * 4);
  EXPECT_EQ(log[1].bytes, kInputElements * 2);
}

TEST_F(FakeDriverStaging, PinnedBuffersAreFreed) {
  failHostAllocAfter(0);
  auto failed = PinnedBuffer::allocate(size_t(80) << 20);
  ASSERT_FALSE(bool(failed));
  EXPECT_EQ(llvm::toString(failed.takeError()),
            "cannot allocate 83886080 bytes (80.0 MiB) of page-locked host "
            "memory: cuMemHostAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (out of "
            "memory)");
  failHostAllocAfter(-1);
  {
    HostStaging other;
    other.setValues({{DType::F32, 10, buffers[2].address()}}, {});
    ASSERT_TRUE(other.allocatePinned(nullptr));
    ASSERT_TRUE(staging.allocatePinned(nullptr));
    EXPECT_EQ(livePinned(), 5u);
    // New values drop the old buffers.
    staging.setValues({}, {});
    EXPECT_EQ(livePinned(), 1u);
  }
  EXPECT_EQ(livePinned(), 0u) << "the destructor frees them";
}

} // namespace
