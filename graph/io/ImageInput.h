//===- ImageInput.h - PNG/JPEG images as normalised tensors -----*- C++ -*-===//
//
// This file implements image inputs: decoding through stb_image and the
// ImageNet preprocessing (shorter side resized bilinearly to 256/224 of the
// crop, centre crop, /255, normalised by the ImageNet mean and std).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_IMAGEINPUT_H
#define MGP_GRAPH_IMAGEINPUT_H

#include "graph/ir/Tensor.h"

#include "llvm/Support/Error.h"

namespace mgp::graph {

/// An RGB image, 8 bits per channel, row-major HWC.
struct RgbImage {
  int64_t height = 0, width = 0;
  std::vector<uint8_t> pixels;
};

/// Decodes a PNG/JPEG/BMP file (any stb_image format) to RGB.
llvm::Expected<RgbImage> decodeImage(llvm::StringRef path);

/// Resizes the shorter side to cropH*256/224 (bilinear, half-pixel centres),
/// centre-crops cropH x cropW and normalises: a [3, cropH, cropW] tensor.
Tensor preprocessImageNet(const RgbImage &image, int64_t cropH = 224,
                          int64_t cropW = 224);

/// decodeImage + preprocessImageNet.
llvm::Expected<Tensor> loadImage(llvm::StringRef path, int64_t cropH = 224,
                                 int64_t cropW = 224);

} // namespace mgp::graph

#endif // MGP_GRAPH_IMAGEINPUT_H
