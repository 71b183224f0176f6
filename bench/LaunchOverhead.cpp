//===- LaunchOverhead.cpp - microseconds per Kernel::launch ---------------===//
//
// This file implements the launch-overhead benchmark (mgp-bench-launch, `make
// bench-launch`): with a warm cache (one launch and a synchronize first), it
// times N back-to-back `k.launch(...)` calls of an empty kernel and of relu
// on 1M floats, host side (the time the calls take to return) and until a
// synchronize after the last one, and prints a table. A first row times the
// driver alone (cuLaunchKernel of an empty hand-written PTX kernel with the
// same two parameters, through mgp::Function): the floor under any launch. Without a GPU it
// prints "skipped: no GPU" and exits 0.
//
//===----------------------------------------------------------------------===//
#include "runtime/Device.h"
#include "runtime/Module.h"
#include "runtime/Stream.h"
#include "runtime/jit/Jit.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <functional>

using namespace mgp;

static const char *kEmptyKernel = R"(
import triton.language as tl

@triton.jit
def empty_kernel(x_ptr, n, BLOCK: tl.constexpr):
    pass
)";

/// An empty kernel taking (pointer, i32), as empty_kernel does.
static const char *kFloorPTX = R"(.version 7.0
.target sm_50
.address_size 64
.visible .entry floor_kernel(.param .u64 p, .param .u32 n)
{
  ret;
}
)";

namespace {
struct Row {
  std::string name;
  double hostMicros = 0;  ///< per launch, until the launch calls return
  double totalMicros = 0; ///< per launch, until the synchronize returns
};
} // namespace

using Clock = std::chrono::steady_clock;

/// Times \p launches calls of \p launch after a warm-up launch.
static llvm::Expected<Row> measure(llvm::StringRef name, int launches,
                                   const Stream &stream,
                                   const std::function<llvm::Error()> &launch) {
  if (llvm::Error err = launch()) // compiles or loads: not timed
    return std::move(err);
  if (llvm::Error err = stream.synchronize())
    return std::move(err);
  auto start = Clock::now();
  for (int i = 0; i < launches; ++i)
    if (llvm::Error err = launch())
      return std::move(err);
  auto issued = Clock::now();
  if (llvm::Error err = stream.synchronize())
    return std::move(err);
  auto done = Clock::now();
  auto micros = [&](Clock::time_point end) {
    return std::chrono::duration<double, std::micro>(end - start).count() /
           launches;
  };
  return Row{name.str(), micros(issued), micros(done)};
}

static llvm::Error run(int launches) {
  llvm::Expected<Device> device = Device::open(0);
  if (!device)
    return device.takeError();
  llvm::Expected<Stream> stream = Stream::create();
  if (!stream)
    return stream.takeError();
  auto reluFile = llvm::MemoryBuffer::getFile(MGP_KERNELS_DSL_DIR "/relu.mgp");
  if (!reluFile)
    return llvm::createStringError("cannot read relu.mgp: " +
                                   reluFile.getError().message());
  auto empty = jit(kEmptyKernel, "empty_kernel");
  if (!empty)
    return empty.takeError();
  auto relu = jit((*reluFile)->getBuffer(), "relu_kernel");
  if (!relu)
    return relu.takeError();

  const int n = 1 << 20;
  auto x = DeviceBuffer::allocate(n * sizeof(float));
  if (!x)
    return x.takeError();
  auto y = DeviceBuffer::allocate(n * sizeof(float));
  if (!y)
    return y.takeError();
  if (llvm::Error err = x->fill(0))
    return err;
  CUstream s = stream->handle();
  llvm::Expected<Module> floorModule = Module::loadPTX(kFloorPTX);
  if (!floorModule)
    return floorModule.takeError();
  llvm::Expected<Function> floor = floorModule->getFunction("floor_kernel");
  if (!floor)
    return floor.takeError();
  uint64_t floorPointer = x->address();
  uint32_t floorCount = n;
  void *floorArgs[] = {&floorPointer, &floorCount};
  LaunchConfig floorConfig;
  floorConfig.stream = s;
  std::vector<Row> rows;
  for (auto [name, fn] :
       std::vector<std::pair<std::string, std::function<llvm::Error()>>>{
           {"cuLaunchKernel alone (floor)",
            [&]() { return floor->launch(floorConfig, floorArgs); }},
           {"empty kernel (grid 1)",
            [&]() {
              return empty->launch(Grid(1), s, buffer<float>(*x), n,
                                   kw("BLOCK", 128));
            }},
           {"relu 1M fp32 (grid 1024)", [&]() {
              return relu->launch(Grid(n / 1024), s, buffer<float>(*x),
                                  buffer<float>(*y), n,
                                  kw("BLOCK_SIZE", 1024));
            }}}) {
    auto row = measure(name, launches, *stream, fn);
    if (!row)
      return row.takeError();
    rows.push_back(*row);
  }
  llvm::outs() << "launch overhead on " << device->properties().name << " ("
               << device->properties().arch << "), warm cache, " << launches
               << " launches each\n";
  llvm::outs() << llvm::format("%-28s %18s %22s\n", "kernel",
                               "host us/launch", "incl. sync us/launch");
  for (const Row &row : rows)
    llvm::outs() << llvm::format("%-28s %18.2f %22.2f\n", row.name.c_str(),
                                 row.hostMicros, row.totalMicros);
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 10000;
  if (launches <= 0) {
    llvm::errs() << "usage: mgp-bench-launch [LAUNCHES]\n";
    return 1;
  }
  llvm::Expected<int> count = getDeviceCount();
  if (!count || *count == 0) {
    llvm::outs() << "skipped: no GPU ("
                 << (count ? std::string("0 devices")
                           : llvm::toString(count.takeError()))
                 << ")\n";
    return 0;
  }
  if (llvm::Error err = run(launches)) {
    llvm::errs() << "mgp-bench-launch: error: "
                 << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
