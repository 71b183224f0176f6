//===- NvmmaLayout.cpp - Hopper wgmma shared layout and descriptors -------===//
//
// This file implements NvmmaLayout.h: the NVMMA shared-memory element offset
// and the wgmma matrix descriptor bit fields.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/NvmmaLayout.h"

#include <cassert>
#include <initializer_list>

using namespace mgp;

unsigned mgp::chooseNvmmaSwizzle(int64_t rowBytes) {
  for (unsigned s : {128u, 64u, 32u})
    if (rowBytes > 0 && rowBytes % s == 0)
      return s;
  return 0;
}

[[maybe_unused]] static bool isSwizzleWidth(unsigned s) {
  return s == 32 || s == 64 || s == 128;
}

int64_t mgp::getNvmmaSharedOffset(int64_t rows, int64_t cols, unsigned elemBits,
                                  unsigned swizzleBytes, int64_t row,
                                  int64_t col) {
  assert(isSwizzleWidth(swizzleBytes) && "swizzle must be 32, 64 or 128");
  assert(elemBits % 8 == 0 && elemBits <= 128 && "whole-byte elements");
  assert(rows % 8 == 0 && (cols * elemBits / 8) % swizzleBytes == 0 &&
         "tile must be whole 8-row x swizzle-byte atoms");
  assert(row >= 0 && row < rows && col >= 0 && col < cols);
  int64_t elemBytes = elemBits / 8;
  int64_t blockElems = swizzleBytes / elemBytes;
  int64_t block = col / blockElems;
  int64_t byteInRow = (col % blockElems) * elemBytes;
  int64_t perPhase = 128 / swizzleBytes, maxPhase = swizzleBytes / 16;
  int64_t phase = (row / perPhase) % maxPhase;
  int64_t chunk = (byteInRow / 16) ^ phase;
  int64_t byte = block * rows * swizzleBytes + row * swizzleBytes + chunk * 16 +
                 byteInRow % 16;
  return byte / elemBytes;
}

static uint64_t swizzleMode(unsigned bytes) {
  switch (bytes) {
  case 128:
    return 1;
  case 64:
    return 2;
  case 32:
    return 3;
  default:
    assert(bytes == 0 && "swizzle must be 0, 32, 64 or 128");
    return 0;
  }
}

/// A 14-bit field holding `bytes` >> 4.
static uint64_t field14(uint32_t bytes) {
  assert(bytes % 16 == 0 && bytes < (1u << 18) &&
         "descriptor offsets are 16-byte multiples below 256 KiB");
  return (bytes >> 4) & 0x3FFF;
}

uint64_t mgp::encodeMatrixDescriptor(const MatrixDescriptor &desc) {
  assert(desc.baseOffset < 8 && "base offset has 3 bits");
  return field14(desc.startAddress) | field14(desc.leadingByteOffset) << 16 |
         field14(desc.strideByteOffset) << 32 |
         uint64_t(desc.baseOffset) << 49 | swizzleMode(desc.swizzleBytes) << 62;
}

MatrixDescriptor mgp::decodeMatrixDescriptor(uint64_t bits) {
  static const unsigned widths[] = {0, 128, 64, 32};
  MatrixDescriptor desc;
  desc.startAddress = uint32_t(bits & 0x3FFF) << 4;
  desc.leadingByteOffset = uint32_t((bits >> 16) & 0x3FFF) << 4;
  desc.strideByteOffset = uint32_t((bits >> 32) & 0x3FFF) << 4;
  desc.baseOffset = unsigned((bits >> 49) & 0x7);
  desc.swizzleBytes = widths[(bits >> 62) & 0x3];
  return desc;
}

MatrixDescriptor mgp::getNvmmaOperandDescriptor(uint32_t startAddress,
                                                int64_t rows,
                                                unsigned swizzleBytes) {
  assert(isSwizzleWidth(swizzleBytes) && rows % 8 == 0);
  MatrixDescriptor desc;
  desc.startAddress = startAddress;
  desc.leadingByteOffset = uint32_t(rows * swizzleBytes);
  desc.strideByteOffset = 8 * swizzleBytes;
  desc.swizzleBytes = swizzleBytes;
  return desc;
}
