//===- NpyTest.cpp - Tests of the .npy reader and writer ------------------===//
//
// This file implements the `.npy` tests: a write/read round trip, reading
// hand-made version 1 and 2 files, int64 labels, and one test per error
// (dtype, Fortran order, truncated data, bad magic, bad header).
//
//===----------------------------------------------------------------------===//

#include "graph/io/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mgp::graph;

namespace {

class NpyTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-npy", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  /// Writes a version-1 .npy file with the given header dict and data.
  std::string write(llvm::StringRef name, std::string header,
                    llvm::StringRef data, int version = 1) {
    std::string file = (llvm::Twine(dir) + "/" + name).str();
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    EXPECT_FALSE(ec);
    header += "\n";
    os << "\x93NUMPY" << char(version) << '\0';
    if (version == 1) {
      uint16_t len = uint16_t(header.size());
      os.write(reinterpret_cast<const char *>(&len), 2);
    } else {
      uint32_t len = uint32_t(header.size());
      os.write(reinterpret_cast<const char *>(&len), 4);
    }
    os << header << data;
    return file;
  }
  std::string floatError(const std::string &file) {
    auto read = readNpyFloat32(file);
    EXPECT_FALSE(bool(read));
    return read ? "" : llvm::toString(read.takeError());
  }

  llvm::SmallString<128> dir;
};

std::string bytesOf(const std::vector<float> &values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * 4);
}

TEST_F(NpyTest, ReadsHandWrittenFiles) {
  std::vector<float> values = {1.5f, -2.0f, 3.25f, 0.0f, 7.0f, -1e-3f};
  auto read = readNpyFloat32(
      write("a.npy",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2, 3, 1), }",
            bytesOf(values)));
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->shape, (Shape{1, 2, 3, 1}));
  EXPECT_EQ(read->data, values);

  auto v2 = readNpyFloat32(write(
      "b.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }",
      bytesOf(values), 2));
  ASSERT_TRUE(bool(v2)) << llvm::toString(v2.takeError());
  EXPECT_EQ(v2->shape, (Shape{6}));

  std::vector<int64_t> labels = {3, 999, 0};
  Shape shape;
  auto ints = readNpyInt64(
      write("l.npy",
            "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }",
            llvm::StringRef(reinterpret_cast<const char *>(labels.data()), 24)),
      shape);
  ASSERT_TRUE(bool(ints)) << llvm::toString(ints.takeError());
  EXPECT_EQ(*ints, labels);
  EXPECT_EQ(shape, (Shape{3}));
}

TEST_F(NpyTest, WriteReadRoundTrip) {
  Tensor tensor(Shape{2, 5});
  for (int i = 0; i < 10; ++i)
    tensor.data[i] = float(i) * 0.37f - 1.0f;
  std::string file = (llvm::Twine(dir) + "/out.npy").str();
  ASSERT_FALSE(bool(writeNpy(file, tensor)));
  auto read = readNpyFloat32(file);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->shape, tensor.shape);
  EXPECT_EQ(read->data, tensor.data);
  // numpy requires the data to start 64-byte aligned.
  uint64_t size = 0;
  ASSERT_FALSE(llvm::sys::fs::file_size(file, size));
  EXPECT_EQ((size - 40) % 64, 0u);
}

TEST_F(NpyTest, Errors) {
  std::string msg = floatError(write(
      "d.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
      std::string(16, '\0')));
  EXPECT_NE(msg.find("d.npy: dtype '<f8' is not float32 ('<f4')"),
            std::string::npos)
      << msg;
  msg = floatError(write(
      "f.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
      std::string(16, '\0')));
  EXPECT_NE(msg.find("f.npy: Fortran-order arrays are not supported"),
            std::string::npos)
      << msg;
  msg = floatError(write(
      "t.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
      std::string(20, '\0')));
  EXPECT_NE(msg.find("t.npy: truncated data: shape [2,3] needs 24 bytes, the "
                     "file has 20"),
            std::string::npos)
      << msg;
  msg = floatError(
      write("s.npy", "{'descr': '<f4', 'fortran_order': False}", ""));
  EXPECT_NE(msg.find("s.npy: bad header: no 'shape'"), std::string::npos)
      << msg;
  msg = floatError(write("h.npy",
                         "{'descr': '<f4', 'fortran_order': False, 'shape': "
                         "(4294967296, 4294967296), }",
                         ""));
  EXPECT_NE(msg.find("h.npy: bad header: the shape [4294967296,4294967296] "
                     "is too large"),
            std::string::npos)
      << msg;
  std::string magic = (llvm::Twine(dir) + "/m.npy").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(magic, ec);
    os << "PK\x03\x04 this is a zip file";
  }
  msg = floatError(magic);
  EXPECT_NE(msg.find("m.npy: not a .npy file (bad magic)"), std::string::npos)
      << msg;
  Shape shape;
  auto ints = readNpyInt64(
      write("i.npy",
            "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
            std::string(4, '\0')),
      shape);
  ASSERT_FALSE(bool(ints));
  EXPECT_NE(
      llvm::toString(ints.takeError()).find("dtype '<f4' is not int64 ('<i8')"),
      std::string::npos);
}

} // namespace
