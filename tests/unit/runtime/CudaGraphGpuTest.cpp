//===- CudaGraphGpuTest.cpp - CUDA graphs and device memory on a GPU ------===//
//
// This file tests, on a GPU (label gpu), CUDA graphs captured from a stream:
// three dependent launches of the hand-written vector_add PTX are captured
// (nothing runs while capturing), replayed, and compared element by element
// with the same arithmetic on the host, on fresh random inputs written into
// the captured buffers between replays; a capture whose body fails leaves the
// stream out of capture mode and usable. It also asks DeviceBuffer for more
// memory than the device has and checks the message. Without a GPU every test
// reports "skipped: no GPU".
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaGraph.h"
#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Module.h"
#include "runtime/Stream.h"
#include "tests/unit/support/GpuTestSupport.h"

#include "TestErrors.h"
#include "TestPTX.h"

#include "gtest/gtest.h"

#include <optional>
#include <random>
#include <vector>

using namespace mgp;
using mgp::test::errorText;
using mgp::test::kVectorAddPTX;
using mgp::test::randomSignedFloats;

namespace {
class CudaGraphGpu : public ::testing::Test {
protected:
  static constexpr int n = 50021; // not a multiple of the block

  void SetUp() override {
    MGP_SKIP_WITHOUT_GPU();
    llvm::Expected<Device> opened = Device::open(0);
    ASSERT_TRUE(!!opened) << errorText(opened);
    device.emplace(std::move(*opened));
    auto loaded = Module::loadPTX(kVectorAddPTX);
    ASSERT_TRUE(!!loaded) << errorText(loaded);
    module.emplace(std::move(*loaded));
    auto function = module->getFunction("vector_add");
    ASSERT_TRUE(!!function) << errorText(function);
    add.emplace(*function);
    auto created = Stream::create();
    ASSERT_TRUE(!!created) << errorText(created);
    stream.emplace(std::move(*created));
    for (int i = 0; i < 5; ++i) {
      auto buffer = DeviceBuffer::allocate(n * sizeof(float));
      ASSERT_TRUE(!!buffer) << errorText(buffer);
      ASSERT_EQ(errorText(buffer->fill(0)), "");
      buffers.push_back(std::move(*buffer));
    }
  }

  /// Queues out = a + b (n elements) on the stream.
  llvm::Error launchAdd(int a, int b, int out) {
    CUdeviceptr pa = buffers[a].address(), pb = buffers[b].address(),
                pout = buffers[out].address();
    int count = n;
    void *args[] = {&pa, &pb, &pout, &count};
    LaunchConfig config;
    config.numWarps = 4;
    config.grid = {(n + 127) / 128, 1, 1};
    config.stream = stream->handle();
    return add->launch(config, args);
  }

  /// t = x + y; u = t + x; out = u + y (buffers 0..4 = x, y, t, u, out).
  llvm::Error enqueueChain() {
    if (llvm::Error e = launchAdd(0, 1, 2))
      return e;
    if (llvm::Error e = launchAdd(2, 0, 3))
      return e;
    return launchAdd(3, 1, 4);
  }

  void upload(int index, const std::vector<float> &values) {
    ASSERT_EQ(errorText(buffers[index].copyFromHost(
                  values.data(), values.size() * sizeof(float))),
              "");
  }

  std::vector<float> download(int index) {
    std::vector<float> values(n);
    EXPECT_EQ(
        errorText(buffers[index].copyToHost(values.data(), n * sizeof(float))),
        "");
    return values;
  }

  /// Checks buffer 4 against the chain computed on the host.
  void expectChainResult(const std::vector<float> &x,
                         const std::vector<float> &y) {
    std::vector<float> out = download(4);
    for (int i = 0; i < n; ++i) {
      float t = x[i] + y[i];
      float u = t + x[i];
      ASSERT_EQ(out[i], u + y[i]) << "at " << i;
    }
  }

  std::optional<Device> device;
  std::optional<Module> module;
  std::optional<Function> add;
  std::optional<Stream> stream;
  std::vector<DeviceBuffer> buffers;
};
} // namespace

