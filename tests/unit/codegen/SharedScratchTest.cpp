//===- SharedScratchTest.cpp - scratch sizes of convert_layout and reduce -===//
//
// This file tests SharedScratch.h: which conversions need shared memory
// (checked against a brute-force comparison of the elements each thread
// holds, written here independently with coordsOf), the padded scratch
// layout, the vector scratch layout of transposing conversions (checked
// element by element: one-to-one, whole runs at aligned consecutive offsets
// on both sides, and the lanes of each shared-memory access phase on distinct
// banks), and the reduce scratch size.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/ir/Layout.h"
#include "tests/unit/codegen/LayoutTestFixture.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <map>
#include <optional>
#include <set>
#include <vector>

using namespace mlir;

namespace {

class SharedScratchTest : public mgp::test::LayoutTest {
protected:
  /// Independent reference: does some thread of `dst` want an element its
  /// `src` registers do not hold? Enumerates registers with coordsOf.
  bool movesData(RankedTensorType src, RankedTensorType dst) {
    ArrayRef<int64_t> shape = src.getShape();
    auto held = [&](Attribute enc, unsigned lane, unsigned warp) {
      std::set<SmallVector<int64_t>> coords;
      unsigned regs = mgp::getTotalElemsPerThread(enc, shape);
      for (unsigned r = 0; r < regs; ++r)
        coords.insert(mgp::coordsOf(enc, shape, r, lane, warp));
      return coords;
    };
    for (unsigned warp = 0; warp < 4; ++warp)
      for (unsigned lane = 0; lane < 32; ++lane) {
        auto have = held(src.getEncoding(), lane, warp);
        for (const auto &c : held(dst.getEncoding(), lane, warp))
          if (!have.count(c))
            return true;
      }
    return false;
  }

};

TEST_F(SharedScratchTest, TransposingConvertNeedsPaddedScratch) {
  auto rows = tensor({32, 32}, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}));
  auto cols = tensor({32, 32}, blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}));
  EXPECT_TRUE(movesData(rows, cols));
  EXPECT_TRUE(mgp::convertNeedsSharedMemory(rows, cols));
  mgp::ConvertScratchLayout layout = mgp::getConvertScratchLayout(rows, cols);
  // Rows padded by the 4 contiguous source elements along the last dim.
  EXPECT_EQ(layout.rowStride, 36);
  EXPECT_EQ(layout.getOffset({2, 5}), 2 * 36 + 5);
  EXPECT_EQ(layout.getSizeInBytes(), 32 * 36 * 4);
}

namespace {

/// What the tests check of a vector scratch layout, from coordsOf alone.
struct VectorScratchCheck {
  bool oneToOne = true;    ///< every element at its own offset, in range
  bool runsAligned = true; ///< runs at consecutive offsets from a multiple
  unsigned conflicts = 0;  ///< extra bank wavefronts over every phase
};

/// For one side of the conversion (`type` with `vectorBits`): every run of a
/// thread (registers differing only in the vector bits) must sit at
/// consecutive offsets starting at a multiple of the vector; in every phase
/// of lanes (the lanes whose accesses of one run make up 128 bytes) a bank
/// serving n distinct words costs n - 1 extra wavefronts.
void checkSide(RankedTensorType type, const mgp::VectorScratchLayout &layout,
               ArrayRef<unsigned> vectorBits, VectorScratchCheck &check) {
  ArrayRef<int64_t> shape = type.getShape();
  Attribute enc = type.getEncoding();
  unsigned regs = mgp::getTotalElemsPerThread(enc, shape);
  unsigned warps = mgp::getNumWarps(enc);
  unsigned vectorMask = 0;
  for (unsigned bit : vectorBits)
    vectorMask |= 1u << bit;
  int64_t vectorBytes = layout.vector * layout.elemBytes;
  unsigned phase = std::min<int64_t>(32, 128 / vectorBytes);
  for (unsigned warp = 0; warp < warps; ++warp)
    for (unsigned run = 0; run < regs; ++run) {
      if (run & vectorMask)
        continue;
      // The run's start offset per lane.
      std::vector<int64_t> start(32);
      for (unsigned lane = 0; lane < 32; ++lane) {
        for (unsigned element = 0; element < layout.vector; ++element) {
          unsigned reg = run;
          for (auto [k, bit] : llvm::enumerate(vectorBits))
            if (element >> k & 1)
              reg |= 1u << bit;
          int64_t offset =
              layout.getOffset(mgp::coordsOf(enc, shape, reg, lane, warp));
          if (element == 0)
            start[lane] = offset;
          if (offset != start[lane] + element ||
              start[lane] % layout.vector != 0)
            check.runsAligned = false;
        }
      }
      // Per phase: a bank's distinct 4-byte words are its wavefronts.
      for (unsigned first = 0; first < 32; first += phase) {
        std::map<int64_t, std::set<int64_t>> wordsOfBank;
        for (unsigned lane = first; lane < first + phase; ++lane)
          for (int64_t byte = 0; byte < vectorBytes; byte += 4) {
            int64_t word = (start[lane] * layout.elemBytes + byte) / 4;
            wordsOfBank[word % 32].insert(word);
          }
        size_t worst = 1;
        for (const auto &[bank, words] : wordsOfBank)
          worst = std::max(worst, words.size());
        check.conflicts += worst - 1;
      }
    }
}

VectorScratchCheck checkVectorScratch(RankedTensorType src,
                                      RankedTensorType dst,
                                      const mgp::VectorScratchLayout &layout) {
  VectorScratchCheck check;
  std::vector<bool> seen(layout.numElements, false);
  std::vector<int64_t> coords(src.getRank(), 0);
  for (int64_t index = 0; index < layout.numElements; ++index) {
    for (int64_t d = src.getRank() - 1, rest = index; d >= 0; --d) {
      coords[d] = rest % src.getShape()[d];
      rest /= src.getShape()[d];
    }
    int64_t offset = layout.getOffset(coords);
    if (offset < 0 || offset >= layout.numElements || seen[offset])
      check.oneToOne = false;
    else
      seen[offset] = true;
  }
  checkSide(src, layout, layout.srcVectorBits, check);
  checkSide(dst, layout, layout.dstVectorBits, check);
  return check;
}

} // namespace

