//===- LayoutTest.cpp - the layout function of every distributed encoding -===//
//
// This file tests compiler/ir/Layout.h: Triton's blocked builder, coverage and
// uniqueness of every distributed encoding over shapes smaller and larger than
// the CTA tile, the mma fragment tables, the FMA dot-operand layout, derived
// queries, shared-memory swizzling and dumpLayout.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/Layout.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace mgp;
using Coords = llvm::SmallVector<int64_t>;

namespace {
class LayoutTest : public ::testing::Test {
protected:
  LayoutTest() { ctx.loadDialect<MgpDialect>(); }

  BlockedEncodingAttr blocked(llvm::ArrayRef<unsigned> s,
                              llvm::ArrayRef<unsigned> t,
                              llvm::ArrayRef<unsigned> w,
                              llvm::ArrayRef<unsigned> o) {
    return BlockedEncodingAttr::get(&ctx, s, t, w, o);
  }

  /// Owner count of every element; fails if a coordinate is out of bounds.
  std::map<Coords, int> ownerCounts(mlir::Attribute enc,
                                    llvm::ArrayRef<int64_t> shape) {
    LayoutBases bases = getLayoutBases(enc, shape);
    std::map<Coords, int> counts;
    for (unsigned w = 0; w < bases.getNumWarps(); ++w)
      for (unsigned l = 0; l < bases.getNumLanes(); ++l)
        for (unsigned r = 0; r < bases.getNumRegs(); ++r) {
          Coords c = bases.apply(r, l, w);
          for (size_t d = 0; d < shape.size(); ++d)
            EXPECT_TRUE(c[d] >= 0 && c[d] < shape[d]);
          ++counts[c];
        }
    return counts;
  }

  /// Every element is owned, all equally often; returns that multiplicity.
  int expectCovered(mlir::Attribute enc, llvm::ArrayRef<int64_t> shape) {
    std::map<Coords, int> counts = ownerCounts(enc, shape);
    int64_t numel = 1;
    for (int64_t d : shape)
      numel *= d;
    EXPECT_EQ(int64_t(counts.size()), numel);
    int first = counts.begin()->second;
    for (auto &[c, n] : counts)
      EXPECT_EQ(n, first);
    return first;
  }

  mlir::MLIRContext ctx;
};

TEST_F(LayoutTest, TritonBuilderWorkedExample) {
  // notes/triton-lowering.md §1.1: 64x64 f32, 4 warps, S = [1, 4].
  BlockedEncodingAttr enc = getDefaultBlockedEncoding(&ctx, {64, 64}, 4, 32, 4);
  EXPECT_EQ(llvm::ArrayRef<unsigned>(enc.getSizePerThread()),
            llvm::ArrayRef<unsigned>({1, 4}));
  EXPECT_EQ(llvm::ArrayRef<unsigned>(enc.getThreadsPerWarp()),
            llvm::ArrayRef<unsigned>({2, 16}));
  EXPECT_EQ(llvm::ArrayRef<unsigned>(enc.getWarpsPerCTA()),
            llvm::ArrayRef<unsigned>({4, 1}));
  EXPECT_EQ(llvm::ArrayRef<unsigned>(enc.getOrder()),
            llvm::ArrayRef<unsigned>({1, 0}));
  EXPECT_EQ(getShapePerCTATile(enc), Coords({8, 64}));
  EXPECT_EQ(getTotalElemsPerThread(enc, {64, 64}), 32u);
  // Lane l holds columns 4(l%16)..+3 of row l/16 + 2*warp + 8k, register
  // 4k + j holding column 4(l%16) + j.
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned l = 0; l < 32; ++l) {
      auto coords = getElementCoords(enc, {64, 64}, l, w);
      ASSERT_EQ(coords.size(), 32u);
      for (unsigned r = 0; r < 32; ++r) {
        EXPECT_EQ(coords[r][0], int64_t(l / 16 + 2 * w + 8 * (r / 4)));
        EXPECT_EQ(coords[r][1], int64_t(4 * (l % 16) + r % 4));
      }
    }
  EXPECT_EQ(expectCovered(enc, {64, 64}), 1);
  EXPECT_EQ(getContigPerThread(enc, {64, 64}),
            llvm::SmallVector<unsigned>({1, 4}));
}

