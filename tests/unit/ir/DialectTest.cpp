//===- DialectTest.cpp - the dialect loads and its types round-trip -------===//
#include "compiler/api/Version.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

TEST(Version, IsSemantic) {
  llvm::StringRef v = mgp::kVersion;
  EXPECT_EQ(v.count('.'), 2u) << v.str();
}

TEST(Dialect, PointerTypeRoundTrip) {
  mlir::MLIRContext ctx;
  ctx.loadDialect<mgp::MgpDialect>();
  auto f32 = mlir::Float32Type::get(&ctx);
  auto ptr = mgp::PointerType::get(f32);
  EXPECT_EQ(ptr.getPointeeType(), f32);
  EXPECT_EQ(ptr.getAddressSpace(), 1);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << mlir::Type(ptr);
  EXPECT_EQ(s, "!mgp.ptr<f32>");
}
