//===- GpuRuntimeTest.cpp - the driver layer on a real GPU ----------------===//
//
// This file tests the driver layer on a GPU: device properties, buffers,
// streams and events, loading hand-written PTX, launching it on 1-D and 2-D
// grids (with more than 48 KB of dynamic shared memory) and comparing with
// the same computation on the host on random data, the error for PTX the
// driver rejects (with its JIT log), several kernels loaded at once (their
// JITs on worker threads), and a kernel that reaches the GPU
// through a pluggable compile function and the disk cache. Without a GPU
// every test reports "skipped: no GPU". Nothing here measures time.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Event.h"
#include "runtime/KernelCache.h"
#include "runtime/LoadedKernel.h"
#include "runtime/Module.h"
#include "runtime/Specialization.h"
#include "runtime/Stream.h"
#include "tests/unit/support/GpuTestSupport.h"

#include "CacheTestSupport.h"
#include "TestErrors.h"
#include "TestPTX.h"

#include "gtest/gtest.h"

#include <optional>
#include <random>
#include <vector>

using namespace mgp;
using mgp::test::errorText;
using mgp::test::kReverseBlocksPTX;
using mgp::test::kVectorAddPTX;
using mgp::test::randomSignedFloats;

namespace {
class GpuRuntime : public ::testing::Test {
protected:
  void SetUp() override {
    MGP_SKIP_WITHOUT_GPU();
    llvm::Expected<Device> opened = Device::open(0);
    ASSERT_TRUE(!!opened) << errorText(opened);
    device.emplace(std::move(*opened));
  }

  /// Copies \p values to a new device buffer.
  DeviceBuffer upload(const std::vector<float> &values) {
    auto buffer = DeviceBuffer::allocate(values.size() * sizeof(float));
    EXPECT_TRUE(!!buffer) << errorText(buffer);
    EXPECT_EQ(errorText(buffer->copyFromHost(values.data(),
                                             values.size() * sizeof(float))),
              "");
    return std::move(*buffer);
  }

  std::vector<float> download(const DeviceBuffer &buffer, size_t n) {
    std::vector<float> values(n);
    EXPECT_EQ(errorText(buffer.copyToHost(values.data(), n * sizeof(float))),
              "");
    return values;
  }

  /// Runs vector_add (\p function, 128 threads a program) on \p n random
  /// pairs on \p stream and expects exactly x + y.
  void expectVectorAdd(Function &function, int n, unsigned seed,
                       CUstream stream) {
    std::vector<float> x = randomSignedFloats(n, seed),
                       y = randomSignedFloats(n, seed + 1);
    DeviceBuffer dx = upload(x), dy = upload(y);
    auto dout = DeviceBuffer::allocate(n * sizeof(float));
    ASSERT_TRUE(!!dout) << errorText(dout);
    CUdeviceptr px = dx.address(), py = dy.address(), pout = dout->address();
    int count = n;
    void *args[] = {&px, &py, &pout, &count};
    LaunchConfig config;
    config.numWarps = 4;
    config.grid = {unsigned(n + 127) / 128, 1, 1};
    config.stream = stream;
    ASSERT_EQ(errorText(function.launch(config, args)), "");
    ASSERT_EQ(errorText(device->synchronize()), "");
    std::vector<float> out = download(*dout, n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out[i], x[i] + y[i]) << "at " << i;
  }

  std::optional<Device> device;
};
} // namespace

TEST_F(GpuRuntime, DeviceProperties) {
  const DeviceProperties &props = device->properties();
  EXPECT_FALSE(props.name.empty());
  EXPECT_GE(props.computeMajor, 7);
  EXPECT_EQ(props.arch, getTargetArch(props.computeMajor, props.computeMinor,
                                      std::getenv("MGP_NO_WGMMA")));
  EXPECT_GT(props.smCount, 0);
  EXPECT_EQ(props.maxSharedPerBlock, 48 * 1024);
  EXPECT_GT(props.maxSharedPerBlockOptin, props.maxSharedPerBlock);
  EXPECT_GT(props.totalMemory, size_t(1) << 30);
  auto count = getDeviceCount();
  ASSERT_TRUE(!!count) << errorText(count);
  EXPECT_GE(*count, 1);
  std::cout << "device: " << props.name << " " << props.arch << ", "
            << props.smCount << " SMs, shared " << props.maxSharedPerBlockOptin
            << " bytes opt-in\n";
}

TEST_F(GpuRuntime, MissingDeviceOrdinal) {
  auto count = getDeviceCount();
  ASSERT_TRUE(!!count) << errorText(count);
  auto missing = Device::open(*count);
  EXPECT_EQ(errorText(missing), "no CUDA device " + std::to_string(*count) +
                                    ": " + std::to_string(*count) +
                                    " device(s) present");
}

