//===- Safetensors.h - Reading and writing .safetensors files ---*- C++ -*-===//
//
// This file implements the safetensors format (an 8-byte little-endian header
// length, a JSON header of {name: {dtype, shape, data_offsets}}, then the raw
// data): a reader that validates the whole file and converts F16/BF16 to f32,
// the check of a file's tensors against a graph's parameters, and an atomic
// writer of F32 tensors.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_SAFETENSORS_H
#define MGP_GRAPH_SAFETENSORS_H

#include "graph/ir/Graph.h"
#include "graph/passes/ShapeInference.h"

namespace mgp::graph {

/// One entry of a safetensors header.
struct SafetensorsEntry {
  std::string dtype; ///< "F32", "F16", "BF16", "I64", ...
  Shape shape;
  uint64_t begin = 0, end = 0; ///< Byte offsets into the data section.
};

/// A parsed and validated safetensors file.
struct SafetensorsFile {
  std::string path;
  llvm::StringMap<SafetensorsEntry> entries;
  std::vector<char> data; ///< The data section.

  /// Tensor `name` as f32; an error for dtypes other than F32/F16/BF16.
  llvm::Expected<Tensor> read(llvm::StringRef name) const;
};

/// Reads `path`, checking the header length, the JSON, every entry's dtype
/// size, shape and offsets (inside the data, matching the size, not
/// overlapping).
llvm::Expected<SafetensorsFile> readSafetensors(llvm::StringRef path);

/// Binds the symbolic dimensions of `graph`'s parameters from the shapes in
/// `file` (`classes` from fc.weight). Conflicts are errors.
llvm::Error bindDimsFromWeights(const Graph &graph, const SafetensorsFile &file,
                                DimBindings &bindings);

/// The tensors of `file` for every parameter of shape-inferred `graph`:
/// missing parameters, wrong shapes and unsupported dtypes are errors naming
/// the file and the tensor. Tensors the graph does not use are ignored.
llvm::Expected<WeightMap> loadWeights(const Graph &graph,
                                      const SafetensorsFile &file);

/// Writes `weights` as F32 tensors (sorted by name) to `path` atomically.
llvm::Error writeSafetensors(llvm::StringRef path, const WeightMap &weights);

} // namespace mgp::graph

#endif // MGP_GRAPH_SAFETENSORS_H
