//===- SafetensorsFuzzer.cpp - libFuzzer target: the safetensors reader ---===//
//
// This file implements the fuzz target of the weights reader: the input is
// written to a scratch file and read with readSafetensors; every entry of a
// file that validates is then converted to f32. Rejections must be
// diagnostics; crashes, hangs and sanitizer reports are findings.
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzSupport.h"
#include "graph/io/Safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path =
      mgp::fuzz::writeScratchFile(data, size, ".safetensors");
  auto file = mgp::graph::readSafetensors(path);
  if (!file) {
    mgp::fuzz::consumeChecked(file.takeError());
    return 0;
  }
  for (const auto &entry : file->entries) {
    auto tensor = file->read(entry.getKey());
    if (!tensor)
      mgp::fuzz::consumeChecked(tensor.takeError());
  }
  return 0;
}
