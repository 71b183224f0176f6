//===- JitApiTest.cpp - mgp::jit without a GPU ----------------------------===//
//
// This file implements the unit tests of the C++ JIT API that need no GPU:
// argument binding and its errors (count, unknown or repeated keywords,
// pointer vs scalar, dtype, a pointer for a constexpr), the specialization
// derived from arguments, the kernel cache on a second jit of the same kernel
// on the interpreter, relu through mgp::jit on the interpreter against C++ on
// random data, getCompiledKernel (the one compile entry) to PTX and for the
// interpreter without a GPU, and the source normalization the cache key
// covers.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/ModuleSearch.h"
#include "compiler/api/NormalizeSource.h"
#include "runtime/interp/Interpreter.h"
#include "runtime/jit/Jit.h"
#include "runtime/jit/KernelCompiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <random>

using namespace mgp;

namespace {

const char *kRelu = R"(import triton.language as tl

@triton.jit
def relu_kernel(in_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(in_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, tl.where(x > 0, x, 0.0), mask=offs < n)
)";

std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : "";
}

Kernel cpuKernel(const char *source, const char *name,
                 const std::string &signature = "") {
  JitOptions options;
  options.device = DeviceKind::CPU;
  options.signature = signature;
  auto kernel = jit(source, name, options);
  EXPECT_TRUE(bool(kernel));
  if (!kernel) {
    ADD_FAILURE() << llvm::toString(kernel.takeError());
    std::abort();
  }
  return std::move(*kernel);
}

/// 64-byte aligned host floats, so "divisible by 16" is deterministic.
struct AlignedFloats {
  explicit AlignedFloats(size_t n) : storage(n + 16), count(n) {}
  float *data() {
    auto address = reinterpret_cast<uintptr_t>(storage.data());
    return reinterpret_cast<float *>((address + 63) & ~uintptr_t(63));
  }
  std::vector<float> storage;
  size_t count;
};

TEST(JitApi, UnknownKernelListsTheKernels) {
  JitOptions options;
  options.device = DeviceKind::CPU;
  auto kernel = jit(kRelu, "nope", options);
  ASSERT_FALSE(bool(kernel));
  EXPECT_EQ(llvm::toString(kernel.takeError()),
            "<jit>: no @jit kernel 'nope' (kernels: relu_kernel)");
}

TEST(JitApi, BadOptions) {
  JitOptions options;
  options.device = DeviceKind::CPU;
  options.numWarps = 3;
  EXPECT_EQ(llvm::toString(jit(kRelu, "relu_kernel", options).takeError()),
            "num_warps must be a power of two in 1..32, got 3");
  options.numWarps = 4;
  options.numStages = 0;
  EXPECT_EQ(llvm::toString(jit(kRelu, "relu_kernel", options).takeError()),
            "num_stages must be at least 1, got 0");
  options.numStages = 3;
  options.signature = "*fp31,*fp32,i32,constexpr";
  EXPECT_EQ(llvm::toString(jit(kRelu, "relu_kernel", options).takeError()),
            "kernel 'relu_kernel': unknown element type 'fp31' for parameter "
            "'in_ptr'");
  options.signature = "*fp32,*fp32,u7,constexpr";
  EXPECT_EQ(llvm::toString(jit(kRelu, "relu_kernel", options).takeError()),
            "kernel 'relu_kernel': unknown type 'u7' for parameter 'n' "
            "(expected *dtype, i32, i64, fp32 or constexpr)");
  options.signature = "*fp32,*fp32,i32";
  EXPECT_EQ(llvm::toString(jit(kRelu, "relu_kernel", options).takeError()),
            "kernel 'relu_kernel': the signature \"*fp32,*fp32,i32\" has 3 "
            "type(s), the kernel 4 parameter(s)");
}

