//===- ImageInput.cpp - PNG/JPEG images as normalised tensors -------------===//
//
// This file implements image decoding (stb_image is compiled here) and the
// ImageNet preprocessing.
//
//===----------------------------------------------------------------------===//

#include "graph/io/ImageInput.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

using namespace mgp::graph;

llvm::Expected<RgbImage> mgp::graph::decodeImage(llvm::StringRef path) {
  auto bufferOrErr =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!bufferOrErr)
    return llvm::createStringError(
        bufferOrErr.getError(), "%s: cannot read image: %s", path.str().c_str(),
        bufferOrErr.getError().message().c_str());
  llvm::StringRef bytes = (*bufferOrErr)->getBuffer();
  int width = 0, height = 0, channels = 0;
  stbi_uc *pixels =
      stbi_load_from_memory(reinterpret_cast<const stbi_uc *>(bytes.data()),
                            int(bytes.size()), &width, &height, &channels, 3);
  if (!pixels)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: cannot decode image: %s",
                                   path.str().c_str(), stbi_failure_reason());
  RgbImage image;
  image.height = height;
  image.width = width;
  image.pixels.assign(pixels, pixels + size_t(width) * height * 3);
  stbi_image_free(pixels);
  return std::move(image);
}

Tensor mgp::graph::preprocessImageNet(const RgbImage &image, int64_t cropH,
                                      int64_t cropW) {
  static const double mean[3] = {0.485, 0.456, 0.406};
  static const double stddev[3] = {0.229, 0.224, 0.225};
  // Resize so that the shorter side is `resize` (torchvision's Resize(256)).
  int64_t resize = (std::max(cropH, cropW) * 256 + 112) / 224;
  int64_t inH = image.height, inW = image.width;
  int64_t outH, outW;
  if (inH <= inW) {
    outH = resize;
    outW = std::max<int64_t>(resize * inW / inH, 1);
  } else {
    outW = resize;
    outH = std::max<int64_t>(resize * inH / inW, 1);
  }
  outH = std::max(outH, cropH);
  outW = std::max(outW, cropW);
  int64_t top = (outH - cropH + 1) / 2, left = (outW - cropW + 1) / 2;
  double scaleY = double(inH) / double(outH),
         scaleX = double(inW) / double(outW);

  Tensor tensor(Shape{3, cropH, cropW});
  for (int64_t y = 0; y < cropH; ++y) {
    double sy = std::clamp((double(y + top) + 0.5) * scaleY - 0.5, 0.0,
                           double(inH - 1));
    int64_t y0 = int64_t(sy), y1 = std::min(y0 + 1, inH - 1);
    double fy = sy - double(y0);
    for (int64_t x = 0; x < cropW; ++x) {
      double sx = std::clamp((double(x + left) + 0.5) * scaleX - 0.5, 0.0,
                             double(inW - 1));
      int64_t x0 = int64_t(sx), x1 = std::min(x0 + 1, inW - 1);
      double fx = sx - double(x0);
      for (int c = 0; c < 3; ++c) {
        auto at = [&](int64_t yy, int64_t xx) {
          return double(image.pixels[(yy * inW + xx) * 3 + c]);
        };
        double v = (1 - fy) * ((1 - fx) * at(y0, x0) + fx * at(y0, x1)) +
                   fy * ((1 - fx) * at(y1, x0) + fx * at(y1, x1));
        tensor.data[(c * cropH + y) * cropW + x] =
            float((v / 255.0 - mean[c]) / stddev[c]);
      }
    }
  }
  return tensor;
}

llvm::Expected<Tensor> mgp::graph::loadImage(llvm::StringRef path,
                                             int64_t cropH, int64_t cropW) {
  auto image = decodeImage(path);
  if (!image)
    return image.takeError();
  return preprocessImageNet(*image, cropH, cropW);
}