TEST_F(LayoutTest, TritonBuilderSmallAndOneD) {
  BlockedEncodingAttr oneD = getDefaultBlockedEncoding(&ctx, {1024}, 4);
  EXPECT_EQ(oneD.getThreadsPerWarp()[0], 32u);
  EXPECT_EQ(oneD.getWarpsPerCTA()[0], 4u);
  // A 16x8 block with 4 warps: 8 lanes along the columns, the rest on rows.
  BlockedEncodingAttr small = getDefaultBlockedEncoding(&ctx, {16, 8}, 4);
  EXPECT_EQ(llvm::ArrayRef<unsigned>(small.getThreadsPerWarp()),
            llvm::ArrayRef<unsigned>({4, 8}));
  EXPECT_EQ(llvm::ArrayRef<unsigned>(small.getWarpsPerCTA()),
            llvm::ArrayRef<unsigned>({4, 1}));
}

TEST_F(LayoutTest, BlockedCoversEveryElement) {
  struct Case {
    BlockedEncodingAttr enc;
    Coords shape;
    int multiplicity;
  };
  auto b2 = blocked({1, 4}, {2, 16}, {4, 1}, {1, 0}); // tile 8x64
  auto b2col =
      blocked({2, 1}, {8, 4}, {1, 4}, {0, 1}); // tile 16x16, column-major
  auto b1 = blocked({4}, {32}, {4}, {0});      // tile 512
  std::vector<Case> cases = {
      {b2, {64, 64}, 1},    {b2, {8, 64}, 1},     {b2, {128, 256}, 1},
      {b2, {4, 64}, 2},     {b2, {8, 16}, 4},     {b2, {1, 1}, 512},
      {b2col, {16, 16}, 1}, {b2col, {64, 32}, 1}, {b2col, {4, 4}, 16},
      {b1, {512}, 1},       {b1, {4096}, 1},      {b1, {128}, 4},
      {b1, {1}, 512}};
  for (const Case &c : cases) {
    SCOPED_TRACE(testing::Message() << "shape[0] = " << c.shape[0]);
    EXPECT_EQ(expectCovered(c.enc, c.shape), c.multiplicity);
  }
  // The replication is reported by the broadcast masks.
  BroadcastMasks masks = getBroadcastMasks(b2, {4, 64});
  EXPECT_EQ(masks.lane, 0u);
  EXPECT_EQ(masks.warp, 2u); // the second warp bit only moves past row 4
  EXPECT_EQ(getBroadcastMasks(b2, {64, 64}).warp, 0u);
}

TEST_F(LayoutTest, SliceKeepsParentRegistersAndReplicates) {
  auto parent = blocked({1, 4}, {2, 16}, {4, 1}, {1, 0});
  SliceEncodingAttr rows =
      getSliceEncoding(parent, 1); // layout of the row sums
  SliceEncodingAttr cols = getSliceEncoding(parent, 0);
  // Reducing dim 1 of 64x64: each thread keeps the rows it owned.
  EXPECT_EQ(getTotalElemsPerThread(rows, {64}), 8u);
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned l = 0; l < 32; ++l) {
      auto rowCoords = getElementCoords(rows, {64}, l, w);
      auto parentCoords = getElementCoords(parent, {64, 64}, l, w);
      std::set<int64_t> parentRows;
      for (auto &c : parentCoords)
        parentRows.insert(c[0]);
      std::set<int64_t> sliceRows;
      for (auto &c : rowCoords)
        sliceRows.insert(c[0]);
      EXPECT_EQ(parentRows, sliceRows);
    }
  // 16 lanes share each row.
  EXPECT_EQ(expectCovered(rows, {64}), 16);
  EXPECT_EQ(expectCovered(rows, {8}), 16);
  EXPECT_EQ(expectCovered(rows, {256}), 16);
  EXPECT_EQ(getTotalElemsPerThread(cols, {64}), 4u);
  EXPECT_EQ(expectCovered(cols, {64}), 8);
  EXPECT_EQ(expectCovered(cols, {256}), 8);
  EXPECT_EQ(getOrder(rows), llvm::SmallVector<unsigned>({0}));
  EXPECT_EQ(getThreadsPerWarp(rows), llvm::SmallVector<unsigned>({2}));
  EXPECT_EQ(getWarpsPerCTA(cols), llvm::SmallVector<unsigned>({1}));
  EXPECT_EQ(getSizePerThread(cols), llvm::SmallVector<unsigned>({4}));
  EXPECT_EQ(getContigPerThread(cols, {64}), llvm::SmallVector<unsigned>({4}));
}