TEST(JitApi, ArgumentCountErrors) {
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  std::vector<float> x(16), y(16);
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, host(x), host(y), 16)),
            "kernel 'relu_kernel' takes 4 argument(s) (in_ptr, out_ptr, n, "
            "BLOCK), got 3; missing: BLOCK");
  EXPECT_EQ(
      errorText(k.launch(Grid(1), nullptr, host(x), host(y), 16, 16, 16)),
      "kernel 'relu_kernel' takes 4 argument(s) (in_ptr, out_ptr, n, BLOCK), "
      "got 5");
}

TEST(JitApi, KeywordErrors) {
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  std::vector<float> x(16), y(16);
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, host(x), host(y), 16,
                               kw("BLOCK_SIZE", 16))),
            "kernel 'relu_kernel' has no parameter 'BLOCK_SIZE' (parameters: "
            "in_ptr, out_ptr, n, BLOCK)");
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, host(x), host(y), 16, 16,
                               kw("BLOCK", 16))),
            "kernel 'relu_kernel', argument 4 ('BLOCK') is given twice");
}

TEST(JitApi, PointerForConstexprIsRejected) {
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  std::vector<float> x(16), y(16);
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, host(x), host(y), 16,
                               host(x))),
            "kernel 'relu_kernel', argument 4 ('BLOCK'): expected a "
            "constexpr, got a host pointer to fp32");
}

TEST(JitApi, DeclaredSignatureChecksPointerScalarAndDtype) {
  Kernel k = cpuKernel(kRelu, "relu_kernel", "*fp32,*fp32,i32,constexpr");
  std::vector<float> x(16), y(16);
  std::vector<int32_t> ints(16);
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, 7, host(y), 16,
                               kw("BLOCK", 16))),
            "kernel 'relu_kernel', argument 1 ('in_ptr'): expected a pointer "
            "to fp32, got the integer 7");
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, host(ints), host(y), 16,
                               kw("BLOCK", 16))),
            "kernel 'relu_kernel', argument 1 ('in_ptr'): expected a pointer "
            "to fp32, got a host pointer to i32");
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, host(x), host(y), 2.5,
                               kw("BLOCK", 16))),
            "kernel 'relu_kernel', argument 3 ('n'): expected i32, got the "
            "float 2.5");
}

TEST(JitApi, EmptyGridDimensionIsRejected) {
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  std::vector<float> x(16), y(16);
  EXPECT_EQ(errorText(k.launch(Grid(1, 0), nullptr, host(x), host(y), 16,
                               kw("BLOCK", 16))),
            "kernel 'relu_kernel': grid (1, 0, 1) has an empty dimension");
}

TEST(JitApi, DevicePointerOnTheCpuIsRejected) {
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  std::vector<float> y(16);
  LaunchArg fake{"", KernelArg::devicePointer(0x10000, DType::F32), 64};
  EXPECT_EQ(errorText(k.launch(Grid(1), nullptr, fake, host(y), 16,
                               kw("BLOCK", 16))),
            "kernel 'relu_kernel', argument 'in_ptr': a device pointer cannot "
            "be passed to a CPU kernel; pass host memory (mgp::host)");
}

TEST(JitApi, SpecializationFromArguments) {
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  AlignedFloats x(64), y(64);
  auto spec = [&](LaunchArg a, LaunchArg b, LaunchArg n) {
    std::vector<LaunchArg> args{a, b, n, kw("BLOCK", 32)};
    auto text = k.specialization(args);
    return text ? *text : llvm::toString(text.takeError());
  };
  LaunchArg hx = host(x.data(), 64), hy = host(y.data(), 64);
  EXPECT_EQ(spec(hx, hy, toLaunchArg(64)), "*fp32:16,*fp32:16,i32:16,32");
  EXPECT_EQ(spec(hx, hy, toLaunchArg(1)), "*fp32:16,*fp32:16,i32:1,32");
  EXPECT_EQ(spec(hx, hy, toLaunchArg(63)), "*fp32:16,*fp32:16,i32,32");
  EXPECT_EQ(spec(host(x.data() + 1, 63), hy, toLaunchArg(63)),
            "*fp32,*fp32:16,i32,32");
  EXPECT_EQ(spec(hx, hy, toLaunchArg(int64_t(1) << 33)),
            "*fp32:16,*fp32:16,i64:16,32");
}

