//===- KernelRun.cpp - mgp-run on one kernel (.mgp / .py input) -----------===//
//
// This file implements the one-kernel mode of mgp-run: its command line, the
// launch on the interpreter and on the GPU from the same inputs, and the
// comparison of every buffer (max abs/rel error; pass when every element has
// |gpu - cpu| <= tol * max(1, |cpu|)).
//
//===----------------------------------------------------------------------===//
#include "tools/mgp-run/KernelRun.h"

#include "tools/mgp-run/KernelArgSpec.h"

#include "runtime/Device.h"
#include "runtime/jit/Jit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <optional>

using namespace mgp;
using namespace mgp::run;

namespace {
struct Options {
  std::string file, kernel, device = "both";
  std::vector<unsigned> grid;
  std::vector<std::string> args;
  double tol = 1e-5;
  KernelOptions kernelOptions; ///< --num-warps, --num-stages, --precision
  unsigned seed = 1;
};

using Buffers = std::vector<std::vector<unsigned char>>;
} // namespace

static const char *kUsage =
    "usage: mgp-run KERNEL.mgp|.py -k NAME --grid X[,Y[,Z]] --arg SPEC... "
    "[--tol T] [--device both|cpu|gpu] [--num-warps N] [--num-stages N] "
    "[--precision tf32|ieee] [--seed N]\n"
    "  SPEC: [LABEL:]DTYPE[N[,M...]][:rand|:rand(LO,HI)|:zeros|:ones|:iota] "
    "(a buffer), NUMBER, i32=N, i64=N, fp32=X (positional scalars), "
    "NAME=NUMBER (by keyword)\n";

bool mgp::run::isKernelRun(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.ends_with(".mgp") || arg.ends_with(".py"))
      return true;
  }
  return false;
}

static llvm::Error parseOptions(int argc, char **argv, Options &opts) {
  auto fail = [](const llvm::Twine &why) {
    return llvm::createStringError(why + "\n" + kUsage);
  };
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto value = [&](llvm::StringRef &out) -> bool {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    llvm::StringRef v;
    if (arg == "-k" || arg == "--kernel" || arg == "--grid" ||
        arg == "--arg" || arg == "--tol" || arg == "--device" ||
        arg == "--num-warps" || arg == "--num-stages" ||
        arg == "--precision" || arg == "--seed") {
      if (!value(v))
        return fail(arg + " needs a value");
    } else if (arg.starts_with("-")) {
      return fail("unknown option '" + arg + "'");
    }
    if (arg == "-k" || arg == "--kernel")
      opts.kernel = v.str();
    else if (arg == "--arg")
      opts.args.push_back(v.str());
    else if (arg == "--device") {
      if (v != "both" && v != "cpu" && v != "gpu")
        return fail("--device must be both, cpu or gpu");
      opts.device = v.str();
    } else if (arg == "--precision") {
      auto precision = parseDotPrecision(v);
      if (!precision)
        return fail("bad --precision: " +
                    llvm::toString(precision.takeError()));
      opts.kernelOptions.precision = *precision;
    } else if (arg == "--tol") {
      if (v.getAsDouble(opts.tol) || opts.tol < 0)
        return fail("bad --tol '" + v + "'");
    } else if (arg == "--num-warps") {
      if (v.getAsInteger(10, opts.kernelOptions.numWarps))
        return fail("bad --num-warps '" + v + "'");
    } else if (arg == "--num-stages") {
      if (v.getAsInteger(10, opts.kernelOptions.numStages))
        return fail("bad --num-stages '" + v + "'");
    } else if (arg == "--seed") {
      if (v.getAsInteger(10, opts.seed))
        return fail("bad --seed '" + v + "'");
    } else if (arg == "--grid") {
      llvm::SmallVector<llvm::StringRef> dims;
      v.split(dims, ',');
      for (llvm::StringRef dim : dims) {
        unsigned n;
        if (dim.trim().getAsInteger(10, n) || n == 0)
          return fail("bad --grid '" + v + "': expected X[,Y[,Z]], each >= 1");
        opts.grid.push_back(n);
      }
      if (opts.grid.size() > 3)
        return fail("bad --grid '" + v + "': at most 3 dimensions");
    } else if (!arg.starts_with("-")) {
      if (!opts.file.empty())
        return fail("more than one input file");
      opts.file = arg.str();
    }
  }
  if (opts.kernel.empty())
    return fail("missing -k NAME");
  if (opts.grid.empty())
    return fail("missing --grid");
  return llvm::Error::success();
}