TEST_F(GpuRuntime, BufferRoundTripAndBounds) {
  std::vector<float> values = randomSignedFloats(1000, 1);
  DeviceBuffer buffer = upload(values);
  EXPECT_EQ(download(buffer, values.size()), values);
  std::vector<float> big(2000);
  EXPECT_EQ(errorText(buffer.copyToHost(big.data(), big.size() * 4)),
            "copy to host: 8000 bytes requested from a device buffer of 4000");
  ASSERT_EQ(errorText(buffer.fill(0)), "");
  EXPECT_EQ(download(buffer, values.size()), std::vector<float>(1000, 0.0f));
}

TEST_F(GpuRuntime, VectorAddMatchesHost) {
  auto module = Module::loadPTX(kVectorAddPTX);
  ASSERT_TRUE(!!module) << errorText(module);
  auto function = module->getFunction("vector_add");
  ASSERT_TRUE(!!function) << errorText(function);
  auto attrs = function->attributes();
  ASSERT_TRUE(!!attrs) << errorText(attrs);
  EXPECT_GT(attrs->numRegs, 0);
  EXPECT_EQ(attrs->staticSharedBytes, 0);

  auto stream = Stream::create();
  ASSERT_TRUE(!!stream) << errorText(stream);
  expectVectorAdd(*function, 100003, 2, stream->handle()); // not a multiple
                                                           // of the block
}

TEST_F(GpuRuntime, TwoDimensionalGridWithLargeDynamicShared) {
  auto module = Module::loadPTX(kReverseBlocksPTX);
  ASSERT_TRUE(!!module) << errorText(module);
  auto function = module->getFunction("reverse_blocks");
  ASSERT_TRUE(!!function) << errorText(function);

  const unsigned gridX = 7, gridY = 5, threads = 256;
  const size_t n = size_t(gridX) * gridY * threads;
  std::vector<float> in = randomSignedFloats(n, 4);
  DeviceBuffer din = upload(in);
  auto dout = DeviceBuffer::allocate(n * sizeof(float));
  ASSERT_TRUE(!!dout) << errorText(dout);

  unsigned sharedBytes = 100 * 1024; // above the 48 KB default
  CUdeviceptr pin = din.address(), pout = dout->address();
  void *args[] = {&pin, &pout, &sharedBytes};
  LaunchConfig config;
  config.grid = {gridX, gridY, 1};
  config.numWarps = threads / 32;
  config.sharedBytes = sharedBytes;
  ASSERT_EQ(errorText(function->launch(config, args)), "");
  ASSERT_EQ(errorText(device->synchronize()), "");
  std::vector<float> out = download(*dout, n);
  for (size_t block = 0; block < size_t(gridX) * gridY; ++block)
    for (unsigned t = 0; t < threads; ++t)
      ASSERT_EQ(out[block * threads + t], in[block * threads + threads - 1 - t])
          << "block " << block << " thread " << t;
}

TEST_F(GpuRuntime, TooMuchSharedMemoryIsAnError) {
  auto module = Module::loadPTX(kReverseBlocksPTX);
  ASSERT_TRUE(!!module) << errorText(module);
  auto function = module->getFunction("reverse_blocks");
  ASSERT_TRUE(!!function) << errorText(function);
  unsigned tooMuch = device->properties().maxSharedPerBlockOptin + 1024;
  std::string message = errorText(function->setMaxDynamicSharedBytes(tooMuch));
  EXPECT_TRUE(llvm::StringRef(message).starts_with(
      "kernel 'reverse_blocks' cannot use " + std::to_string(tooMuch) +
      " bytes of dynamic shared memory: cuFuncSetAttribute failed: "
      "CUDA_ERROR_INVALID_VALUE"))
      << message;
}

TEST_F(GpuRuntime, BadLaunchConfigurations) {
  auto module = Module::loadPTX(kVectorAddPTX);
  ASSERT_TRUE(!!module) << errorText(module);
  auto function = module->getFunction("vector_add");
  ASSERT_TRUE(!!function) << errorText(function);
  LaunchConfig config;
  config.grid = {4, 0, 1};
  EXPECT_EQ(errorText(function->launch(config, nullptr)),
            "kernel 'vector_add': grid (4, 0, 1) has an empty dimension");
  config.grid = {1, 1, 1};
  config.numWarps = 33;
  EXPECT_EQ(errorText(function->launch(config, nullptr)),
            "kernel 'vector_add': num_warps must be in 1..32, got 33");
}

