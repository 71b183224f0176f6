//===- HalfPrecisionChecks.h - f16 / bf16 builtins on a device -*- C++ -*-===//
//
// This file implements the checks of the builtins on f16 and bf16 blocks,
// shared by the interpreter tests (HalfPrecisionTest.cpp) and the GPU tests
// (HalfPrecisionGpuTest.cpp): DSL kernels through mgp::jit against C++
// references whose rounding comes from llvm::APFloat (independent of the
// interpreter's conversions and of the GPU). Arithmetic, maximum/minimum,
// where, fma and conversions are correctly rounded operations, so they must
// match to the bit on either device; exp/sqrt/log and reductions are checked
// at fp16/bf16 tolerance.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_JIT_HALFPRECISIONCHECKS_H
#define MGP_TESTS_UNIT_JIT_HALFPRECISIONCHECKS_H

#include "runtime/DeviceBuffer.h"
#include "runtime/jit/Jit.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <cmath>
#include <deque>
#include <random>

namespace mgp::halftest {

inline const char *kSource = R"(import triton.language as tl

@triton.jit
def binary(x_ptr, y_ptr, z_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    if OP == 0:
        z = x + y
    elif OP == 1:
        z = x - y * 2
    elif OP == 2:
        z = x * y
    elif OP == 3:
        z = x / y
    elif OP == 4:
        z = tl.maximum(x, y)
    elif OP == 5:
        z = tl.minimum(x, y)
    elif OP == 6:
        z = tl.where(x > y, x, -y)
    elif OP == 7:
        z = tl.exp(x)
    elif OP == 8:
        z = tl.sqrt(tl.abs(x))
    elif OP == 9:
        z = tl.log(tl.abs(x) + 1)
    else:
        z = tl.fma(x, y, x)
    tl.store(z_ptr + offs, z, mask=m)

@triton.jit
def to_dtype(x_ptr, h_ptr, b_ptr, i_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    h = x.to(tl.float16)
    b = x.to(tl.bfloat16)
    tl.store(h_ptr + offs, h, mask=m)
    tl.store(b_ptr + offs, b, mask=m)
    tl.store(i_ptr + offs, h.to(tl.int32) + b.to(tl.float16).to(tl.int32), mask=m)

@triton.jit
def row_reduce(x_ptr, sum_ptr, max_ptr, COLS: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * COLS + tl.arange(0, COLS))
    tl.store(sum_ptr + row, tl.sum(x, axis=0))
    tl.store(max_ptr + row, tl.max(x, axis=0))

@triton.jit
def mixed(h_ptr, b_ptr, z_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    h = tl.load(h_ptr + offs, mask=m, other=0.0)
    b = tl.load(b_ptr + offs, mask=m, other=0.0)
    tl.static_assert((h + b).dtype == tl.float16)
    tl.static_assert((h * 2.0).dtype == tl.float16)
    tl.store(z_ptr + offs, h + b, mask=m)
)";

inline std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : "";
}

inline Kernel kernelOn(const char *name, DeviceKind device) {
  JitOptions options;
  options.device = device;
  auto kernel = jit(kSource, name, options);
  if (!kernel) {
    ADD_FAILURE() << llvm::toString(kernel.takeError());
    std::abort();
  }
  return std::move(*kernel);
}

struct HalfFormat {
  const char *name;
  const llvm::fltSemantics *sem;
  DType dtype;
};

inline const HalfFormat kFormats[] = {
    {"f16", &llvm::APFloat::IEEEhalf(), DType::F16},
    {"bf16", &llvm::APFloat::BFloat(), DType::BF16}};

inline llvm::APFloat fromBits(const HalfFormat &f, uint16_t bits) {
  return llvm::APFloat(*f.sem, llvm::APInt(16, bits));
}
inline uint16_t toBits(const llvm::APFloat &v) {
  return static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
}
/// \p value rounded to nearest even in \p sem.
inline llvm::APFloat rounded(double value, const llvm::fltSemantics &sem) {
  llvm::APFloat v(value);
  bool lost;
  v.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  return v;
}
inline double toDouble(llvm::APFloat v) {
  bool lost;
  v.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
            &lost);
  return v.convertToDouble();
}

/// Launch arguments for host vectors on `device`: the vectors themselves on
/// the CPU; on the GPU device copies, copied back by finish().
class Staging {
public:
  explicit Staging(DeviceKind device) : device(device) {}