TEST(JitApi, ReluOnTheInterpreterMatchesCpp) {
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  const int n = 5000; // not a multiple of the block: the mask matters
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> x(n), y(n, 7.0f);
  for (float &v : x)
    v = dist(gen);
  ASSERT_EQ(errorText(k.launch(Grid((n + 255) / 256), nullptr, host(x),
                               host(y), n, kw("BLOCK", 256))),
            "");
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(y[i], x[i] > 0 ? x[i] : 0.0f) << i;
}

TEST(JitApi, SecondJitOfTheSameKernelHitsTheCache) {
  std::vector<float> x(300, -1.0f), y(300);
  auto launchOnce = [&]() {
    Kernel k = cpuKernel(kRelu, "relu_kernel");
    return errorText(k.launch(Grid(3), nullptr, host(x), host(y), 300,
                              kw("BLOCK", 128)));
  };
  ASSERT_EQ(launchOnce(), "");
  KernelCache::Stats before = KernelCache::global().stats();
  ASSERT_EQ(launchOnce(), "");
  KernelCache::Stats after = KernelCache::global().stats();
  EXPECT_EQ(after.compiles, before.compiles);
  EXPECT_EQ(after.memoryHits, before.memoryHits + 1);
  // Another BLOCK is another specialization: compiled.
  Kernel k = cpuKernel(kRelu, "relu_kernel");
  ASSERT_EQ(errorText(k.launch(Grid(5), nullptr, host(x), host(y), 300,
                               kw("BLOCK", 64))),
            "");
  EXPECT_EQ(KernelCache::global().stats().compiles, after.compiles + 1);
}

TEST(JitApi, CompileErrorNamesTheSpecialization) {
  const char *bad = R"(import triton.language as tl
@triton.jit
def k(p, BLOCK: tl.constexpr):
    tl.store(p + tl.arange(0, BLOCK), undefined_name)
)";
  Kernel k = cpuKernel(bad, "k");
  std::vector<float> x(16);
  std::string text =
      errorText(k.launch(Grid(1), nullptr, host(x), kw("BLOCK", 16)));
  EXPECT_EQ(text.rfind("compiling kernel 'k' for *fp32:16,16:\n", 0), 0u)
      << text;
  EXPECT_NE(text.find("undefined_name"), std::string::npos) << text;
}

/// The request mgp::jit makes for relu_kernel at *fp32:16,*fp32:16,i32:16,
/// 1024.
KernelRequest
reluRequest(llvm::StringRef arch,
            const char *signature = "*fp32:16,*fp32:16,i32:16,1024") {
  KernelRequest request;
  request.source = kRelu;
  request.fileName = "relu.py";
  request.kernelName = "relu_kernel";
  request.signature = std::move(*parseSignature(signature));
  request.target = *Target::parse(arch);
  return request;
}

