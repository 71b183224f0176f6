//===- GpuBackendStaging.cpp - run()'s copies via pinned memory -----------===//
//
// This file implements HostStaging: the pinned buffers, the chunked fill that
// overlaps the host's copy or conversion with the copy engine's transfer,
// the pageable fallback, and the MGP_PINNED switch.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/gpu/GpuBackendStaging.h"

#include "compiler/api/Environment.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace mgp;
using namespace mgp::graph;

bool mgp::graph::pinnedStagingAllowedByEnvironment() {
  return !isEnvOff(EnvVar::Pinned);
}

llvm::Error mgp::graph::stageInChunks(
    llvm::ArrayRef<float> values, DType type, void *out, size_t chunkBytes,
    llvm::function_ref<llvm::Error(size_t offset, size_t bytes)> issue) {
  unsigned elementBytes = dtypeBytes(type);
  size_t chunkElements = std::max<size_t>(chunkBytes / elementBytes, 1);
  // Pieces of 64K elements spread each chunk over the cores (one core moves
  // ~10 GB/s, a 77 MB batch-128 input would take ~8 ms).
  constexpr size_t kPiece = size_t(1) << 16;
  for (size_t begin = 0; begin < values.size(); begin += chunkElements) {
    size_t count = std::min(chunkElements, values.size() - begin);
    size_t pieces = (count + kPiece - 1) / kPiece;
    llvm::parallelFor(0, pieces, [&](size_t piece) {
      size_t first = begin + piece * kPiece;
      size_t n = std::min(kPiece, begin + count - first);
      if (type == DType::F32)
        std::memcpy(static_cast<float *>(out) + first, values.data() + first,
                    n * sizeof(float));
      else // nested in this parallelFor, it converts on this thread
        convertFromF32(values.slice(first, n), type,
                       static_cast<uint16_t *>(out) + first);
    });
    if (llvm::Error e = issue(begin * elementBytes, count * elementBytes))
      return e;
  }
  return llvm::Error::success();
}

void HostStaging::setValues(std::vector<StagedValue> newInputs,
                            std::vector<StagedValue> newOutputs) {
  dropPinned();
  inputs = std::move(newInputs);
  outputs = std::move(newOutputs);
  pageableInputs.assign(inputs.size(), HostBuffer());
  pageableOutputs.assign(outputs.size(), HostBuffer());
}

bool HostStaging::allocatePinned(llvm::raw_ostream *note) {
  dropPinned();
  std::vector<PinnedBuffer> in, out;
  auto allocateAll = [](llvm::ArrayRef<StagedValue> values,
                        std::vector<PinnedBuffer> &into) -> llvm::Error {
    for (const StagedValue &value : values) {
      auto buffer = PinnedBuffer::allocate(value.bytes());
      if (!buffer)
        return buffer.takeError();
      into.push_back(std::move(*buffer));
    }
    return llvm::Error::success();
  };
  llvm::Error failed = allocateAll(inputs, in);
  if (!failed)
    failed = allocateAll(outputs, out);
  if (failed) {
    std::string message = llvm::toString(std::move(failed));
    if (note)
      *note << "mgp: gpu backend: no pinned staging (" << message
            << "); the input and output copies go through pageable memory\n";
    return false;
  }
  pinnedInputs = std::move(in);
  pinnedOutputs = std::move(out);
  pinned = true;
  return true;
}

void HostStaging::dropPinned() {
  pinnedInputs.clear();
  pinnedOutputs.clear();
  pinned = false;
}

size_t HostStaging::pinnedBytes() const {
  size_t total = 0;
  for (const PinnedBuffer &buffer : pinnedInputs)
    total += buffer.size();
  for (const PinnedBuffer &buffer : pinnedOutputs)
    total += buffer.size();
  return total;
}

llvm::Error HostStaging::upload(size_t index, llvm::ArrayRef<float> values,
                                CUstream stream) {
  auto driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  const StagedValue &value = inputs[index];
  assert(values.size() == value.elements && "run() checks the input's shape");
  if (pinned) {
    char *host = static_cast<char *>(pinnedInputs[index].data());
    return stageInChunks(values, value.type, host, kStagingChunkBytes,
                         [&](size_t offset, size_t bytes) {
                           return driver->check(
                               driver->cuMemcpyHtoDAsync(value.address + offset,
                                                         host + offset, bytes,
                                                         stream),
                               "cuMemcpyHtoDAsync");
                         });
  }
  // Pageable: fp16/bf16 converted first into a buffer reused from run to run.
  const void *source = values.data();
  if (value.type != DType::F32) {
    HostBuffer &staged = pageableInputs[index];
    if (staged.type != value.type || staged.size() != value.elements)
      staged = HostBuffer(value.type, value.elements);
    convertFromF32(values, value.type, staged.half.data());
    source = staged.data();
  }
  return driver->check(
      driver->cuMemcpyHtoDAsync(value.address, source, value.bytes(), stream),
      "cuMemcpyHtoDAsync");
}

llvm::Error HostStaging::download(size_t index, CUstream stream) {
  auto driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  const StagedValue &value = outputs[index];
  void *host;
  if (pinned) {
    host = pinnedOutputs[index].data();
  } else {
    HostBuffer &buffer = pageableOutputs[index];
    if (buffer.type != value.type || buffer.size() != value.elements)
      buffer = HostBuffer(value.type, value.elements);
    host = buffer.data();
  }
  return driver->check(
      driver->cuMemcpyDtoHAsync(host, value.address, value.bytes(), stream),
      "cuMemcpyDtoHAsync");
}

std::vector<float> HostStaging::output(size_t index) const {
  const StagedValue &value = outputs[index];
  if (!pinned)
    return pageableOutputs[index].toF32(); // 16-bit outputs (aliases) widen
  const void *host = pinnedOutputs[index].data();
  std::vector<float> result(value.elements);
  if (value.type == DType::F32)
    std::memcpy(result.data(), host, value.bytes());
  else
    convertToF32(static_cast<const uint16_t *>(host), value.elements,
                 value.type, result.data());
  return result;
}