TEST_F(CudaGraphGpu, CapturedLaunchesReplayOnFreshInputs) {
  std::vector<float> x = randomSignedFloats(n, 1), y = randomSignedFloats(n, 2);
  upload(0, x);
  upload(1, y);
  auto graph =
      CudaGraph::capture(stream->handle(), [this] { return enqueueChain(); });
  ASSERT_TRUE(!!graph) << errorText(graph);
  auto nodes = graph->numNodes();
  ASSERT_TRUE(!!nodes) << errorText(nodes);
  EXPECT_EQ(*nodes, 3u);
  // Capturing ran nothing: the output is still zero.
  ASSERT_EQ(errorText(stream->synchronize()), "");
  EXPECT_EQ(download(4), std::vector<float>(n, 0.0f));

  auto exec = CudaGraphExec::instantiate(*graph);
  ASSERT_TRUE(!!exec) << errorText(exec);
  ASSERT_EQ(errorText(exec->launch(stream->handle())), "");
  ASSERT_EQ(errorText(stream->synchronize()), "");
  expectChainResult(x, y);

  // The captured launches read the buffers, not the values at capture time:
  // new inputs, several replays back to back, the last one checked. The
  // graph object itself is no longer needed.
  std::optional<CudaGraph> captured(std::move(*graph));
  captured.reset();
  std::vector<float> x2 = randomSignedFloats(n, 3),
                     y2 = randomSignedFloats(n, 4);
  upload(0, x2);
  upload(1, y2);
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(errorText(exec->launch(stream->handle())), "");
  ASSERT_EQ(errorText(stream->synchronize()), "");
  expectChainResult(x2, y2);

  // The same launches run eagerly give the same result.
  ASSERT_EQ(errorText(buffers[4].fill(0)), "");
  ASSERT_EQ(errorText(enqueueChain()), "");
  ASSERT_EQ(errorText(stream->synchronize()), "");
  expectChainResult(x2, y2);
}

TEST_F(CudaGraphGpu, FailedCaptureLeavesTheStreamUsable) {
  auto graph = CudaGraph::capture(stream->handle(), [this]() -> llvm::Error {
    if (llvm::Error e = launchAdd(0, 1, 2))
      return e;
    return llvm::createStringError("the body failed");
  });
  EXPECT_EQ(errorText(graph), "while capturing a CUDA graph: the body failed");
  auto driver = CudaDriver::get();
  ASSERT_TRUE(!!driver) << errorText(driver);
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  ASSERT_EQ(errorText(driver->check(
                driver->cuStreamIsCapturing(stream->handle(), &status),
                "cuStreamIsCapturing")),
            "");
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);
  // The stream runs eager work again.
  std::vector<float> x = randomSignedFloats(n, 5), y = randomSignedFloats(n, 6);
  upload(0, x);
  upload(1, y);
  ASSERT_EQ(errorText(enqueueChain()), "");
  ASSERT_EQ(errorText(stream->synchronize()), "");
  expectChainResult(x, y);
}

TEST_F(CudaGraphGpu, DefaultStreamReplayIsAnError) {
  auto graph =
      CudaGraph::capture(stream->handle(), [this] { return enqueueChain(); });
  ASSERT_TRUE(!!graph) << errorText(graph);
  auto exec = CudaGraphExec::instantiate(*graph);
  ASSERT_TRUE(!!exec) << errorText(exec);
  EXPECT_EQ(errorText(exec->launch(nullptr)),
            "cuGraphLaunch: replay a CUDA graph on a created stream, not the "
            "legacy default stream");
}

TEST_F(CudaGraphGpu, ExhaustedDeviceMemoryNamesTheSize) {
  size_t total = device->properties().totalMemory;
  size_t request = total + (size_t(1) << 30);
  auto buffer = DeviceBuffer::allocate(request);
  ASSERT_FALSE(!!buffer) << "allocated " << request << " bytes";
  std::string message = errorText(buffer);
  std::string size = "cannot allocate " + std::to_string(request) + " bytes (";
  EXPECT_EQ(message.rfind(size, 0), 0u) << message;
  EXPECT_NE(message.find(" GiB) of device memory ("), std::string::npos)
      << message;
  EXPECT_NE(message.find(" GiB free of "), std::string::npos) << message;
  EXPECT_NE(message.find("cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY"),
            std::string::npos)
      << message;
  // The device is still usable afterwards.
  auto small = DeviceBuffer::allocate(1024);
  EXPECT_TRUE(!!small) << errorText(small);
}