/// The GPU compile path needs no GPU: getCompiledKernel gives PTX whose entry
/// takes the non-constexpr parameters, and a second cache on the same
/// directory (as a second process would) finds it on disk.
TEST(KernelCompiler, PtxThroughTheCacheWithoutAGpu) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-jit-test", dir));
  KernelRequest request = reluRequest("sm_90");
  std::string log1, log2;
  llvm::raw_string_ostream os1(log1), os2(log2);
  CacheConfig config{dir.str().str(), true, true};
  {
    KernelCache cache(config, os1);
    CacheSource source;
    auto compiled = getCompiledKernel(request, cache, &source);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    EXPECT_EQ(source, CacheSource::Compiled);
    EXPECT_EQ((*compiled)->name, "relu_kernel");
    EXPECT_NE((*compiled)->ptx.find(".entry relu_kernel"), std::string::npos);
    EXPECT_NE((*compiled)->ptx.find(".target sm_90"), std::string::npos);
    EXPECT_EQ((*compiled)->numWarps, 4);
    EXPECT_FALSE((*compiled)->interp);
    // The same request again: the same kernel from memory.
    auto again = getCompiledKernel(request, cache, &source);
    ASSERT_TRUE(bool(again));
    EXPECT_EQ(source, CacheSource::Memory);
    EXPECT_EQ(again->get(), compiled->get());
    // Other options are another kernel.
    request.options.numWarps = 8;
    auto eight = getCompiledKernel(request, cache, &source);
    ASSERT_TRUE(bool(eight)) << llvm::toString(eight.takeError());
    EXPECT_EQ(source, CacheSource::Compiled);
    EXPECT_EQ((*eight)->numWarps, 8);
    request.options.numWarps = 4;
  }
  KernelCache cache(config, os2);
  CacheSource source;
  auto again = getCompiledKernel(request, cache, &source);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(source, CacheSource::Disk);
  EXPECT_EQ(cache.stats().compiles, 0u);
  EXPECT_NE(log1.find("mgp: compiled relu_kernel[*fp32:16,*fp32:16,i32:16,"
                      "1024] sm_90 w4 s3 tf32"),
            std::string::npos)
      << log1;
  EXPECT_NE(log2.find("from the disk cache"), std::string::npos) << log2;
  llvm::sys::fs::remove_directories(dir);
}

/// Writes \p text to \p dir / \p name (folders made as needed).
static void writeFile(llvm::StringRef dir, llvm::StringRef name,
                      llvm::StringRef text) {
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, name);
  ASSERT_FALSE(
      llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)));
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  ASSERT_FALSE(ec) << ec.message();
  out << text;
}

/// A helper imported from a sibling module, edited between two processes'
/// caches on one directory: the second compiles again and gets the new
/// helper, never the first's PTX from the disk cache. Scale 3.0 is PTX
/// 0f40400000, 5.0 is 0f40A00000.
TEST(KernelCompiler, AnEditedHelperModuleIsCompiledAgain) {
  llvm::SmallString<128> dir, cacheDir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-jit-src", dir));
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-jit-test", cacheDir));
  const std::string kernel =
      "import triton\nimport triton.language as tl\n"
      "from .ops.scale import scaled\n\n"
      "@triton.jit\n"
      "def k(X, B: tl.constexpr):\n"
      "    offs = tl.arange(0, B)\n"
      "    tl.store(X + offs, scaled(tl.load(X + offs)))\n";
  writeFile(dir, "kernel.py", kernel);
  writeFile(dir, "ops/__init__.py", "");
  // The helper's module takes its factor from a third module.
  writeFile(dir, "ops/scale.py",
            "import triton\nfrom .factor import FACTOR\n\n"
            "@triton.jit\ndef scaled(x):\n    return x * FACTOR\n");
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, "kernel.py");
  KernelRequest request;
  request.source = kernel;
  request.fileName = file.str().str();
  request.kernelName = "k";
  request.signature = std::move(*parseSignature("*fp32,1024"));
  request.target = *Target::parse("sm_90");
  CacheConfig config{cacheDir.str().str(), true, true};
  std::string log;
  llvm::raw_string_ostream os(log);
  for (const char *factor : {"3.0", "5.0"}) {
    writeFile(dir, "ops/factor.py", std::string("FACTOR = ") + factor + "\n");
    KernelCache cache(config, os); // a new process on the same directory
    CacheSource source;
    auto compiled = getCompiledKernel(request, cache, &source);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    EXPECT_EQ(source, CacheSource::Compiled) << factor;
    EXPECT_NE((*compiled)->ptx.find(llvm::StringRef(factor) == "3.0"
                                        ? "0f40400000"
                                        : "0f40A00000"),
              std::string::npos)
        << factor;
  }
  // Unchanged files: the disk cache answers.
  KernelCache cache(config, os);
  CacheSource source;
  ASSERT_TRUE(bool(getCompiledKernel(request, cache, &source)));
  EXPECT_EQ(source, CacheSource::Disk);
  llvm::sys::fs::remove_directories(dir);
  llvm::sys::fs::remove_directories(cacheDir);
}

