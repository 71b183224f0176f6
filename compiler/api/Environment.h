//===- Environment.h - the MGP_* environment variables ----------*- C++ -*-===//
//
// This file implements the one place mgp reads its environment: a table of
// the MGP_* variables (name, values, effect) that mgpc's and mgp-run's --help
// print and docs/runtime.md lists, and the readers every component uses
// instead of getenv. Values are read when asked for (a test may set them).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_API_ENVIRONMENT_H
#define MGP_COMPILER_API_ENVIRONMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mgp {

/// The environment variables mgp reads.
enum class EnvVar {
  CacheDir,   ///< MGP_CACHE_DIR
  Cache,      ///< MGP_CACHE
  Debug,      ///< MGP_DEBUG
  NoWgmma,    ///< MGP_NO_WGMMA
  CudaGraph,  ///< MGP_CUDA_GRAPH
  Pinned,     ///< MGP_PINNED
  SideStream, ///< MGP_SIDE_STREAM
  Tune,       ///< MGP_TUNE
  ConvConfig, ///< MGP_CONV_CONFIG
};

/// One row of the table.
struct EnvVarInfo {
  EnvVar var;
  const char *name;   ///< "MGP_CACHE_DIR"
  const char *values; ///< "DIR", "off", ...
  const char *effect; ///< one sentence
};

/// Every variable, in the order --help lists them.
llvm::ArrayRef<EnvVarInfo> getEnvVars();
const EnvVarInfo &getEnvVarInfo(EnvVar var);

/// The value of \p var; nullopt when it is not set.
std::optional<std::string> readEnv(EnvVar var);
/// A switch that is on: set to anything but "" and "0" (MGP_DEBUG,
/// MGP_NO_WGMMA).
bool isEnvOn(EnvVar var);
/// Whether \p value switches something off: "off", "0", "false" or "no", in
/// any case, spaces around ignored.
bool isOffValue(llvm::StringRef value);
/// A switch that is off: set to an isOffValue (MGP_CACHE, MGP_CUDA_GRAPH,
/// MGP_PINNED, MGP_SIDE_STREAM, MGP_TUNE); unset or anything else leaves it on.
bool isEnvOff(EnvVar var);

/// The cache directory: MGP_CACHE_DIR when set and not empty, else
/// $HOME/.cache/mgp; empty when there is no home directory either.
std::string getCacheDirectory();

/// The table as `--help` prints it: a heading, then one line per variable.
std::string describeEnvironment();

} // namespace mgp

#endif // MGP_COMPILER_API_ENVIRONMENT_H
