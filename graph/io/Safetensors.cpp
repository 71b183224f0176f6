//===- Safetensors.cpp - Reading and writing .safetensors files -----------===//
//
// This file implements the safetensors reader, validator and writer. The host
// is assumed little-endian, as the format is.
//
//===----------------------------------------------------------------------===//

#include "graph/io/Safetensors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileOutputBuffer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mgp::graph;
using llvm::Error;

template <typename... Ts>
static Error fileError(llvm::StringRef path, const char *fmt, Ts... args) {
  std::string msg = llvm::formatv(fmt, args...).str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                 path.str().c_str(), msg.c_str());
}

/// Bytes per element of a safetensors dtype, 0 if unknown.
static int64_t dtypeSize(llvm::StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"F64", "I64", "U64"}, 8)
      .Cases({"F32", "I32", "U32"}, 4)
      .Cases({"F16", "BF16", "I16", "U16"}, 2)
      .Cases({"I8", "U8", "BOOL", "F8_E4M3", "F8_E5M2"}, 1)
      .Default(0);
}

static float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15) << 31;
  int32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | uint32_t(exp + 112) << 23 | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else { // subnormal: renormalise
    exp = 113;
    while (!(mant & 0x400)) {
      mant <<= 1;
      --exp;
    }
    bits = sign | uint32_t(exp) << 23 | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

llvm::Expected<Tensor> SafetensorsFile::read(llvm::StringRef name) const {
  auto it = entries.find(name);
  assert(it != entries.end() && "caller checks presence");
  const SafetensorsEntry &entry = it->second;
  Tensor tensor(entry.shape);
  const char *src = data.data() + entry.begin;
  if (entry.dtype == "F32") {
    if (!tensor.data.empty())
      std::memcpy(tensor.data.data(), src, tensor.data.size() * 4);
  } else if (entry.dtype == "F16" || entry.dtype == "BF16") {
    bool bf16 = entry.dtype == "BF16";
    for (size_t i = 0; i < tensor.data.size(); ++i) {
      uint16_t h;
      std::memcpy(&h, src + 2 * i, 2);
      if (bf16) {
        uint32_t bits = uint32_t(h) << 16;
        std::memcpy(&tensor.data[i], &bits, 4);
      } else {
        tensor.data[i] = halfToFloat(h);
      }
    }
  } else {
    return fileError(path,
                     "tensor '{0}' has dtype {1}; weights must be F32, F16 "
                     "or BF16",
                     name, entry.dtype);
  }
  return tensor;
}

static Error parseEntry(llvm::StringRef path, llvm::StringRef name,
                        const llvm::json::Value &json, uint64_t dataSize,
                        SafetensorsEntry &entry) {
  const llvm::json::Object *object = json.getAsObject();
  if (!object)
    return fileError(path, "header entry '{0}' is not a JSON object", name);
  std::optional<llvm::StringRef> dtype = object->getString("dtype");
  const llvm::json::Array *shape = object->getArray("shape");
  const llvm::json::Array *offsets = object->getArray("data_offsets");
  if (!dtype || !shape || !offsets)
    return fileError(path,
                     "header entry '{0}' needs 'dtype', 'shape' and "
                     "'data_offsets'",
                     name);
  entry.dtype = dtype->str();
  int64_t elemSize = dtypeSize(*dtype);
  if (!elemSize)
    return fileError(path, "tensor '{0}' has unknown dtype '{1}'", name,
                     *dtype);
  for (const llvm::json::Value &dim : *shape) {
    std::optional<int64_t> size = dim.getAsInteger();
    if (!size || *size < 0)
      return fileError(path, "tensor '{0}' has an invalid shape", name);
    entry.shape.push_back(*size);
  }
  std::optional<int64_t> begin, end;
  if (offsets->size() == 2) {
    begin = (*offsets)[0].getAsInteger();
    end = (*offsets)[1].getAsInteger();
  }
  if (!begin || !end || *begin < 0 || *end < *begin)
    return fileError(path, "tensor '{0}' has invalid data_offsets", name);
  entry.begin = uint64_t(*begin);
  entry.end = uint64_t(*end);
  if (entry.end > dataSize)
    return fileError(path,
                     "tensor '{0}' has data_offsets [{1}, {2}] past the end "
                     "of the data ({3} bytes): the file is truncated or "
                     "corrupt",
                     name, entry.begin, entry.end, dataSize);
  int64_t bytes = checkedByteSize(entry.shape, elemSize);
  if (bytes < 0)
    return fileError(path, "tensor '{0}' has an invalid shape", name);
  uint64_t expected = uint64_t(bytes);
  if (entry.end - entry.begin != expected)
    return fileError(path,
                     "tensor '{0}' spans {1} bytes but its shape {2} of {3} "
                     "needs {4}",
                     name, entry.end - entry.begin, formatShape(entry.shape),
                     entry.dtype, expected);
  return Error::success();
}

llvm::Expected<SafetensorsFile>
mgp::graph::readSafetensors(llvm::StringRef path) {
  auto bufferOrErr =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!bufferOrErr)
    return fileError(path, "cannot read weights: {0}",
                     bufferOrErr.getError().message());
  llvm::StringRef bytes = (*bufferOrErr)->getBuffer();
  if (bytes.size() < 8)
    return fileError(path,
                     "truncated: {0} bytes, shorter than the 8-byte "
                     "header length",
                     bytes.size());
  uint64_t headerLen;
  std::memcpy(&headerLen, bytes.data(), 8);
  if (headerLen > bytes.size() - 8)
    return fileError(path,
                     "header length {0} runs past the end of the file ({1} "
                     "bytes): truncated or not a safetensors file",
                     headerLen, bytes.size());
  auto json = llvm::json::parse(bytes.substr(8, headerLen));
  if (!json)
    return fileError(path, "bad JSON header: {0}",
                     llvm::toString(json.takeError()));
  const llvm::json::Object *header = json->getAsObject();
  if (!header)
    return fileError(path, "the JSON header is not an object");

  SafetensorsFile file;
  file.path = path.str();
  uint64_t dataSize = bytes.size() - 8 - headerLen;
  std::vector<std::pair<uint64_t, std::string>> spans;
  for (const auto &kv : *header) {
    llvm::StringRef name = kv.first;
    if (name == "__metadata__")
      continue;
    SafetensorsEntry entry;
    if (Error e = parseEntry(path, name, kv.second, dataSize, entry))
      return std::move(e);
    if (entry.end > entry.begin)
      spans.push_back({entry.begin, name.str()});
    file.entries[name] = std::move(entry);
  }
  llvm::sort(spans);
  for (size_t i = 1; i < spans.size(); ++i) {
    const SafetensorsEntry &prev = file.entries[spans[i - 1].second];
    if (spans[i].first < prev.end)
      return fileError(path, "tensors '{0}' and '{1}' overlap in the data",
                       spans[i - 1].second, spans[i].second);
  }
  const char *data = bytes.data() + 8 + headerLen;
  file.data.assign(data, data + dataSize);
  return std::move(file);
}

