//===- LibdeviceFunctions.cpp - libdevice functions on the host -----------===//
//
// This file implements, on the host, every libdevice function that
// `triton.language.extra.libdevice` can call (compiler/frontend/
// LibdeviceTable.cpp lists them), for the interpreter's
// mgp.extern_elementwise. Float functions compute in double and the caller
// rounds to the result type (at least as accurate as libdevice); the _rn/_rz/
// _rd/_ru variants compute in the argument's own type under that rounding
// mode; conversions saturate and map NaN to 0 as PTX's cvt does; integer
// functions follow the CUDA math API's definitions (__clz, __byte_perm, ...).
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/LibdeviceFunctions.h"

#include "runtime/interp/Numerics.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mgp;
using namespace mgp::interp;

namespace {

LibValue F(double v) { return {v, 0}; }
LibValue I(int64_t v) { return {0, v}; }

/// A value the optimizer cannot see through, so that an operation on it
/// happens at run time, under the current rounding mode. The results of the
/// rounded operations pass through it too: the volatile store pins the
/// operation before the RoundingScope's destructor restores the mode (the
/// file is also compiled with -frounding-math).
template <typename T> T opaque(T v) {
  volatile T x = v;
  return x;
}

/// Sets the rounding mode for its lifetime.
class RoundingScope {
public:
  explicit RoundingScope(int mode) : old(std::fegetround()) {
    std::fesetround(mode);
  }
  ~RoundingScope() { std::fesetround(old); }

private:
  int old;
};

constexpr int kModes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
const char *const kModeNames[4] = {"rn", "rz", "rd", "ru"};

/// Rounds to an integral value in rounding mode `M`.
template <int M> double roundIntegral(double x) {
  RoundingScope scope(kModes[M]);
  return opaque(std::nearbyint(opaque(x)));
}

/// erf^-1 by Newton's method from a rational first guess.
double erfinv(double y) {
  if (std::isnan(y) || y < -1 || y > 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (y == 1)
    return std::numeric_limits<double>::infinity();
  if (y == -1)
    return -std::numeric_limits<double>::infinity();
  // Giles' single-precision approximation as the starting point.
  double w = -std::log((1.0 - y) * (1.0 + y)), x;
  if (w < 5.0) {
    w -= 2.5;
    double p = 2.81022636e-08;
    for (double c :
         {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
          -0.00125372503, -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
    x = p * y;
  } else {
    w = std::sqrt(w) - 3.0;
    double p = -0.000200214257;
    for (double c :
         {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
          -0.0076224613, 0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
    x = p * y;
  }
  for (int k = 0; k < 4; ++k) {
    double err = std::erf(x) - y;
    x -= err / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
  }
  return x;
}

/// erfc^-1 (Newton on erfc, accurate for tiny arguments).
double erfcinv(double y) {
  if (std::isnan(y) || y < 0 || y > 2)
    return std::numeric_limits<double>::quiet_NaN();
  if (y == 0)
    return std::numeric_limits<double>::infinity();
  if (y == 2)
    return -std::numeric_limits<double>::infinity();
  if (y > 0.0625 && y < 1.9375)
    return erfinv(1.0 - y);
  double x = y < 1 ? erfinv(1.0 - std::max(y, 1e-300)) : -erfinv(y - 1.0);
  if (!std::isfinite(x))
    x = y < 1 ? 26.0 : -26.0;
  for (int k = 0; k < 60; ++k) {
    double err = std::erfc(x) - y;
    double step = err / (-2.0 / std::sqrt(M_PI) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x))
      break;
  }
  return x;
}

/// exp(x^2) erfc(x) without overflow.
double erfcx(double x) {
  if (x < 25.0)
    return static_cast<double>(std::exp(static_cast<long double>(x) * x) *
                               std::erfc(static_cast<long double>(x)));
  // Asymptotic expansion: 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - ...).
  double inv2 = 1.0 / (2.0 * x * x), term = 1.0, sum = 1.0;
  for (int k = 1; k < 8; ++k) {
    term *= -(2 * k - 1) * inv2;
    sum += term;
  }
  return sum / (x * std::sqrt(M_PI));
}

int64_t countLeadingZeros(uint64_t v, unsigned width) {
  int64_t n = 0;
  for (int b = width - 1; b >= 0 && !((v >> b) & 1); --b)
    ++n;
  return n;
}

uint64_t reverseBits(uint64_t v, unsigned width) {
  uint64_t r = 0;
  for (unsigned b = 0; b < width; ++b)
    r |= ((v >> b) & 1) << (width - 1 - b);
  return r;
}

int64_t findFirstSet(uint64_t v, unsigned width) {
  for (unsigned b = 0; b < width; ++b)
    if ((v >> b) & 1)
      return b + 1;
  return 0;
}

uint32_t u32(const LibValue &v) { return static_cast<uint32_t>(v.i); }

using Table = llvm::StringMap<LibdeviceFn>;

/// Functions of one float argument: `__nv_<name>f` and `__nv_<name>`.
#define FLOAT1(NAME, EXPR)                                                     \
  t["__nv_" NAME "f"] = t["__nv_" NAME] = [](const LibValue *a) {              \
    double x = a[0].f;                                                         \
    return F(EXPR);                                                            \
  }
#define FLOAT2(NAME, EXPR)                                                     \
  t["__nv_" NAME "f"] = t["__nv_" NAME] = [](const LibValue *a) {              \
    double x = a[0].f, y = a[1].f;                                             \
    return F(EXPR);                                                            \
  }

void addMath(Table &t) {
  FLOAT1("fabs", std::fabs(x));
  FLOAT1("floor", std::floor(x));
  FLOAT1("ceil", std::ceil(x));
  FLOAT1("trunc", std::trunc(x));
  FLOAT1("rint", std::nearbyint(x));
  FLOAT1("nearbyint", std::nearbyint(x));
  FLOAT1("round", std::round(x));
  FLOAT1("sqrt", std::sqrt(x));
  FLOAT1("rsqrt", 1.0 / std::sqrt(x));
  FLOAT1("cbrt", std::cbrt(x));
  FLOAT1("rcbrt", 1.0 / std::cbrt(x));
  FLOAT1("exp", std::exp(x));
  FLOAT1("exp2", std::exp2(x));
  FLOAT1("exp10", std::pow(10.0, x));
  FLOAT1("expm1", std::expm1(x));
  FLOAT1("log", std::log(x));
  FLOAT1("log2", std::log2(x));
  FLOAT1("log10", std::log10(x));
  FLOAT1("log1p", std::log1p(x));
  FLOAT1("logb", std::logb(x));
  FLOAT1("sin", std::sin(x));
  FLOAT1("cos", std::cos(x));
  FLOAT1("tan", std::tan(x));
  FLOAT1("sinpi", static_cast<double>(std::sin(M_PIl * x)));
  FLOAT1("cospi", static_cast<double>(std::cos(M_PIl * x)));
  FLOAT1("asin", std::asin(x));
  FLOAT1("acos", std::acos(x));
  FLOAT1("atan", std::atan(x));
  FLOAT1("sinh", std::sinh(x));
  FLOAT1("cosh", std::cosh(x));
  FLOAT1("tanh", std::tanh(x));
  FLOAT1("asinh", std::asinh(x));
  FLOAT1("acosh", std::acosh(x));
  FLOAT1("atanh", std::atanh(x));
  FLOAT1("erf", std::erf(x));
  FLOAT1("erfc", std::erfc(x));
  FLOAT1("erfcx", erfcx(x));
  FLOAT1("erfinv", erfinv(x));
  FLOAT1("erfcinv", erfcinv(x));
  FLOAT1("normcdf", 0.5 * std::erfc(-x / std::sqrt(2.0)));
  FLOAT1("normcdfinv", -std::sqrt(2.0) * erfcinv(2.0 * x));
  FLOAT1("lgamma", std::lgamma(x));
  FLOAT1("tgamma", std::tgamma(x));
  FLOAT1("j0", ::j0(x));
  FLOAT1("j1", ::j1(x));
  FLOAT1("y0", ::y0(x));
  FLOAT1("y1", ::y1(x));
  FLOAT1("cyl_bessel_i0", std::cyl_bessel_i(0.0, std::fabs(x)));
  FLOAT1("cyl_bessel_i1",
         std::copysign(std::cyl_bessel_i(1.0, std::fabs(x)), x));
  FLOAT2("atan2", std::atan2(x, y));
  FLOAT2("copysign", std::copysign(x, y));
  FLOAT2("fmod", std::fmod(x, y));
  FLOAT2("remainder", std::remainder(x, y));
  FLOAT2("hypot", std::hypot(x, y));
  FLOAT2("rhypot", 1.0 / std::hypot(x, y));
  FLOAT2("fdim", std::fdim(x, y));
  FLOAT2("pow", std::pow(x, y));
  t["__nv_nextafterf"] = [](const LibValue *a) {
    return F(std::nextafter(float(a[0].f), float(a[1].f)));
  };
  t["__nv_nextafter"] = [](const LibValue *a) {
    return F(std::nextafter(a[0].f, a[1].f));
  };
  t["__nv_fmaf"] = [](const LibValue *a) {
    return F(std::fma(float(a[0].f), float(a[1].f), float(a[2].f)));
  };
  t["__nv_fma"] = [](const LibValue *a) {
    return F(std::fma(a[0].f, a[1].f, a[2].f));
  };
  t["__nv_norm3df"] = t["__nv_norm3d"] = [](const LibValue *a) {
    return F(std::hypot(a[0].f, a[1].f, a[2].f));
  };
  t["__nv_rnorm3df"] = t["__nv_rnorm3d"] = [](const LibValue *a) {
    return F(1.0 / std::hypot(a[0].f, a[1].f, a[2].f));
  };
  t["__nv_norm4df"] = t["__nv_norm4d"] = [](const LibValue *a) {
    long double s = 0;
    for (int k = 0; k < 4; ++k)
      s += static_cast<long double>(a[k].f) * a[k].f;
    return F(static_cast<double>(std::sqrt(s)));
  };
  t["__nv_rnorm4df"] = t["__nv_rnorm4d"] = [](const LibValue *a) {
    long double s = 0;
    for (int k = 0; k < 4; ++k)
      s += static_cast<long double>(a[k].f) * a[k].f;
    return F(static_cast<double>(1.0L / std::sqrt(s)));
  };
  t["__nv_powif"] = t["__nv_powi"] = [](const LibValue *a) {
    return F(std::pow(a[0].f, static_cast<double>(a[1].i)));
  };
  t["__nv_ldexpf"] = t["__nv_ldexp"] = t["__nv_scalbnf"] =
      t["__nv_scalbn"] = [](const LibValue *a) {
        return F(std::ldexp(a[0].f, static_cast<int>(std::clamp<int64_t>(
                                        a[1].i, -100000, 100000))));
      };
  t["__nv_jnf"] = t["__nv_jn"] = [](const LibValue *a) {
    return F(::jn(static_cast<int>(a[0].i), a[1].f));
  };
  t["__nv_ynf"] = t["__nv_yn"] = [](const LibValue *a) {
    return F(::yn(static_cast<int>(a[0].i), a[1].f));
  };
  t["__nv_ilogbf"] =
      t["__nv_ilogb"] = [](const LibValue *a) { return I(std::ilogb(a[0].f)); };
  t["__nv_llrintf"] = t["__nv_llrint"] = [](const LibValue *a) {
    return I(floatToInt(std::nearbyint(a[0].f), 64, true));
  };
  t["__nv_llroundf"] = t["__nv_llround"] = [](const LibValue *a) {
    return I(floatToInt(std::round(a[0].f), 64, true));
  };
  t["__nv_isnanf"] = t["__nv_isnand"] = [](const LibValue *a) {
    return I(std::isnan(a[0].f) ? 1 : 0);
  };
  t["__nv_isinff"] = t["__nv_isinfd"] = [](const LibValue *a) {
    return I(std::isinf(a[0].f) ? 1 : 0);
  };
  t["__nv_finitef"] = t["__nv_isfinited"] = [](const LibValue *a) {
    return I(std::isfinite(a[0].f) ? 1 : 0);
  };
  t["__nv_signbitf"] = t["__nv_signbitd"] = [](const LibValue *a) {
    return I(std::signbit(a[0].f) ? 1 : 0);
  };
  t["__nv_saturatef"] = [](const LibValue *a) {
    double x = a[0].f;
    return F(std::isnan(x) ? 0.0 : std::clamp(x, 0.0, 1.0));
  };
  t["__nv_rcp64h"] = [](const LibValue *a) {
    double r = 1.0 / a[0].f;
    uint64_t bits;
    std::memcpy(&bits, &r, 8);
    bits &= 0xffffffff00000000ull;
    std::memcpy(&r, &bits, 8);
    return F(r);
  };
  // The fast approximations: computed exactly here.
  t["__nv_fast_sinf"] = t["__nv_sinf"];
  t["__nv_fast_cosf"] = t["__nv_cosf"];
  t["__nv_fast_tanf"] = t["__nv_tanf"];
  t["__nv_fast_expf"] = t["__nv_expf"];
  t["__nv_fast_exp10f"] = t["__nv_exp10f"];
  t["__nv_fast_logf"] = t["__nv_logf"];
  t["__nv_fast_log2f"] = t["__nv_log2f"];
  t["__nv_fast_log10f"] = t["__nv_log10f"];
  t["__nv_fast_powf"] = t["__nv_powf"];
  t["__nv_fast_fdividef"] = [](const LibValue *a) {
    return F(double(float(a[0].f) / float(a[1].f)));
  };
  t["__nv_frsqrt_rn"] = [](const LibValue *a) {
    return F(1.0 / std::sqrt(a[0].f));
  };
}

/// The arithmetic with a rounding mode, in float (`f...`) and double
/// (`d...`): add, sub, mul, div, rcp, sqrt, fma.
template <int M> void addRounded(Table &t) {
  std::string m = kModeNames[M];
  t["__nv_fadd_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(float(a[0].f)) + opaque(float(a[1].f))));
  };
  t["__nv_dadd_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(a[0].f) + opaque(a[1].f)));
  };
  t["__nv_fsub_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(float(a[0].f)) - opaque(float(a[1].f))));
  };
  t["__nv_dsub_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(a[0].f) - opaque(a[1].f)));
  };
  t["__nv_fmul_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(float(a[0].f)) * opaque(float(a[1].f))));
  };
  t["__nv_dmul_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(a[0].f) * opaque(a[1].f)));
  };
  t["__nv_fdiv_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(float(a[0].f)) / opaque(float(a[1].f))));
  };
  t["__nv_ddiv_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(a[0].f) / opaque(a[1].f)));
  };
  t["__nv_frcp_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(1.0f) / opaque(float(a[0].f))));
  };
  t["__nv_drcp_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(opaque(1.0) / opaque(a[0].f)));
  };
  t["__nv_fsqrt_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(std::sqrt(opaque(float(a[0].f)))));
  };
  t["__nv_dsqrt_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(std::sqrt(opaque(a[0].f))));
  };
  t["__nv_fmaf_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(std::fma(opaque(float(a[0].f)), opaque(float(a[1].f)),
                             opaque(float(a[2].f)))));
  };
  t["__nv_fma_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(std::fma(opaque(a[0].f), opaque(a[1].f), opaque(a[2].f))));
  };
  // Conversions with a rounding mode.
  t["__nv_double2float_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(static_cast<float>(opaque(a[0].f))));
  };
  t["__nv_double2int_" + m] = t["__nv_float2int_" + m] = [](const LibValue *a) {
    return I(floatToInt(roundIntegral<M>(a[0].f), 32, true));
  };
  t["__nv_double2uint_" + m] =
      t["__nv_float2uint_" + m] = [](const LibValue *a) {
        return I(floatToInt(roundIntegral<M>(a[0].f), 32, false));
      };
  t["__nv_double2ll_" + m] = t["__nv_float2ll_" + m] = [](const LibValue *a) {
    return I(floatToInt(roundIntegral<M>(a[0].f), 64, true));
  };
  t["__nv_double2ull_" + m] = t["__nv_float2ull_" + m] = [](const LibValue *a) {
    return I(floatToInt(roundIntegral<M>(a[0].f), 64, false));
  };
  t["__nv_int2float_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(static_cast<float>(opaque(static_cast<int32_t>(a[0].i)))));
  };
  t["__nv_uint2float_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(static_cast<float>(opaque(u32(a[0])))));
  };
  t["__nv_ll2float_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(static_cast<float>(opaque(a[0].i))));
  };
  t["__nv_ull2float_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(static_cast<float>(opaque(static_cast<uint64_t>(a[0].i)))));
  };
  t["__nv_ll2double_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(opaque(static_cast<double>(opaque(a[0].i))));
  };
  t["__nv_ull2double_" + m] = [](const LibValue *a) {
    RoundingScope s(kModes[M]);
    return F(
        opaque(static_cast<double>(opaque(static_cast<uint64_t>(a[0].i)))));
  };
}

void addIntegerAndBits(Table &t) {
  t["__nv_abs"] = [](const LibValue *a) {
    return I(a[0].i < 0 ? -static_cast<int64_t>(uint64_t(a[0].i)) : a[0].i);
  };
  t["__nv_llabs"] = t["__nv_abs"];
  t["__nv_clz"] = [](const LibValue *a) {
    return I(countLeadingZeros(u32(a[0]), 32));
  };
  t["__nv_clzll"] = [](const LibValue *a) {
    return I(countLeadingZeros(uint64_t(a[0].i), 64));
  };
  t["__nv_popc"] = [](const LibValue *a) {
    return I(__builtin_popcount(u32(a[0])));
  };
  t["__nv_popcll"] = [](const LibValue *a) {
    return I(__builtin_popcountll(uint64_t(a[0].i)));
  };
  t["__nv_brev"] = [](const LibValue *a) {
    return I(static_cast<int64_t>(reverseBits(u32(a[0]), 32)));
  };
  t["__nv_brevll"] = [](const LibValue *a) {
    return I(static_cast<int64_t>(reverseBits(uint64_t(a[0].i), 64)));
  };
  t["__nv_ffs"] = [](const LibValue *a) {
    return I(findFirstSet(u32(a[0]), 32));
  };
  t["__nv_ffsll"] = [](const LibValue *a) {
    return I(findFirstSet(uint64_t(a[0].i), 64));
  };
  t["__nv_byte_perm"] = [](const LibValue *a) {
    uint64_t bytes = uint64_t(u32(a[0])) | (uint64_t(u32(a[1])) << 32);
    uint32_t s = u32(a[2]), r = 0;
    for (int n = 0; n < 4; ++n)
      r |= uint32_t((bytes >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
    return I(r);
  };
  t["__nv_mulhi"] = [](const LibValue *a) {
    return I((int64_t(int32_t(a[0].i)) * int32_t(a[1].i)) >> 32);
  };
  t["__nv_umulhi"] = [](const LibValue *a) {
    return I(int64_t((uint64_t(u32(a[0])) * u32(a[1])) >> 32));
  };
  t["__nv_mul64hi"] = [](const LibValue *a) {
    return I(int64_t((__int128(a[0].i) * __int128(a[1].i)) >> 64));
  };
  t["__nv_umul64hi"] = [](const LibValue *a) {
    using U = unsigned __int128;
    return I(int64_t((U(uint64_t(a[0].i)) * U(uint64_t(a[1].i))) >> 64));
  };
  t["__nv_mul24"] = [](const LibValue *a) {
    int64_t x = wrapSigned(uint64_t(a[0].i), 24),
            y = wrapSigned(uint64_t(a[1].i), 24);
    return I(x * y);
  };
  t["__nv_umul24"] = [](const LibValue *a) {
    return I(int64_t(uint64_t(u32(a[0]) & 0xffffff) * (u32(a[1]) & 0xffffff)));
  };
  t["__nv_sad"] = [](const LibValue *a) {
    int64_t x = int32_t(a[0].i), y = int32_t(a[1].i);
    return I((x > y ? x - y : y - x) + u32(a[2]));
  };
  t["__nv_usad"] = [](const LibValue *a) {
    int64_t x = u32(a[0]), y = u32(a[1]);
    return I((x > y ? x - y : y - x) + u32(a[2]));
  };
  t["__nv_hadd"] = [](const LibValue *a) {
    return I((int64_t(int32_t(a[0].i)) + int32_t(a[1].i)) >> 1);
  };
  t["__nv_rhadd"] = [](const LibValue *a) {
    return I((int64_t(int32_t(a[0].i)) + int32_t(a[1].i) + 1) >> 1);
  };
  t["__nv_uhadd"] = [](const LibValue *a) {
    return I((int64_t(u32(a[0])) + u32(a[1])) >> 1);
  };
  t["__nv_urhadd"] = [](const LibValue *a) {
    return I((int64_t(u32(a[0])) + u32(a[1]) + 1) >> 1);
  };
  // Conversions without a rounding choice, and bit casts.
  t["__nv_int2double_rn"] = [](const LibValue *a) {
    return F(double(int32_t(a[0].i)));
  };
  t["__nv_uint2double_rn"] = [](const LibValue *a) {
    return F(double(u32(a[0])));
  };
  t["__nv_hiloint2double"] = [](const LibValue *a) {
    uint64_t bits = (uint64_t(u32(a[0])) << 32) | u32(a[1]);
    double d;
    std::memcpy(&d, &bits, 8);
    return F(d);
  };
  t["__nv_double2loint"] = [](const LibValue *a) {
    uint64_t bits;
    std::memcpy(&bits, &a[0].f, 8);
    return I(int32_t(uint32_t(bits)));
  };
  t["__nv_double2hiint"] = [](const LibValue *a) {
    uint64_t bits;
    std::memcpy(&bits, &a[0].f, 8);
    return I(int32_t(uint32_t(bits >> 32)));
  };
  t["__nv_int_as_float"] = t["__nv_uint_as_float"] = [](const LibValue *a) {
    return F(bitsToFloat(u32(a[0])));
  };
  t["__nv_float_as_int"] = t["__nv_float_as_uint"] = [](const LibValue *a) {
    return I(int32_t(floatBits(float(a[0].f))));
  };
  t["__nv_longlong_as_double"] = [](const LibValue *a) {
    double d;
    std::memcpy(&d, &a[0].i, 8);
    return F(d);
  };
  t["__nv_double_as_longlong"] = [](const LibValue *a) {
    int64_t i;
    std::memcpy(&i, &a[0].f, 8);
    return I(i);
  };
}

const Table &getTable() {
  static const Table table = [] {
    Table t;
    addMath(t);
    addRounded<0>(t);
    addRounded<1>(t);
    addRounded<2>(t);
    addRounded<3>(t);
    addIntegerAndBits(t);
    // tl.math.div_rn and sqrt_rn on f32: the NVVM intrinsics of PTX's
    // div.rn.f32 / sqrt.rn.f32 (compiler/frontend/BuiltinsMath.cpp), the
    // same correctly rounded results as libdevice's.
    t["llvm.nvvm.div.rn.f"] = t["__nv_fdiv_rn"];
    t["llvm.nvvm.sqrt.rn.f"] = t["__nv_fsqrt_rn"];
    return t;
  }();
  return table;
}

} // namespace

LibdeviceFn mgp::interp::lookupLibdeviceFunction(llvm::StringRef symbol) {
  const Table &t = getTable();
  auto it = t.find(symbol);
  return it == t.end() ? nullptr : it->second;
}
