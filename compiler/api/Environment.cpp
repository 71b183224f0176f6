//===- Environment.cpp - the MGP_* environment variables ------------------===//
//
// This file implements the table of environment variables and the only
// getenv calls of mgp.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/Environment.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cstdlib>

using namespace mgp;

static const EnvVarInfo kEnvVars[] = {
    {EnvVar::CacheDir, "MGP_CACHE_DIR", "DIR",
     "the disk cache of compiled kernels and tuned convolutions (default "
     "$HOME/.cache/mgp)"},
    {EnvVar::Cache, "MGP_CACHE", "off",
     "off, 0, false or no: no disk cache (compiled kernels and tuned "
     "convolutions); the memory cache stays"},
    {EnvVar::Debug, "MGP_DEBUG", "1",
     "one line per kernel request (compiled, memory or disk cache) and per "
     "compile stage; mgp-run: one per startup phase and prepare step"},
    {EnvVar::NoWgmma, "MGP_NO_WGMMA", "1",
     "compute capability 9.0 compiles for sm_90 (mma.sync) instead of sm_90a "
     "(wgmma)"},
    {EnvVar::CudaGraph, "MGP_CUDA_GRAPH", "off",
     "the gpu backend runs every forward eagerly instead of replaying a CUDA "
     "graph"},
    {EnvVar::Pinned, "MGP_PINNED", "off",
     "the gpu backend copies inputs and outputs through pageable memory "
     "instead of page-locked staging buffers"},
    {EnvVar::SideStream, "MGP_SIDE_STREAM", "off",
     "the gpu backend queues every launch on one stream instead of running "
     "independent ones (ResNet's downsample convolutions) on a second"},
    {EnvVar::Tune, "MGP_TUNE", "off",
     "the gpu backend does not tune its convolutions (their defaults)"},
    {EnvVar::ConvConfig, "MGP_CONV_CONFIG", "BM,BN,BK,W[,S[,L1[,T]]]",
     "every convolution's tiles, warps, stages, A-tile L1 caching and "
     "transposed GEMM (no tuning)"},
};

llvm::ArrayRef<EnvVarInfo> mgp::getEnvVars() { return kEnvVars; }

const EnvVarInfo &mgp::getEnvVarInfo(EnvVar var) {
  const EnvVarInfo &info = kEnvVars[static_cast<unsigned>(var)];
  assert(info.var == var && "kEnvVars follows the enum");
  return info;
}

std::optional<std::string> mgp::readEnv(EnvVar var) {
  if (const char *value = std::getenv(getEnvVarInfo(var).name))
    return std::string(value);
  return std::nullopt;
}

bool mgp::isEnvOn(EnvVar var) {
  std::optional<std::string> value = readEnv(var);
  return value && !value->empty() && *value != "0";
}

bool mgp::isOffValue(llvm::StringRef value) {
  std::string lower = value.trim().lower();
  return lower == "off" || lower == "0" || lower == "false" || lower == "no";
}

bool mgp::isEnvOff(EnvVar var) {
  std::optional<std::string> value = readEnv(var);
  return value && isOffValue(*value);
}

std::string mgp::getCacheDirectory() {
  std::optional<std::string> dir = readEnv(EnvVar::CacheDir);
  if (dir && !dir->empty())
    return *dir;
  llvm::SmallString<256> home;
  if (const char *env = std::getenv("HOME"); env && *env)
    home = env;
  else
    llvm::sys::path::home_directory(home);
  if (home.empty())
    return "";
  llvm::sys::path::append(home, ".cache", "mgp");
  return home.str().str();
}

std::string mgp::describeEnvironment() {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "\nEnvironment (docs/runtime.md):\n";
  for (const EnvVarInfo &info : kEnvVars)
    os << llvm::format("  %-16s %-15s %s\n", info.name, info.values,
                       info.effect);
  return text;
}
