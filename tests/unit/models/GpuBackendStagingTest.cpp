//===- GpuBackendStagingTest.cpp - run()'s chunked staging, no GPU --------===//
//
// This file tests, without a GPU, the host half of the gpu backend's pinned
// staging (graph/backends/gpu/GpuBackendStaging.h): stageInChunks fills the buffer chunk
// by chunk on random inputs of ragged sizes, in fp32 (a copy) and fp16/bf16
// (the same bits as converting the whole input at once), announces each
// chunk in order only once it is complete and before the next one is
// written, and stops at the first failing copy; and the MGP_PINNED switch.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackendStaging.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

using namespace mgp;
using namespace mgp::graph;

namespace {

std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 3.0f);
  std::vector<float> values(n);
  for (float &v : values)
    v = dist(rng);
  return values;
}

/// The bytes `values` take as `type`, converted in one go.
std::vector<unsigned char> storedBytes(const std::vector<float> &values,
                                       DType type) {
  std::vector<unsigned char> bytes(values.size() * dtypeBytes(type));
  if (type == DType::F32)
    std::memcpy(bytes.data(), values.data(), bytes.size());
  else
    convertFromF32(values, type, reinterpret_cast<uint16_t *>(bytes.data()));
  return bytes;
}

TEST(GpuBackendStaging, ChunksArriveFilledAndInOrder) {
  constexpr unsigned char kUnwritten = 0xA5;
  // 100000-element chunks are not a multiple of the 64K-element pieces; the
  // input ends in a partial chunk.
  const size_t n = 250001;
  std::vector<float> values = randomValues(n, 23);
  for (DType type : {DType::F32, DType::F16, DType::BF16}) {
    SCOPED_TRACE(dtypeName(type).str());
    unsigned elementBytes = dtypeBytes(type);
    std::vector<unsigned char> want = storedBytes(values, type);
    std::vector<unsigned char> out(want.size(), kUnwritten);
    size_t chunkBytes = 100000 * elementBytes;
    std::vector<std::pair<size_t, size_t>> issued;
    llvm::Error err = stageInChunks(
        values, type, out.data(), chunkBytes,
        [&](size_t offset, size_t bytes) -> llvm::Error {
          size_t expectedOffset =
              issued.empty() ? 0 : issued.back().first + issued.back().second;
          EXPECT_EQ(offset, expectedOffset);
          EXPECT_EQ(bytes, std::min(chunkBytes, want.size() - offset));
          // This chunk is complete; the next one is not written yet.
          EXPECT_EQ(
              std::memcmp(out.data() + offset, want.data() + offset, bytes), 0);
          for (size_t i = offset + bytes; i < out.size(); ++i)
            if (out[i] != kUnwritten) {
              ADD_FAILURE() << "byte " << i << " written before its chunk";
              break;
            }
          issued.push_back({offset, bytes});
          return llvm::Error::success();
        });
    ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
    EXPECT_EQ(issued.size(), 3u);
    EXPECT_EQ(out, want);
    EXPECT_EQ(issued.back().second, (n - 200000) * elementBytes);
  }
}

TEST(GpuBackendStaging, StopsAtTheFirstFailedCopy) {
  std::vector<float> values = randomValues(5000, 29);
  std::vector<float> out(values.size(), 0.0f);
  int calls = 0;
  llvm::Error err = stageInChunks(
      values, DType::F32, out.data(), 1000 * sizeof(float),
      [&](size_t offset, size_t bytes) -> llvm::Error {
        if (++calls == 2)
          return llvm::createStringError("cuMemcpyHtoDAsync failed: test");
        return llvm::Error::success();
      });
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(llvm::toString(std::move(err)), "cuMemcpyHtoDAsync failed: test");
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(std::memcmp(out.data(), values.data(), 2000 * sizeof(float)), 0);
  for (size_t i = 2000; i < out.size(); ++i)
    ASSERT_EQ(out[i], 0.0f) << "element " << i << " written after the error";
}

TEST(GpuBackendStaging, EmptyInputQueuesNothing) {
  int calls = 0;
  llvm::Error err = stageInChunks({}, DType::F16, nullptr, kStagingChunkBytes,
                                  [&](size_t, size_t) -> llvm::Error {
                                    ++calls;
                                    return llvm::Error::success();
                                  });
  EXPECT_FALSE(bool(err));
  EXPECT_EQ(calls, 0);
}

TEST(GpuBackendStaging, PinnedSwitch) {
  unsetenv("MGP_PINNED");
  EXPECT_TRUE(pinnedStagingAllowedByEnvironment());
  for (const char *on : {"on", "1", ""}) {
    setenv("MGP_PINNED", on, 1);
    EXPECT_TRUE(pinnedStagingAllowedByEnvironment()) << on;
  }
  for (const char *off : {"off", "OFF", " Off ", "0", "false", "no", "No"}) {
    setenv("MGP_PINNED", off, 1);
    EXPECT_FALSE(pinnedStagingAllowedByEnvironment()) << off;
  }
  unsetenv("MGP_PINNED");
}

} // namespace
