//===- SpecializedKernelTest.cpp - kernels compiled for a signature -------===//
//
// This file implements the unit tests of SpecializedKernel (the C API's
// kernels) that need no GPU: one cache and one key with the C++ API (a
// signature compiled here is a memory hit for mgp::jit's derived
// specialization, on the interpreter and for PTX), the Specialization a
// signature makes, launches on the interpreter against C++ on random data,
// and JitError's kinds.
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/SpecializedKernel.h"
#include "runtime/jit/KernelCompiler.h"
#include "runtime/jit/JitError.h"

#include "gtest/gtest.h"

#include <random>

using namespace mgp;

namespace {

const char *kAdd = R"(import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask)
             + tl.load(y_ptr + offs, mask=mask), mask=mask)
)";

Kernel makeKernel(JitOptions options) {
  options.fileName = "add.py";
  auto kernel = jit(kAdd, "add_kernel", options);
  if (!kernel) {
    ADD_FAILURE() << llvm::toString(kernel.takeError());
    std::abort();
  }
  return std::move(*kernel);
}

std::unique_ptr<SpecializedKernel> specialize(const Kernel &kernel,
                                              llvm::StringRef signature) {
  auto result = SpecializedKernel::create(kernel, signature);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return nullptr;
  }
  return std::move(*result);
}

/// 64-byte aligned floats (alignment decides ":16").
struct Floats {
  explicit Floats(size_t n) : storage(n + 16), count(n) {}
  float *data() {
    auto address = reinterpret_cast<uintptr_t>(storage.data());
    return reinterpret_cast<float *>((address + 63) & ~uintptr_t(63));
  }
  std::vector<float> storage;
  size_t count;
};

LaunchValue hostValue(float *data, size_t count) {
  LaunchValue value;
  value.kind = LaunchValue::Kind::HostPointer;
  value.dtype = DType::F32;
  value.bits = reinterpret_cast<uintptr_t>(data);
  value.bytes = count * sizeof(float);
  return value;
}

LaunchValue intValue(int64_t v) {
  LaunchValue value;
  value.kind = LaunchValue::Kind::Int;
  value.bits = static_cast<uint64_t>(v);
  return value;
}

TEST(SpecializedKernel, SharesTheInterpreterCacheWithKernelLaunch) {
  JitOptions options;
  options.device = DeviceKind::CPU;
  Kernel kernel = makeKernel(options);
  Floats x(1000), y(1000), out(1000);
  std::vector<LaunchArg> args = {host(x.data(), 1000), host(y.data(), 1000),
                                 host(out.data(), 1000), toLaunchArg(1000),
                                 kw("BLOCK", 256)};
  auto derived = kernel.specialization(args);
  ASSERT_TRUE(bool(derived)) << llvm::toString(derived.takeError());
  EXPECT_EQ(*derived, "*fp32:16,*fp32:16,*fp32:16,i32,256");
  llvm::Error launched = kernel.launchArgs(Grid(4), nullptr, args);
  ASSERT_FALSE(bool(launched)) << llvm::toString(std::move(launched));

  KernelCache::Stats before = KernelCache::global().stats();
  auto specialized = specialize(makeKernel(options), *derived);
  ASSERT_TRUE(specialized);
  KernelCache::Stats after = KernelCache::global().stats();
  EXPECT_EQ(after.compiles, before.compiles);
  EXPECT_EQ(after.memoryHits, before.memoryHits + 1);
  EXPECT_EQ(specialized->signature(), *derived);
}

TEST(SpecializedKernel, SharesTheKernelCacheForPTX) {
  JitOptions options;
  options.deviceOrdinal = -1; // compile only
  options.arch = "sm_90";
  Kernel kernel = makeKernel(options);
  auto specialized =
      specialize(kernel, "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  ASSERT_TRUE(specialized);
  EXPECT_FALSE(specialized->launchable());
  EXPECT_TRUE(specialized->ptx().contains(".entry add_kernel"));

  // The one compile entry finds it for the request mgp::jit makes for
  // arguments of that specialization.
  KernelRequest request;
  request.source = kAdd;
  request.fileName = "add.py";
  request.kernelName = "add_kernel";
  request.signature =
      std::move(*parseSignature("*fp32:16,*fp32:16,*fp32:16,i32:16,1024"));
  request.target = *Target::parse("sm_90");
  KernelCache::Stats before = KernelCache::global().stats();
  CacheSource source = CacheSource::Compiled;
  auto compiled = getCompiledKernel(request, KernelCache::global(), &source);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ(source, CacheSource::Memory);
  EXPECT_EQ(KernelCache::global().stats().compiles, before.compiles);
  EXPECT_EQ((*compiled)->ptx, specialized->ptx().str());
}

TEST(SpecializedKernel, ParamsOfASignature) {
  JitOptions options;
  options.device = DeviceKind::CPU;
  auto specialized = specialize(makeKernel(options), "*fp32,*fp32:16,*i1,1,64");
  ASSERT_TRUE(specialized);
  const auto &params = specialized->params();
  ASSERT_EQ(params.size(), 5u);
  EXPECT_EQ(specialized->numLaunchArgs(), 3u);
  EXPECT_EQ(params[1].entry, "*fp32:16");
  EXPECT_EQ(params[2].type.type, DType::I1);
  EXPECT_EQ(params[3].launchIndex, -1); // an unannotated constexpr 1
  EXPECT_FALSE(params[3].annotatedConstexpr);
  EXPECT_TRUE(params[4].annotatedConstexpr);
  EXPECT_EQ(specialized->signature(), "*fp32,*fp32:16,*i1,1,64");
}

TEST(SpecializedKernel, RunsOnTheInterpreter) {
  JitOptions options;
  options.device = DeviceKind::CPU;
  auto specialized =
      specialize(makeKernel(options), "*fp32:16,*fp32:16,*fp32:16,i32,128");
  ASSERT_TRUE(specialized);
  const size_t n = 999;
  Floats x(n), y(n), out(n);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  for (size_t i = 0; i < n; ++i) {
    x.data()[i] = dist(rng);
    y.data()[i] = dist(rng);
  }
  std::vector<LaunchValue> args = {hostValue(x.data(), n),
                                   hostValue(y.data(), n),
                                   hostValue(out.data(), n), intValue(n)};
  llvm::Error err = specialized->launch(Grid(8), nullptr, args);
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out.data()[i], x.data()[i] + y.data()[i]) << i;
}

TEST(JitError, KindsSurviveAndDefault) {
  auto [kind, message] =
      takeJitError(makeJitError(JitErrorKind::NotFound, "no such kernel"),
                   JitErrorKind::Compile);
  EXPECT_EQ(kind, JitErrorKind::NotFound);
  EXPECT_EQ(message, "no such kernel");
  auto [other, text] = takeJitError(
      withJitErrorKind(JitErrorKind::Device, llvm::createStringError("boom")),
      JitErrorKind::Compile);
  EXPECT_EQ(other, JitErrorKind::Device);
  EXPECT_EQ(text, "boom");
  auto [fallback, plain] =
      takeJitError(llvm::createStringError("plain"), JitErrorKind::Execution);
  EXPECT_EQ(fallback, JitErrorKind::Execution);
  EXPECT_EQ(plain, "plain");
  EXPECT_FALSE(
      bool(withJitErrorKind(JitErrorKind::Device, llvm::Error::success())));
}

} // namespace