TEST_F(SharedScratchTest, WgmmaAccumulatorToColumnsMovesWholeVectors) {
  // A 256x64 fp32 accumulator of 8 warps (two warp groups along M) stored
  // column-major: the coalesced layout holds 4 consecutive rows per thread,
  // the accumulator 2 consecutive columns; both hold columns 8 and 16 apart
  // in registers.
  auto acc = tensor(
      {256, 64}, mgp::MmaEncodingAttr::get(&context, 3, {8, 1}, {16, 64, 16}));
  auto cols = tensor({256, 64}, blocked({4, 1}, {32, 1}, {2, 4}, {0, 1}));
  ASSERT_TRUE(mgp::convertNeedsSharedMemory(acc, cols));
  std::optional<mgp::VectorScratchLayout> layout =
      mgp::getVectorScratchLayout(acc, cols);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->vector, 4u);
  EXPECT_EQ(layout->getSizeInBytes(), 256 * 64 * 4);
  VectorScratchCheck check = checkVectorScratch(acc, cols, *layout);
  EXPECT_TRUE(check.oneToOne);
  EXPECT_TRUE(check.runsAligned);
  EXPECT_EQ(check.conflicts, 0u);
}

TEST_F(SharedScratchTest, HalfPrecisionTransposeMovesWholeVectors) {
  // 64x64 fp16 rows of 8 to columns of 8, both repeating 32 apart along
  // each dim: 8 elements (16 bytes) per run would need 3 shared register
  // bases; there are 2.
  auto half = [&](Attribute enc) {
    return RankedTensorType::get({64, 64}, Float16Type::get(&context), enc);
  };
  auto rows = half(blocked({1, 8}, {8, 4}, {2, 1}, {1, 0}));
  auto cols = half(blocked({8, 1}, {4, 8}, {1, 2}, {0, 1}));
  std::optional<mgp::VectorScratchLayout> layout =
      mgp::getVectorScratchLayout(rows, cols);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->vector, 4u);
  EXPECT_EQ(layout->elemBytes, 2);
  VectorScratchCheck check = checkVectorScratch(rows, cols, *layout);
  EXPECT_TRUE(check.oneToOne);
  EXPECT_TRUE(check.runsAligned);
  EXPECT_EQ(check.conflicts, 0u);
}