TEST(ModuleSearch, ImportedModuleFilesTransitively) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-imports", dir));
  writeFile(dir, "pkg/__init__.py", "");
  writeFile(dir, "pkg/utils.py", "from . import consts\n");
  writeFile(dir, "pkg/consts.py", "N = 1\n");
  writeFile(dir, "pkg/kernels/main.py", "");
  writeFile(dir, "pkg/kernels/act.py", "import pkg.utils as u\n");
  writeFile(dir, "pkg/kernels/unused.py", "");
  const char *source =
      "import triton\nimport triton.language as tl\n"
      "from triton.language.extra import libdevice\n"
      "from .act import (\n    gelu,  # a comment\n    silu,\n)\n"
      "from .. import utils\n"
      "import math, os\n";
  llvm::SmallString<128> file(dir);
  llvm::sys::path::append(file, "pkg/kernels/main.py");
  std::vector<std::string> found = findImportedModuleFiles(source, file, {});
  std::vector<std::string> names;
  for (const std::string &path : found)
    names.push_back(path.substr(dir.size() + 1));
  // The file's own imports in order (act.py; `from .. import utils` finds
  // pkg/utils.py), then theirs: utils.py's `from . import consts` finds
  // consts.py, act.py's `import pkg.utils` the utils.py already found.
  // triton, math and os are no files here.
  EXPECT_EQ(llvm::join(names, " "),
            "pkg/kernels/act.py pkg/utils.py pkg/consts.py")
      << llvm::join(names, " ");
  // A file that is not on disk has no folder to look in for relative imports.
  EXPECT_TRUE(findImportedModuleFiles(source, "<jit>", {}).empty());
  llvm::sys::fs::remove_directories(dir);
}

/// Arch "cpu": an interpreter kernel, kept in memory only.
TEST(KernelCompiler, InterpreterKernelsStayInMemory) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("mgp-jit-test", dir));
  llvm::SmallString<128> entries(dir);
  llvm::sys::path::append(entries, "entries");
  std::string log;
  llvm::raw_string_ostream os(log);
  KernelCache cache(CacheConfig{entries.str().str(), true, false}, os);
  CacheSource source;
  const char *signature = "*fp32,*fp32,i32,128";
  auto compiled =
      getCompiledKernel(reluRequest("cpu", signature), cache, &source);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  EXPECT_EQ(source, CacheSource::Compiled);
  ASSERT_TRUE((*compiled)->interp);
  EXPECT_EQ((*compiled)->ptx, "");
  EXPECT_EQ((*compiled)->arch, "cpu");
  // Nothing reached the disk, not even the directory.
  EXPECT_FALSE(llvm::sys::fs::exists(entries));
  EXPECT_EQ(log, "");
  auto again = getCompiledKernel(reluRequest("cpu", signature), cache, &source);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(source, CacheSource::Memory);
  std::vector<float> x{-1, 2, -3, 4}, y(4);
  std::vector<InterpArg> args{InterpArg::buffer(x.data(), 4, DType::F32),
                              InterpArg::buffer(y.data(), 4, DType::F32),
                              InterpArg::integer(4)};
  ASSERT_EQ(errorText((*again)->interp->run({1, 1, 1}, args, {})), "");
  EXPECT_EQ(y, (std::vector<float>{0, 2, 0, 4}));
  llvm::sys::fs::remove_directories(dir);
}

TEST(KernelCompiler, ErrorsNameTheKernelAndSpecialization) {
  KernelRequest request = reluRequest("sm_80");
  request.kernelName = "gelu_kernel";
  auto compiled = getCompiledKernel(request);
  ASSERT_FALSE(bool(compiled));
  EXPECT_EQ(
      errorText(compiled.takeError()),
      "compiling kernel 'gelu_kernel' for *fp32:16,*fp32:16,i32:16,1024:\n"
      "relu.py: no @jit kernel 'gelu_kernel' (kernels: relu_kernel)");
  EXPECT_EQ(describeRequest(reluRequest("sm_80")),
            "relu_kernel[*fp32:16,*fp32:16,i32:16,1024] sm_80 w4 s3 tf32");
}

