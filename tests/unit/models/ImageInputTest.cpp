//===- ImageInputTest.cpp - Tests of image decoding and preprocessing -----===//
//
// This file implements the image tests on PNGs written by stb_image_write:
// a 256x256 image needs no resize, so the crop must be the centre pixels
// normalised exactly; a wide image must be resized to a shorter side of 256
// and centre-cropped (checked on a horizontal ramp against the bilinear
// formula); a corrupt file must give a clear error.
//
//===----------------------------------------------------------------------===//

#include "graph/io/ImageInput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

using namespace mgp::graph;

namespace {

const double mean[3] = {0.485, 0.456, 0.406};
const double stddev[3] = {0.229, 0.224, 0.225};

class ImageInputTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-img", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }
  std::string path(llvm::StringRef name) {
    return (llvm::Twine(dir) + "/" + name).str();
  }
  llvm::SmallString<128> dir;
};

TEST_F(ImageInputTest, SquareImageIsCentreCroppedAndNormalised) {
  const int size = 256;
  std::vector<uint8_t> pixels(size * size * 3);
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x)
      for (int c = 0; c < 3; ++c)
        pixels[(y * size + x) * 3 + c] =
            uint8_t((x * 7 + y * 13 + c * 50) % 256);
  std::string file = path("square.png");
  ASSERT_TRUE(
      stbi_write_png(file.c_str(), size, size, 3, pixels.data(), size * 3));
  auto tensor = loadImage(file);
  ASSERT_TRUE(bool(tensor)) << llvm::toString(tensor.takeError());
  ASSERT_EQ(tensor->shape, (Shape{3, 224, 224}));
  for (int c = 0; c < 3; ++c)
    for (int y = 0; y < 224; y += 37)
      for (int x = 0; x < 224; x += 41) {
        double pixel = pixels[((y + 16) * size + (x + 16)) * 3 + c];
        double expected = (pixel / 255.0 - mean[c]) / stddev[c];
        EXPECT_NEAR(tensor->data[(c * 224 + y) * 224 + x], expected, 1e-5)
            << c << " " << y << " " << x;
      }
}

TEST_F(ImageInputTest, WideImageIsResizedBilinearly) {
  // 512x128: resized to 1024x256, then the centre 224x224 (left = 400).
  const int w = 512, h = 128;
  std::vector<uint8_t> pixels(w * h * 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c)
        pixels[(y * w + x) * 3 + c] = uint8_t(x / 2);
  std::string file = path("wide.png");
  ASSERT_TRUE(stbi_write_png(file.c_str(), w, h, 3, pixels.data(), w * 3));
  auto tensor = loadImage(file);
  ASSERT_TRUE(bool(tensor)) << llvm::toString(tensor.takeError());
  for (int x = 0; x < 224; x += 17) {
    // Source column of output column x + 400 at scale 0.5 (half-pixel).
    double sx = (x + 400 + 0.5) * 0.5 - 0.5;
    int x0 = int(sx);
    double f = sx - x0;
    double value = (1 - f) * (x0 / 2) + f * ((x0 + 1) / 2);
    double expected = (value / 255.0 - mean[1]) / stddev[1];
    EXPECT_NEAR(tensor->data[(1 * 224 + 100) * 224 + x], expected, 1e-5) << x;
  }
}

TEST_F(ImageInputTest, CorruptImageGivesAClearError) {
  std::string file = path("bad.png");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    os << "\x89PNG\r\n\x1a\n this is not really a png";
  }
  auto tensor = loadImage(file);
  ASSERT_FALSE(bool(tensor));
  std::string msg = llvm::toString(tensor.takeError());
  EXPECT_NE(msg.find(file + ": cannot decode image: "), std::string::npos)
      << msg;
  auto missing = loadImage(path("none.png"));
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read image"),
            std::string::npos);
}

} // namespace
