//===- BuildersTest.cpp - op builders infer the documented result types ---===//
//
// This file tests the C++ builders of the mgp ops that infer result types
// (load, dot, reduce, expand_dims, trans, splat, broadcast, convert_layout,
// make_range): each builds IR that passes the verifier with the expected type.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {
class BuildersTest : public ::testing::Test {
protected:
  BuildersTest() : builder(&ctx) {
    ctx.loadDialect<mgp::MgpDialect, func::FuncDialect, arith::ArithDialect>();
    loc = builder.getUnknownLoc();
    module = ModuleOp::create(loc);
    auto fn = func::FuncOp::create(builder, loc, "f",
                                   builder.getFunctionType({}, {}));
    module->push_back(fn);
    builder.setInsertionPointToStart(fn.addEntryBlock());
  }

  Value f32Constant(ArrayRef<int64_t> shape, float v, Attribute enc = {}) {
    auto type = RankedTensorType::get(shape, builder.getF32Type(), enc);
    return arith::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(type, builder.getF32FloatAttr(v)));
  }

  MLIRContext ctx;
  OpBuilder builder;
  Location loc = UnknownLoc::get(&ctx);
  OwningOpRef<ModuleOp> module;
};

TEST_F(BuildersTest, InferredTypesVerify) {
  Value range = mgp::MakeRangeOp::create(builder, loc, 0, 128);
  EXPECT_EQ(range.getType(),
            RankedTensorType::get({128}, builder.getI32Type()));
  auto ptrType = mgp::PointerType::get(builder.getF32Type());
  auto fnArgType = RankedTensorType::get({128}, ptrType);
  // A pointer block from a function argument.
  auto fn = cast<func::FuncOp>(module->getBody()->front());
  Value ptrScalar = fn.getBody().front().addArgument(ptrType, loc);
  fn.setType(builder.getFunctionType({ptrType}, {}));
  Value ptrs =
      mgp::SplatOp::create(builder, loc, ptrScalar, ArrayRef<int64_t>{128});
  EXPECT_EQ(ptrs.getType(), fnArgType);
  Value addr = mgp::AddPtrOp::create(builder, loc, ptrs, range);
  Value n = mgp::SplatOp::create(
      builder, loc,
      arith::ConstantOp::create(builder, loc, builder.getI32IntegerAttr(100)),
      ArrayRef<int64_t>{128});
  Value mask =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, range, n);
  Value other = f32Constant({128}, 1.0f);
  Value loaded = mgp::LoadOp::create(builder, loc, addr, mask, other);
  EXPECT_EQ(loaded.getType(),
            RankedTensorType::get({128}, builder.getF32Type()));

  Value col = mgp::ExpandDimsOp::create(builder, loc, loaded, 1);
  EXPECT_EQ(cast<RankedTensorType>(col.getType()).getShape(),
            ArrayRef<int64_t>({128, 1}));
  Value wide =
      mgp::BroadcastOp::create(builder, loc, col, ArrayRef<int64_t>{128, 32});
  Value t = mgp::TransOp::create(builder, loc, wide, ArrayRef<int32_t>{1, 0});
  EXPECT_EQ(cast<RankedTensorType>(t.getType()).getShape(),
            ArrayRef<int64_t>({32, 128}));
  Value flat = mgp::ReshapeOp::create(builder, loc, t, ArrayRef<int64_t>{4096});
  EXPECT_EQ(cast<RankedTensorType>(flat.getType()).getNumElements(), 4096);

  Value d =
      mgp::DotOp::create(builder, loc, t, wide, f32Constant({32, 32}, 0.0f));
  EXPECT_EQ(d.getType(), RankedTensorType::get({32, 32}, builder.getF32Type()));

  auto reduce = mgp::ReduceOp::create(builder, loc, ValueRange{d}, 1);
  {
    OpBuilder::InsertionGuard guard(builder);
    Block &body = reduce.getCombineOp().front();
    ASSERT_EQ(body.getNumArguments(), 2u);
    builder.setInsertionPointToStart(&body);
    Value s = arith::AddFOp::create(builder, loc, body.getArgument(0),
                                    body.getArgument(1));
    mgp::ReduceReturnOp::create(builder, loc, ValueRange{s});
  }
  EXPECT_EQ(reduce.getResult()[0].getType(),
            RankedTensorType::get({32}, builder.getF32Type()));
  func::ReturnOp::create(builder, loc);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(BuildersTest, EncodingsFollowTheOps) {
  auto blocked = mgp::getDefaultBlockedEncoding(&ctx, {64, 64}, 4);
  Value x = f32Constant({64, 64}, 2.0f, blocked);
  // reduce over an encoded block gives the slice encoding...
  auto reduce = mgp::ReduceOp::create(builder, loc, ValueRange{x}, 0);
  auto resultType = cast<RankedTensorType>(reduce.getResult()[0].getType());
  EXPECT_EQ(resultType.getEncoding(), mgp::getSliceEncoding(blocked, 0));
  // ...and expand_dims of a slice gives back the parent.
  Value e = mgp::ExpandDimsOp::create(builder, loc, reduce.getResult()[0], 0);
  EXPECT_EQ(cast<RankedTensorType>(e.getType()).getEncoding(), blocked);
  auto other = mgp::getDefaultBlockedEncoding(&ctx, {64, 64}, 4, 32, 4);
  Value c = mgp::ConvertLayoutOp::create(builder, loc, x, other);
  EXPECT_EQ(cast<RankedTensorType>(c.getType()).getEncoding(), other);
  {
    OpBuilder::InsertionGuard guard(builder);
    Block &body = reduce.getCombineOp().front();
    builder.setInsertionPointToStart(&body);
    Value m = arith::MaxNumFOp::create(builder, loc, body.getArgument(0),
                                       body.getArgument(1));
    mgp::ReduceReturnOp::create(builder, loc, ValueRange{m});
  }
  func::ReturnOp::create(builder, loc);
  EXPECT_TRUE(succeeded(verify(*module)));
}
} // namespace
