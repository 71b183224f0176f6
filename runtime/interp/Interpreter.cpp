//===- Interpreter.cpp - compile a kernel once, run it over the grid ------===//
//
// This file implements InterpKernel and runKernel (Interpreter.h): the kernel
// is compiled into instructions once; a launch binds the arguments, then
// worker threads take programs from a shared counter, each running them in
// its own frame. The first failing program (the lowest program index among
// those that failed before the workers stopped) gives the launch's error.
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/Interpreter.h"
#include "runtime/interp/ArgBinding.h"
#include "runtime/interp/InterpProgram.h"

#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <mutex>
#include <thread>

using namespace mgp;
using namespace mgp::interp;

InterpKernel::InterpKernel(std::unique_ptr<InterpProgram> program)
    : program(std::move(program)) {}
InterpKernel::InterpKernel(InterpKernel &&) = default;
InterpKernel &InterpKernel::operator=(InterpKernel &&) = default;
InterpKernel::~InterpKernel() = default;

llvm::Expected<InterpKernel> InterpKernel::compile(mlir::func::FuncOp kernel) {
  if (kernel.isExternal())
    return opError(kernel, "kernel '" + kernel.getSymName() + "' has no body");
  auto program = std::make_unique<InterpProgram>();
  program->name = kernel.getSymName().str();
  Compiler compiler;
  for (mlir::BlockArgument arg : kernel.getArguments()) {
    llvm::Expected<DType> kind = elemKindOf(kernel, arg.getType());
    if (!kind)
      return kind.takeError();
    if (llvm::isa<mlir::RankedTensorType>(arg.getType()))
      return opError(kernel, "kernel parameters must be scalars or pointers");
    DType pointee = DType::I8;
    if (*kind == kPointerKind) {
      llvm::Expected<DType> p =
          elemKindOf(kernel, getPointeeLikeType(arg.getType()));
      if (!p)
        return p.takeError();
      pointee = *p;
    }
    program->paramKinds.push_back(*kind);
    program->pointeeKinds.push_back(pointee);
    program->paramSlots.push_back(compiler.slot(arg));
  }
  mlir::Operation *term = kernel.getBody().front().getTerminator();
  if (term && term->getNumOperands() != 0)
    return opError(term, "a kernel must not return values");
  if (llvm::Error err = compiler.compileRegion(kernel.getBody(), program->body))
    return std::move(err);
  program->numSlots = compiler.numSlots();
  program->constants = std::move(compiler.constants);
  return InterpKernel(std::move(program));
}

llvm::Error InterpKernel::run(std::array<int, 3> grid,
                              llvm::ArrayRef<InterpArg> args,
                              const InterpOptions &options) const {
  for (int g : grid)
    if (g < 1)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("kernel '{0}': grid ({1}, {2}, {3}) has an empty "
                        "dimension",
                        program->name, grid[0], grid[1], grid[2]));
  MemoryMap memory;
  llvm::Expected<std::vector<Buf>> params =
      bindArguments(*program, args, options, memory);
  if (!params)
    return params.takeError();

  int64_t total = int64_t(grid[0]) * grid[1] * grid[2];
  unsigned threads = options.numThreads ? options.numThreads
                                        : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<int64_t>(threads, total));

  std::atomic<int64_t> nextProgram{0};
  std::atomic<bool> stop{false};
  std::mutex errorMutex;
  int64_t errorProgram = total;
  std::string errorText;

  auto worker = [&]() {
    Frame frame;
    frame.slots.resize(program->numSlots);
    frame.memory = &memory;
    frame.emulateTF32 = options.emulateTF32;
    frame.numPrograms = {grid[0], grid[1], grid[2]};
    for (size_t p = 0; p < program->paramSlots.size(); ++p)
      frame.slots[program->paramSlots[p]] = (*params)[p];
    for (const auto &[slot, value] : program->constants)
      frame.slots[slot] = value;
    while (!stop.load(std::memory_order_relaxed)) {
      int64_t linear = nextProgram.fetch_add(1);
      if (linear >= total)
        return;
      frame.programId = {linear % grid[0], (linear / grid[0]) % grid[1],
                         linear / (int64_t(grid[0]) * grid[1])};
      if (!runBody(program->body, frame)) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (linear < errorProgram) {
          errorProgram = linear;
          errorText = frame.error;
        }
        stop = true;
        return;
      }
    }
  };

  if (threads <= 1) {
    worker();
  } else {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(threads));
    for (unsigned t = 0; t < threads; ++t)
      pool.async(worker);
    pool.wait();
  }
  if (errorProgram < total)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), errorText);
  return llvm::Error::success();
}

llvm::Error mgp::runKernel(mlir::func::FuncOp kernel, std::array<int, 3> grid,
                           llvm::ArrayRef<InterpArg> args,
                           const InterpOptions &options) {
  llvm::Expected<InterpKernel> compiled = InterpKernel::compile(kernel);
  if (!compiled)
    return compiled.takeError();
  return compiled->run(grid, args, options);
}
