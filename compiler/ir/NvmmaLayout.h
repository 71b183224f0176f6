//===- NvmmaLayout.h - Hopper wgmma shared layout and descriptors -*- C++ -*-=//
//
// Pure index functions of the wgmma path (docs/wgmma.md; the descriptors are
// used by compiler/codegen/llvm/WarpGroupDotOpToLLVM.cpp):
//  - the NVMMA shared-memory layout (PTX "wgmma shared memory layout", Triton
//    NVMMASharedEncodingAttr, notes/triton-lowering.md §1.6): a [rows, cols]
//    tile with cols contiguous is cut into column blocks of S bytes (S = the
//    swizzle width, 32/64/128), stored one after another (block stride
//    rows * S bytes, the descriptor's leading byte offset); inside a block row
//    r starts at r * S bytes and its 16-byte chunk j sits at chunk
//    j ^ ((r / (128 / S)) % (S / 16)), i.e. the hardware XORs address bits
//    [4, 4 + log2(S/16)) with bits [7, ...);
//  - the 64-bit wgmma matrix descriptor (PTX ISA "Matrix Descriptor Format",
//    Triton SMEMDescriptor in DotOpToLLVM/MMAHelpers.h).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_IR_NVMMALAYOUT_H
#define MGP_IR_NVMMALAYOUT_H

#include <cstdint>

namespace mgp {

/// The discardable attribute mgp-fuse-warp-group-dot puts on a synchronous
/// mgp.warp_group_dot whose result is only the accumulator of the next
/// warp_group_dot, with register ops alone between them: it is lowered
/// without its wgmma.wait_group (the next dot's wait covers it).
inline constexpr const char *kWgmmaChainedAttr = "mgp.wgmma_chained";

/// The swizzle width (bytes) Triton's NVMMA builder picks for rows of
/// `rowBytes` contiguous bytes: 128 if rowBytes % 128 == 0, else 64 if
/// % 64, else 32 if % 32, else 0 (no swizzled layout fits; use mma v2).
unsigned chooseNvmmaSwizzle(int64_t rowBytes);

/// The element offset of (row, col) in a [rows, cols] tile (cols contiguous)
/// of `elemBits`-bit elements in the NVMMA layout with `swizzleBytes` in
/// {32, 64, 128}. Requires rows % 8 == 0, cols * elemBits / 8 a multiple of
/// swizzleBytes and 0 <= row < rows, 0 <= col < cols.
int64_t getNvmmaSharedOffset(int64_t rows, int64_t cols, unsigned elemBits,
                             unsigned swizzleBytes, int64_t row, int64_t col);

/// The fields of a wgmma matrix descriptor, in bytes (each a multiple of 16,
/// below 256 KiB) and the swizzle width in {0 (none), 32, 64, 128}.
struct MatrixDescriptor {
  uint32_t startAddress = 0;      ///< shared-memory byte address
  uint32_t leadingByteOffset = 0; ///< between S-byte column blocks
  uint32_t strideByteOffset = 0;  ///< between 8-row groups (8 * S)
  unsigned baseOffset = 0;        ///< 3 bits; 0 when atoms are 8*S aligned
  unsigned swizzleBytes = 0;
};

/// The 64-bit encoding: bits 0-13 start >> 4, 16-29 leading byte offset >> 4,
/// 32-45 stride byte offset >> 4, 49-51 base offset, 62-63 swizzle mode
/// (1 = 128 B, 2 = 64 B, 3 = 32 B, 0 = none); other bits zero.
uint64_t encodeMatrixDescriptor(const MatrixDescriptor &desc);

/// The inverse of encodeMatrixDescriptor (reserved bits ignored).
MatrixDescriptor decodeMatrixDescriptor(uint64_t bits);

/// The descriptor of the K-major operand tile at `startAddress` laid out by
/// getNvmmaSharedOffset with `rows` rows: SBO = 8 * S, LBO = rows * S (Triton
/// createDescriptor), base offset 0.
MatrixDescriptor getNvmmaOperandDescriptor(uint32_t startAddress, int64_t rows,
                                           unsigned swizzleBytes);

} // namespace mgp

#endif // MGP_IR_NVMMALAYOUT_H
