//===- ReshapeEncodingTest.cpp - reshapes that only relabel registers -----===//
//
// This file tests ReshapeEncoding.h: the layout found for a reshape holds, in
// every thread, exactly the elements (by row-major index) that the source
// layout holds there, checked by enumerating both with coordsOf (written here
// independently of the digit reasoning), and layouts that no blocked
// encoding can relabel give none.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/ReshapeEncoding.h"
#include "compiler/ir/Layout.h"
#include "tests/unit/codegen/LayoutTestFixture.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <set>

using namespace mlir;

namespace {

class ReshapeEncodingTest : public mgp::test::LayoutTest {
protected:
  /// The row-major indices of the elements thread (lane, warp) holds.
  static std::set<int64_t> held(Attribute encoding, ArrayRef<int64_t> shape,
                                unsigned lane, unsigned warp) {
    std::set<int64_t> indices;
    unsigned registers = mgp::getTotalElemsPerThread(encoding, shape);
    for (unsigned r = 0; r < registers; ++r) {
      SmallVector<int64_t> coords = mgp::coordsOf(encoding, shape, r, lane, warp);
      int64_t index = 0;
      for (auto [c, size] : llvm::zip(coords, shape))
        index = index * size + c;
      indices.insert(index);
    }
    return indices;
  }

  /// Every thread of 4 warps holds the same elements in both layouts.
  static bool sameElements(RankedTensorType src, ArrayRef<int64_t> dstShape,
                           Attribute dst) {
    for (unsigned warp = 0; warp < 4; ++warp)
      for (unsigned lane = 0; lane < 32; ++lane)
        if (held(src.getEncoding(), src.getShape(), lane, warp) !=
            held(dst, dstShape, lane, warp))
          return false;
    return true;
  }

};

TEST_F(ReshapeEncodingTest, MergingAPairIntoTheRowsDoublesSizePerThread) {
  // tl.permute(tl.join(lo, hi), (0, 2, 1)) then reshape to [32, 32]: the
  // pair (held by each thread, repeated) becomes two consecutive rows.
  auto src = tensor({16, 2, 32}, blocked({1, 1, 1}, {1, 1, 32}, {4, 1, 1},
                                         {1, 2, 0}));
  mgp::BlockedEncodingAttr dst = mgp::getReshapedEncoding(src, {32, 32});
  ASSERT_TRUE(dst);
  EXPECT_EQ(dst, blocked({2, 1}, {1, 32}, {4, 1}, {1, 0}));
  EXPECT_TRUE(sameElements(src, {32, 32}, dst));
}

TEST_F(ReshapeEncodingTest, SplittingTheLastDimensionKeepsEveryThread) {
  // x.reshape(M, N // 2, 2) as rotary embeddings split the last dimension:
  // the 8 registers along N become 4 pairs.
  auto src = tensor({64, 32}, blocked({1, 8}, {8, 4}, {4, 1}, {1, 0}));
  mgp::BlockedEncodingAttr dst = mgp::getReshapedEncoding(src, {64, 16, 2});
  ASSERT_TRUE(dst);
  EXPECT_EQ(dst, blocked({1, 4, 2}, {8, 4, 1}, {4, 1, 1}, {2, 1, 0}));
  EXPECT_TRUE(sameElements(src, {64, 16, 2}, dst));
  // Lanes along the split dimension: 2 of its 32 lanes' bits go to the
  // middle dimension.
  auto lanes = tensor({32, 32}, blocked({1, 1}, {1, 32}, {4, 1}, {1, 0}));
  mgp::BlockedEncodingAttr split = mgp::getReshapedEncoding(lanes, {32, 2, 16});
  ASSERT_TRUE(split);
  EXPECT_TRUE(sameElements(lanes, {32, 2, 16}, split));
  // And back: merging them again gives the source layout.
  EXPECT_EQ(mgp::getReshapedEncoding(tensor({32, 2, 16}, split), {32, 32}),
            lanes.getEncoding());
}

TEST_F(ReshapeEncodingTest, FlatteningFollowsTheLaneOrder) {
  // The last dimension's lanes are the low lane bits, the rows' the high
  // ones: flattening keeps them in that order, one 1-D lane digit.
  auto src = tensor({16, 8}, blocked({1, 1}, {4, 8}, {4, 1}, {1, 0}));
  mgp::BlockedEncodingAttr flat = mgp::getReshapedEncoding(src, {128});
  ASSERT_TRUE(flat);
  EXPECT_EQ(flat, blocked({1}, {32}, {4}, {0}));
  EXPECT_TRUE(sameElements(src, {128}, flat));
  // Rows fastest in the lane order: flattening would need the lane bits
  // swapped, which no 1-D layout does.
  auto columnMajor = tensor({16, 8}, blocked({1, 1}, {4, 8}, {4, 1}, {0, 1}));
  EXPECT_FALSE(mgp::getReshapedEncoding(columnMajor, {128}));
}

TEST_F(ReshapeEncodingTest, NoLayoutWhereLanesWouldSurroundRegisters) {
  // Flattening [16, 2, 8]: lanes along the last dimension, registers along
  // the middle one, lanes again along the first: [lanes, registers, lanes]
  // in one dimension is no blocked layout.
  auto src = tensor({16, 2, 8}, blocked({1, 2, 1}, {4, 1, 8}, {4, 1, 1},
                                        {2, 1, 0}));
  EXPECT_FALSE(mgp::getReshapedEncoding(src, {256}));
}

TEST_F(ReshapeEncodingTest, NoLayoutForReplicatedSources) {
  // 8 lanes along 4 rows: lanes hold copies, which the result cannot name.
  auto src = tensor({4, 8}, blocked({1, 1}, {8, 4}, {4, 1}, {1, 0}));
  EXPECT_FALSE(mgp::getReshapedEncoding(src, {32}));
  // Not blocked at all.
  auto parent = blocked({1, 1}, {32, 1}, {4, 1}, {1, 0});
  auto sliced = tensor({128}, mgp::SliceEncodingAttr::get(&context, 1, parent));
  EXPECT_FALSE(mgp::getReshapedEncoding(sliced, {8, 16}));
}

TEST_F(ReshapeEncodingTest, InnerExpandKeepsTheSourceThreads) {
  auto src = tensor({16, 32}, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}));
  mgp::BlockedEncodingAttr inner = mgp::getInnerExpandedEncoding(src);
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner, blocked({1, 4, 1}, {4, 8, 1}, {4, 1, 1}, {2, 1, 0}));
  // Its slice along the new dimension holds what the source holds.
  auto sliced = mgp::SliceEncodingAttr::get(&context, 2, inner);
  EXPECT_TRUE(sameElements(src, {16, 32}, sliced));
}

} // namespace
