//===- LanguageGpuTest.cpp - Triton-language kernels: GPU vs interpreter --===//
//
// This file implements the GPU tests of the Triton-language kernels of
// tests/unit/interp/language_kernels.py and language2_kernels.py (label
// gpu; without a GPU each kernel is still compiled for sm_90 and
// interpreted, then the test says "skipped: no GPU"). Their interpreter numerics are
// checked against independent C++ references by LanguageTest.cpp and
// Language2Test.cpp; here each kernel is compiled once (compileKernel, for
// the device's arch), run on the interpreter and on the GPU from the same
// random inputs, and every output buffer must agree: bit for bit where the
// result is exact (integers, fp8 codes, sorts, Philox bits, shapes, float
// atomics max), within a tolerance where the GPU may round or order
// differently (libdevice, scans, float atomic sums), or as multisets where
// the order of atomic updates is the GPU's choice (old values).
//
//===----------------------------------------------------------------------===//
#include "compiler/pipeline/CompileKernel.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/api/Signature.h"
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Function.h"
#include "runtime/HalfFloat.h"
#include "runtime/Module.h"
#include "runtime/interp/Interpreter.h"
#include "tests/unit/runtime/TestErrors.h"
#include "tests/unit/support/GpuTestSupport.h"

#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>

using namespace mgp;
using mgp::test::errorText;

namespace {

/// How an output buffer is compared.
enum class Check { Input, Exact, Tolerance, Multiset };

/// One buffer argument: `count` elements of `type`, filled with random
/// values in [lo, hi] (floats, or integers for integer types) or zeros.
struct Buf {
  DType type;
  size_t count;
  double lo = 0, hi = 0;
  Check check = Check::Exact;
  double tol = 0;
  bool mayBeZero = false; ///< an all-zero output is right (a released lock)
};
Buf in(DType t, size_t n, double lo, double hi) {
  return {t, n, lo, hi, Check::Input};
}
Buf exact(DType t, size_t n) { return {t, n, 0, 0, Check::Exact}; }
Buf close(size_t n, double tol) {
  return {DType::F32, n, 0, 0, Check::Tolerance, tol};
}
Buf multiset(DType t, size_t n) { return {t, n, 0, 0, Check::Multiset}; }

/// A kernel argument: a buffer (index into Case::buffers) or an integer.
struct Arg {
  int buffer = -1;
  int64_t value = 0;
};
Arg bufArg(int i) { return {i, 0}; }
Arg intArg(int64_t v) { return {-1, v}; }

struct Case {
  std::string name;
  const char *file;
  const char *kernel;
  std::string signature; ///< every parameter, constexprs as values
  std::array<int, 3> grid;
  std::vector<Buf> buffers;
  std::vector<Arg> args; ///< the runtime parameters, in order
  int numWarps = 4;
};

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

/// Random bytes for `b` (seeded per buffer).
std::vector<unsigned char> makeData(const Buf &b, unsigned seed) {
  std::vector<unsigned char> bytes(b.count * dtypeBytes(b.type), 0);
  if (b.check != Check::Input)
    return bytes;
  std::mt19937 gen(seed);
  for (size_t i = 0; i < b.count; ++i) {
    unsigned char *p = bytes.data() + i * dtypeBytes(b.type);
    if (b.type == DType::F32) {
      float v = std::uniform_real_distribution<float>(float(b.lo),
                                                      float(b.hi))(gen);
      std::memcpy(p, &v, 4);
    } else if (b.type == DType::F16) {
      uint16_t v = floatToHalfBits(std::uniform_real_distribution<float>(
          float(b.lo), float(b.hi))(gen));
      std::memcpy(p, &v, 2);
    } else if (b.type == DType::I32) {
      int32_t v = std::uniform_int_distribution<int32_t>(
          int32_t(b.lo), int32_t(b.hi))(gen);
      std::memcpy(p, &v, 4);
    } else {
      ADD_FAILURE() << "no random inputs of this dtype";
    }
  }
  return bytes;
}

float floatAt(const std::vector<unsigned char> &b, size_t i) {
  float v;
  std::memcpy(&v, b.data() + 4 * i, 4);
  return v;
}

class LanguageGpu : public ::testing::Test {
protected:
  void SetUp() override {
    // No GPU: compile and interpret only. A broken driver fails the test.
    llvm::Expected<bool> gpu = mgp::test::haveGpu();
    ASSERT_TRUE(!!gpu) << errorText(gpu);
    if (!*gpu)
      return;
    auto opened = Device::open(0);
    ASSERT_TRUE(!!opened) << errorText(opened);
    device.emplace(std::move(*opened));
    auto chosen = getDeviceTarget(device->properties());
    ASSERT_TRUE(!!chosen) << errorText(chosen);
    target = *chosen;
  }

