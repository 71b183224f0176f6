//===- NpyFuzzer.cpp - libFuzzer target: the .npy reader ------------------===//
//
// This file implements the fuzz target of the input-tensor reader: the input
// is written to a scratch file and read both as an f32 tensor and as an i64
// array (the two entry points of graph/io/Npy.h). Rejections must be
// diagnostics; crashes, hangs and sanitizer reports are findings.
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzSupport.h"
#include "graph/io/Npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = mgp::fuzz::writeScratchFile(data, size, ".npy");
  auto tensor = mgp::graph::readNpyFloat32(path);
  if (!tensor)
    mgp::fuzz::consumeChecked(tensor.takeError());
  mgp::graph::Shape shape;
  auto values = mgp::graph::readNpyInt64(path, shape);
  if (!values)
    mgp::fuzz::consumeChecked(values.takeError());
  return 0;
}
