//===- MLIRGenTest.cpp - from kernel source to mgp IR ---------------------===//
//
// This file implements unit tests of MLIRGen.h on small kernels: the
// generated function's signature (constexprs folded, `:16` and `:1`),
// constexpr folding of `if` and loop bounds, Triton's promotion of `/`,
// `//` and `%`, loop-carried values, runtime `if` yielding values, helper
// inlining, and located errors.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/Frontend.h"

#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mgp;

namespace {
/// Parses `source` and generates `kernel` with `signature`; returns the IR
/// as text, or the error message prefixed with "ERROR: ".
std::string generate(llvm::StringRef source, llvm::StringRef kernel,
                     llvm::StringRef signature,
                     llvm::StringMap<ConstValue> defines = {}) {
  mlir::MLIRContext ctx;
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.mgp"), llvm::SMLoc());
  auto module = parseSourceFile(sm, 1);
  if (!module)
    return "ERROR: " + llvm::toString(module.takeError());
  auto sig = parseSignature(signature);
  if (!sig)
    return "ERROR: " + llvm::toString(sig.takeError());
  auto ir = generateKernelModule(ctx, sm, **module, kernel, *sig, defines);
  if (!ir)
    return "ERROR: " + llvm::toString(ir.takeError());
  std::string text;
  llvm::raw_string_ostream os(text);
  (*ir)->print(os);
  return text;
}

size_t count(llvm::StringRef text, llvm::StringRef what) {
  return text.count(what);
}

const char *kHeader = "import triton\nimport triton.language as tl\n\n";
} // namespace

TEST(MLIRGenTest, ConstexprParametersAreFoldedIn) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(in_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(in_ptr + offs, mask=offs < n, other=0.)
    tl.store(out_ptr + offs, x, mask=offs < n)
)";
  std::string ir = generate(src, "k", "*fp32:16,*fp32,i32,256");
  EXPECT_NE(ir.find("func.func @k(%arg0: !mgp.ptr<f32> {mgp.divisibility = "
                    "16 : i32}, %arg1: !mgp.ptr<f32>, %arg2: i32)"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("mgp.kernel"), std::string::npos);
  EXPECT_NE(ir.find("end = 256 : i32"), std::string::npos) << ir;
  EXPECT_EQ(count(ir, "mgp.load"), 1u);
  EXPECT_EQ(count(ir, "mgp.store"), 1u);
}

TEST(MLIRGenTest, DefinesGiveConstexprValues) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), 1.0)
)";
  llvm::StringMap<ConstValue> defines;
  defines["BLOCK"] = ConstValue::getInt(64);
  std::string ir = generate(src, "k", "*fp32", defines);
  EXPECT_NE(ir.find("end = 64 : i32"), std::string::npos) << ir;
}

TEST(MLIRGenTest, EqualsOneIntegerStaysAParameterButReadsOne) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, stride):
    tl.store(p + stride * 3, 1.0)
)";
  std::string ir = generate(src, "k", "*fp32,i32:1");
  EXPECT_NE(ir.find("%arg1: i32"), std::string::npos) << ir;
  // The multiplication reads the constant 1, not %arg1.
  EXPECT_EQ(ir.find("%arg1 "), std::string::npos) << ir;
  EXPECT_EQ(ir.find("%arg1,"), std::string::npos) << ir;
}

TEST(MLIRGenTest, IntegerDivisionFollowsTriton) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, q, n):
    x = tl.arange(0, 16)
    tl.store(p + x, x / 2)
    tl.store(q + x, (x // n) + (x % 3))
)";
  std::string ir = generate(src, "k", "*fp32,*i32,i32");
  EXPECT_NE(ir.find("arith.sitofp"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.divf"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.divsi"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.remsi"), std::string::npos) << ir;
}

TEST(MLIRGenTest, ConstexprIfPicksABranchAtCompileTime) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, b_ptr, HAS_B: tl.constexpr):
    x = tl.zeros((16,), dtype=tl.float32)
    if HAS_B:
        x += tl.load(b_ptr + tl.arange(0, 16))
    tl.store(p + tl.arange(0, 16), x)
)";
  std::string off = generate(src, "k", "*fp32,*fp32,0");
  EXPECT_EQ(count(off, "mgp.load"), 0u) << off;
  EXPECT_EQ(count(off, "scf.if"), 0u) << off;
  std::string on = generate(src, "k", "*fp32,*fp32,1");
  EXPECT_EQ(count(on, "mgp.load"), 1u) << on;
}