TEST_F(LayoutTest, MmaV2AccumulatorFragments) {
  auto mma = MmaEncodingAttr::get(&ctx, 2, {2, 2}, {16, 8});
  // One 16x8 tile per warp, warps row-major (N fastest): tile 32x16.
  EXPECT_EQ(getShapePerCTATile(mma), Coords({32, 16}));
  for (unsigned lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    auto c = getElementCoords(mma, {32, 16}, lane, 0);
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0], Coords({g, 2 * t}));
    EXPECT_EQ(c[1], Coords({g, 2 * t + 1}));
    EXPECT_EQ(c[2], Coords({g + 8, 2 * t}));
    EXPECT_EQ(c[3], Coords({g + 8, 2 * t + 1}));
    // Warp 1 is the next tile along N, warp 2 along M.
    EXPECT_EQ(getElementCoords(mma, {32, 16}, lane, 1)[0],
              Coords({g, 8 + 2 * t}));
    EXPECT_EQ(getElementCoords(mma, {32, 16}, lane, 2)[0],
              Coords({16 + g, 2 * t}));
  }
  // 128x128: 4 * (128/32) * (128/16) = 128 registers, repetitions N first.
  EXPECT_EQ(getTotalElemsPerThread(mma, {128, 128}), 128u);
  EXPECT_EQ(coordsOf(mma, {128, 128}, 4, 0, 0), Coords({0, 16}));
  EXPECT_EQ(coordsOf(mma, {128, 128}, 4 * 8, 0, 0), Coords({32, 0}));
  EXPECT_EQ(expectCovered(mma, {128, 128}), 1);
  EXPECT_EQ(expectCovered(mma, {32, 16}), 1);
  EXPECT_EQ(expectCovered(mma, {16, 8}), 4);
  EXPECT_EQ(getContigPerThread(mma, {128, 128}),
            llvm::SmallVector<unsigned>({1, 2}));
  EXPECT_EQ(getThreadsPerWarp(mma), llvm::SmallVector<unsigned>({8, 4}));
  EXPECT_EQ(getWarpsPerCTA(mma), llvm::SmallVector<unsigned>({2, 2}));
}

TEST_F(LayoutTest, MmaV3Accumulator) {
  auto mma = MmaEncodingAttr::get(&ctx, 3, {4, 1}, {16, 64, 8});
  // Warps stack along M; n/8 register groups along N.
  EXPECT_EQ(getShapePerCTATile(mma), Coords({64, 64}));
  EXPECT_EQ(getTotalElemsPerThread(mma, {64, 64}), 32u);
  EXPECT_EQ(coordsOf(mma, {64, 64}, 4, 5, 3), Coords({48 + 1, 8 + 2}));
  EXPECT_EQ(expectCovered(mma, {64, 64}), 1);
  EXPECT_EQ(expectCovered(mma, {128, 256}), 1);
}