Error mgp::graph::bindDimsFromWeights(const Graph &graph,
                                      const SafetensorsFile &file,
                                      DimBindings &bindings) {
  llvm::StringMap<std::string> boundBy;
  for (int param : graph.params) {
    const Value &value = graph.values[param];
    auto it = file.entries.find(value.name);
    if (it == file.entries.end() ||
        it->second.shape.size() != value.declShape.size())
      continue; // loadWeights reports it
    for (size_t i = 0; i < value.declShape.size(); ++i) {
      const std::string &symbol = value.declShape[i].symbol;
      if (symbol.empty())
        continue;
      int64_t size = it->second.shape[i];
      auto [bound, inserted] = bindings.try_emplace(symbol, size);
      if (inserted) {
        boundBy[symbol] = value.name;
      } else if (bound->second != size) {
        std::string other = boundBy.count(symbol) ? boundBy[symbol] : "";
        return fileError(file.path,
                         "tensor '{0}' gives dimension '{1}' = {2}, but it "
                         "is {3}{4}",
                         value.name, symbol, size, bound->second,
                         other.empty() ? "" : " from '" + other + "'");
      }
    }
  }
  return Error::success();
}

llvm::Expected<WeightMap> mgp::graph::loadWeights(const Graph &graph,
                                                  const SafetensorsFile &file) {
  WeightMap weights;
  for (int param : graph.params) {
    const Value &value = graph.values[param];
    auto it = file.entries.find(value.name);
    if (it == file.entries.end())
      return fileError(file.path, "missing parameter '{0}' (shape {1})",
                       value.name, formatShape(value.shape));
    if (it->second.shape != value.shape)
      return fileError(
          file.path, "tensor '{0}' has shape {1} but the graph expects {2}",
          value.name, formatShape(it->second.shape), formatShape(value.shape));
    auto tensor = file.read(value.name);
    if (!tensor)
      return tensor.takeError();
    weights[value.name] = std::move(*tensor);
  }
  return std::move(weights);
}

Error mgp::graph::writeSafetensors(llvm::StringRef path,
                                   const WeightMap &weights) {
  std::vector<llvm::StringRef> names;
  for (const auto &entry : weights)
    names.push_back(entry.first());
  llvm::sort(names);
  std::string header;
  llvm::raw_string_ostream os(header);
  os << "{";
  uint64_t offset = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const Tensor &tensor = weights.find(names[i])->second;
    uint64_t bytes = tensor.data.size() * 4;
    os << (i ? "," : "") << llvm::json::Value(names[i])
       << ":{\"dtype\":\"F32\",\"shape\":[";
    for (size_t d = 0; d < tensor.shape.size(); ++d)
      os << (d ? "," : "") << tensor.shape[d];
    os << "],\"data_offsets\":[" << offset << "," << offset + bytes << "]}";
    offset += bytes;
  }
  os << "}";
  while ((header.size() + 8) % 8)
    header += ' ';
  auto out = llvm::FileOutputBuffer::create(path, 8 + header.size() + offset);
  if (!out)
    return fileError(path, "cannot write: {0}",
                     llvm::toString(out.takeError()));
  uint8_t *dst = (*out)->getBufferStart();
  uint64_t headerLen = header.size();
  std::memcpy(dst, &headerLen, 8);
  std::memcpy(dst + 8, header.data(), header.size());
  dst += 8 + header.size();
  for (llvm::StringRef name : names) {
    const Tensor &tensor = weights.find(name)->second;
    if (!tensor.data.empty())
      std::memcpy(dst, tensor.data.data(), tensor.data.size() * 4);
    dst += tensor.data.size() * 4;
  }
  if (Error e = (*out)->commit())
    return fileError(path, "cannot write: {0}", llvm::toString(std::move(e)));
  return Error::success();
}