/// Launches \p kernel with \p specs; buffers live in \p buffers (host data,
/// updated in place from the device after a GPU run). Returns the seconds the
/// launch took (compile included on a first launch).
static llvm::Expected<double> launch(Kernel &kernel, const Options &opts,
                                     const std::vector<ArgSpec> &specs,
                                     Buffers &buffers) {
  bool gpu = kernel.device() == DeviceKind::GPU;
  std::vector<DeviceBuffer> deviceBuffers;
  std::vector<LaunchArg> args;
  for (auto [spec, data] : llvm::zip_equal(specs, buffers)) {
    LaunchArg arg;
    if (spec.kind == ArgSpec::Kind::Buffer) {
      if (gpu) {
        auto buf = DeviceBuffer::allocate(data.size());
        if (!buf)
          return buf.takeError();
        if (llvm::Error err = buf->copyFromHost(data.data(), data.size()))
          return std::move(err);
        arg = mgp::buffer(*buf, spec.dtype);
        deviceBuffers.push_back(std::move(*buf));
      } else {
        arg = {"", KernelArg::hostPointer(data.data(), spec.dtype),
               data.size()};
      }
    } else if (spec.kind == ArgSpec::Kind::Int) {
      arg.value = KernelArg::integer(spec.intValue);
    } else {
      arg.value = KernelArg::floating(spec.floatValue);
    }
    if (spec.keyword)
      arg.keyword = spec.label;
    args.push_back(std::move(arg));
  }
  Grid grid(opts.grid[0], opts.grid.size() > 1 ? opts.grid[1] : 1,
            opts.grid.size() > 2 ? opts.grid[2] : 1);
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error err = kernel.launchArgs(grid, nullptr, args))
    return std::move(err);
  size_t next = 0;
  for (auto [spec, data] : llvm::zip_equal(specs, buffers)) {
    if (spec.kind != ArgSpec::Kind::Buffer || !gpu)
      continue;
    if (llvm::Error err =
            deviceBuffers[next++].copyToHost(data.data(), data.size()))
      return std::move(err);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

static std::string bufferName(const ArgSpec &spec, size_t index) {
  std::string name = spec.label.empty() ? "arg" + std::to_string(index + 1)
                                        : spec.label;
  return name + ":" + dtypeName(spec.dtype).str() + "[" + spec.shape + "]";
}

static llvm::Expected<int> runKernel(const Options &opts) {
  auto file = llvm::MemoryBuffer::getFile(opts.file);
  if (!file)
    return llvm::createStringError("cannot read '" + opts.file +
                                   "': " + file.getError().message());
  std::vector<ArgSpec> specs;
  for (const std::string &text : opts.args) {
    auto spec = parseArgSpec(text);
    if (!spec)
      return spec.takeError();
    specs.push_back(std::move(*spec));
  }
  Buffers inputs;
  for (auto [index, spec] : llvm::enumerate(specs))
    inputs.push_back(spec.kind == ArgSpec::Kind::Buffer
                         ? makeBufferData(spec, opts.seed + index)
                         : std::vector<unsigned char>());

  JitOptions jitOptions;
  static_cast<KernelOptions &>(jitOptions) = opts.kernelOptions;
  jitOptions.fileName = opts.file;
  llvm::raw_ostream &os = llvm::outs();
  os << "kernel " << opts.kernel << " from " << opts.file << ", grid "
     << llvm::join(llvm::map_range(opts.grid,
                                   [](unsigned n) { return std::to_string(n); }),
                   ",")
     << "\n";

  std::optional<Buffers> cpu, gpu;
  if (opts.device != "gpu") {
    jitOptions.device = DeviceKind::CPU;
    auto kernel = jit((*file)->getBuffer(), opts.kernel, jitOptions);
    if (!kernel)
      return kernel.takeError();
    cpu = inputs;
    auto seconds = launch(*kernel, opts, specs, *cpu);
    if (!seconds)
      return seconds.takeError();
    os << llvm::format("interpreter: ran in %.3f ms (compile included)\n",
                       *seconds * 1e3);
  }
  if (opts.device != "cpu") {
    llvm::Expected<bool> present = hasGpu();
    if (!present)
      return present.takeError(); // a driver that is there but fails
    if (!*present) {
      if (opts.device == "gpu")
        return llvm::createStringError("no GPU: no CUDA driver or device");
      os << "skipped GPU: no GPU (no CUDA driver or device)\n";
    } else {
      jitOptions.device = DeviceKind::GPU;
      auto kernel = jit((*file)->getBuffer(), opts.kernel, jitOptions);
      if (!kernel)
        return kernel.takeError();
      gpu = inputs;
      auto seconds = launch(*kernel, opts, specs, *gpu);
      if (!seconds)
        return seconds.takeError();
      os << llvm::format("gpu: ran in %.3f ms (compile included)\n",
                         *seconds * 1e3);
    }
  }

  bool pass = true;
  for (auto [index, spec] : llvm::enumerate(specs)) {
    if (spec.kind != ArgSpec::Kind::Buffer)
      continue;
    os << "  " << bufferName(spec, index) << ":";
    const Buffers &one = cpu ? *cpu : *gpu;
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (uint64_t i = 0; i < spec.count; ++i) {
      double v = elementAsDouble(one[index], spec.dtype, i);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    os << llvm::format(" min %.6g max %.6g mean %.6g", lo, hi,
                       sum / double(spec.count));
    if (cpu && gpu) {
      double maxAbs = 0, maxRel = 0;
      uint64_t bad = 0;
      for (uint64_t i = 0; i < spec.count; ++i) {
        double c = elementAsDouble((*cpu)[index], spec.dtype, i);
        double g = elementAsDouble((*gpu)[index], spec.dtype, i);
        double err = std::fabs(g - c);
        if (std::isnan(c) != std::isnan(g) || std::isinf(c) != std::isinf(g))
          err = INFINITY;
        else if (std::isnan(c) || (std::isinf(c) && c == g))
          err = 0;
        maxAbs = std::max(maxAbs, err);
        maxRel = std::max(maxRel, err / std::max(std::fabs(c), 1e-30));
        if (!(err <= opts.tol * std::max(1.0, std::fabs(c))))
          ++bad;
      }
      os << llvm::format(" | max abs err %.3g, max rel err %.3g", maxAbs,
                         maxRel);
      if (bad) {
        os << llvm::formatv(" FAIL ({0} of {1} elements beyond tol {2})", bad,
                            spec.count, opts.tol);
        pass = false;
      } else {
        os << " ok";
      }
    }
    os << "\n";
  }
  if (cpu && gpu)
    os << (pass ? "PASS" : "FAIL") << ": gpu vs interpreter, tol "
       << opts.tol << "\n";
  else
    os << "ran on the " << (cpu ? "interpreter" : "GPU") << " only\n";
  return pass ? 0 : 1;
}

int mgp::run::runKernelMain(int argc, char **argv) {
  Options opts;
  if (llvm::Error err = parseOptions(argc, argv, opts)) {
    llvm::errs() << "mgp-run: error: " << llvm::toString(std::move(err));
    return 1;
  }
  llvm::Expected<int> code = runKernel(opts);
  llvm::outs().flush(); // what ran so far comes before the error
  if (!code) {
    llvm::errs() << "mgp-run: error: " << llvm::toString(code.takeError())
                 << "\n";
    return 1;
  }
  return *code;
}
