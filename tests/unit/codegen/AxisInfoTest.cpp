//===- AxisInfoTest.cpp - the axis analysis on hand-written IR ------------===//
//
// This file tests the facts the axis analysis derives (contiguity,
// divisibility, constancy) for values tagged with a `tag` attribute in small
// modules, against values worked out by hand from the element sequences.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/AxisInfo.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

class AxisInfoTest : public ::testing::Test {
protected:
  AxisInfoTest() {
    DialectRegistry registry;
    mgp::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source`, runs the analysis and returns the facts of the result
  /// of the op carrying `tag = "<name>"`.
  mgp::AxisInfo factsOf(StringRef source, StringRef name) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << "test IR does not parse";
    analysis = std::make_unique<mgp::ModuleAxisInfo>(*module);
    Value tagged;
    module->walk([&](Operation *op) {
      if (auto tag = op->getAttrOfType<StringAttr>("tag"))
        if (tag.getValue() == name)
          tagged = op->getResult(0);
    });
    EXPECT_TRUE(tagged) << "no op tagged " << name.str();
    lastValue = tagged;
    return analysis->get(tagged);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<mgp::ModuleAxisInfo> analysis;
  Value lastValue; ///< the value factsOf looked up last
};

const char *kRelu = R"mlir(
func.func @relu(%x: !mgp.ptr<f32> {mgp.divisibility = 16 : i32},
                %n: i32 {mgp.divisibility = 16 : i32}) {
  %pid = mgp.program_id 0 : i32
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 {tag = "base"} : i32
  %r = mgp.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %bases = mgp.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bases, %r {tag = "offs"} : tensor<1024xi32>
  %ns = mgp.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns {tag = "mask"} : tensor<1024xi32>
  %xs = mgp.splat %x : !mgp.ptr<f32> -> tensor<1024x!mgp.ptr<f32>>
  %p = mgp.addptr %xs, %offs {tag = "ptr"} : tensor<1024x!mgp.ptr<f32>>, tensor<1024xi32>
  %c4 = arith.constant dense<4> : tensor<1024xi32>
  %q = arith.divsi %r, %c4 {tag = "quot"} : tensor<1024xi32>
  %c8 = arith.constant dense<8> : tensor<1024xi32>
  %m = arith.remsi %r, %c8 {tag = "rem"} : tensor<1024xi32>
  %c3 = arith.constant dense<3> : tensor<1024xi32>
  %t = arith.muli %r, %c3 {tag = "scaled"} : tensor<1024xi32>
  return
}
)mlir";

TEST_F(AxisInfoTest, ProgramOffsetIsContiguousAndAligned) {
  // pid * 1024: every value a multiple of 1024.
  EXPECT_EQ(factsOf(kRelu, "base").getDivisibility(0), 1024);
  // pid * 1024 + [0, 1024): one run of 1024 starting at a multiple of 1024.
  mgp::AxisInfo offs = factsOf(kRelu, "offs");
  EXPECT_EQ(offs.getContiguity(0), 1024);
  EXPECT_EQ(offs.getDivisibility(0), 1024);
  EXPECT_EQ(offs.getConstancy(0), 1);
}

TEST_F(AxisInfoTest, PointerDivisibilityIsInBytes) {
  // x (16-byte aligned) + 4 * offs: runs of 1024 floats, first 16-aligned.
  mgp::AxisInfo ptr = factsOf(kRelu, "ptr");
  EXPECT_EQ(ptr.getContiguity(0), 1024);
  EXPECT_EQ(ptr.getDivisibility(0), 16);
  // A vector access may cover min(1024, 16 bytes / 4) = 4 floats.
  EXPECT_EQ(analysis->getPtrContiguity(lastValue, 0), 4);
}

TEST_F(AxisInfoTest, MaskAgainstAlignedBoundIsConstantOver16) {
  // offs < n with n a multiple of 16: aligned blocks of 16 agree.
  EXPECT_EQ(factsOf(kRelu, "mask").getConstancy(0), 16);
}

TEST_F(AxisInfoTest, DivRemMulByConstants) {
  // [0..1023] / 4 = 0,0,0,0,1,1,1,1,...: runs of 4 equal values.
  EXPECT_EQ(factsOf(kRelu, "quot").getConstancy(0), 4);
  // [0..1023] % 8 = 0..7,0..7,...: runs of 8 consecutive values.
  mgp::AxisInfo rem = factsOf(kRelu, "rem");
  EXPECT_EQ(rem.getContiguity(0), 8);
  EXPECT_EQ(rem.getDivisibility(0), 8);
  // [0..1023] * 3 = 0,3,6,...: stride 3, no runs.
  mgp::AxisInfo scaled = factsOf(kRelu, "scaled");
  EXPECT_EQ(scaled.getContiguity(0), 1);
  EXPECT_EQ(scaled.getConstancy(0), 1);
}

TEST_F(AxisInfoTest, TwoDimensionalOffsetsAndBroadcast) {
  const char *source = R"mlir(
func.func @tile(%stride: i32 {mgp.divisibility = 16 : i32}) {
  %r = mgp.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %m = mgp.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %s = mgp.splat %stride : i32 -> tensor<64x1xi32>
  %rows = arith.muli %m, %s : tensor<64x1xi32>
  %n = mgp.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = mgp.broadcast %rows {tag = "rows"} : tensor<64x1xi32> -> tensor<64x64xi32>
  %nb = mgp.broadcast %n : tensor<1x64xi32> -> tensor<64x64xi32>
  %offs = arith.addi %rb, %nb {tag = "offs"} : tensor<64x64xi32>
  return
}
)mlir";
  // Row starts m * stride: constant along dim 1, multiples of 16.
  mgp::AxisInfo rows = factsOf(source, "rows");
  EXPECT_EQ(rows.getConstancy(1), 64);
  EXPECT_EQ(rows.getDivisibility(1), 16);
  mgp::AxisInfo offs = factsOf(source, "offs");
  EXPECT_EQ(offs.getContiguity(1), 64);
  EXPECT_EQ(offs.getDivisibility(1), 16);
  EXPECT_EQ(offs.getContiguity(0), 1);
  EXPECT_EQ(mgp::getOrderFromContiguity(offs), (SmallVector<unsigned>{1, 0}));
}

TEST_F(AxisInfoTest, LoopInductionVariableAndHint) {
  const char *source = R"mlir(
func.func @loop(%n: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  scf.for %i = %c0 to %n step %c32 : i32 {
    %j = arith.addi %i, %c0 {tag = "iv"} : i32
  }
  %h = mgp.hint %k {multipleOf = 8 : i64, tag = "hinted"} : i32
  return
}
)mlir";
  EXPECT_EQ(factsOf(source, "iv").getDivisibility(0), 32);
  EXPECT_EQ(factsOf(source, "hinted").getDivisibility(0), 8);
}

} // namespace