  void expectGpuMatchesInterpreter(const Case &c);

  /// Without a GPU every case was still compiled (for sm_90) and run on the
  /// interpreter; the comparison is what is skipped.
  void skipWithoutGpu() {
    if (!device)
      GTEST_SKIP() << "skipped: no GPU (compiled and interpreted only)";
  }

  std::optional<Device> device;
  Target target; // sm_90
};

void LanguageGpu::expectGpuMatchesInterpreter(const Case &c) {
  SCOPED_TRACE(c.name);
  std::string source = readFile(c.file);
  ASSERT_FALSE(source.empty()) << c.file;
  auto signature = parseSignature(c.signature);
  ASSERT_TRUE(!!signature) << errorText(signature);
  KernelRequest request;
  request.source = source;
  request.fileName = c.file;
  request.kernelName = c.kernel;
  request.signature = *signature;
  request.target = target;
  request.options.numWarps = c.numWarps;
  auto compiled = compileKernel(request);
  ASSERT_TRUE(!!compiled) << errorText(compiled);

  std::vector<std::vector<unsigned char>> cpu, gpu;
  for (auto [i, b] : llvm::enumerate(c.buffers))
    cpu.push_back(makeData(b, 1000 + unsigned(i)));
  gpu = cpu;

  // The interpreter.
  std::vector<InterpArg> interpArgs;
  for (const Arg &a : c.args)
    interpArgs.push_back(
        a.buffer >= 0
            ? InterpArg::buffer(cpu[a.buffer].data(), cpu[a.buffer].size(),
                                c.buffers[a.buffer].type)
            : InterpArg::integer(a.value));
  ASSERT_EQ(errorText(runKernel(compiled->kernel, c.grid, interpArgs, {})),
            "");
  // A kernel that writes nothing must not pass by comparing zeros.
  for (auto [i, b] : llvm::enumerate(c.buffers)) {
    if (b.check != Check::Input && !b.mayBeZero) {
      EXPECT_TRUE(std::any_of(cpu[i].begin(), cpu[i].end(),
                              [](unsigned char x) { return x != 0; }))
          << "buffer " << i << ": the interpreter's output is all zeros";
    }
  }
  if (!device)
    return; // compiled for sm_90 and interpreted; the GPU half is skipped

  // The GPU: pointers, then each scalar at its parameter's width.
  auto module = Module::loadPTX(compiled->ptx);
  ASSERT_TRUE(!!module) << errorText(module);
  auto function = module->getFunction(compiled->symbolName);
  ASSERT_TRUE(!!function) << errorText(function);
  std::vector<DeviceBuffer> buffers;
  for (auto &bytes : gpu) {
    auto buf = DeviceBuffer::allocate(std::max<size_t>(bytes.size(), 16));
    ASSERT_TRUE(!!buf) << errorText(buf);
    ASSERT_EQ(errorText(buf->copyFromHost(bytes.data(), bytes.size())), "");
    buffers.push_back(std::move(*buf));
  }
  std::vector<CUdeviceptr> addresses(c.args.size());
  std::vector<int64_t> scalars64(c.args.size());
  std::vector<int32_t> scalars32(c.args.size());
  std::vector<void *> params;
  // A dtype constexpr ("bf16") reads as a type entry: the kernel's own
  // annotations say which parameters are constexprs.
  auto kernelParams = getKernelParams(source, c.file, c.kernel);
  ASSERT_TRUE(!!kernelParams) << errorText(kernelParams);
  ASSERT_EQ(kernelParams->size(), signature->params.size());
  size_t runtimeIndex = 0;
  for (auto [i, p] : llvm::enumerate(signature->params)) {
    if (p.isConstexpr() || (*kernelParams)[i].isConstexpr)
      continue;
    ASSERT_LT(runtimeIndex, c.args.size());
    const Arg &a = c.args[runtimeIndex];
    if (a.buffer >= 0) {
      addresses[runtimeIndex] = buffers[a.buffer].address();
      params.push_back(&addresses[runtimeIndex]);
    } else if (dtypeName(p.type) == "i64") {
      scalars64[runtimeIndex] = a.value;
      params.push_back(&scalars64[runtimeIndex]);
    } else {
      scalars32[runtimeIndex] = int32_t(a.value);
      params.push_back(&scalars32[runtimeIndex]);
    }
    ++runtimeIndex;
  }
  ASSERT_EQ(runtimeIndex, c.args.size());
  if (compiled->sharedBytes > 48 * 1024) {
    ASSERT_EQ(errorText(function->setMaxDynamicSharedBytes(
                  compiled->sharedBytes)),
              "");
  }
  LaunchConfig config;
  config.grid = {unsigned(c.grid[0]), unsigned(c.grid[1]),
                 unsigned(c.grid[2])};
  config.numWarps = compiled->numWarps;
  config.sharedBytes = compiled->sharedBytes;
  ASSERT_EQ(errorText(function->launch(config, params.data())), "");
  ASSERT_EQ(errorText(device->synchronize()), "");
  for (auto [bytes, buf] : llvm::zip(gpu, buffers))
    ASSERT_EQ(errorText(buf.copyToHost(bytes.data(), bytes.size())), "");

  for (auto [i, b] : llvm::enumerate(c.buffers)) {
    SCOPED_TRACE("buffer " + std::to_string(i));
    const auto &want = cpu[i], &got = gpu[i];
    switch (b.check) {
    case Check::Input:
      EXPECT_EQ(want, got);
      break;
    case Check::Exact:
      for (size_t e = 0; e < b.count; ++e) {
        size_t w = dtypeBytes(b.type);
        ASSERT_EQ(std::memcmp(want.data() + e * w, got.data() + e * w, w), 0)
            << "element " << e << " differs"
            << (b.type == DType::F32
                    ? ": gpu " + std::to_string(floatAt(got, e)) +
                          ", interpreter " + std::to_string(floatAt(want, e))
                    : std::string());
      }
      break;
    case Check::Tolerance: {
      double worst = 0;
      for (size_t e = 0; e < b.count; ++e) {
        double ref = floatAt(want, e), val = floatAt(got, e);
        ASSERT_EQ(std::isnan(ref), std::isnan(val)) << "element " << e;
        ASSERT_EQ(std::isinf(ref), std::isinf(val)) << "element " << e;
        if (std::isnan(ref) || std::isinf(ref)) {
          ASSERT_TRUE(std::isnan(ref) || ref == val) << "element " << e;
          continue;
        }
        double err = std::fabs(val - ref) / std::max(1.0, std::fabs(ref));
        worst = std::max(worst, err);
        ASSERT_LE(err, b.tol) << "element " << e << ": gpu " << val
                              << ", interpreter " << ref;
      }
      std::printf("%-28s buffer %zu: max rel err %.3g\n", c.name.c_str(),
                  size_t(i), worst);
      break;
    }
    case Check::Multiset: {
      size_t w = dtypeBytes(b.type);
      std::vector<std::string> a, g;
      for (size_t e = 0; e < b.count; ++e) {
        a.emplace_back(reinterpret_cast<const char *>(want.data() + e * w), w);
        g.emplace_back(reinterpret_cast<const char *>(got.data() + e * w), w);
      }
      std::sort(a.begin(), a.end());
      std::sort(g.begin(), g.end());
      EXPECT_EQ(a, g) << "the multisets of values differ";
      break;
    }
    }
  }
}

const char *kLang = MGP_LANGUAGE_KERNELS;
const char *kLang2 = MGP_LANGUAGE2_KERNELS;

TEST_F(LanguageGpu, LibdeviceAndMathFunctions) {
  const int n = 1000;
  for (const char *func :
       {"tanh", "asin", "log1p", "expm1", "erf", "erfinv", "sigmoid", "rint",
        "pow", "powi", "fast_expf", "floor", "cospi", "div_rz", "isnan",
        "clamp"}) {
    // fast_expf is ex2.approx on the GPU: about 2 ulp.
    double tol = std::string(func) == "fast_expf" ? 1e-6 : 4e-7;
    expectGpuMatchesInterpreter(
        {std::string("unary_f32 ") + func, kLang, "unary_f32",
         std::string("*fp32,*fp32,i32,'") + func + "',256",
         {4, 1, 1},
         {in(DType::F32, n, -0.99, 0.99), close(n, tol)},
         {bufArg(0), bufArg(1), intArg(n)}});
  }
  for (const char *func :
       {"clz", "popc", "brev", "ffs", "umulhi", "byte_perm"})
    expectGpuMatchesInterpreter(
        {std::string("unary_i32 ") + func, kLang, "unary_i32",
         std::string("*i32,*i32,i32,'") + func + "',256",
         {4, 1, 1},
         {in(DType::I32, n, INT32_MIN, INT32_MAX), exact(DType::I32, n)},
         {bufArg(0), bufArg(1), intArg(n)}});
  skipWithoutGpu();
}

TEST_F(LanguageGpu, ControlFlowConstexprsAndImportedHelpers) {
  expectGpuMatchesInterpreter({"grouped_pids",
                               kLang,
                               "grouped_pids",
                               "*i32,i32,i32,32,32,4",
                               {7 * 5, 1, 1},
                               {exact(DType::I32, 2 * 35)},
                               {bufArg(0), intArg(7 * 32 - 3), intArg(5 * 32)},
                               4});
  expectGpuMatchesInterpreter({"early_return",
                               kLang,
                               "early_return",
                               "*fp32,*fp32,i32,i32,128",
                               {8, 1, 1},
                               {in(DType::F32, 6 * 100, -2, 2),
                                close(6 * 100, 0)},
                               {bufArg(0), bufArg(1), intArg(6), intArg(100)}});
  for (const char *act : {"gelu", "relu"})
    expectGpuMatchesInterpreter(
        {std::string("activation bf16 ") + act, kLang, "activation",
         std::string("*fp32,*fp32,i32,256,bf16,'") + act + "'",
         {4, 1, 1},
         {in(DType::F32, 1000, -3, 3), close(1000, 1e-6)},
         {bufArg(0), bufArg(1), intArg(1000)}});
  skipWithoutGpu();
}

TEST_F(LanguageGpu, ScansAndCombineFunctions) {
  for (int n : {256, 200, 37})
    expectGpuMatchesInterpreter({"cumsum_rows " + std::to_string(n),
                                 kLang2,
                                 "cumsum_rows",
                                 "*fp32,*fp32,*fp32,i32,4,256",
                                 {1, 1, 1},
                                 {in(DType::F32, 4 * n, -1, 1),
                                  close(4 * n, 1e-4), close(4 * n, 1e-4)},
                                 {bufArg(0), bufArg(1), bufArg(2), intArg(n)}});
  // Sums and products in another order: tolerances far below a wrong
  // element's error but above fp32 reassociation (relative to max(1, |x|)).
  for (int warps : {1, 4, 8})
    expectGpuMatchesInterpreter(
        {"running_max warps " + std::to_string(warps), kLang2, "running_max",
         "*fp32,*fp32,*i32,*fp32,*fp32,1024", {1, 1, 1},
         {in(DType::F32, 1024, -1, 1), exact(DType::F32, 1024),
          exact(DType::I32, 1024), close(2, 1e-4), close(1024, 1e-4)},
         {bufArg(0), bufArg(1), bufArg(2), bufArg(3), bufArg(4)}, warps});
  skipWithoutGpu();
}

TEST_F(LanguageGpu, AtomicsFromManyPrograms) {
  const int n = 5000;
  expectGpuMatchesInterpreter(
      {"atomics", kLang2, "atomics", "*fp32,*fp32,*fp32,*i32,*i32,i32,256",
       {(n + 255) / 256, 1, 1},
       {in(DType::F32, n, -2, 2), close(1, 1e-3), exact(DType::F32, 4),
        exact(DType::I32, 8), multiset(DType::I32, n)},
       {bufArg(0), bufArg(1), bufArg(2), bufArg(3), bufArg(4), intArg(n)}});
  Buf lock = exact(DType::I32, 1);
  lock.mayBeZero = true; // released by every program
  expectGpuMatchesInterpreter({"cas spin lock",
                               kLang2,
                               "cas_counter",
                               "*i32,*i32",
                               {64, 1, 1},
                               {lock, exact(DType::I32, 1)},
                               {bufArg(0), bufArg(1)}});
  skipWithoutGpu();
}

TEST_F(LanguageGpu, Fp8RandomShapesAndSort) {
  const int n = 500;
  for (bool e4m3 : {true, false}) {
    std::string fp8 = e4m3 ? "fp8e4nv" : "fp8e5";
    expectGpuMatchesInterpreter(
        {"fp8_quantize " + fp8, kLang2, "fp8_quantize",
         "*fp32,*" + fp8 + ",*fp32,*fp32,i32,256," + fp8,
         {2, 1, 1},
         {in(DType::F32, n, -3, 3),
          // The scales and q / scale: the GPU's fp32 `/` is div.full.f32
          // (2 ulp, as Triton's), the interpreter's is correctly rounded; on
          // random inputs about one quotient in five differs in the last bit.
          // q is exact on these inputs, whose two scales agree.
          exact(e4m3 ? DType::F8E4NV : DType::F8E5, n), close(2, 1e-6),
          close(n, 1e-6)},
         {bufArg(0), bufArg(1), bufArg(2), bufArg(3), intArg(n)}});
  }
  expectGpuMatchesInterpreter(
      {"random", kLang2, "random", "*i32,*fp32,*fp32,i32,i32,256",
       {4, 1, 1},
       {exact(DType::I32, 1000), exact(DType::F32, 1000), close(1000, 1e-5)},
       {bufArg(0), bufArg(1), bufArg(2), intArg(1234), intArg(1000)}});
  for (int block : {64, 1024})
    expectGpuMatchesInterpreter(
        {"shapes " + std::to_string(block), kLang2, "shapes",
         "*fp32,*fp32,*fp32," + std::to_string(block), {1, 1, 1},
         {in(DType::F32, block, -2, 2), in(DType::F32, block, -2, 2),
          exact(DType::F32, 4 * block + 8)},
         {bufArg(0), bufArg(1), bufArg(2)}, block == 1024 ? 8 : 4});
  expectGpuMatchesInterpreter(
      {"sort_rows", kLang2, "sort_rows", "*fp32,*fp32,*fp32,*fp32,4,64,8",
       {1, 1, 1},
       {in(DType::F32, 256, -100, 100), exact(DType::F32, 256),
        exact(DType::F32, 256), exact(DType::F32, 32)},
       {bufArg(0), bufArg(1), bufArg(2), bufArg(3)}});
  expectGpuMatchesInterpreter({"sort_keys_i32",
                               kLang2,
                               "sort_keys_i32",
                               "*i32,*i32,128",
                               {1, 1, 1},
                               {in(DType::I32, 128, -50, 50),
                                exact(DType::I32, 128)},
                               {bufArg(0), bufArg(1)}});
  skipWithoutGpu();
}

TEST_F(LanguageGpu, AttentionBackwardDotWithRegisterOperand) {
  // On an H100/H200 (sm_90a) the A operand computed in registers is staged
  // through shared memory for wgmma; fp16 roundings of p may differ by an ulp
  // between the GPU's exp2 and the interpreter's, hence the tolerance.
  const int n = 256, d = 64;
  Buf q = in(DType::F16, n * d, -0.5, 0.5);
  expectGpuMatchesInterpreter(
      {"attn_bwd_dkdv", kLang2, "attn_bwd_dkdv",
       "*fp16:16,*fp16:16,*fp16:16,*fp16:16,*fp32:16,*fp32:16,*fp32:16,"
       "*fp32:16,i32:16,i32,64,64,64",
       {n / 64, 1, 1},
       {q, q, q, q, in(DType::F32, n, 0, 2), in(DType::F32, n, -0.5, 0.5),
        close(n * d, 5e-3), close(n * d, 5e-3)},
       {bufArg(0), bufArg(1), bufArg(2), bufArg(3), bufArg(4), bufArg(5),
        bufArg(6), bufArg(7), intArg(d), intArg(n)}});
  skipWithoutGpu();
}

} // namespace