  template <typename T> LaunchArg arg(std::vector<T> &data, DType dtype) {
    size_t bytes = data.size() * sizeof(T);
    if (device == DeviceKind::CPU)
      return {"", KernelArg::hostPointer(data.data(), dtype), bytes};
    auto allocated = DeviceBuffer::allocate(bytes);
    if (!allocated) {
      error += llvm::toString(allocated.takeError());
      return toLaunchArg(0);
    }
    if (llvm::Error e = allocated->copyFromHost(data.data(), bytes))
      error += llvm::toString(std::move(e));
    copies.push_back({data.data(), bytes, std::move(*allocated)});
    return mgp::buffer(copies.back().device, dtype);
  }
  LaunchArg arg(std::vector<float> &data) { return arg(data, DType::F32); }
  LaunchArg arg(std::vector<int32_t> &data) { return arg(data, DType::I32); }

  /// Copies every buffer back; "" or the first errors.
  std::string finish() {
    for (Copy &copy : copies)
      if (llvm::Error e = copy.device.copyToHost(copy.host, copy.bytes))
        error += llvm::toString(std::move(e));
    return error;
  }

private:
  struct Copy {
    void *host;
    size_t bytes;
    DeviceBuffer device;
  };
  DeviceKind device;
  std::deque<Copy> copies;
  std::string error;
};

/// \p n random values of \p f in [lo, hi), as bits.
inline std::vector<uint16_t> randomHalves(const HalfFormat &f, size_t n,
                                          double lo, double hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<uint16_t> bits(n);
  for (uint16_t &b : bits)
    b = toBits(rounded(dist(gen), *f.sem));
  return bits;
}

inline constexpr int kN = 1000; // not a multiple of the block: masks matter
inline constexpr int kBlock = 256;

/// Runs `binary` with operation \p op over \p xs, \p ys on \p device.
inline std::vector<uint16_t> runBinary(Kernel &k, DeviceKind device,
                                       const HalfFormat &f, int op,
                                       std::vector<uint16_t> xs,
                                       std::vector<uint16_t> ys) {
  std::vector<uint16_t> zs(kN, 0x7777);
  Staging s(device);
  EXPECT_EQ(errorText(k.launch(Grid((kN + kBlock - 1) / kBlock), nullptr,
                               s.arg(xs, f.dtype), s.arg(ys, f.dtype),
                               s.arg(zs, f.dtype), kN, kw("OP", op),
                               kw("BLOCK", kBlock))),
            "");
  EXPECT_EQ(s.finish(), "");
  return zs;
}

using Exact = llvm::APFloat (*)(llvm::APFloat, llvm::APFloat);

inline llvm::APFloat apAdd(llvm::APFloat a, llvm::APFloat b) {
  a.add(b, llvm::APFloat::rmNearestTiesToEven);
  return a;
}
inline llvm::APFloat apSubTwice(llvm::APFloat a, llvm::APFloat b) {
  llvm::APFloat twice = b; // y * 2 stays in the half format, exactly
  twice.add(b, llvm::APFloat::rmNearestTiesToEven);
  a.subtract(twice, llvm::APFloat::rmNearestTiesToEven);
  return a;
}
inline llvm::APFloat apMul(llvm::APFloat a, llvm::APFloat b) {
  a.multiply(b, llvm::APFloat::rmNearestTiesToEven);
  return a;
}
inline llvm::APFloat apDiv(llvm::APFloat a, llvm::APFloat b) {
  a.divide(b, llvm::APFloat::rmNearestTiesToEven);
  return a;
}
inline llvm::APFloat apMax(llvm::APFloat a, llvm::APFloat b) {
  return llvm::maxnum(a, b);
}
inline llvm::APFloat apMin(llvm::APFloat a, llvm::APFloat b) {
  return llvm::minnum(a, b);
}
inline llvm::APFloat apWhere(llvm::APFloat a, llvm::APFloat b) {
  return a.compare(b) == llvm::APFloat::cmpGreaterThan ? a : -b;
}
inline llvm::APFloat apFma(llvm::APFloat a, llvm::APFloat b) {
  llvm::APFloat r = a;
  r.fusedMultiplyAdd(b, a, llvm::APFloat::rmNearestTiesToEven);
  return r;
}

inline void checkCorrectlyRoundedOps(DeviceKind device) {
  Kernel k = kernelOn("binary", device);
  const std::pair<int, Exact> ops[] = {
      {0, apAdd}, {1, apSubTwice}, {2, apMul},   {3, apDiv},
      {4, apMax}, {5, apMin},      {6, apWhere}, {10, apFma}};
  for (const HalfFormat &f : kFormats) {
    std::vector<uint16_t> xs = randomHalves(f, kN, -50, 50, 1);
    std::vector<uint16_t> ys = randomHalves(f, kN, 0.25, 20, 2);
    for (int i = 0; i < kN; i += 7)
      ys[i] = toBits(-fromBits(f, ys[i])); // negative divisors too
    for (auto [op, reference] : ops) {
      std::vector<uint16_t> zs = runBinary(k, device, f, op, xs, ys);
      for (int i = 0; i < kN; ++i) {
        llvm::APFloat want = reference(fromBits(f, xs[i]), fromBits(f, ys[i]));
        ASSERT_EQ(zs[i], toBits(want))
            << f.name << " op " << op << " at " << i << ": x "
            << toDouble(fromBits(f, xs[i])) << ", y "
            << toDouble(fromBits(f, ys[i])) << ", got "
            << toDouble(fromBits(f, zs[i])) << ", want " << toDouble(want);
      }
    }
  }
}

inline void checkTranscendentals(DeviceKind device) {
  Kernel k = kernelOn("binary", device);
  // `abs(x) + 1` is an f16/bf16 addition, rounded before the log.
  using Reference = double (*)(double, const llvm::fltSemantics &);
  const std::pair<int, Reference> ops[] = {
      {7, [](double x, const llvm::fltSemantics &) { return std::exp(x); }},
      {8, [](double x,
             const llvm::fltSemantics &) { return std::sqrt(std::fabs(x)); }},
      {9, [](double x, const llvm::fltSemantics &sem) {
         return std::log(toDouble(rounded(std::fabs(x) + 1, sem)));
       }}};
  for (const HalfFormat &f : kFormats) {
    std::vector<uint16_t> xs = randomHalves(f, kN, -8, 8, 3);
    std::vector<uint16_t> ys(kN, toBits(rounded(1.0, *f.sem)));
    for (auto [op, reference] : ops) {
      std::vector<uint16_t> zs = runBinary(k, device, f, op, xs, ys);
      for (int i = 0; i < kN; ++i) {
        double want = reference(toDouble(fromBits(f, xs[i])), *f.sem);
        double got = toDouble(fromBits(f, zs[i]));
        ASSERT_NEAR(got, want, 1e-2 * std::fabs(want) + 1e-6)
            << f.name << " op " << op << " at " << i;
      }
    }
  }
}

inline void checkConversions(DeviceKind device) {
  Kernel k = kernelOn("to_dtype", device);
  std::mt19937 gen(4);
  std::uniform_real_distribution<float> dist(-300, 300);
  std::vector<float> xs(kN);
  for (float &x : xs)
    x = dist(gen);
  // Exact ties: halfway between two f16 (11-bit) or bf16 (8-bit) values,
  // below and above an even neighbour.
  const float ties[] = {1.0f + 0x1p-11f,
                        1.0f + 3 * 0x1p-11f,
                        -(1.0f + 0x1p-11f),
                        1.0f + 0x1p-8f,
                        1.0f + 3 * 0x1p-8f,
                        -(256.0f + 1.0f),
                        2049.0f,
                        2051.0f};
  for (size_t i = 0; i < std::size(ties); ++i)
    xs[i] = ties[i];
  xs[10] = 1e-6f;    // an f16 subnormal
  xs[11] = 70000.0f; // beyond f16: inf (and saturated int conversion)
  std::vector<uint16_t> hs(kN), bs(kN);
  std::vector<int32_t> is(kN);
  Staging s(device);
  ASSERT_EQ(
      errorText(k.launch(Grid((kN + kBlock - 1) / kBlock), nullptr, s.arg(xs),
                         s.arg(hs, DType::F16), s.arg(bs, DType::BF16),
                         s.arg(is), kN, kw("BLOCK", kBlock))),
      "");
  ASSERT_EQ(s.finish(), "");
  for (int i = 0; i < kN; ++i) {
    llvm::APFloat h = rounded(xs[i], llvm::APFloat::IEEEhalf());
    llvm::APFloat b = rounded(xs[i], llvm::APFloat::BFloat());
    ASSERT_EQ(hs[i], toBits(h)) << "f16 of " << xs[i];
    ASSERT_EQ(bs[i], toBits(b)) << "bf16 of " << xs[i];
    if (i == 11)
      continue; // the f16 is inf; its int conversion saturates
    double bh = toDouble(rounded(toDouble(b), llvm::APFloat::IEEEhalf()));
    int32_t want = static_cast<int32_t>(std::trunc(toDouble(h))) +
                   static_cast<int32_t>(std::trunc(bh));
    ASSERT_EQ(is[i], want) << "ints of " << xs[i];
  }
}

inline void checkReductionsAndPromotion(DeviceKind device) {
  constexpr int kRows = 8, kCols = 128;
  Kernel reduce = kernelOn("row_reduce", device);
  Kernel mixed = kernelOn("mixed", device);
  for (const HalfFormat &f : kFormats) {
    // Positive values, a tree of 7 levels of 16-bit adds (the interpreter's
    // halves, the GPU's lane butterfly then warps): within 1e-2 of the exact
    // sum in f16; bf16's 8 bits reach 9.7e-3 over 2000 simulated seeds of
    // the GPU order, so 2e-2.
    std::vector<uint16_t> xs = randomHalves(f, kRows * kCols, 0.1, 4, 5);
    std::vector<uint16_t> sums(kRows), maxes(kRows);
    Staging s(device);
    ASSERT_EQ(
        errorText(reduce.launch(Grid(kRows), nullptr, s.arg(xs, f.dtype),
                                s.arg(sums, f.dtype), s.arg(maxes, f.dtype),
                                kw("COLS", kCols))),
        "");
    ASSERT_EQ(s.finish(), "");
    for (int r = 0; r < kRows; ++r) {
      double sum = 0, max = -INFINITY;
      for (int c = 0; c < kCols; ++c) {
        double v = toDouble(fromBits(f, xs[r * kCols + c]));
        sum += v;
        max = std::max(max, v);
      }
      double tolerance = f.dtype == DType::BF16 ? 2e-2 : 1e-2;
      EXPECT_NEAR(toDouble(fromBits(f, sums[r])), sum, tolerance * sum)
          << f.name;
      EXPECT_EQ(toDouble(fromBits(f, maxes[r])), max) << f.name;
    }
  }
  // f16 + bf16 is computed in f16 (Triton 3.6's promotion: fp16 comes
  // before bf16), then stored as f32.
  const HalfFormat &h = kFormats[0], &b = kFormats[1];
  std::vector<uint16_t> hs = randomHalves(h, kN, -100, 100, 6);
  std::vector<uint16_t> bs = randomHalves(b, kN, -100, 100, 7);
  std::vector<float> zs(kN);
  Staging s(device);
  ASSERT_EQ(
      errorText(mixed.launch(Grid((kN + kBlock - 1) / kBlock), nullptr,
                             s.arg(hs, DType::F16), s.arg(bs, DType::BF16),
                             s.arg(zs), kN, kw("BLOCK", kBlock))),
      "");
  ASSERT_EQ(s.finish(), "");
  for (int i = 0; i < kN; ++i) {
    llvm::APFloat bAsHalf = rounded(toDouble(fromBits(b, bs[i])), *h.sem);
    float want = static_cast<float>(
        toDouble(apAdd(fromBits(h, hs[i]), bAsHalf)));
    ASSERT_EQ(zs[i], want) << i;
  }
}

} // namespace mgp::halftest

#endif // MGP_TESTS_UNIT_JIT_HALFPRECISIONCHECKS_H