TEST_F(SharedScratchTest, WgmmaAccumulatorToRowsStoresWholeVectors) {
  // The convolutions' epilogue: a 256x64 fp32 accumulator (2 consecutive
  // columns per register pair) to rows of 8 (two 16-byte loads). Both hold
  // column 1 and row 128 apart in registers: 4-element runs take 16 + 16
  // accesses per thread where the padded layout takes 32 + 16.
  auto acc = tensor(
      {256, 64}, mgp::MmaEncodingAttr::get(&context, 3, {8, 1}, {16, 64, 16}));
  auto rows = tensor({256, 64}, blocked({1, 8}, {4, 8}, {8, 1}, {1, 0}));
  std::optional<mgp::VectorScratchLayout> layout =
      mgp::getVectorScratchLayout(acc, rows);
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->vector, 4u);
  VectorScratchCheck check = checkVectorScratch(acc, rows, *layout);
  EXPECT_TRUE(check.oneToOne);
  EXPECT_TRUE(check.runsAligned);
  EXPECT_EQ(check.conflicts, 0u);
  // One accumulator warp group (no row repetition): only column 1 is shared,
  // 2-element runs are no better than 2 + 8.
  auto one = tensor(
      {64, 64}, mgp::MmaEncodingAttr::get(&context, 3, {4, 1}, {16, 64, 16}));
  auto oneRows = tensor({64, 64}, blocked({1, 8}, {4, 8}, {4, 1}, {1, 0}));
  ASSERT_TRUE(mgp::convertNeedsSharedMemory(one, oneRows));
  EXPECT_FALSE(mgp::getVectorScratchLayout(one, oneRows));
}

TEST_F(SharedScratchTest, PaddedScratchWhereBothSidesAreContiguous) {
  // No register basis in common: the padded row-major scratch.
  auto rows = tensor({32, 32}, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}));
  auto cols = tensor({32, 32}, blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}));
  EXPECT_FALSE(mgp::getVectorScratchLayout(rows, cols));
  // Both hold 4 contiguous elements along the last dim: row-major vectors of
  // 4 on both sides, as many accesses as 4-element runs would take.
  auto other = tensor({32, 32}, blocked({1, 4}, {8, 4}, {1, 4}, {1, 0}));
  ASSERT_TRUE(mgp::convertNeedsSharedMemory(rows, other));
  EXPECT_FALSE(mgp::getVectorScratchLayout(rows, other));
  // Replicated source lanes (a 16-row tensor on 32 rows of lanes) would store
  // an element twice.
  auto small = tensor({16, 64}, blocked({1, 1}, {32, 1}, {1, 4}, {0, 1}));
  auto wide = tensor({16, 64}, blocked({4, 1}, {4, 8}, {1, 4}, {0, 1}));
  EXPECT_FALSE(mgp::getVectorScratchLayout(small, wide));
}

TEST_F(SharedScratchTest, RegisterOnlyConvertNeedsNone) {
  // A 1-D blocked layout and the slice of a 2-D parent that distributes the
  // same 128 elements over the same threads.
  auto flat = tensor({128}, blocked({1}, {32}, {4}, {0}));
  auto parent = blocked({1, 1}, {32, 1}, {4, 1}, {1, 0});
  auto sliced = tensor({128}, mgp::SliceEncodingAttr::get(&context, 1, parent));
  EXPECT_FALSE(movesData(flat, sliced));
  EXPECT_FALSE(mgp::convertNeedsSharedMemory(flat, sliced));
  // The same 128 elements spread 4 per thread over 32 threads instead.
  auto wide = tensor({128}, blocked({4}, {32}, {4}, {0}));
  EXPECT_TRUE(movesData(flat, wide));
  EXPECT_TRUE(mgp::convertNeedsSharedMemory(flat, wide));
}

TEST_F(SharedScratchTest, ReduceScratchCountsWarpsAlongTheAxis) {
  auto grid = tensor({64, 64}, blocked({1, 1}, {1, 32}, {2, 2}, {1, 0}));
  EXPECT_EQ(mgp::getReduceWarpsAlongAxis(grid, 1), 2u);
  EXPECT_EQ(mgp::getReduceWarpsAlongAxis(grid, 0), 2u);
  auto rows = tensor({64, 64}, blocked({1, 4}, {2, 16}, {4, 1}, {1, 0}));
  EXPECT_EQ(mgp::getReduceWarpsAlongAxis(rows, 1), 1u);
  // A 32-element tensor on 4 warps of 32 lanes: warps only replicate.
  auto small = tensor({32}, blocked({1}, {32}, {4}, {0}));
  EXPECT_EQ(mgp::getReduceWarpsAlongAxis(small, 0), 1u);
}

} // namespace