TEST_F(GpuRuntime, RejectedPTXKeepsTheJitLog) {
  const char *broken =
      ".version 7.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry broken()\n{\n  bogus.op %r1;\n  ret;\n}\n";
  auto module = Module::loadPTX(broken);
  ASSERT_FALSE(!!module);
  std::string message = errorText(module);
  EXPECT_TRUE(llvm::StringRef(message).starts_with(
      "cuLinkAddData failed: CUDA_ERROR_INVALID_PTX"))
      << message;
  EXPECT_NE(message.find("\nPTX JIT log:\n"), std::string::npos) << message;
  EXPECT_NE(message.find("ptxas"), std::string::npos) << message;
  std::cout << "rejected PTX error:\n" << message << "\n";
}

TEST_F(GpuRuntime, LoadAllCompilesOnWorkerThreadsInOrder) {
  auto kernel = [](const char *name, const char *ptx) {
    auto compiled = std::make_shared<CompiledKernel>();
    compiled->name = name;
    compiled->ptx = ptx;
    compiled->arch = "sm_80";
    return compiled;
  };
  const char *broken =
      ".version 7.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry broken()\n{\n  bogus.op %r1;\n  ret;\n}\n";
  std::vector<LoadedKernel::Request> requests = {
      {kernel("vector_add", kVectorAddPTX), "'first'"},
      {kernel("broken", broken), "'second'"},
      {kernel("reverse_blocks", kReverseBlocksPTX), "'third'"},
      {kernel("vector_add", kVectorAddPTX), "'fourth'"}};
  std::vector<llvm::Expected<LoadedKernel>> loaded =
      LoadedKernel::loadAll(requests);
  ASSERT_EQ(loaded.size(), requests.size());
  ASSERT_TRUE(!!loaded[0]) << errorText(loaded[0]);
  std::string message = errorText(loaded[1]);
  EXPECT_TRUE(llvm::StringRef(message).starts_with(
      "loading kernel 'second': cuLinkAddData failed: "
      "CUDA_ERROR_INVALID_PTX"))
      << message;
  EXPECT_NE(message.find("\nPTX JIT log:\n"), std::string::npos) << message;
  ASSERT_TRUE(!!loaded[2]) << errorText(loaded[2]);
  ASSERT_TRUE(!!loaded[3]) << errorText(loaded[3]);
  EXPECT_EQ(loaded[2]->kernel->name, "reverse_blocks");

  // A kernel JIT-compiled on a worker thread launches on this one.
  expectVectorAdd(loaded[3]->function, 5000, 11, nullptr);
}

TEST_F(GpuRuntime, UnknownKernelName) {
  auto module = Module::loadPTX(kVectorAddPTX);
  ASSERT_TRUE(!!module) << errorText(module);
  auto function = module->getFunction("vector_mul");
  EXPECT_EQ(errorText(function),
            "no kernel 'vector_mul' in the module: cuModuleGetFunction failed: "
            "CUDA_ERROR_NOT_FOUND (named symbol not found)");
}

TEST_F(GpuRuntime, EventsGiveElapsedTime) {
  auto stream = Stream::create();
  ASSERT_TRUE(!!stream) << errorText(stream);
  auto start = Event::create(), end = Event::create();
  ASSERT_TRUE(!!start && !!end);
  std::vector<float> values = randomSignedFloats(1 << 20, 5);
  DeviceBuffer buffer = upload(values);
  ASSERT_EQ(errorText(start->record(stream->handle())), "");
  ASSERT_EQ(errorText(buffer.copyFromHostAsync(values.data(), values.size() * 4,
                                               stream->handle())),
            "");
  ASSERT_EQ(errorText(end->record(stream->handle())), "");
  ASSERT_EQ(errorText(end->synchronize()), "");
  auto ms = Event::elapsedMs(*start, *end);
  ASSERT_TRUE(!!ms) << errorText(ms);
  EXPECT_GE(*ms, 0.0f);
  // Elapsed time needs both events recorded: a fresh event is an error.
  auto unrecorded = Event::create();
  ASSERT_TRUE(!!unrecorded);
  auto bad = Event::elapsedMs(*unrecorded, *end);
  std::string message = errorText(bad);
  EXPECT_TRUE(llvm::StringRef(message).starts_with(
      "cuEventElapsedTime failed: CUDA_ERROR_INVALID_HANDLE"))
      << message;
}

