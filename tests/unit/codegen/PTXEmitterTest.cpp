//===- PTXEmitterTest.cpp - straight-line strength reduction's gate -------===//
//
// Code generation runs straight-line strength reduction only on functions
// with tensor-core dots (mma.sync / wgmma inline asm): the predicate on IR
// of each kind, and the PTX of a function without dots, whose addresses the
// pass would otherwise rewrite, against the same function with a dot.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/PTXEmitter.h"
#include "compiler/pipeline/Pipeline.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace mgp;

namespace {

// Four loads of p[(i + k) * s], k = 0..3: SLSR rewrites the 2nd to 4th
// addresses from the first (one add of s each) instead of a multiply each.
constexpr const char *kAddresses = R"(
define ptx_kernel void @NAME(ptr addrspace(1) %p, ptr addrspace(1) %q, i64 %i, i64 %s) {
  %a0 = mul i64 %i, %s
  %i1 = add i64 %i, 1
  %a1 = mul i64 %i1, %s
  %i2 = add i64 %i, 2
  %a2 = mul i64 %i2, %s
  %i3 = add i64 %i, 3
  %a3 = mul i64 %i3, %s
  %p0 = getelementptr float, ptr addrspace(1) %p, i64 %a0
  %p1 = getelementptr float, ptr addrspace(1) %p, i64 %a1
  %p2 = getelementptr float, ptr addrspace(1) %p, i64 %a2
  %p3 = getelementptr float, ptr addrspace(1) %p, i64 %a3
  %v0 = load float, ptr addrspace(1) %p0
  %v1 = load float, ptr addrspace(1) %p1
  %v2 = load float, ptr addrspace(1) %p2
  %v3 = load float, ptr addrspace(1) %p3
  %s0 = fadd float %v0, %v1
  %s1 = fadd float %v2, %v3
  %r = fadd float %s0, %s1
  DOT
  store float %r, ptr addrspace(1) %q
  ret void
}
)";

constexpr const char *kMma =
    R"(call void asm sideeffect "// mma.sync.aligned.m16n8k16 stands here", ""())";

std::string kernelText(llvm::StringRef name, bool dot) {
  std::string text = kAddresses;
  text.replace(text.find("NAME"), 4, name.str());
  text.replace(text.find("DOT"), 3, dot ? kMma : "");
  return text;
}

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context,
                                    const std::string &text) {
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(text, diagnostic, context);
  EXPECT_TRUE(module) << diagnostic.getMessage().str();
  return module;
}

/// The number of PTX lines containing `needle`.
int count(llvm::StringRef ptx, llvm::StringRef needle) {
  int n = 0;
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (llvm::StringRef line : lines)
    n += line.contains(needle);
  return n;
}

TEST(PTXEmitterTest, StrengthReductionOnlyWithTensorCoreDots) {
  llvm::LLVMContext context;
  auto plain = parse(context, kernelText("plain", false));
  auto withDot = parse(context, kernelText("with_dot", true));
  ASSERT_TRUE(plain && withDot);
  EXPECT_FALSE(runsStrengthReduction(*plain->getFunction("plain")));
  EXPECT_TRUE(runsStrengthReduction(*withDot->getFunction("with_dot")));
  auto wgmma = parse(context, R"(
define ptx_kernel void @k() {
  call void asm sideeffect "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 ...", ""()
  ret void
}
)");
  ASSERT_TRUE(wgmma);
  EXPECT_TRUE(runsStrengthReduction(*wgmma->getFunction("k")));
}

TEST(PTXEmitterTest, PlainFunctionKeepsItsMultiplies) {
  Target target = *Target::parse("sm_90a");
  llvm::LLVMContext context;
  auto plain = parse(context, kernelText("plain", false));
  auto withDot = parse(context, kernelText("with_dot", true));
  ASSERT_TRUE(plain && withDot);
  llvm::Expected<std::string> plainPtx = emitPTX(*plain, target);
  llvm::Expected<std::string> dotPtx = emitPTX(*withDot, target);
  ASSERT_TRUE(bool(plainPtx)) << llvm::toString(plainPtx.takeError());
  ASSERT_TRUE(bool(dotPtx)) << llvm::toString(dotPtx.takeError());
  // The same loads either way; strength reduction replaces multiplies of
  // the stride by adds only in the function with a dot.
  EXPECT_EQ(count(*plainPtx, "ld.global"), 4);
  EXPECT_EQ(count(*dotPtx, "ld.global"), 4);
  EXPECT_GT(count(*plainPtx, "mul.lo.s64") + count(*plainPtx, "mad.lo.s64"),
            count(*dotPtx, "mul.lo.s64") + count(*dotPtx, "mad.lo.s64"))
      << "without a dot:\n" << *plainPtx << "\nwith a dot:\n" << *dotPtx;
}

} // namespace

// The lowering's module gets the triple and data layout of emitPTX's target
// machine without creating one: they must stay the machine's.
TEST(PTXEmitterTest, ModuleTargetIsTheMachines) {
  for (const char *arch : {"sm_80", "sm_90a"}) {
    llvm::Expected<mgp::Target> target = mgp::Target::parse(arch);
    ASSERT_TRUE(static_cast<bool>(target)) << llvm::toString(target.takeError());
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
        mgp::createNVPTXTargetMachine(*target);
    ASSERT_TRUE(static_cast<bool>(machine)) << llvm::toString(machine.takeError());
    llvm::LLVMContext context;
    llvm::Module module("m", context);
    mgp::setNVPTXTarget(module);
    EXPECT_EQ(module.getTargetTriple(), (*machine)->getTargetTriple()) << arch;
    EXPECT_EQ(module.getDataLayout().getStringRepresentation(),
              (*machine)->createDataLayout().getStringRepresentation())
        << arch;
  }
}

// A machine created on its own thread gives the PTX of one created in
// emitPTX; its errors come back from take(), and one never taken is
// joined and dropped.
TEST(PTXEmitterTest, PendingMachineGivesTheSamePTX) {
  Target target = *Target::parse("sm_90a");
  llvm::LLVMContext context;
  auto direct = parse(context, kernelText("k", true));
  auto pending = parse(context, kernelText("k", true));
  ASSERT_TRUE(direct && pending);
  PendingTargetMachine machine(target);
  llvm::Expected<std::string> directPtx = emitPTX(*direct, target);
  llvm::Expected<std::string> pendingPtx = emitPTX(*pending, target, &machine);
  ASSERT_TRUE(bool(directPtx)) << llvm::toString(directPtx.takeError());
  ASSERT_TRUE(bool(pendingPtx)) << llvm::toString(pendingPtx.takeError());
  EXPECT_EQ(*directPtx, *pendingPtx);

  PendingTargetMachine cpu(*Target::parse("cpu"));
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> none = cpu.take();
  ASSERT_FALSE(bool(none));
  EXPECT_NE(llvm::toString(none.takeError()).find("has no PTX"),
            std::string::npos);
  PendingTargetMachine untaken(*Target::parse("cpu"));
}
