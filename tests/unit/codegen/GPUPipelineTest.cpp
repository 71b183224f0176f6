//===- GPUPipelineTest.cpp - mgp::runGPUPasses end to end -----------------===//
//
// This file runs the whole GPU pass pipeline on relu and on a dot loop and
// checks the properties the lowering relies on: every tensor has an encoding,
// loads and stores carry mgp.vector_width, shared memory is allocated and
// scratch reuse is separated by barriers.
//
//===----------------------------------------------------------------------===//
#include "compiler/pipeline/Pipeline.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

class GPUPipelineTest : public ::testing::Test {
protected:
  GPUPipelineTest() {
    DialectRegistry registry;
    mgp::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> compile(StringRef source, int numWarps = 4) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    mgp::KernelOptions options;
    options.numWarps = numWarps;
    llvm::Error err = mgp::runGPUPasses(*module, options, mgp::Target());
    EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
    return module;
  }

  static bool allTensorsEncoded(ModuleOp module) {
    bool ok = true;
    module.walk([&](Operation *op) {
      for (Type type : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(type))
          ok &= tensor.getEncoding() != nullptr;
    });
    return ok;
  }

  template <typename OpT> static int count(ModuleOp module) {
    int n = 0;
    module.walk([&](OpT) { ++n; });
    return n;
  }

  MLIRContext context;
};

const char *kRelu = R"mlir(
func.func @relu(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                %y: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                %n: i32 {mgp.divisibility = 16 : i32}) attributes {mgp.kernel} {
  %pid = mgp.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %range = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %bases = mgp.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bases, %range : tensor<1024xi32>
  %ns = mgp.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %xp = mgp.addptr %xs, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %v = mgp.load %xp, %mask : tensor<1024x!mgp.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %r = arith.maximumf %v, %zero : tensor<1024xf32>
  %ys = mgp.splat %y : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %yp = mgp.addptr %ys, %offs : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  mgp.store %yp, %r, %mask : tensor<1024x!mgp.ptr<f32>>
  return
}
)mlir";

TEST_F(GPUPipelineTest, ReluIsVectorisedWithoutConversions) {
  OwningOpRef<ModuleOp> module = compile(kRelu);
  EXPECT_TRUE(allTensorsEncoded(*module));
  EXPECT_EQ(count<mgp::ConvertLayoutOp>(*module), 0);
  EXPECT_EQ(count<mgp::BarrierOp>(*module), 0);
  module->walk([](Operation *op) {
    if (isa<mgp::LoadOp, mgp::StoreOp>(op)) {
      EXPECT_EQ(op->getAttrOfType<IntegerAttr>("mgp.vector_width").getInt(), 4);
    }
  });
  EXPECT_EQ((*module)->getAttrOfType<IntegerAttr>("mgp.shared").getInt(), 0);
}

TEST_F(GPUPipelineTest, NumWarpsReachesTheLayouts) {
  OwningOpRef<ModuleOp> module = compile(kRelu, /*numWarps=*/8);
  EXPECT_EQ((*module)->getAttrOfType<IntegerAttr>("mgp.num_warps").getInt(), 8);
  module->walk([](mgp::LoadOp load) {
    auto type = cast<RankedTensorType>(load.getType());
    auto layout = cast<mgp::BlockedEncodingAttr>(type.getEncoding());
    EXPECT_EQ(layout.getWarpsPerCTA()[0], 8u);
  });
}

TEST_F(GPUPipelineTest, DotLoopUsesScratchAndBarriers) {
  const char *source = R"mlir(
func.func @dot(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>, %n: i32) -> tensor<32x32xf32> {
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x32xf32>) : i32 {
    %a2 = arith.addf %a, %a : tensor<32x16xf32>
    %b2 = arith.addf %b, %b : tensor<16x32xf32>
    %d = mgp.dot %a2, %b2, %acc {inputPrecision = ieee} : tensor<32x16xf32> * tensor<16x32xf32> -> tensor<32x32xf32>
    scf.yield %d : tensor<32x32xf32>
  }
  return %r : tensor<32x32xf32>
}
)mlir";
  OwningOpRef<ModuleOp> module = compile(source);
  EXPECT_TRUE(allTensorsEncoded(*module));
  int64_t total = (*module)->getAttrOfType<IntegerAttr>("mgp.shared").getInt();
  // Both operand conversions (of values computed in the loop; invariant
  // ones would be converted once before it) go through shared memory and
  // fit in it.
  int scratchOps = 0;
  module->walk([&](mgp::ConvertLayoutOp convert) {
    auto offset = convert->getAttrOfType<IntegerAttr>("mgp.allocation.offset");
    ASSERT_TRUE(offset);
    EXPECT_LE(offset.getInt() + 1, total);
    ++scratchOps;
  });
  EXPECT_EQ(scratchOps, 2);
  // The two conversions reuse the same bytes, so a barrier separates them,
  // and the loop body ends with one before the next iteration's reuse.
  EXPECT_GE(count<mgp::BarrierOp>(*module), 2);
}

} // namespace