TEST_F(LayoutTest, MmaV2OperandFragments) {
  auto mma = MmaEncodingAttr::get(&ctx, 2, {1, 1}, {16, 8});
  auto aTf32 = getDotOperandEncoding(0, mma, 1);
  auto bTf32 = getDotOperandEncoding(1, mma, 1);
  auto aF16 = getDotOperandEncoding(0, mma, 2);
  auto bF16 = getDotOperandEncoding(1, mma, 2);
  for (unsigned lane = 0; lane < 32; ++lane) {
    int64_t g = lane / 4, t = lane % 4;
    auto a = getElementCoords(aTf32, {16, 8}, lane, 0);
    ASSERT_EQ(a.size(), 4u);
    EXPECT_EQ(a[0], Coords({g, t}));
    EXPECT_EQ(a[1], Coords({g + 8, t}));
    EXPECT_EQ(a[2], Coords({g, t + 4}));
    EXPECT_EQ(a[3], Coords({g + 8, t + 4}));
    auto b = getElementCoords(bTf32, {8, 8}, lane, 0);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0], Coords({t, g}));
    EXPECT_EQ(b[1], Coords({t + 4, g}));
    auto h = getElementCoords(aF16, {16, 16}, lane, 0);
    ASSERT_EQ(h.size(), 8u);
    EXPECT_EQ(h[0], Coords({g, 2 * t}));
    EXPECT_EQ(h[1], Coords({g, 2 * t + 1}));
    EXPECT_EQ(h[2], Coords({g + 8, 2 * t}));
    EXPECT_EQ(h[4], Coords({g, 2 * t + 8}));
    EXPECT_EQ(h[7], Coords({g + 8, 2 * t + 9}));
    auto hb = getElementCoords(bF16, {16, 8}, lane, 0);
    ASSERT_EQ(hb.size(), 4u);
    EXPECT_EQ(hb[0], Coords({2 * t, g}));
    EXPECT_EQ(hb[1], Coords({2 * t + 1, g}));
    EXPECT_EQ(hb[2], Coords({2 * t + 8, g}));
  }
  EXPECT_EQ(expectCovered(aF16, {64, 64}), 1);
  EXPECT_EQ(expectCovered(bF16, {64, 64}), 1);
  // With 2x2 warps, A is shared by the two warps of a row of warps.
  auto mma22 = MmaEncodingAttr::get(&ctx, 2, {2, 2}, {16, 8});
  EXPECT_EQ(expectCovered(getDotOperandEncoding(0, mma22, 2), {64, 32}), 2);
  EXPECT_EQ(expectCovered(getDotOperandEncoding(1, mma22, 2), {32, 64}), 2);
}

TEST_F(LayoutTest, FmaDotOperandsHoldWholeK) {
  auto parent = blocked({2, 2}, {4, 8}, {2, 2}, {1, 0}); // tile 16x32
  for (int64_t k : {1, 8, 32}) {
    auto a = getDotOperandEncoding(0, parent, 1);
    auto b = getDotOperandEncoding(1, parent, 1);
    for (unsigned w = 0; w < 4; ++w)
      for (unsigned l = 0; l < 32; ++l) {
        auto acc = getElementCoords(parent, {64, 64}, l, w);
        std::set<int64_t> rows, cols;
        for (auto &c : acc) {
          rows.insert(c[0]);
          cols.insert(c[1]);
        }
        std::set<Coords> expectA, expectB, gotA, gotB;
        for (int64_t kk = 0; kk < k; ++kk) {
          for (int64_t m : rows)
            expectA.insert({m, kk});
          for (int64_t n : cols)
            expectB.insert({kk, n});
        }
        auto ac = getElementCoords(a, {64, k}, l, w);
        auto bc = getElementCoords(b, {k, 64}, l, w);
        EXPECT_EQ(ac.size(), rows.size() * k);
        EXPECT_EQ(bc.size(), cols.size() * k);
        gotA.insert(ac.begin(), ac.end());
        gotB.insert(bc.begin(), bc.end());
        EXPECT_EQ(gotA, expectA);
        EXPECT_EQ(gotB, expectB);
        // K is the fastest register index.
        if (k > 1) {
          EXPECT_EQ(ac[1][1], 1);
        }
      }
    EXPECT_GE(expectCovered(a, {64, k}), 1);
    EXPECT_GE(expectCovered(b, {k, 64}), 1);
  }
}

