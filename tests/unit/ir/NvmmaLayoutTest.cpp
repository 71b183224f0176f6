//===- NvmmaLayoutTest.cpp - wgmma shared layout and descriptors ----------===//
//
// This file tests compiler/ir/NvmmaLayout.h against hand-computed examples of
// the PTX ISA wgmma shared-memory layout and matrix descriptor format, against
// the hardware's definition of swizzling as an XOR of address bits, and
// against #mgp.shared (getSharedOffset) where the two layouts coincide.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/NvmmaLayout.h"

#include "compiler/ir/Layout.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <set>

using namespace mgp;

namespace {

TEST(NvmmaLayoutTest, ChoosesWidestSwizzleDividingTheRow) {
  EXPECT_EQ(chooseNvmmaSwizzle(128), 128u); // tf32 K = 32
  EXPECT_EQ(chooseNvmmaSwizzle(256), 128u); // fp16 K = 128
  EXPECT_EQ(chooseNvmmaSwizzle(64), 64u);   // fp16 K = 32
  EXPECT_EQ(chooseNvmmaSwizzle(192), 64u);
  EXPECT_EQ(chooseNvmmaSwizzle(32), 32u); // tf32 K = 8
  EXPECT_EQ(chooseNvmmaSwizzle(96), 32u);
  EXPECT_EQ(chooseNvmmaSwizzle(16), 0u);
  EXPECT_EQ(chooseNvmmaSwizzle(0), 0u);
}

// Worked by hand: byte = block * rows * S + row * S + chunk' * 16 + byte % 16,
// chunk' = chunk ^ ((row / (128 / S)) % (S / 16)).
TEST(NvmmaLayoutTest, HandComputedOffsets) {
  // tf32 128x32, 128 B: (3, 5) is byte 20 = chunk 1 + 4; phase 3; chunk 2.
  EXPECT_EQ(getNvmmaSharedOffset(128, 32, 32, 128, 3, 5),
            (3 * 128 + 32 + 4) / 4);
  EXPECT_EQ(getNvmmaSharedOffset(128, 32, 32, 128, 0, 0), 0);
  // (7, 31): byte 124 = chunk 7 + 12; phase 7; chunk 0.
  EXPECT_EQ(getNvmmaSharedOffset(128, 32, 32, 128, 7, 31), (7 * 128 + 12) / 4);
  // fp16 64x64, 128 B: (9, 10) is byte 20 = chunk 1 + 4; phase 1; chunk 0.
  EXPECT_EQ(getNvmmaSharedOffset(64, 64, 16, 128, 9, 10), (9 * 128 + 4) / 2);
  // fp16 16x32, 64 B: (5, 13) is byte 26 = chunk 1 + 10; phase (5/2)%4 = 2.
  EXPECT_EQ(getNvmmaSharedOffset(16, 32, 16, 64, 5, 13),
            (5 * 64 + 48 + 10) / 2);
  // tf32 8x8, 32 B: (6, 1) is byte 4 = chunk 0 + 4; phase (6/4)%2 = 1.
  EXPECT_EQ(getNvmmaSharedOffset(8, 8, 32, 32, 6, 1), (6 * 32 + 16 + 4) / 4);
  // fp16 64x128, 128 B: two column blocks of 64; (2, 70) is block 1, byte 12,
  // phase 2 -> chunk 2, after the 64 * 128 bytes of block 0.
  EXPECT_EQ(getNvmmaSharedOffset(64, 128, 16, 128, 2, 70),
            (64 * 128 + 2 * 128 + 32 + 12) / 2);
}

struct Tile {
  int64_t rows, cols;
  unsigned elemBits, swizzle;
};

const Tile kTiles[] = {{128, 32, 32, 128}, {64, 64, 16, 128},
                       {64, 128, 16, 128}, {16, 32, 16, 64},
                       {32, 48, 32, 64},   {8, 8, 32, 32},
                       {24, 48, 16, 32},   {128, 64, 32, 128}};

// The PTX swizzle modes XOR byte-address bits [4, 4 + log2(S/16)) with bits
// [7, 7 + log2(S/16)) of the unswizzled address (1024-byte aligned base); the
// unswizzled address of (row, col) is block * rows * S + row * S + col bytes.
TEST(NvmmaLayoutTest, MatchesAddressBitSwizzleAndIsABijection) {
  for (const Tile &t : kTiles) {
    int64_t e = t.elemBits / 8, blockElems = t.swizzle / e;
    int64_t mask = t.swizzle / 16 - 1;
    std::set<int64_t> seen;
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t c = 0; c < t.cols; ++c) {
        int64_t plain = (c / blockElems) * t.rows * t.swizzle + r * t.swizzle +
                        (c % blockElems) * e;
        int64_t swizzled = plain ^ (((plain >> 7) & mask) << 4);
        int64_t off =
            getNvmmaSharedOffset(t.rows, t.cols, t.elemBits, t.swizzle, r, c);
        EXPECT_EQ(off * e, swizzled) << t.rows << "x" << t.cols << " S"
                                     << t.swizzle << " at " << r << "," << c;
        seen.insert(off);
      }
    EXPECT_EQ(int64_t(seen.size()), t.rows * t.cols);
    EXPECT_EQ(*seen.begin(), 0);
    EXPECT_EQ(*seen.rbegin(), t.rows * t.cols - 1);
  }
}

