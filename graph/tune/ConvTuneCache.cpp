//===- ConvTuneCache.cpp - Tuned convolution configs on disk --------------===//
//
// This file implements the tuning problem keys and the tuning files: three
// lines, `mgp-conv-tune 1`, the key, and `BM,BN,BK,warps,stages,splitK`
// (then `,1` or `,2`, ConvConfig::aL1, when the A tile is read through L1 or
// in chunk-major order, or `,L1,1` with L1 0, 1 or 2 for the transposed
// kernel, ConvConfig::transposed), named by a hash of the key.
//
//===----------------------------------------------------------------------===//

#include "graph/tune/ConvTuneCache.h"

#include "compiler/api/Environment.h"

#include "graph/passes/NhwcLayout.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>

using namespace mgp::graph;

static constexpr llvm::StringLiteral kHeader = "mgp-conv-tune 1";

static std::string joinShape(const Shape &shape) {
  std::vector<std::string> dims;
  for (int64_t d : shape)
    dims.push_back(std::to_string(d));
  return llvm::join(dims, ",");
}

std::string mgp::graph::convTuneDevice(llvm::StringRef deviceName,
                                       llvm::StringRef arch) {
  return (deviceName + " " + arch).str();
}

llvm::StringRef mgp::graph::dotPrecisionKey(const LaunchOptions &options) {
  return options.tf32x3 ? "tf32x3" : options.tf32 ? "tf32" : "fp32";
}

std::string mgp::graph::convTuneKey(const Graph &graph, int index,
                                    llvm::StringRef deviceName,
                                    llvm::StringRef dots) {
  const Node &node = graph.nodes[index];
  std::vector<bool> nhwc = planNhwcValues(graph);
  std::vector<bool> repacked = planRepackedWeights(graph);
  // Only the kernel choice of the plan, not its blocks, enters the key.
  std::vector<KernelLaunch> launches =
      planConvLaunches(graph, index, defaultConvConfig(graph, index), {});
  const KernelLaunch &gemm =
      launches.front().auxiliary ? launches[1] : launches.front();
  bool fused = node.op == OpKind::FusedConv2d;
  bool hasResidual = fused && node.operands.size() > 3;
  return llvm::formatv(
      "{0}|{1}|x={2} w={3} s={4} p={5} bias={6} res={7} relu={8} x_nchw={9} "
      "w_kcrs={10} res_nchw={11}|{12}",
      deviceName, gemm.kernel, joinShape(graph.values[node.operands[0]].shape),
      joinShape(graph.values[node.operands[1]].shape), node.intAttr("stride"),
      node.intAttr("padding"), node.operands.size() > 2 ? 1 : 0,
      hasResidual ? 1 : 0, fused && node.intAttr("relu") != 0 ? 1 : 0,
      nhwc[node.operands[0]] ? 0 : 1, repacked[node.operands[1]] ? 0 : 1,
      hasResidual && !nhwc[node.operands[3]] ? 1 : 0, dots);
}

std::string mgp::graph::formatConvConfig(const ConvConfig &config) {
  std::string flags = config.transposed
                          ? llvm::formatv(",{0},1", config.aL1).str()
                      : config.aL1 ? llvm::formatv(",{0}", config.aL1).str()
                                   : "";
  return llvm::formatv("{0},{1},{2},{3},{4},{5}{6}", config.blockM,
                       config.blockN, config.blockK, config.numWarps,
                       config.numStages, config.splitK, flags);
}

ConvTuneCache::ConvTuneCache(std::string directory, llvm::raw_ostream &log)
    : directory(std::move(directory)), log(log) {}

std::string ConvTuneCache::directoryFromEnvironment() {
  if (isEnvOff(EnvVar::Cache))
    return "";
  llvm::SmallString<256> dir(getCacheDirectory());
  if (dir.empty())
    return "";
  llvm::sys::path::append(dir, "conv-tune");
  return dir.str().str();
}

std::string ConvTuneCache::pathFor(llvm::StringRef key) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(
      path, llvm::formatv("{0:x16}.conv", llvm::xxh3_64bits(key)).str());
  return path.str().str();
}

std::optional<ConvConfig> ConvTuneCache::lookup(llvm::StringRef key) {
  if (directory.empty())
    return std::nullopt;
  std::string path = pathFor(key);
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return std::nullopt; // not tuned yet
  auto corrupt = [&](const llvm::Twine &why) -> std::optional<ConvConfig> {
    log << "mgp: warning: ignoring corrupt tuning file '" << path
        << "': " << why << "\n";
    log.flush();
    return std::nullopt;
  };
  llvm::SmallVector<llvm::StringRef, 4> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.size() != 3 || lines[0] != kHeader)
    return corrupt("expected '" + kHeader + "', the key and a config line");
  if (lines[1] != key)
    return corrupt("it holds another problem ('" + lines[1] + "')");
  llvm::SmallVector<llvm::StringRef, 8> fields;
  lines[2].split(fields, ',');
  auto isL1 = [](llvm::StringRef f) {
    return f == "0" || f == "1" || f == "2";
  };
  bool flagsOk = fields.size() == 6 ||
                 (fields.size() == 7 && fields[6] != "0" && isL1(fields[6])) ||
                 (fields.size() == 8 && isL1(fields[6]) && fields[7] == "1");
  if (!flagsOk)
    return corrupt("bad config line '" + lines[2] + "'");
  auto config =
      parseConvConfig(llvm::join(fields.begin(), fields.begin() + 5, ","));
  int64_t split = -1;
  if (!config || fields[5].getAsInteger(10, split) || split < 0 || split > 64) {
    if (!config)
      llvm::consumeError(config.takeError());
    return corrupt("bad config line '" + lines[2] + "'");
  }
  config->splitK = int(split);
  config->aL1 = fields.size() >= 7 ? int(fields[6][0] - '0') : 0;
  config->transposed = fields.size() == 8;
  return *config;
}

llvm::Error ConvTuneCache::store(llvm::StringRef key,
                                 const ConvConfig &config) {
  if (directory.empty())
    return llvm::Error::success();
  std::string path = pathFor(key);
  auto fail = [&](const llvm::Twine &what, std::error_code ec) {
    return llvm::createStringError(ec, "cannot write tuning file '" + path +
                                           "': " + what + ": " + ec.message());
  };
  if (std::error_code ec = llvm::sys::fs::create_directories(directory))
    return fail("creating its directory", ec);
  int fd = -1;
  llvm::SmallString<256> temp;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + ".tmp.%%%%%%%%", fd, temp))
    return fail("creating a temporary file", ec);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << kHeader << "\n" << key << "\n" << formatConvConfig(config) << "\n";
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return fail("writing", ec);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return fail("renaming", ec);
  }
  return llvm::Error::success();
}
