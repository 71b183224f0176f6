//===- ConvTuneCache.h - Tuned convolution configs on disk ------*- C++ -*-===//
//
// This file implements the on-disk memory of the GPU backend's convolution
// tuner (graph/tune/ConvTuner.h): one small text file per tuning problem (device
// name, kernel, problem shape and flags, precision) under
// MGP_CACHE_DIR/conv-tune/, written atomically; a file that does not parse
// or names another problem is reported by path and ignored.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_CONVTUNECACHE_H
#define MGP_GRAPH_CONVTUNECACHE_H

#include "graph/KernelLaunch.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace mgp::graph {

/// The device part of the tuning keys: the device's name and the arch mgp
/// compiles for on it (`NVIDIA H200 sm_90a`), so sm_90a (wgmma) and sm_90
/// (MGP_NO_WGMMA) tune apart. The GPU backend and `mgp-run --info` both ask.
std::string convTuneDevice(llvm::StringRef deviceName, llvm::StringRef arch);

/// The tuning problem of convolution `node` of `graph`: what decides the
/// best configuration. E.g. `NVIDIA H200|conv2d_nhwc_kernel|x=128,64,56,56
/// w=64,64,3,3 s=1 p=1 bias=1 res=1 relu=1 x_nchw=0 w_kcrs=0 res_nchw=0|tf32`;
/// the last field is the dots' precision, dotPrecisionKey.
std::string convTuneKey(const Graph &graph, int node,
                        llvm::StringRef deviceName, llvm::StringRef dots);

/// `fp32`, `tf32` or `tf32x3`: the dots of `options`' convolutions.
llvm::StringRef dotPrecisionKey(const LaunchOptions &options);

/// `BM,BN,BK,warps,stages,splitK`.
std::string formatConvConfig(const ConvConfig &config);

/// The tuning files of one directory.
class ConvTuneCache {
public:
  /// `directory` empty: nothing is read or written. Warnings go to `log`.
  ConvTuneCache(std::string directory, llvm::raw_ostream &log);
  /// MGP_CACHE_DIR (default $HOME/.cache/mgp) + `/conv-tune`; empty when
  /// MGP_CACHE is off.
  static std::string directoryFromEnvironment();

  /// The stored configuration of `key`, if a valid file holds it. A corrupt
  /// file is reported ("ignoring corrupt tuning file '<path>': <why>").
  std::optional<ConvConfig> lookup(llvm::StringRef key);
  /// Stores `config` for `key` (a unique temporary file renamed into
  /// place); an error names the file.
  llvm::Error store(llvm::StringRef key, const ConvConfig &config);
  /// The file that holds `key`.
  std::string pathFor(llvm::StringRef key) const;

private:
  std::string directory;
  llvm::raw_ostream &log;
};

} // namespace mgp::graph

#endif // MGP_GRAPH_CONVTUNECACHE_H
