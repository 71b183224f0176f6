//===- GpuBackendStaging.h - run()'s copies via pinned memory -*- C++ -*-===//
//
// This file implements HostStaging, the host side of the `gpu` backend's
// copies in run(): every graph input goes to its place in the arena and every
// graph output comes back through a page-locked (pinned) host buffer
// allocated once in prepare() (runtime/PinnedBuffer.h). The input is copied
// (fp32) or converted (fp16/bf16) into its pinned buffer in chunks on all
// cores, and each chunk's cuMemcpyHtoDAsync is queued as soon as it is
// filled, so the copy engine moves chunk k while the host fills chunk k + 1.
// When pinned memory cannot be had (or MGP_PINNED=off) the copies go from and
// to pageable memory as before; the device sees the same bytes either way.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GPUBACKENDSTAGING_H
#define MGP_GRAPH_GPUBACKENDSTAGING_H

#include "graph/ir/StorageTypes.h"

#include "runtime/PinnedBuffer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <vector>

namespace mgp::graph {

/// Bytes of an input filled before their copy to the device is queued.
inline constexpr size_t kStagingChunkBytes = size_t(4) << 20;

/// Whether MGP_PINNED allows pinned staging: unless it is off, 0, false or no
/// (isEnvOff, compiler/api/Environment.h).
bool pinnedStagingAllowedByEnvironment();

/// Writes `values` stored as `type` (copied when fp32, converted when
/// fp16/bf16) to `out`, `chunkBytes` (a multiple of 4) at a time, each chunk
/// on all cores, and calls `issue(offset, bytes)` once each chunk is complete,
/// in order. Returns issue's first error (the later chunks are then not
/// written).
llvm::Error stageInChunks(
    llvm::ArrayRef<float> values, DType type, void *out, size_t chunkBytes,
    llvm::function_ref<llvm::Error(size_t offset, size_t bytes)> issue);

/// A graph input or output as run() copies it: its storage type, element
/// count and place in the arena.
struct StagedValue {
  DType type = DType::F32;
  size_t elements = 0;
  CUdeviceptr address = 0;
  size_t bytes() const { return elements * dtypeBytes(type); }
};

/// The copies of run(): inputs up, outputs down, through pinned buffers when
/// it has them.
class HostStaging {
public:
  /// The inputs and outputs of the prepared graph; drops any pinned buffers.
  void setValues(std::vector<StagedValue> inputs,
                 std::vector<StagedValue> outputs);
  /// Allocates one pinned buffer per input and output (a context must be
  /// current). On failure writes one line to `note` (when not null), keeps
  /// the pageable copies and returns false.
  bool allocatePinned(llvm::raw_ostream *note);
  /// Frees the pinned buffers; later copies are pageable.
  void dropPinned();
  bool isPinned() const { return pinned; }
  /// The bytes of pinned memory held.
  size_t pinnedBytes() const;

  /// Queues input `index`'s copy of `values` (its elements as fp32) to the
  /// arena on `stream`. `values` must stay valid until the stream is
  /// synchronized (the pageable path copies from it).
  llvm::Error upload(size_t index, llvm::ArrayRef<float> values,
                     CUstream stream);
  /// Queues output `index`'s copy from the arena to the host on `stream`.
  llvm::Error download(size_t index, CUstream stream);
  /// Output `index` as fp32, once the stream has passed its download.
  std::vector<float> output(size_t index) const;

private:
  std::vector<StagedValue> inputs, outputs;
  bool pinned = false;
  std::vector<PinnedBuffer> pinnedInputs, pinnedOutputs;
  /// The pageable path: 16-bit inputs converted, and the outputs.
  std::vector<HostBuffer> pageableInputs, pageableOutputs;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_GPUBACKENDSTAGING_H
