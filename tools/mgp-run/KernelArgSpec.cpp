//===- KernelArgSpec.cpp - argument specs of one-kernel runs --------------===//
//
// This file implements the parser of `--arg` specs and the host data of
// buffer specs (zeros, ones, iota, seeded uniform random values; bf16/fp16
// are not supported as buffer types here).
//
//===----------------------------------------------------------------------===//
#include "tools/mgp-run/KernelArgSpec.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>
#include <random>

using namespace mgp;
using namespace mgp::run;

static llvm::Error specError(llvm::StringRef text, const llvm::Twine &why) {
  return llvm::createStringError(
      "bad --arg '" + text + "': " + why +
      " (expected [LABEL:]DTYPE[N[,M...]][:rand|:rand(LO,HI)|:zeros|:ones|"
      ":iota], a number, TYPE=NUMBER with TYPE i32, i64 or fp32, or "
      "NAME=NUMBER)");
}

static bool isIdentifier(llvm::StringRef s) {
  if (s.empty() || llvm::isDigit(s[0]))
    return false;
  return llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Parses a scalar literal into \p spec (Int or Float by its form).
static bool parseNumber(llvm::StringRef text, ArgSpec &spec) {
  text = text.trim();
  int64_t i;
  if (!text.getAsInteger(10, i)) {
    spec.kind = ArgSpec::Kind::Int;
    spec.intValue = i;
    return true;
  }
  double d;
  if (!text.getAsDouble(d)) {
    spec.kind = ArgSpec::Kind::Float;
    spec.floatValue = d;
    return true;
  }
  return false;
}

static llvm::Expected<ArgSpec> parseBuffer(llvm::StringRef text) {
  ArgSpec spec;
  spec.kind = ArgSpec::Kind::Buffer;
  size_t open = text.find('[');
  size_t close = text.find(']');
  if (close == llvm::StringRef::npos || close < open)
    return specError(text, "missing ']'");
  llvm::StringRef head = text.take_front(open);
  auto [label, type] = head.rsplit(':');
  if (type.empty() && head.contains(':'))
    return specError(text, "missing element type");
  if (!head.contains(':'))
    type = head, label = "";
  std::optional<DType> dtype = parseDType(type);
  if (!dtype || *dtype == DType::F16 || *dtype == DType::BF16 ||
      isUnsignedDType(*dtype))
    return specError(text, "unknown or unsupported element type '" + type +
                               "'");
  spec.dtype = *dtype;
  spec.label = label.str();
  spec.shape = text.slice(open + 1, close).str();
  llvm::SmallVector<llvm::StringRef> dims;
  llvm::StringRef(spec.shape).split(dims, ',');
  spec.count = 1;
  for (llvm::StringRef dim : dims) {
    uint64_t n;
    if (dim.trim().getAsInteger(10, n) || n == 0)
      return specError(text, "bad size '" + dim + "'");
    if (spec.count > (uint64_t(1) << 40) / n)
      return specError(text, "the buffer is too large");
    spec.count *= n;
  }
  llvm::StringRef init = text.drop_front(close + 1);
  if (init.empty())
    return spec;
  if (!init.consume_front(":"))
    return specError(text, "expected ':' after ']'");
  if (init == "zeros")
    spec.init = ArgSpec::Init::Zeros;
  else if (init == "ones")
    spec.init = ArgSpec::Init::Ones;
  else if (init == "iota")
    spec.init = ArgSpec::Init::Iota;
  else if (init == "rand")
    spec.init = ArgSpec::Init::Rand;
  else if (init.consume_front("rand(") && init.consume_back(")")) {
    auto [lo, hi] = init.split(',');
    if (lo.trim().getAsDouble(spec.lo) || hi.trim().getAsDouble(spec.hi) ||
        !(spec.lo < spec.hi))
      return specError(text, "bad range in rand(LO,HI)");
    spec.init = ArgSpec::Init::Rand;
  } else {
    return specError(text, "unknown initializer '" + init + "'");
  }
  return spec;
}

llvm::Expected<ArgSpec> mgp::run::parseArgSpec(llvm::StringRef text) {
  if (text.contains('['))
    return parseBuffer(text);
  ArgSpec spec;
  if (text.contains('=')) {
    auto [name, value] = text.split('=');
    name = name.trim();
    if (!isIdentifier(name))
      return specError(text, "bad name '" + name + "'");
    if (!parseNumber(value, spec))
      return specError(text, "bad number '" + value + "'");
    if (name == "i32" || name == "i64") {
      if (spec.kind != ArgSpec::Kind::Int)
        return specError(text, name + " needs an integer");
      spec.isI64 = name == "i64";
      return spec;
    }
    if (name == "fp32") {
      spec.floatValue = spec.kind == ArgSpec::Kind::Int
                            ? static_cast<double>(spec.intValue)
                            : spec.floatValue;
      spec.kind = ArgSpec::Kind::Float;
      return spec;
    }
    spec.keyword = true;
    spec.label = name.str();
    return spec;
  }
  if (!parseNumber(text, spec))
    return specError(text, "not a buffer, a number or NAME=NUMBER");
  return spec;
}

std::vector<unsigned char> mgp::run::makeBufferData(const ArgSpec &spec,
                                                    unsigned seed) {
  unsigned bytes = dtypeBytes(spec.dtype);
  std::vector<unsigned char> data(spec.count * bytes, 0);
  if (spec.init == ArgSpec::Init::Zeros)
    return data;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(spec.lo, spec.hi);
  bool isFloat = spec.dtype == DType::F32 || spec.dtype == DType::F64;
  for (uint64_t i = 0; i < spec.count; ++i) {
    double v = spec.init == ArgSpec::Init::Ones   ? 1.0
               : spec.init == ArgSpec::Init::Iota ? static_cast<double>(i)
                                                  : dist(gen);
    unsigned char *p = &data[i * bytes];
    if (spec.dtype == DType::F32) {
      float f = static_cast<float>(v);
      std::memcpy(p, &f, 4);
    } else if (spec.dtype == DType::F64) {
      std::memcpy(p, &v, 8);
    } else {
      // Integers: rand draws from [lo, hi) rounded down (default -1..0,
      // so give integer buffers a range).
      int64_t n = isFloat ? 0 : static_cast<int64_t>(std::floor(v));
      if (spec.dtype == DType::I1)
        n &= 1;
      std::memcpy(p, &n, bytes); // little-endian truncation
    }
  }
  return data;
}

double mgp::run::elementAsDouble(const std::vector<unsigned char> &data,
                                 DType type, uint64_t i) {
  unsigned bytes = dtypeBytes(type);
  const unsigned char *p = &data[i * bytes];
  switch (type) {
  case DType::F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case DType::F64: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  case DType::I1:
  case DType::I8:
    return static_cast<int8_t>(*p);
  case DType::I16: {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  default:
    return 0;
  }
}