TEST_F(GpuRuntime, CompiledThroughTheCacheAndLaunched) {
  // The compile step is a function: here it hands back the hand-written PTX.
  test::TempDir dir;
  CacheConfig config;
  config.directory = dir.str();
  int compiles = 0;
  auto compile = [&]() -> llvm::Expected<CompiledKernel> {
    ++compiles;
    CompiledKernel kernel;
    kernel.name = "vector_add";
    kernel.ptx = kVectorAddPTX;
    kernel.numWarps = 2;
    kernel.arch = "sm_80";
    return kernel;
  };
  for (int process = 0; process < 2; ++process) {
    KernelCache cache(config);
    auto kernel = cache.getOrCompile("vector-add-key", "vector_add", compile);
    ASSERT_TRUE(!!kernel) << errorText(kernel);
    auto loaded = LoadedKernel::load(*kernel, "'vector_add'");
    ASSERT_TRUE(!!loaded) << errorText(loaded);
    const int n = 4099;
    std::vector<float> x = randomSignedFloats(n, 10 + process),
                       y = randomSignedFloats(n, 20 + process);
    DeviceBuffer dx = upload(x), dy = upload(y), dout = upload(x);
    CUdeviceptr px = dx.address(), py = dy.address(), pout = dout.address();
    int count = n;
    void *args[] = {&px, &py, &pout, &count};
    LaunchConfig launch;
    launch.numWarps = (*kernel)->numWarps;
    launch.grid = {(n + 63) / 64, 1, 1};
    ASSERT_EQ(errorText(loaded->function.launch(launch, args)), "");
    std::vector<float> out = download(dout, n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out[i], x[i] + y[i]) << "at " << i;
  }
  EXPECT_EQ(compiles, 1); // the second "process" read the disk entry
}

TEST_F(GpuRuntime, LoadedKernelLaunchesCheckedArguments) {
  // What mgp::jit does per launch, with hand-written PTX for the compiler:
  // signature check, specialization, cache, LoadedKernel, argument packing,
  // launch.
  CacheConfig config;
  config.diskEnabled = false;
  KernelCache cache(config);
  int compiles = 0;
  KernelSignature signature{
      "vector_add",
      {KernelParam::pointer("x_ptr", DType::F32),
       KernelParam::pointer("y_ptr", DType::F32),
       KernelParam::pointer("out_ptr", DType::F32),
       KernelParam::scalar("n", ParamKind::Int32),
       KernelParam::scalar("BLOCK", ParamKind::Constexpr)}};
  auto launch = [&](unsigned programs,
                    llvm::ArrayRef<KernelArg> args) -> llvm::Error {
    auto spec = deriveSpecialization(signature, args);
    if (!spec)
      return spec.takeError();
    auto compiled = cache.getOrCompile(
        spec->str(), "vector_add", [&]() -> llvm::Expected<CompiledKernel> {
          ++compiles;
          CompiledKernel kernel;
          kernel.name = "vector_add";
          kernel.ptx = kVectorAddPTX;
          kernel.numWarps = 4;
          kernel.arch = device->properties().arch;
          return kernel;
        });
    if (!compiled)
      return compiled.takeError();
    auto loaded = LoadedKernel::load(*compiled, "'vector_add'");
    if (!loaded)
      return loaded.takeError();
    std::vector<uint64_t> slots;
    for (auto [param, arg] : llvm::zip_equal(signature.params, args)) {
      if (param.kind == ParamKind::Constexpr)
        continue;
      auto slot = packLaunchSlot(param, arg, signature.kernelName);
      if (!slot)
        return slot.takeError();
      slots.push_back(*slot);
    }
    std::vector<void *> pointers;
    for (uint64_t &slot : slots)
      pointers.push_back(&slot);
    return loaded->function.launch(
        loaded->launchConfig({programs, 1, 1}, nullptr), pointers.data());
  };
  for (int n : {5000, 4096, 777}) {
    std::vector<float> x = randomSignedFloats(n, n),
                       y = randomSignedFloats(n, n + 1);
    DeviceBuffer dx = upload(x), dy = upload(y), dout = upload(y);
    std::vector<KernelArg> args = {
        KernelArg::devicePointer(dx.address(), DType::F32),
        KernelArg::devicePointer(dy.address(), DType::F32),
        KernelArg::devicePointer(dout.address(), DType::F32),
        KernelArg::integer(n), KernelArg::integer(128)};
    unsigned programs = (n + 127) / 128;
    ASSERT_EQ(errorText(launch(programs, args)), "");
    std::vector<float> out = download(dout, n);
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(out[i], x[i] + y[i]) << "n " << n << " at " << i;
  }
  // 5000 and 777 share a specialization (neither divisible by 16 nor 1).
  EXPECT_EQ(compiles, 2);

  std::vector<float> host(16);
  std::vector<KernelArg> bad = {KernelArg::hostPointer(host.data(), DType::F32),
                                KernelArg::hostPointer(host.data(), DType::F32),
                                KernelArg::hostPointer(host.data(), DType::F32),
                                KernelArg::integer(16),
                                KernelArg::integer(128)};
  EXPECT_EQ(errorText(launch(1, bad)),
            "kernel 'vector_add', argument 'x_ptr': a host pointer cannot be "
            "passed to a GPU kernel; copy the data to a DeviceBuffer");
}
