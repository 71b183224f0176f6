//===- TensorMap.cpp - TMA tensor maps of tiled tensor views --------------===//
//
// This file implements the checks and the encoding of TensorMap.h.
//
//===----------------------------------------------------------------------===//
#include "runtime/TensorMap.h"

#include "runtime/CudaDriver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace mgp {

namespace {

/// The driver's element type of `dtype` (integers and fp8 by their width:
/// the copy moves bits).
CUtensorMapDataType getDataType(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case DType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case DType::U32:
    return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  case DType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case DType::U64:
    return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  case DType::I16:
  case DType::U16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  default: // i1 (a byte), i8, u8, fp8
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
}

} // namespace

std::string whyNotTensorMap(const TensorMapSpec &spec) {
  size_t rank = spec.block.size();
  int64_t bytes = dtypeBytes(spec.dtype);
  if (rank < 1 || rank > 5)
    return llvm::formatv("rank {0} (TMA takes 1 to 5 dimensions)", rank);
  if (spec.shape.size() != rank || spec.strides.size() != rank)
    return "shape, strides and block differ in rank";
  for (int64_t b : spec.block)
    if (b < 1 || b > 256)
      return llvm::formatv("block dimension {0} (TMA takes 1 to 256)", b);
  if (spec.block.back() * bytes % 16)
    return llvm::formatv("the block's rows of {0} bytes (TMA needs a "
                         "multiple of 16)",
                         spec.block.back() * bytes);
  if (spec.base % 16)
    return "a base not aligned to 16 bytes";
  if (spec.strides.back() != 1)
    return llvm::formatv("last stride {0} (TMA needs 1)", spec.strides.back());
  for (size_t d = 0; d + 1 < rank; ++d) {
    if (spec.strides[d] <= 0 || spec.strides[d] * bytes % 16)
      return llvm::formatv("stride {0} of {1} bytes (TMA needs a positive "
                           "multiple of 16)",
                           d, spec.strides[d] * bytes);
    if (spec.strides[d] * bytes >= (int64_t(1) << 40))
      return llvm::formatv("stride {0} past 2**40 bytes", d);
  }
  for (int64_t n : spec.shape)
    if (n < 1 || n > (int64_t(1) << 32))
      return llvm::formatv("shape dimension {0} (TMA takes 1 to 2**32)", n);
  if (spec.nanFill && !llvm::is_contained({DType::F16, DType::BF16,
                                           DType::F32, DType::F64},
                                          spec.dtype))
    return "NaN padding of elements other than fp16, bf16, fp32 and fp64";
  return "";
}

llvm::Error encodeTensorMap(const TensorMapSpec &spec, void *out) {
  std::string why = whyNotTensorMap(spec);
  if (!why.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no tensor map for this view: " + why);
  llvm::Expected<CudaDriver &> driver = CudaDriver::get();
  if (!driver)
    return driver.takeError();
  size_t rank = spec.block.size();
  int64_t bytes = dtypeBytes(spec.dtype);
  // The driver counts dimensions innermost first; strides in bytes, without
  // the innermost one (its elements are adjacent).
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], elementStrides[5];
  for (size_t i = 0; i < rank; ++i) {
    size_t d = rank - 1 - i;
    dims[i] = cuuint64_t(spec.shape[d]);
    box[i] = cuuint32_t(spec.block[d]);
    elementStrides[i] = 1;
    if (i > 0)
      strides[i - 1] = cuuint64_t(spec.strides[d] * bytes);
  }
  return driver->check(
      driver->cuTensorMapEncodeTiled(
          static_cast<CUtensorMap *>(out), getDataType(spec.dtype),
          cuuint32_t(rank), reinterpret_cast<void *>(spec.base), dims, strides,
          box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
          CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
          spec.nanFill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                       : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
      "cuTensorMapEncodeTiled");
}

} // namespace mgp