TEST_F(LayoutTest, SharedSwizzleIsAPermutationPerRow) {
  auto shared = SharedEncodingAttr::get(&ctx, 4, 1, 8, {1, 0});
  Coords shape = {16, 32};
  for (int64_t r = 0; r < 16; ++r) {
    std::set<int64_t> offsets;
    for (int64_t c = 0; c < 32; ++c) {
      int64_t off = getSharedOffset(shared, shape, {r, c});
      EXPECT_EQ(off / 32, r);
      offsets.insert(off);
      // Chunk c/4 moves to chunk (c/4) ^ (r % 8).
      EXPECT_EQ(off % 32, ((c / 4) ^ (r % 8)) * 4 + c % 4);
    }
    EXPECT_EQ(offsets.size(), 32u);
  }
  // A leading buffer index offsets whole buffers.
  EXPECT_EQ(getSharedOffset(shared, {3, 16, 32}, {2, 1, 0}), 2 * 512 + 32 + 4);
  auto plain = SharedEncodingAttr::get(&ctx, 1, 1, 1, {0, 1});
  EXPECT_EQ(getSharedOffset(plain, {4, 8}, {3, 5}), 5 * 4 + 3);
}

TEST_F(LayoutTest, DotOperandSharedSwizzleAvoidsBankConflicts) {
  // The notes' examples (§1.5): fp16 A 128x32 K-major, tf32 A 128x32.
  auto f16 = getDotOperandSharedEncoding(&ctx, {128, 32}, {1, 0}, 16);
  EXPECT_EQ(f16.getVec(), 8u);
  EXPECT_EQ(f16.getPerPhase(), 2u);
  EXPECT_EQ(f16.getMaxPhase(), 4u);
  auto tf32 = getDotOperandSharedEncoding(&ctx, {128, 32}, {1, 0}, 32);
  EXPECT_EQ(tf32.getVec(), 4u);
  EXPECT_EQ(tf32.getPerPhase(), 1u);
  EXPECT_EQ(tf32.getMaxPhase(), 8u);
  // For every operand shape: the 8 consecutive rows one ldmatrix 8x8 matrix
  // reads (one 16-byte chunk each, any chunk column) hit 8 different 16-byte
  // bank groups of the 128-byte bank window, and each chunk stays
  // contiguous (vec elements in a row).
  for (unsigned bits : {16u, 32u})
    for (int64_t cols : {16, 32, 64, 128}) {
      if (cols * bits / 8 < 32)
        continue;
      Coords shape = {64, cols};
      auto enc = getDotOperandSharedEncoding(&ctx, shape, {1, 0}, bits);
      int64_t chunkElems = 128 / bits;
      for (int64_t r0 = 0; r0 < 64; r0 += 8)
        for (int64_t c = 0; c < cols; c += chunkElems) {
          std::set<int64_t> groups;
          for (int64_t r = r0; r < r0 + 8; ++r) {
            int64_t off = getSharedOffset(enc, shape, {r, c});
            for (int64_t e = 1; e < chunkElems; ++e)
              EXPECT_EQ(getSharedOffset(enc, shape, {r, c + e}), off + e);
            groups.insert((off * bits / 8 / 16) % 8);
          }
          // Rows of 32 or 64 bytes share a 128-byte window 4 or 2 at a time:
          // still 8 distinct groups once the swizzle spreads them.
          EXPECT_EQ(groups.size(), 8u)
              << bits << "-bit, " << cols << " columns, rows " << r0;
        }
    }
}

TEST_F(LayoutTest, DumpLayoutListsEveryOwner) {
  auto enc = blocked({1, 2}, {2, 16}, {1, 1}, {1, 0});
  std::string dump = dumpLayout(enc, {2, 4});
  // 2 column pairs over 16 lanes: lanes 0, 2, ... replicate pair 0 of row 0;
  // row 1 is lanes 16..31.
  EXPECT_NE(dump.find("[0, 0]: (w0, l0, r0) (w0, l2, r0)"), std::string::npos)
      << dump;
  EXPECT_NE(dump.find("[1, 3]: (w0, l17, r1) (w0, l19, r1)"), std::string::npos)
      << dump;
  EXPECT_EQ(std::count(dump.begin(), dump.end(), '\n'), 8);
}
} // namespace