TEST(NormalizeSource, KernelHelpersConstantsAndImports) {
  const char *source = "import triton.language as tl\n"
                       "SCALE = 2   \r\n"
                       "\n"
                       "def unused(x):\n    return x\n"
                       "\n"
                       "def helper(x):\n    return x * SCALE\n"
                       "\n"
                       "@triton.jit\n"
                       "def k(p):\n    tl.store(p, helper(1.0))\n";
  EXPECT_EQ(normalizeKernelSource(source, "k"),
            "@triton.jit\ndef k(p):\n    tl.store(p, helper(1.0))\n\n"
            "SCALE = 2\n\n"
            "def helper(x):\n    return x * SCALE\n\n"
            "import triton.language as tl");
  // An edit to an unrelated function keeps the text; one to a helper changes
  // it.
  std::string other = source;
  other.replace(other.find("return x\n"), 9, "return -x\n");
  EXPECT_EQ(normalizeKernelSource(other, "k"),
            normalizeKernelSource(source, "k"));
  std::string helper = source;
  helper.replace(helper.find("x * SCALE"), 9, "x + SCALE");
  EXPECT_NE(normalizeKernelSource(helper, "k"),
            normalizeKernelSource(source, "k"));
  // No chunk named for the kernel: the whole file.
  EXPECT_EQ(normalizeKernelSource("x = 1\n\ny = 2\n", "missing"),
            "x = 1\n\ny = 2");
}

/// Whether replacing \p from with \p to in \p source changes the text the
/// cache key of kernel \p name covers.
static bool editChangesKey(const std::string &source, llvm::StringRef name,
                           const std::string &from, const std::string &to) {
  std::string edited = source;
  size_t at = edited.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  edited.replace(at, from.size(), to);
  return normalizeKernelSource(edited, name) !=
         normalizeKernelSource(source, name);
}

TEST(NormalizeSource, EveryEditToTheKernelChangesTheKey) {
  // `k = triton.jit(k)` rebinds the def above it: both are the kernel.
  const char *rebound = "import triton\n"
                        "def k(X, Y):\n    tl.store(Y, tl.load(X) * 2)\n\n"
                        "k = triton.jit(k)\n\n"
                        "def host():\n    pass\n";
  EXPECT_TRUE(editChangesKey(rebound, "k", "* 2", "* 3"));
  EXPECT_FALSE(editChangesKey(rebound, "k", "pass", "return 1"));
  // A decorator whose arguments span lines: the def below it is the chunk's
  // name.
  const char *autotuned =
      "@triton.autotune(\n"
      "    configs=[triton.Config({'B': b}) for b in (64, 128)],\n"
      "    key=['N'],\n"
      ")\n"
      "@triton.jit\n"
      "def k(X, N, B: tl.constexpr):\n    tl.store(X, tl.abs(tl.load(X)))\n\n"
      "def host():\n    pass\n";
  EXPECT_TRUE(editChangesKey(autotuned, "k", "tl.abs(", "tl.exp("));
  EXPECT_TRUE(editChangesKey(autotuned, "k", "(64, 128)", "(64, 256)"));
  EXPECT_FALSE(editChangesKey(autotuned, "k", "pass", "return 1"));
  // A guarded import binds a name the kernel uses; the script guard holds
  // host code only.
  const char *guarded =
      "try:\n    from triton.language.extra.libdevice import tanh\n"
      "except ImportError:\n    from triton.language.math import tanh\n\n"
      "@triton.jit\n"
      "def k(X):\n    tl.store(X, tanh(tl.load(X)))\n\n"
      "if __name__ == '__main__':\n    print(1)\n";
  EXPECT_TRUE(editChangesKey(guarded, "k", "extra.libdevice", "math"));
  EXPECT_FALSE(editChangesKey(guarded, "k", "print(1)", "print(2)"));
}

} // namespace
