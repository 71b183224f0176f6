//===- SharedScratchTest.cpp - scratch sizes of convert_layout and reduce -===//
//
// This file tests SharedScratch.h: which conversions need shared memory
// (checked against a brute-force comparison of the elements each thread
// holds, written here independently with coordsOf), the padded scratch
// layout, and the reduce scratch size.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
#include "compiler/ir/Layout.h"
#include "tests/unit/codegen/LayoutTestFixture.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <set>

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
