//===- LayoutTestFixture.h - a context and layout builders for tests -*- C++ -*-===//
//
// This file defines the fixture the layout tests share: an MLIR context with
// mgp's dialects, fp32 tensor types and #mgp.blocked encodings.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_CODEGEN_LAYOUTTESTFIXTURE_H
#define MGP_TESTS_UNIT_CODEGEN_LAYOUTTESTFIXTURE_H

#include "compiler/ir/MgpDialect.h"
#include "compiler/pipeline/Pipeline.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace mgp::test {

class LayoutTest : public ::testing::Test {
protected:
  LayoutTest() {
    mlir::DialectRegistry registry;
    mgp::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  mlir::RankedTensorType tensor(llvm::ArrayRef<int64_t> shape,
                                mlir::Attribute encoding) {
    return mlir::RankedTensorType::get(
        shape, mlir::Float32Type::get(&context), encoding);
  }

  mgp::BlockedEncodingAttr blocked(llvm::ArrayRef<unsigned> size,
                                   llvm::ArrayRef<unsigned> lanes,
                                   llvm::ArrayRef<unsigned> warps,
                                   llvm::ArrayRef<unsigned> order) {
    return mgp::BlockedEncodingAttr::get(&context, size, lanes, warps, order);
  }

  mlir::MLIRContext context;
};

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_CODEGEN_LAYOUTTESTFIXTURE_H
