//===- MLIRGenConformanceTest.cpp - every seed kernel generates -----------===//
//
// This file implements a unit test that runs MLIRGen on every @triton.jit
// kernel of tests/conformance with the signature its README gives and checks
// that the module verifies (generateKernelModule verifies it) and has the
// expected arguments and key operations.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace mgp;

namespace {
struct Case {
  const char *file, *kernel, *signature;
  unsigned numArgs; ///< runtime parameters of the generated function
  unsigned numLoads, numStores, numFors, numDots;
};

const Case kCases[] = {
    {"relu.py", "_relu_forward_kernel", "*fp32,*fp32,i32,1024", 3, 1, 1, 0, 0},
    {"batchnorm2d.py", "_bn2d_kernel",
     "*fp32,*fp32,i32,64,56,56,*fp32,*fp32,*fp32,*fp32,1e-05,1024", 7, 5, 1, 0,
     0},
    {"maxpool2d.py", "_maxpool2d_kernel",
     "*fp32,*fp32,i32,64,112,112,3,3,2,2,1,1,56,56,256", 3, 1, 1, 2, 0},
    {"avgpool2d.py", "_avgpool2d_kernel",
     "*fp32,*fp32,i32,512,7,7,7,7,1,1,1,1,256", 3, 1, 1, 2, 0},
    {"linear.py", "_linear_kernel", "*fp32,*fp32,*fp32,*fp32,i32,i32,i32,1", 7,
     3, 1, 1, 0},
    // bias_exist = 0: the bias load is compiled away.
    {"conv2d.py", "_conv2d_kernel",
     "*fp32,*fp32,*fp32,*fp32,i32,3,224,224,64,7,7,112,112,2,2,3,3,1,1,0,128",
     5, 2, 1, 3, 0},
    {"conv2d_3x3_tiled.py", "_conv2d_3x3_tiled_kernel",
     "*fp32,*fp32,*fp32,*fp32,401408,64,56,56,64,56,56,1,1,1,1,0,16,16", 4, 2,
     1, 3, 0},
    {"conv2d_3x3_dot.py", "_conv2d_3x3_dot_kernel",
     "*fp32,*fp32,*fp32,*fp32,401408,64,56,56,64,56,56,1,1,1,1,0,16,16,32", 4,
     2, 1, 1, 1},
};
} // namespace

class ConformanceTest : public ::testing::TestWithParam<Case> {};

TEST_P(ConformanceTest, Generates) {
  const Case &c = GetParam();
  mlir::MLIRContext ctx;
  llvm::SourceMgr sm;
  std::string path = std::string(MGP_CONFORMANCE_DIR) + "/" + c.file;
  auto id = addSourceFile(sm, path);
  ASSERT_TRUE(static_cast<bool>(id)) << llvm::toString(id.takeError());
  auto module = parseSourceFile(sm, *id);
  ASSERT_TRUE(static_cast<bool>(module)) << llvm::toString(module.takeError());
  auto sig = parseSignature(c.signature);
  ASSERT_TRUE(static_cast<bool>(sig)) << llvm::toString(sig.takeError());
  auto ir = generateKernelModule(ctx, sm, **module, c.kernel, *sig, {});
  ASSERT_TRUE(static_cast<bool>(ir)) << llvm::toString(ir.takeError());
  std::string text;
  llvm::raw_string_ostream os(text);
  (*ir)->print(os);
  llvm::StringRef t(text);
  std::string header = "func.func @" + std::string(c.kernel) + "(";
  size_t start = text.find(header);
  ASSERT_NE(start, std::string::npos) << text;
  llvm::StringRef sigLine = t.substr(start).split('\n').first;
  EXPECT_EQ(sigLine.count("%arg"), c.numArgs) << sigLine.str();
  EXPECT_EQ(t.count("mgp.load"), c.numLoads) << text;
  EXPECT_EQ(t.count("mgp.store"), c.numStores) << text;
  EXPECT_EQ(t.count("scf.for"), c.numFors) << text;
  EXPECT_EQ(t.count("mgp.dot"), c.numDots) << text;
}

INSTANTIATE_TEST_SUITE_P(
    AllKernels, ConformanceTest, ::testing::ValuesIn(kCases),
    [](const ::testing::TestParamInfo<Case> &info) {
      std::string name = info.param.kernel;
      name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
      return name;
    });