// The NVMMA layout is #mgp.shared with 16-byte vectors, perPhase = 128 / S,
// maxPhase = S / 16 and, for rows wider than S, column blocks of S bytes
// (notes §1.6); also inside a pipeline's leading buffer dim.
TEST(NvmmaLayoutTest, EqualsMgpSharedWithColumnBlocks) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<MgpDialect>();
  int blocked = 0;
  for (const Tile &t : kTiles) {
    int64_t rowBytes = t.cols * t.elemBits / 8;
    unsigned blockCols =
        rowBytes > t.swizzle ? unsigned(t.swizzle * 8 / t.elemBits) : 0;
    blocked += blockCols != 0;
    auto shared =
        SharedEncodingAttr::get(&ctx, 128 / t.elemBits, 128 / t.swizzle,
                                t.swizzle / 16, {1, 0}, blockCols);
    for (int64_t r = 0; r < t.rows; ++r)
      for (int64_t c = 0; c < t.cols; ++c) {
        int64_t nvmma =
            getNvmmaSharedOffset(t.rows, t.cols, t.elemBits, t.swizzle, r, c);
        EXPECT_EQ(nvmma, getSharedOffset(shared, {t.rows, t.cols}, {r, c}));
        EXPECT_EQ(t.rows * t.cols * 2 + nvmma,
                  getSharedOffset(shared, {3, t.rows, t.cols}, {2, r, c}));
      }
  }
  EXPECT_GE(blocked, 4);
}

TEST(NvmmaLayoutTest, DescriptorBitFields) {
  // tf32 A 128x32 at 1024, 128 B: start 1024>>4 = 0x40, LBO 16384>>4 = 0x400
  // at bit 16, SBO 1024>>4 = 0x40 at bit 32, mode 1 at bit 62.
  MatrixDescriptor a = getNvmmaOperandDescriptor(1024, 128, 128);
  EXPECT_EQ(a.leadingByteOffset, 16384u);
  EXPECT_EQ(a.strideByteOffset, 1024u);
  EXPECT_EQ(encodeMatrixDescriptor(a), 0x4000004004000040ull);
  // fp16 B, 64 rows, 64 B at 0x2200: start 0x220, LBO 4096>>4 = 0x100,
  // SBO 512>>4 = 0x20, mode 2.
  MatrixDescriptor b = getNvmmaOperandDescriptor(0x2200, 64, 64);
  EXPECT_EQ(encodeMatrixDescriptor(b), 0x8000002001000220ull);
  // 32 B swizzle (mode 3), base offset 5 at bits 49-51, no LBO.
  MatrixDescriptor c;
  c.startAddress = 16;
  c.strideByteOffset = 256;
  c.baseOffset = 5;
  c.swizzleBytes = 32;
  EXPECT_EQ(encodeMatrixDescriptor(c), 0xC00A001000000001ull);
  // No swizzle is mode 0; the largest address fills the 14-bit field.
  MatrixDescriptor d;
  d.startAddress = 0x3FFF0;
  d.leadingByteOffset = 128;
  d.strideByteOffset = 256;
  EXPECT_EQ(encodeMatrixDescriptor(d), 0x0000001000083FFFull);
}

TEST(NvmmaLayoutTest, DescriptorRoundTrips) {
  for (unsigned s : {0u, 32u, 64u, 128u})
    for (uint32_t start : {0u, 16u, 0x1230u, 0x3FFF0u}) {
      MatrixDescriptor in;
      in.startAddress = start;
      in.leadingByteOffset = 0x1000 + s * 16;
      in.strideByteOffset = 8 * (s ? s : 16);
      in.baseOffset = s / 32;
      in.swizzleBytes = s;
      MatrixDescriptor out = decodeMatrixDescriptor(encodeMatrixDescriptor(in));
      EXPECT_EQ(out.startAddress, in.startAddress);
      EXPECT_EQ(out.leadingByteOffset, in.leadingByteOffset);
      EXPECT_EQ(out.strideByteOffset, in.strideByteOffset);
      EXPECT_EQ(out.baseOffset, in.baseOffset);
      EXPECT_EQ(out.swizzleBytes, in.swizzleBytes);
    }
}

TEST(NvmmaLayoutTest, SubTileDescriptorsAreTheFirstPlusOffsetOver16) {
  // The wgmma lowering builds an operand's first descriptor once and reaches
  // each sub-tile by adding its byte offset / 16 to it: exact while the
  // sub-tile's address stays inside sm_90's shared window (228 KiB < 256 KiB,
  // the 14-bit start address field), so the field never carries into the
  // leading byte offset above it.
  const uint32_t window = 228 * 1024;
  int checked = 0;
  for (unsigned swizzle : {32u, 64u, 128u})
    for (int64_t rows : {64, 128, 256})
      for (uint32_t base = 0; base < window; base += 1024 * 7)
        for (uint32_t offset = 0; base + offset < window; offset += 16 * 61) {
          uint64_t first = encodeMatrixDescriptor(
              getNvmmaOperandDescriptor(base, rows, swizzle));
          uint64_t direct = encodeMatrixDescriptor(
              getNvmmaOperandDescriptor(base + offset, rows, swizzle));
          ASSERT_EQ(first + (offset >> 4), direct)
              << "base " << base << " offset " << offset << " rows " << rows
              << " swizzle " << swizzle;
          ++checked;
        }
  EXPECT_GT(checked, 30000);
}

} // namespace
