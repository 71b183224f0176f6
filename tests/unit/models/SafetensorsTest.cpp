//===- SafetensorsTest.cpp - Tests of the safetensors reader and writer ---===//
//
// This file implements the safetensors tests: a write/read round trip, F16
// and BF16 conversion, dimension binding from a file, and one test per kind
// of corrupt or mismatching file, each checking the error names the file and
// the tensor.
//
//===----------------------------------------------------------------------===//

#include "graph/io/Safetensors.h"
#include "graph/ir/GraphParser.h"
#include "graph/ir/Random.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mgp::graph;

namespace {

class SafetensorsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-st", dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string path(llvm::StringRef name) {
    return (llvm::Twine(dir) + "/" + name).str();
  }
  /// Writes a file from a JSON header and raw data bytes.
  std::string writeRaw(llvm::StringRef name, llvm::StringRef header,
                       llvm::StringRef data, int64_t headerLen = -1) {
    std::string file = path(name);
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    EXPECT_FALSE(ec);
    uint64_t len = headerLen < 0 ? header.size() : uint64_t(headerLen);
    char bytes[8];
    std::memcpy(bytes, &len, 8);
    os.write(bytes, 8);
    os << header << data;
    return file;
  }
  std::string errorOf(const std::string &file) {
    auto read = readSafetensors(file);
    EXPECT_FALSE(bool(read));
    return read ? "" : llvm::toString(read.takeError());
  }

  llvm::SmallString<128> dir;
};

Tensor randomTensor(Shape shape, uint64_t seed) {
  Tensor t(std::move(shape));
  Random rng(seed);
  for (float &x : t.data)
    x = float(rng.normal());
  return t;
}

TEST_F(SafetensorsTest, RoundTrip) {
  WeightMap weights;
  weights["layer1.0.conv1.weight"] = randomTensor({4, 3, 3, 3}, 1);
  weights["fc.bias"] = randomTensor({10}, 2);
  weights["scalar"] = randomTensor({}, 3);
  std::string file = path("w.safetensors");
  ASSERT_FALSE(bool(writeSafetensors(file, weights)));
  auto read = readSafetensors(file);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(read->entries.size(), 3u);
  for (auto &entry : weights) {
    auto tensor = read->read(entry.first());
    ASSERT_TRUE(bool(tensor));
    EXPECT_EQ(tensor->shape, entry.second.shape);
    EXPECT_EQ(tensor->data, entry.second.data);
  }
  EXPECT_EQ(read->entries["fc.bias"].dtype, "F32");
}

TEST_F(SafetensorsTest, ConvertsHalfAndBFloat16) {
  // 1.0, -2.5, 65504 (max half), 2^-24 (smallest subnormal half)
  uint16_t half[] = {0x3c00, 0xc100, 0x7bff, 0x0001};
  // 1.0, -2.5, 3.140625 in bf16
  uint16_t bf16[] = {0x3f80, 0xc020, 0x4049};
  std::string data(reinterpret_cast<const char *>(half), sizeof(half));
  data.append(reinterpret_cast<const char *>(bf16), sizeof(bf16));
  std::string file =
      writeRaw("h.safetensors",
               R"({"h":{"dtype":"F16","shape":[4],"data_offsets":[0,8]},)"
               R"("b":{"dtype":"BF16","shape":[3],"data_offsets":[8,14]},)"
               R"("__metadata__":{"format":"pt"}})",
               data);
  auto read = readSafetensors(file);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  auto h = read->read("h");
  ASSERT_TRUE(bool(h));
  EXPECT_EQ(h->data, (std::vector<float>{1.0f, -2.5f, 65504.0f,
                                         5.9604644775390625e-8f}));
  auto b = read->read("b");
  ASSERT_TRUE(bool(b));
  EXPECT_EQ(b->data, (std::vector<float>{1.0f, -2.5f, 3.140625f}));
}

TEST_F(SafetensorsTest, CorruptFiles) {
  std::string shortFile = path("short.safetensors");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(shortFile, ec);
    os << "abc";
  }
  std::string msg = errorOf(shortFile);
  EXPECT_NE(msg.find(shortFile + ": truncated: 3 bytes"), std::string::npos)
      << msg;

  msg = errorOf(writeRaw("past.safetensors", "{}", "", 1000));
  EXPECT_NE(msg.find("header length 1000 runs past the end of the file"),
            std::string::npos)
      << msg;

  msg = errorOf(writeRaw("json.safetensors", "{\"a\": [1, 2", ""));
  EXPECT_NE(msg.find("json.safetensors: bad JSON header"), std::string::npos)
      << msg;

  msg = errorOf(writeRaw(
      "range.safetensors",
      R"({"fc.bias":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})",
      std::string(8, '\0')));
  EXPECT_NE(msg.find("range.safetensors: tensor 'fc.bias' has data_offsets "
                     "[0, 16] past the end of the data (8 bytes)"),
            std::string::npos)
      << msg;

  msg = errorOf(
      writeRaw("size.safetensors",
               R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})",
               std::string(8, '\0')));
  EXPECT_NE(msg.find("tensor 'w' spans 8 bytes but its shape [3] of F32 "
                     "needs 12"),
            std::string::npos)
      << msg;

  msg = errorOf(
      writeRaw("overlap.safetensors",
               R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
               R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
               std::string(12, '\0')));
  EXPECT_NE(msg.find("tensors 'a' and 'b' overlap"), std::string::npos) << msg;

  msg = errorOf(
      writeRaw("keys.safetensors", R"({"a":{"dtype":"F32","shape":[2]}})", ""));
  EXPECT_NE(msg.find("header entry 'a' needs 'dtype', 'shape' and "
                     "'data_offsets'"),
            std::string::npos)
      << msg;

  msg = errorOf(
      writeRaw("dtype.safetensors",
               R"({"a":{"dtype":"Q7","shape":[2],"data_offsets":[0,2]}})",
               std::string(2, '\0')));
  EXPECT_NE(msg.find("tensor 'a' has unknown dtype 'Q7'"), std::string::npos)
      << msg;

  msg =
      errorOf(writeRaw("huge.safetensors",
                       R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],)"
                       R"("data_offsets":[0,0]}})",
                       ""));
  EXPECT_NE(msg.find("tensor 'a' has an invalid shape"), std::string::npos)
      << msg;

  msg = errorOf(path("missing.safetensors"));
  EXPECT_NE(msg.find("cannot read weights"), std::string::npos) << msg;
}

