//===- JitKernelTest.cpp - specialization-driven compilation, no GPU ------===//
//
// This file tests JitKernel without a GPU: the compile function receives the
// request the launch calls for, each specialization is compiled once, bad
// arguments never reach the compiler, compiler errors say which kernel and
// specialization failed, and a launch without a driver fails cleanly.
//
//===----------------------------------------------------------------------===//
#include "runtime/JitKernel.h"

#include "CacheTestSupport.h"
#include "TestErrors.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mgp;
using mgp::test::errorText;

namespace {
const char *kSource =
    "@jit\ndef scale(x_ptr, out_ptr, n, alpha, BLOCK: constexpr):\n  pass\n";

KernelSignature scaleSignature() {
  return {"scale",
          {KernelParam::pointer("x_ptr", DType::F16),
           KernelParam::pointer("out_ptr", DType::F16),
           KernelParam::scalar("n", ParamKind::Int64),
           KernelParam::scalar("alpha", ParamKind::Fp32),
           KernelParam::scalar("BLOCK", ParamKind::Constexpr)}};
}

std::vector<KernelArg> scaleArgs(uint64_t x, int64_t n) {
  return {KernelArg::devicePointer(x, DType::F16),
          KernelArg::devicePointer(0x20000, DType::F16), KernelArg::integer(n),
          KernelArg::floating(0.5), KernelArg::integer(256)};
}

/// A compile function that records its requests.
struct RecordingCompiler {
  std::vector<std::string> requests;
  llvm::Expected<CompiledKernel> operator()(const CompileRequest &request) {
    requests.push_back(
        llvm::formatv("{0}|{1}|{2}|{3}|{4}|{5}|{6}", request.kernelName,
                      request.specialization->str(), request.options.arch,
                      request.options.numWarps, request.options.numStages,
                      request.options.precision, request.source == kSource));
    CompiledKernel kernel = test::makeKernel("scale", 200);
    kernel.numWarps = request.options.numWarps;
    return kernel;
  }
};

KernelCache memoryOnlyCache() {
  CacheConfig config;
  config.diskEnabled = false;
  return KernelCache(config);
}
} // namespace

TEST(JitKernel, CompilesEachSpecializationOnce) {
  KernelCache cache = memoryOnlyCache();
  auto compiler = std::make_shared<RecordingCompiler>();
  KernelOptions options;
  options.arch = "sm_80";
  options.numWarps = 8;
  JitKernel kernel(
      kSource, scaleSignature(), options,
      [compiler](const CompileRequest &r) { return (*compiler)(r); }, cache);
  CacheSource source;
  auto first = kernel.compile(scaleArgs(0x10000, 4096), &source);
  ASSERT_TRUE(!!first) << errorText(first);
  EXPECT_EQ(source, CacheSource::Compiled);
  EXPECT_EQ((*first)->numWarps, 8);
  // Other addresses and sizes with the same facts: the same kernel.
  auto second = kernel.compile(scaleArgs(0x30000, 64), &source);
  ASSERT_TRUE(!!second) << errorText(second);
  EXPECT_EQ(source, CacheSource::Memory);
  EXPECT_EQ(first->get(), second->get());
  // n == 1 and a misaligned pointer are new specializations.
  auto third = kernel.compile(scaleArgs(0x10000, 1), &source);
  ASSERT_TRUE(!!third) << errorText(third);
  auto fourth = kernel.compile(scaleArgs(0x10008, 4096), &source);
  ASSERT_TRUE(!!fourth) << errorText(fourth);
  EXPECT_EQ(source, CacheSource::Compiled);
  EXPECT_EQ(compiler->requests,
            (std::vector<std::string>{
                "scale|*fp16:16,*fp16:16,i64:16,fp32,256|sm_80|8|3|tf32|true",
                "scale|*fp16:16,*fp16:16,i64:1,fp32,256|sm_80|8|3|tf32|true",
                "scale|*fp16,*fp16:16,i64:16,fp32,256|sm_80|8|3|tf32|true"}));
}

TEST(JitKernel, BadArgumentsNeverReachTheCompiler) {
  KernelCache cache = memoryOnlyCache();
  int calls = 0;
  JitKernel kernel(
      kSource, scaleSignature(), KernelOptions(),
      [&](const CompileRequest &) -> llvm::Expected<CompiledKernel> {
        ++calls;
        return test::makeKernel("scale", 10);
      },
      cache);
  std::vector<KernelArg> args = scaleArgs(0x10000, 16);
  args[0] = KernelArg::devicePointer(0x10000, DType::F32);
  auto compiled = kernel.compile(args);
  EXPECT_EQ(errorText(compiled),
            "kernel 'scale', argument 1 ('x_ptr'): expected a pointer to fp16, "
            "got a device pointer to fp32");
  EXPECT_EQ(errorText(kernel.launch({1, 1, 1}, nullptr, args)),
            "kernel 'scale', argument 1 ('x_ptr'): expected a pointer to fp16, "
            "got a device pointer to fp32");
  EXPECT_EQ(calls, 0);
}

TEST(JitKernel, CompilerErrorsNameTheSpecialization) {
  KernelCache cache = memoryOnlyCache();
  JitKernel kernel(
      kSource, scaleSignature(), KernelOptions(),
      [](const CompileRequest &) -> llvm::Expected<CompiledKernel> {
        return llvm::createStringError(
            "scale.mgp:2:3: error: unknown builtin 'foo'");
      },
      cache);
  auto compiled = kernel.compile(scaleArgs(0x10000, 16));
  EXPECT_EQ(errorText(compiled),
            "compiling kernel 'scale' for *fp16:16,*fp16:16,i64:16,fp32,256:\n"
            "scale.mgp:2:3: error: unknown builtin 'foo'");
}

TEST(JitKernel, LaunchWithoutADriverFailsCleanly) {
  auto driver = CudaDriver::get();
  if (driver)
    GTEST_SKIP() << "a CUDA driver is present; the GPU tests cover launches";
  std::string noDriver = errorText(driver);
  KernelCache cache = memoryOnlyCache();
  RecordingCompiler compiler;
  JitKernel kernel(
      kSource, scaleSignature(), KernelOptions(),
      [&](const CompileRequest &r) { return compiler(r); }, cache);
  EXPECT_EQ(
      errorText(kernel.launch({4, 1, 1}, nullptr, scaleArgs(0x10000, 16))),
      "loading kernel 'scale': " + noDriver);
  EXPECT_EQ(compiler.requests.size(), 1u);
}
