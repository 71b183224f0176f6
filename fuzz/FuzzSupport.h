//===- FuzzSupport.h - Shared helpers of the libFuzzer targets --*- C++ -*-===//
//
// This file implements the helpers the fuzz targets share: writing an input
// to a per-process scratch file (for the readers whose API takes a path) and
// consuming an llvm::Error whose message must be non-empty (every rejection
// of hostile input is a user-facing diagnostic, never a silent failure).
//
//===----------------------------------------------------------------------===//

#ifndef MGP_FUZZ_FUZZSUPPORT_H
#define MGP_FUZZ_FUZZSUPPORT_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace mgp::fuzz {

/// Writes `size` bytes to a scratch file unique to this process (under
/// $TMPDIR, /tmp by default) and returns its path.
inline std::string writeScratchFile(const uint8_t *data, size_t size,
                                    const char *suffix) {
  const char *dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/mgp-fuzz-" +
                     std::to_string(::getpid()) + suffix;
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    std::abort();
  if (size && std::fwrite(data, 1, size, file) != size)
    std::abort();
  std::fclose(file);
  return path;
}

/// Consumes `error`; aborts (a finding) if it is an error with an empty
/// message.
inline void consumeChecked(llvm::Error error) {
  if (!error)
    return;
  std::string message = llvm::toString(std::move(error));
  if (message.empty())
    std::abort();
}

} // namespace mgp::fuzz

#endif // MGP_FUZZ_FUZZSUPPORT_H