TEST_F(SafetensorsTest, ChecksAgainstTheGraph) {
  auto graph = parseGraphString("dim K = 3\ninput x: f32[1, 8]\n"
                                "param w: f32[K, 8]\nparam b: f32[K]\n"
                                "y = linear(x, w, b)\noutput y\n");
  ASSERT_TRUE(bool(graph));
  // Binding: the file has 5 classes.
  WeightMap weights;
  weights["w"] = randomTensor({5, 8}, 1);
  weights["b"] = randomTensor({5}, 2);
  weights["num_batches_tracked"] = randomTensor({}, 3); // ignored extra
  std::string file = path("ok.safetensors");
  ASSERT_FALSE(bool(writeSafetensors(file, weights)));
  auto read = readSafetensors(file);
  ASSERT_TRUE(bool(read));
  DimBindings bindings;
  ASSERT_FALSE(bool(bindDimsFromWeights(*graph, *read, bindings)));
  EXPECT_EQ(bindings.lookup("K"), 5);
  ASSERT_FALSE(bool(inferShapes(*graph, bindings)));
  auto loaded = loadWeights(*graph, *read);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->size(), 2u);
  EXPECT_EQ((*loaded)["w"].data, weights["w"].data);

  // Conflicting binding: w says 5, then b says 4.
  WeightMap conflicting;
  conflicting["w"] = randomTensor({5, 8}, 1);
  conflicting["b"] = randomTensor({4}, 2);
  std::string bad = path("conflict.safetensors");
  ASSERT_FALSE(bool(writeSafetensors(bad, conflicting)));
  auto badRead = readSafetensors(bad);
  ASSERT_TRUE(bool(badRead));
  DimBindings other;
  std::string msg =
      llvm::toString(bindDimsFromWeights(*graph, *badRead, other));
  EXPECT_NE(msg.find("conflict.safetensors: tensor 'b' gives dimension 'K' = "
                     "4, but it is 5 from 'w'"),
            std::string::npos)
      << msg;

  // Wrong shape and missing parameter, with the default K = 3.
  ASSERT_FALSE(bool(inferShapes(*graph)));
  msg = llvm::toString(loadWeights(*graph, *read).takeError());
  EXPECT_NE(msg.find("ok.safetensors: tensor 'w' has shape [5,8] but the "
                     "graph expects [3,8]"),
            std::string::npos)
      << msg;
  WeightMap partial;
  partial["w"] = randomTensor({3, 8}, 1);
  std::string partialFile = path("partial.safetensors");
  ASSERT_FALSE(bool(writeSafetensors(partialFile, partial)));
  auto partialRead = readSafetensors(partialFile);
  ASSERT_TRUE(bool(partialRead));
  msg = llvm::toString(loadWeights(*graph, *partialRead).takeError());
  EXPECT_NE(msg.find("partial.safetensors: missing parameter 'b' (shape [3])"),
            std::string::npos)
      << msg;

  // A dtype weights cannot have.
  std::string i64 =
      writeRaw("i64.safetensors",
               R"({"w":{"dtype":"I64","shape":[3,8],"data_offsets":[0,192]},)"
               R"("b":{"dtype":"F32","shape":[3],"data_offsets":[192,204]}})",
               std::string(204, '\0'));
  auto i64Read = readSafetensors(i64);
  ASSERT_TRUE(bool(i64Read));
  msg = llvm::toString(loadWeights(*graph, *i64Read).takeError());
  EXPECT_NE(msg.find("i64.safetensors: tensor 'w' has dtype I64; weights must "
                     "be F32, F16 or BF16"),
            std::string::npos)
      << msg;
}

TEST_F(SafetensorsTest, WriteFailureLeavesNoFile) {
  WeightMap weights;
  weights["a"] = randomTensor({2}, 1);
  std::string file = path("no/such/dir/w.safetensors");
  llvm::Error error = writeSafetensors(file, weights);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("cannot write"),
            std::string::npos);
  EXPECT_FALSE(llvm::sys::fs::exists(file));
}

} // namespace
