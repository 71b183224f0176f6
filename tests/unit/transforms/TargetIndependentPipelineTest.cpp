//===- TargetIndependentPipelineTest.cpp - runTargetIndependentPasses -----===//
//
// This file tests mgp::runTargetIndependentPasses end to end on small modules:
// helpers are inlined and erased, static_range loops unrolled, combines,
// CSE and LICM applied, and failures come back as llvm::Error.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

namespace {
std::string print(mlir::ModuleOp module) {
  std::string s;
  llvm::raw_string_ostream os(s);
  module.print(os);
  return s;
}

class PipelineTest : public ::testing::Test {
protected:
  PipelineTest() {
    mlir::DialectRegistry registry;
    mgp::registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(llvm::StringRef text) {
    return mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  }

  mlir::MLIRContext ctx;
};

TEST_F(PipelineTest, InlinesCombinesAndHoists) {
  auto module = parse(R"mlir(
    func.func @helper(%p: tensor<128x!mgp.ptr<f32>>, %m: tensor<128xi1>) -> tensor<128xf32> {
      %v = mgp.load %p, %m : tensor<128x!mgp.ptr<f32>>
      %z = arith.constant dense<0.0> : tensor<128xf32>
      %s = arith.select %m, %v, %z : tensor<128xi1>, tensor<128xf32>
      return %s : tensor<128xf32>
    }
    func.func @kernel(%base: !mgp.ptr<f32>, %n: i32, %out: !mgp.ptr<f32>) attributes {mgp.kernel} {
      %r = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
      %lb = arith.constant 0 : i32
      %ub = arith.constant 4 : i32
      %st = arith.constant 1 : i32
      %init = arith.constant dense<0.0> : tensor<128xf32>
      %acc = scf.for %i = %lb to %ub step %st iter_args(%a = %init) -> (tensor<128xf32>) : i32 {
        %ps = mgp.splat %base : !mgp.ptr<f32> -> tensor<128x!mgp.ptr<f32>>
        %p = mgp.addptr %ps, %r : tensor<128x!mgp.ptr<f32>>, tensor<128xi32>
        %ns = mgp.splat %n : i32 -> tensor<128xi32>
        %m = arith.cmpi slt, %r, %ns : tensor<128xi32>
        %v = func.call @helper(%p, %m) : (tensor<128x!mgp.ptr<f32>>, tensor<128xi1>) -> tensor<128xf32>
        %s = arith.addf %a, %v : tensor<128xf32>
        scf.yield %s : tensor<128xf32>
      }
      %po = mgp.splat %out : !mgp.ptr<f32> -> tensor<128x!mgp.ptr<f32>>
      %q = mgp.addptr %po, %r : tensor<128x!mgp.ptr<f32>>, tensor<128xi32>
      mgp.store %q, %acc : tensor<128x!mgp.ptr<f32>>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  ASSERT_FALSE(llvm::errorToBool(mgp::runTargetIndependentPasses(*module)));
  std::string ir = print(*module);
  // The helper is inlined and gone; the select became the load's `other`.
  EXPECT_EQ(ir.find("func.call"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("@helper"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("arith.select"), std::string::npos) << ir;
  EXPECT_NE(ir.find("mgp.load %"), std::string::npos) << ir;
  // The address and mask computation is loop invariant: only the load (which
  // reads memory), the add and the yield stay in the loop.
  size_t loop = ir.find("scf.for");
  ASSERT_NE(loop, std::string::npos) << ir;
  size_t loopEnd = ir.find("scf.yield", loop);
  std::string body = ir.substr(loop, loopEnd - loop);
  EXPECT_EQ(body.find("mgp.addptr"), std::string::npos) << ir;
  EXPECT_EQ(body.find("arith.cmpi"), std::string::npos) << ir;
  EXPECT_NE(body.find("mgp.load"), std::string::npos) << ir;
  // One make_range and one splat of %out survive CSE.
  EXPECT_EQ(ir.find("mgp.make_range"), ir.rfind("mgp.make_range")) << ir;
}

TEST_F(PipelineTest, UnrollsStaticRangeAndFoldsDotAccumulator) {
  auto module = parse(R"mlir(
    func.func @kernel(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>)
        -> tensor<16x16xf32> attributes {mgp.kernel} {
      %lb = arith.constant 0 : i32
      %ub = arith.constant 2 : i32
      %st = arith.constant 1 : i32
      %r = scf.for %i = %lb to %ub step %st iter_args(%acc = %c) -> (tensor<16x16xf32>) : i32 {
        %zero = arith.constant dense<0.0> : tensor<16x16xf32>
        %d = mgp.dot %a, %b, %zero {inputPrecision = tf32} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
        %s = arith.addf %d, %acc : tensor<16x16xf32>
        scf.yield %s : tensor<16x16xf32>
      } {mgp.static_range}
      return %r : tensor<16x16xf32>
    }
  )mlir");
  ASSERT_TRUE(module);
  ASSERT_FALSE(llvm::errorToBool(mgp::runTargetIndependentPasses(*module)));
  std::string ir = print(*module);
  EXPECT_EQ(ir.find("scf.for"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("arith.addf"), std::string::npos) << ir;
  // Two chained dots: the second accumulates onto the first.
  size_t first = ir.find("mgp.dot %arg0, %arg1, %arg2");
  ASSERT_NE(first, std::string::npos) << ir;
  EXPECT_NE(ir.find("mgp.dot %arg0, %arg1, %0", first), std::string::npos)
      << ir;
}

TEST_F(PipelineTest, ReportsFailuresAsErrors) {
  auto module = parse(R"mlir(
    func.func @kernel(%x: i32, %n: i32) -> i32 attributes {mgp.kernel} {
      %lb = arith.constant 0 : i32
      %st = arith.constant 1 : i32
      %r = scf.for %i = %lb to %n step %st iter_args(%a = %x) -> (i32) : i32 {
        %s = arith.addi %a, %i : i32
        scf.yield %s : i32
      } {mgp.static_range}
      return %r : i32
    }
  )mlir");
  ASSERT_TRUE(module);
  llvm::Error err = mgp::runTargetIndependentPasses(*module);
  ASSERT_TRUE(bool(err));
  std::string message = llvm::toString(std::move(err));
  EXPECT_NE(message.find("static_range loop needs constant bounds and step"),
            std::string::npos)
      << message;
}
} // namespace