TEST(MLIRGenTest, RangeLoopCarriesReassignedVariables) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, q, K, C: tl.constexpr):
    acc = 0
    total = 0.0
    for c in range(C * 2):
        acc += tl.load(p + c)
    for i in range(K):
        total = total + 1
    tl.store(q, acc + total)
)";
  std::string ir = generate(src, "k", "*fp32,*fp32,i32,3");
  // `acc = 0` takes the body's type (fp32); bounds of the first loop fold.
  EXPECT_NE(ir.find("iter_args(%arg4 = %cst) -> (f32)"), std::string::npos)
      << ir;
  EXPECT_NE(ir.find("arith.constant 6 : i32"), std::string::npos) << ir;
  EXPECT_EQ(count(ir, "scf.for"), 2u);
}

TEST(MLIRGenTest, RuntimeIfYieldsAssignedVariables) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, n):
    if n > 0:
        x = 1.0
    elif n < -5:
        x = 3
    else:
        x = tl.load(p)
    tl.store(p, x)
)";
  std::string ir = generate(src, "k", "*fp32,i32");
  EXPECT_EQ(count(ir, "scf.if"), 2u) << ir;
  EXPECT_NE(ir.find("-> (f32)"), std::string::npos) << ir;
}

TEST(MLIRGenTest, HelpersAreInlined) {
  std::string src = std::string(kHeader) + R"(
def scale(x, F: tl.constexpr):
    if F == 1:
        return x
    return x * F

@triton.jit
def twice(x):
    return scale(x, 2) + 0

@triton.jit
def k(p):
    v = tl.load(p)
    tl.store(p, twice(v))
)";
  std::string ir = generate(src, "k", "*fp32");
  EXPECT_EQ(count(ir, "func.func"), 1u) << ir;
  EXPECT_EQ(count(ir, "arith.mulf"), 1u) << ir;
}

TEST(MLIRGenTest, ErrorsAreLocated) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, n):
    x = tl.arange(0, n)
)";
  std::string err = generate(src, "k", "*fp32,i32");
  EXPECT_NE(err.find("test.mgp:6:22: error: arange bounds must be "
                     "compile-time integers"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("    x = tl.arange(0, n)\n                     ^"),
            std::string::npos)
      << err;
}

TEST(MLIRGenTest, BroadcastMismatchNamesBothShapes) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p):
    a = tl.arange(0, 16)
    b = tl.arange(0, 32)
    tl.store(p + a, a + b)
)";
  std::string err = generate(src, "k", "*i32");
  EXPECT_NE(err.find("incompatible shapes [16] and [32]"), std::string::npos)
      << err;
}

TEST(MLIRGenTest, ListKernels) {
  mlir::MLIRContext ctx;
  llvm::SourceMgr sm;
  std::string src = std::string(kHeader) +
                    "@triton.jit\ndef a(x):\n    pass\n\ndef helper():\n    "
                    "pass\n\n@triton.jit\ndef b(x):\n    pass\n";
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(src, "t.mgp"),
                        llvm::SMLoc());
  auto module = parseSourceFile(sm, 1);
  ASSERT_TRUE(static_cast<bool>(module));
  EXPECT_EQ(listKernels(**module), (std::vector<std::string>{"a", "b"}));
}

TEST(MLIRGenTest, BreakAndContinueBecomeAGuardedWhileLoop) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p, n):
    total = 0.0
    for i in range(n):
        v = tl.load(p + i)
        if v < 0:
            break
        if v == 0:
            continue
        total += v
    j = 0
    while j < n:
        j += 1
        if j == 3:
            continue
        if j > 10:
            break
    tl.store(p, total + j)
)";
  std::string ir = generate(src, "k", "*fp32,i32");
  EXPECT_EQ(count(ir, "scf.for"), 0u) << ir;
  EXPECT_EQ(count(ir, "scf.while"), 2u) << ir;
  EXPECT_EQ(count(ir, "scf.condition"), 2u) << ir;
  EXPECT_GE(count(ir, "scf.if"), 4u) << ir;
}

TEST(MLIRGenTest, BreakInStaticRangeIsAnError) {
  std::string src = std::string(kHeader) + R"(@triton.jit
def k(p):
    for i in tl.static_range(4):
        break
)";
  std::string err = generate(src, "k", "*fp32");
  EXPECT_NE(err.find("'break' is only supported in range() and while loops"),
            std::string::npos)
      << err;
}
