//===- SharedMemoryGpuTest.cpp - conversions through shared memory on a GPU
//===//
//
// This file tests, on a GPU, kernels whose layouts force a convert_layout
// through shared memory: a 2-D transpose (loaded along x's rows, stored along
// y's rows) and a row maximum broadcast back and stored as a 1-D vector. Each
// kernel goes through the whole pipeline (target-independent passes, GPU
// passes, LLVM lowering, PTX), is loaded and launched through runtime/, and
// its output is compared with a C++ reference on random non-zero data; and a
// laid-out kernel copying through a swizzled mgp.local_alloc / local_load. The
// compile half runs everywhere; without a GPU the launch reports "skipped: no
// GPU".
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Function.h"
#include "runtime/Module.h"
#include "tests/unit/runtime/TestErrors.h"
#include "tests/unit/support/GpuTestSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

using namespace mgp;
using mgp::test::errorText;
using mgp::test::randomSignedFloats;

namespace {

/// y (64x32) = transpose of x (32x64).
constexpr const char *kTranspose = R"mlir(
module {
  func.func @transpose(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                       %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %ri = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
    %rj = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %c64 = arith.constant dense<64> : tensor<32x1xi32>
    %c32 = arith.constant dense<32> : tensor<64x1xi32>
    %i2 = mgp.expand_dims %ri {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %irow = arith.muli %i2, %c64 : tensor<32x1xi32>
    %irowb = mgp.broadcast %irow : tensor<32x1xi32> -> tensor<32x64xi32>
    %j2 = mgp.expand_dims %rj {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %jb = mgp.broadcast %j2 : tensor<1x64xi32> -> tensor<32x64xi32>
    %xoff = arith.addi %irowb, %jb : tensor<32x64xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<32x64x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %xoff : tensor<32x64x!mgp.ptr<f32>>, tensor<32x64xi32>
    %v = mgp.load %xp : tensor<32x64x!mgp.ptr<f32>>
    %t = mgp.trans %v {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
    %j3 = mgp.expand_dims %rj {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %jrow = arith.muli %j3, %c32 : tensor<64x1xi32>
    %jrowb = mgp.broadcast %jrow : tensor<64x1xi32> -> tensor<64x32xi32>
    %i3 = mgp.expand_dims %ri {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %ib = mgp.broadcast %i3 : tensor<1x32xi32> -> tensor<64x32xi32>
    %yoff = arith.addi %jrowb, %ib : tensor<64x32xi32>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<64x32x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %yoff : tensor<64x32x!mgp.ptr<f32>>, tensor<64x32xi32>
    mgp.store %yp, %t : tensor<64x32x!mgp.ptr<f32>>
    return
  }
}
)mlir";

/// y[i, j] = x[i, j] - max_j x[i, j] and z[i] = max_j x[i, j] on 16x64.
constexpr const char *kRowShift = R"mlir(
module {
  func.func @row_shift(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                       %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                       %z: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %ri = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %rj = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %c64 = arith.constant dense<64> : tensor<16x1xi32>
    %i2 = mgp.expand_dims %ri {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %irow = arith.muli %i2, %c64 : tensor<16x1xi32>
    %irowb = mgp.broadcast %irow : tensor<16x1xi32> -> tensor<16x64xi32>
    %j2 = mgp.expand_dims %rj {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %jb = mgp.broadcast %j2 : tensor<1x64xi32> -> tensor<16x64xi32>
    %off = arith.addi %irowb, %jb : tensor<16x64xi32>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<16x64x!mgp.ptr<f32>>
    %xp = mgp.addptr %xs, %off : tensor<16x64x!mgp.ptr<f32>>, tensor<16x64xi32>
    %v = mgp.load %xp : tensor<16x64x!mgp.ptr<f32>>
    %m = "mgp.reduce"(%v) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %t = arith.maximumf %a, %b : f32
      mgp.reduce.return %t : f32
    }) : (tensor<16x64xf32>) -> tensor<16xf32>
    %m2 = mgp.expand_dims %m {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
    %mb = mgp.broadcast %m2 : tensor<16x1xf32> -> tensor<16x64xf32>
    %d = arith.subf %v, %mb : tensor<16x64xf32>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<16x64x!mgp.ptr<f32>>
    %yp = mgp.addptr %ys, %off : tensor<16x64x!mgp.ptr<f32>>, tensor<16x64xi32>
    mgp.store %yp, %d : tensor<16x64x!mgp.ptr<f32>>
    %zs = mgp.splat %z : !mgp.ptr<f32> -> tensor<16x!mgp.ptr<f32>>
    %zp = mgp.addptr %zs, %ri : tensor<16x!mgp.ptr<f32>>, tensor<16xi32>
    mgp.store %zp, %m : tensor<16x!mgp.ptr<f32>>
    return
  }
}
)mlir";

/// Already laid out (the GPU passes create no local_alloc yet): y = x on
/// 16x32, through a swizzled shared buffer written in one layout and read in
/// another.
constexpr const char *kLocalCopy = R"mlir(
#b = #mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #mgp.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#s = #mgp.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {mgp.num_warps = 4 : i32, mgp.shared = 2048 : i32} {
  func.func @local_copy(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                        %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
    %bi = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #mgp.slice<{dim = 1, parent = #b}>>
    %bj = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #mgp.slice<{dim = 0, parent = #b}>>
    %b32 = arith.constant dense<32> : tensor<16x1xi32, #b>
    %bi2 = mgp.expand_dims %bi {axis = 1 : i32} : tensor<16xi32, #mgp.slice<{dim = 1, parent = #b}>> -> tensor<16x1xi32, #b>
    %brow = arith.muli %bi2, %b32 : tensor<16x1xi32, #b>
    %browb = mgp.broadcast %brow : tensor<16x1xi32, #b> -> tensor<16x32xi32, #b>
    %bj2 = mgp.expand_dims %bj {axis = 0 : i32} : tensor<32xi32, #mgp.slice<{dim = 0, parent = #b}>> -> tensor<1x32xi32, #b>
    %bjb = mgp.broadcast %bj2 : tensor<1x32xi32, #b> -> tensor<16x32xi32, #b>
    %boff = arith.addi %browb, %bjb : tensor<16x32xi32, #b>
    %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<16x32x!mgp.ptr<f32>, #b>
    %xp = mgp.addptr %xs, %boff : tensor<16x32x!mgp.ptr<f32>, #b>, tensor<16x32xi32, #b>
    %v = mgp.load %xp : tensor<16x32x!mgp.ptr<f32>, #b>
    %m = mgp.local_alloc %v {mgp.allocation.offset = 0 : i32} : (tensor<16x32xf32, #b>) -> !mgp.memdesc<16x32xf32, #s>
    mgp.barrier
    %w = mgp.local_load %m : !mgp.memdesc<16x32xf32, #s> -> tensor<16x32xf32, #c>
    %ci = mgp.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #mgp.slice<{dim = 1, parent = #c}>>
    %cj = mgp.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #mgp.slice<{dim = 0, parent = #c}>>
    %c32 = arith.constant dense<32> : tensor<16x1xi32, #c>
    %ci2 = mgp.expand_dims %ci {axis = 1 : i32} : tensor<16xi32, #mgp.slice<{dim = 1, parent = #c}>> -> tensor<16x1xi32, #c>
    %crow = arith.muli %ci2, %c32 : tensor<16x1xi32, #c>
    %crowb = mgp.broadcast %crow : tensor<16x1xi32, #c> -> tensor<16x32xi32, #c>
    %cj2 = mgp.expand_dims %cj {axis = 0 : i32} : tensor<32xi32, #mgp.slice<{dim = 0, parent = #c}>> -> tensor<1x32xi32, #c>
    %cjb = mgp.broadcast %cj2 : tensor<1x32xi32, #c> -> tensor<16x32xi32, #c>
    %coff = arith.addi %crowb, %cjb : tensor<16x32xi32, #c>
    %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<16x32x!mgp.ptr<f32>, #c>
    %yp = mgp.addptr %ys, %coff : tensor<16x32x!mgp.ptr<f32>, #c>, tensor<16x32xi32, #c>
    mgp.store %yp, %w : tensor<16x32x!mgp.ptr<f32>, #c>
    return
  }
}
)mlir";

/// A kernel compiled by the pipeline: its PTX and dynamic shared bytes.
struct CompiledKernel {
  std::string ptx;
  unsigned sharedBytes = 0;
  unsigned conversions = 0; ///< convert_layouts that got shared scratch
};

/// Compiles `source` to PTX; `laidOut` sources skip the passes before the
/// LLVM lowering.
llvm::Expected<CompiledKernel> compile(llvm::StringRef source,
                                       const Target &target, bool laidOut) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return llvm::createStringError("kernel does not parse");
  if (!laidOut)
    if (auto passes = runStages(*module, KernelOptions(), target, Stage::MLIR,
                                Stage::MLIRGPU);
        !passes)
      return passes.takeError();
  CompiledKernel kernel;
  if (auto shared = (*module)->getAttrOfType<mlir::IntegerAttr>("mgp.shared"))
    kernel.sharedBytes = shared.getInt();
  module->walk([&](ConvertLayoutOp op) {
    if (op->hasAttr("mgp.allocation.offset"))
      ++kernel.conversions;
  });
  auto lowered =
      runStages(*module, KernelOptions(), target, Stage::LLVM, Stage::PTX);
  if (!lowered)
    return lowered.takeError();
  kernel.ptx = std::move(lowered->ptx);
  return kernel;
}

class SharedMemoryGpu : public ::testing::Test {
protected:
  /// Opens the GPU when there is one, then compiles `source` for its arch
  /// (sm_90 without one) and checks that a conversion went through shared
  /// memory.
  void compileFor(llvm::StringRef source, bool laidOut = false) {
    Target target; // sm_90
    if (auto opened = Device::open(0)) {
      device.emplace(std::move(*opened));
      if (auto chosen = getDeviceTarget(device->properties()))
        target = *chosen;
      else
        llvm::consumeError(chosen.takeError());
    } else {
      llvm::consumeError(opened.takeError());
    }
    auto compiled = compile(source, target, laidOut);
    ASSERT_TRUE(!!compiled) << errorText(compiled);
    kernel = std::move(*compiled);
    if (!laidOut)
      EXPECT_GE(kernel.conversions, 1u);
    EXPECT_GT(kernel.sharedBytes, 0u);
    EXPECT_NE(kernel.ptx.find("bar.sync"), std::string::npos);
    EXPECT_NE(kernel.ptx.find("st.shared"), std::string::npos);
  }

  /// Loads the compiled kernel and runs it on one program with 4 warps;
  /// `buffers` are its pointer arguments, in order; returns their contents.
  void run(llvm::StringRef name, std::vector<std::vector<float>> &buffers) {
    auto module = Module::loadPTX(kernel.ptx);
    ASSERT_TRUE(!!module) << errorText(module);
    auto function = module->getFunction(name);
    ASSERT_TRUE(!!function) << errorText(function);
    std::vector<DeviceBuffer> device;
    std::vector<CUdeviceptr> addresses;
    for (auto &values : buffers) {
      auto buffer = DeviceBuffer::allocate(values.size() * sizeof(float));
      ASSERT_TRUE(!!buffer) << errorText(buffer);
      ASSERT_EQ(errorText(buffer->copyFromHost(values.data(),
                                               values.size() * sizeof(float))),
                "");
      addresses.push_back(buffer->address());
      device.push_back(std::move(*buffer));
    }
    std::vector<void *> args;
    for (CUdeviceptr &address : addresses)
      args.push_back(&address);
    LaunchConfig config;
    config.numWarps = 4;
    config.sharedBytes = kernel.sharedBytes;
    ASSERT_EQ(errorText(function->launch(config, args.data())), "");
    ASSERT_EQ(errorText(this->device->synchronize()), "");
    for (auto [values, buffer] : llvm::zip(buffers, device))
      ASSERT_EQ(errorText(buffer.copyToHost(values.data(),
                                            values.size() * sizeof(float))),
                "");
  }

  CompiledKernel kernel;
  std::optional<Device> device;
};

} // namespace

TEST_F(SharedMemoryGpu, Transpose) {
  compileFor(kTranspose);
  if (HasFatalFailure())
    return;
  if (!device)
    GTEST_SKIP() << "skipped: no GPU";
  std::vector<std::vector<float>> buffers = {randomSignedFloats(32 * 64, 11),
                                             std::vector<float>(64 * 32, 0)};
  run("transpose", buffers);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 64; ++j)
      ASSERT_EQ(buffers[1][j * 32 + i], buffers[0][i * 64 + j])
          << "at (" << i << ", " << j << ")";
}

TEST_F(SharedMemoryGpu, RowMaxBroadcastBack) {
  compileFor(kRowShift);
  if (HasFatalFailure())
    return;
  if (!device)
    GTEST_SKIP() << "skipped: no GPU";
  std::vector<std::vector<float>> buffers = {randomSignedFloats(16 * 64, 12),
                                             std::vector<float>(16 * 64, 0),
                                             std::vector<float>(16, 0)};
  run("row_shift", buffers);
  const std::vector<float> &x = buffers[0];
  for (int i = 0; i < 16; ++i) {
    float max = *std::max_element(x.begin() + i * 64, x.begin() + i * 64 + 64);
    ASSERT_EQ(buffers[2][i], max) << "row " << i;
    for (int j = 0; j < 64; ++j)
      ASSERT_EQ(buffers[1][i * 64 + j], x[i * 64 + j] - max)
          << "at (" << i << ", " << j << ")";
  }
}

TEST_F(SharedMemoryGpu, LocalAllocThenLoadInAnotherLayout) {
  compileFor(kLocalCopy, /*laidOut=*/true);
  if (HasFatalFailure())
    return;
  if (!device)
    GTEST_SKIP() << "skipped: no GPU";
  std::vector<std::vector<float>> buffers = {randomSignedFloats(16 * 32, 13),
                                             std::vector<float>(16 * 32, 0)};
  run("local_copy", buffers);
  for (int i = 0; i < 16 * 32; ++i)
    ASSERT_EQ(buffers[1][i], buffers[0][i]) << "at " << i;
}
