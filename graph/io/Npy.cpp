//===- Npy.cpp - NumPy .npy arrays ----------------------------------------===//
//
// This file implements the `.npy` reader (magic, version, the Python-literal
// header dictionary, the data) and writer.
//
//===----------------------------------------------------------------------===//

#include "graph/io/Npy.h"

#include "llvm/Support/FileOutputBuffer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mgp::graph;
using llvm::Error;

template <typename... Ts>
static Error npyError(llvm::StringRef path, const char *fmt, Ts... args) {
  std::string msg = llvm::formatv(fmt, args...).str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                 path.str().c_str(), msg.c_str());
}

namespace {
struct NpyArray {
  std::string descr;
  Shape shape;
  llvm::StringRef data;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
};
} // namespace

/// The text after `'key':` in the header dictionary, or an empty ref.
static llvm::StringRef valueOf(llvm::StringRef header, llvm::StringRef key) {
  std::string quoted = "'" + key.str() + "'";
  size_t pos = header.find(quoted);
  if (pos == llvm::StringRef::npos)
    return {};
  llvm::StringRef rest = header.substr(pos + quoted.size()).ltrim();
  if (!rest.consume_front(":"))
    return {};
  return rest.ltrim();
}

static llvm::Expected<NpyArray> readNpy(llvm::StringRef path) {
  auto bufferOrErr =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!bufferOrErr)
    return npyError(path, "cannot read: {0}", bufferOrErr.getError().message());
  NpyArray array;
  array.buffer = std::move(*bufferOrErr);
  llvm::StringRef bytes = array.buffer->getBuffer();
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY"))
    return npyError(path, "not a .npy file (bad magic)");
  uint8_t major = uint8_t(bytes[6]);
  uint64_t headerLen = 0, headerStart = 0;
  if (major == 1) {
    uint16_t len;
    std::memcpy(&len, bytes.data() + 8, 2);
    headerLen = len;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return npyError(path, "truncated header");
    uint32_t len;
    std::memcpy(&len, bytes.data() + 8, 4);
    headerLen = len;
    headerStart = 12;
  } else {
    return npyError(path, "unsupported .npy version {0}", unsigned(major));
  }
  if (headerStart + headerLen > bytes.size())
    return npyError(path, "truncated header");
  llvm::StringRef header = bytes.substr(headerStart, headerLen);

  llvm::StringRef descr = valueOf(header, "descr");
  if (!descr.consume_front("'") || descr.find('\'') == llvm::StringRef::npos)
    return npyError(path, "bad header: no 'descr'");
  array.descr = descr.take_until([](char c) { return c == '\''; }).str();

  llvm::StringRef order = valueOf(header, "fortran_order");
  if (order.starts_with("True"))
    return npyError(path, "Fortran-order arrays are not supported; save a "
                          "C-order array (numpy.ascontiguousarray)");
  if (!order.starts_with("False"))
    return npyError(path, "bad header: no 'fortran_order'");

  llvm::StringRef shape = valueOf(header, "shape");
  if (!shape.consume_front("("))
    return npyError(path, "bad header: no 'shape'");
  shape = shape.take_until([](char c) { return c == ')'; });
  llvm::SmallVector<llvm::StringRef> dims;
  shape.split(dims, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef dim : dims) {
    dim = dim.trim();
    if (dim.empty())
      continue;
    int64_t size;
    if (dim.getAsInteger(10, size) || size < 0)
      return npyError(path, "bad header: invalid shape");
    array.shape.push_back(size);
  }
  array.data = bytes.substr(headerStart + headerLen);
  return std::move(array);
}

static Error checkData(llvm::StringRef path, const NpyArray &array,
                       llvm::StringRef descr, const char *name,
                       int64_t elemSize) {
  if (array.descr != descr)
    return npyError(path, "dtype '{0}' is not {1} ('{2}')", array.descr, name,
                    descr);
  int64_t bytes = checkedByteSize(array.shape, elemSize);
  if (bytes < 0)
    return npyError(path, "bad header: the shape {0} is too large",
                    formatShape(array.shape));
  uint64_t needed = uint64_t(bytes);
  if (array.data.size() < needed)
    return npyError(path,
                    "truncated data: shape {0} needs {1} bytes, the file has "
                    "{2}",
                    formatShape(array.shape), needed, array.data.size());
  return Error::success();
}

llvm::Expected<Tensor> mgp::graph::readNpyFloat32(llvm::StringRef path) {
  auto array = readNpy(path);
  if (!array)
    return array.takeError();
  if (Error e = checkData(path, *array, "<f4", "float32", 4))
    return std::move(e);
  Tensor tensor(array->shape);
  if (!tensor.data.empty())
    std::memcpy(tensor.data.data(), array->data.data(), tensor.size() * 4);
  return std::move(tensor);
}

llvm::Expected<std::vector<int64_t>>
mgp::graph::readNpyInt64(llvm::StringRef path, Shape &shape) {
  auto array = readNpy(path);
  if (!array)
    return array.takeError();
  if (Error e = checkData(path, *array, "<i8", "int64", 8))
    return std::move(e);
  shape = array->shape;
  std::vector<int64_t> values(numElements(shape));
  if (!values.empty())
    std::memcpy(values.data(), array->data.data(), values.size() * 8);
  return std::move(values);
}

Error mgp::graph::writeNpy(llvm::StringRef path, const Tensor &tensor) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (int64_t d : tensor.shape)
    header += std::to_string(d) + ",";
  if (tensor.shape.size() > 1)
    header.pop_back(); // (1,) for rank 1, (2,3) otherwise
  header += "), }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  uint64_t total = 10 + header.size() + tensor.data.size() * 4;
  auto out = llvm::FileOutputBuffer::create(path, total);
  if (!out)
    return npyError(path, "cannot write: {0}", llvm::toString(out.takeError()));
  uint8_t *dst = (*out)->getBufferStart();
  std::memcpy(dst, "\x93NUMPY\x01\x00", 8);
  uint16_t len = uint16_t(header.size());
  std::memcpy(dst + 8, &len, 2);
  std::memcpy(dst + 10, header.data(), header.size());
  if (!tensor.data.empty())
    std::memcpy(dst + 10 + header.size(), tensor.data.data(),
                tensor.data.size() * 4);
  if (Error e = (*out)->commit())
    return npyError(path, "cannot write: {0}", llvm::toString(std::move(e)));
  return Error::success();
}
