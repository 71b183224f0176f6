//===- CApi.cpp - the C API of mgp (libmgp.so) ----------------------------===//
//
// This file implements include/mgp/mgp.h over the C++ JIT: a context is a
// device (a GPU opened through getSharedDevice, or the interpreter), a kernel
// is a SpecializedKernel compiled through mgp::jit's Kernel for the caller's
// signature (so the cache and its key are the C++ API's). Every entry point
// checks its handles and pointers, turns llvm::Errors into a status and the
// thread's last-error message, and lets nothing of C++ cross the boundary.
//
//===----------------------------------------------------------------------===//
#include <mgp/mgp.h>

#include "capi/Handles.h"
#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"
#include "runtime/CudaDriver.h"
#include "runtime/Device.h"
#include "runtime/TensorMap.h"
#include "runtime/jit/JitError.h"
#include "runtime/jit/SpecializedKernel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

using namespace mgp;

struct mgp_context_st {
  DeviceKind kind = DeviceKind::CPU;
  std::shared_ptr<Device> device; ///< GPU only
  std::string name;
  std::string arch;
};

struct mgp_kernel_st {
  std::unique_ptr<SpecializedKernel> kernel;
  std::shared_ptr<Device> device; ///< keeps the module's context alive

  mgp_kernel_st() = default;
  mgp_kernel_st(const mgp_kernel_st &) = delete;
  mgp_kernel_st &operator=(const mgp_kernel_st &) = delete;
  /// The module unloads from its own context.
  ~mgp_kernel_st() {
    if (!device || !kernel)
      return;
    llvm::consumeError(runInContext(device->context(), [&] {
      kernel.reset();
      return llvm::Error::success();
    }));
  }
};

/// The live handles (capi/Handles.h): every entry point looks its handles up
/// here, so a destroyed or made-up handle is an error, never a crash.
static capi::HandleTable<mgp_context, mgp_context_st, 0xC1> &contexts() {
  static capi::HandleTable<mgp_context, mgp_context_st, 0xC1> table;
  return table;
}
static capi::HandleTable<mgp_kernel, mgp_kernel_st, 0x4B> &kernels() {
  static capi::HandleTable<mgp_kernel, mgp_kernel_st, 0x4B> table;
  return table;
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

static std::string &lastError() {
  thread_local std::string message;
  return message;
}

static mgp_status statusOf(JitErrorKind kind) {
  switch (kind) {
  case JitErrorKind::InvalidArgument:
    return MGP_ERROR_INVALID_ARGUMENT;
  case JitErrorKind::NotFound:
    return MGP_ERROR_NOT_FOUND;
  case JitErrorKind::Compile:
    return MGP_ERROR_COMPILE;
  case JitErrorKind::NoDevice:
    return MGP_ERROR_NO_DEVICE;
  case JitErrorKind::Device:
    return MGP_ERROR_DEVICE;
  case JitErrorKind::Execution:
    return MGP_ERROR_EXECUTION;
  case JitErrorKind::Unsupported:
    return MGP_ERROR_UNSUPPORTED;
  }
  return MGP_ERROR_INVALID_ARGUMENT;
}

static mgp_status fail(mgp_status status, const llvm::Twine &message) {
  lastError() = message.str();
  return status;
}

/// Consumes \p err: its status (\p fallback unless it says) and message.
static mgp_status fail(llvm::Error err, JitErrorKind fallback) {
  auto [kind, message] = takeJitError(std::move(err), fallback);
  lastError() = std::move(message);
  return statusOf(kind);
}

static mgp_status nullArgument(const char *function, const char *what) {
  return fail(MGP_ERROR_INVALID_ARGUMENT,
              llvm::Twine(function) + ": " + what + " is null");
}

#define MGP_REQUIRE(pointer)                                                   \
  do {                                                                         \
    if (!(pointer))                                                            \
      return nullArgument(__func__, #pointer);                                 \
  } while (false)

static mgp_status notLive(const char *function, const char *what) {
  return fail(MGP_ERROR_INVALID_ARGUMENT,
              llvm::Twine(function) + ": " + what +
                  " is not a live handle (destroyed already, or not made by "
                  "this library)");
}

/// Declares \p var, the object of handle \p handle in \p table, or returns
/// the error for a null or dead handle.
#define MGP_LIVE(table, handle, var)                                           \
  MGP_REQUIRE(handle);                                                         \
  auto var = table().find(handle);                                             \
  if (!var)                                                                    \
    return notLive(__func__, #handle);

//===----------------------------------------------------------------------===//
// Library
//===----------------------------------------------------------------------===//

const char *mgp_version(void) { return MGP_VERSION_STRING; }
int mgp_api_version(void) { return MGP_API_VERSION; }
const char *mgp_last_error(void) { return lastError().c_str(); }

const char *mgp_status_name(mgp_status status) {
  switch (status) {
  case MGP_SUCCESS:
    return "MGP_SUCCESS";
  case MGP_ERROR_INVALID_ARGUMENT:
    return "MGP_ERROR_INVALID_ARGUMENT";
  case MGP_ERROR_NOT_FOUND:
    return "MGP_ERROR_NOT_FOUND";
  case MGP_ERROR_COMPILE:
    return "MGP_ERROR_COMPILE";
  case MGP_ERROR_NO_DEVICE:
    return "MGP_ERROR_NO_DEVICE";
  case MGP_ERROR_DEVICE:
    return "MGP_ERROR_DEVICE";
  case MGP_ERROR_EXECUTION:
    return "MGP_ERROR_EXECUTION";
  case MGP_ERROR_UNSUPPORTED:
    return "MGP_ERROR_UNSUPPORTED";
  }
  return "MGP_ERROR_UNKNOWN";
}

/// mgp_dtype <-> DType (MGP_I1 = 1 ... MGP_FP8E4B15 = 16 in DType's order,
/// compiler/api/DType.h).
static std::optional<DType> dtypeOfC(int dtype) {
  if (dtype < MGP_I1 || dtype > MGP_FP8E4B15)
    return std::nullopt;
  return static_cast<DType>(dtype - MGP_I1);
}
static mgp_dtype dtypeOf(DType type) {
  return static_cast<mgp_dtype>(static_cast<int>(type) + MGP_I1);
}
static_assert(static_cast<int>(DType::F8E4B15) + MGP_I1 == MGP_FP8E4B15,
              "mgp_dtype follows DType");

const char *mgp_dtype_name(mgp_dtype dtype) {
  std::optional<DType> type = dtypeOfC(dtype);
  return type ? dtypeName(*type).data() : "";
}

//===----------------------------------------------------------------------===//
// Contexts
//===----------------------------------------------------------------------===//

mgp_status mgp_device_count(int *count) {
  MGP_REQUIRE(count);
  *count = 0;
  // No driver library or no device: no GPU, 0 devices. A driver that is
  // there but fails is an error (runtime/Device.h: hasGpu).
  llvm::Expected<bool> present = hasGpu();
  if (!present)
    return fail(present.takeError(), JitErrorKind::Device);
  if (!*present)
    return MGP_SUCCESS;
  llvm::Expected<int> devices = getDeviceCount();
  if (!devices)
    return fail(devices.takeError(), JitErrorKind::NoDevice);
  *count = *devices;
  return MGP_SUCCESS;
}

mgp_status mgp_context_create(mgp_device_kind kind, int ordinal,
                              mgp_context *context) {
  MGP_REQUIRE(context);
  *context = nullptr;
  auto result = std::make_unique<mgp_context_st>();
  if (kind == MGP_DEVICE_CPU) {
    result->kind = DeviceKind::CPU;
    result->name = "cpu";
    result->arch = "cpu";
  } else if (kind == MGP_DEVICE_GPU) {
    if (ordinal < 0)
      return fail(MGP_ERROR_INVALID_ARGUMENT,
                  llvm::formatv("mgp_context_create: device ordinal {0} is "
                                "negative",
                                ordinal));
    llvm::Expected<std::shared_ptr<Device>> device = getSharedDevice(ordinal);
    if (!device)
      return fail(device.takeError(), JitErrorKind::NoDevice);
    result->kind = DeviceKind::GPU;
    result->device = std::move(*device);
    result->name = result->device->properties().name;
    // What mgp::jit compiles for on it (getDeviceTarget); an older GPU
    // reports its own arch, and its kernels fail to compile.
    if (auto target = getDeviceTarget(result->device->properties()))
      result->arch = target->arch().str();
    else {
      llvm::consumeError(target.takeError());
      result->arch = result->device->properties().arch;
    }
  } else {
    return fail(MGP_ERROR_INVALID_ARGUMENT,
                llvm::formatv("mgp_context_create: unknown device kind {0}",
                              static_cast<int>(kind)));
  }
  *context = contexts().add(std::move(result));
  return MGP_SUCCESS;
}

void mgp_context_destroy(mgp_context context) {
  if (context)
    contexts().remove(context); // kernels keep their device alive
}

mgp_status mgp_context_device_kind(mgp_context context, mgp_device_kind *kind) {
  MGP_LIVE(contexts, context, ctx);
  MGP_REQUIRE(kind);
  *kind = ctx->kind == DeviceKind::GPU ? MGP_DEVICE_GPU : MGP_DEVICE_CPU;
  return MGP_SUCCESS;
}

mgp_status mgp_context_device_name(mgp_context context, const char **name) {
  MGP_LIVE(contexts, context, ctx);
  MGP_REQUIRE(name);
  *name = ctx->name.c_str();
  return MGP_SUCCESS;
}

mgp_status mgp_context_arch(mgp_context context, const char **arch) {
  MGP_LIVE(contexts, context, ctx);
  MGP_REQUIRE(arch);
  *arch = ctx->arch.c_str();
  return MGP_SUCCESS;
}

mgp_status mgp_context_synchronize(mgp_context context) {
  MGP_LIVE(contexts, context, ctx);
  if (ctx->kind == DeviceKind::CPU)
    return MGP_SUCCESS;
  llvm::Error err = runInContext(ctx->device->context(), [] {
    llvm::Expected<CudaDriver &> driver = CudaDriver::get();
    if (!driver)
      return driver.takeError();
    return driver->check(driver->cuCtxSynchronize(), "cuCtxSynchronize");
  });
  if (err)
    return fail(std::move(err), JitErrorKind::Device);
  return MGP_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Compiling
//===----------------------------------------------------------------------===//

/// JitOptions from the caller's options (null: defaults), or a message.
static llvm::Expected<JitOptions>
makeJitOptions(const mgp_context_st *context, const char *fileName,
               const mgp_compile_options *options) {
  JitOptions result;
  result.fileName = fileName && *fileName ? fileName : "<source>";
  mgp_compile_options defaults{};
  const mgp_compile_options &given = options ? *options : defaults;
  // 0 / null: KernelOptions' defaults (compiler/api/KernelOptions.h).
  if (given.num_warps)
    result.numWarps = given.num_warps;
  if (given.num_stages)
    result.numStages = given.num_stages;
  result.maxNumRegs = given.maxnreg;
  if (llvm::Error err = result.verify())
    return makeJitError(JitErrorKind::InvalidArgument,
                        llvm::toString(std::move(err)));
  if (given.precision) {
    llvm::Expected<DotPrecision> precision =
        parseDotPrecision(given.precision);
    if (!precision)
      return makeJitError(JitErrorKind::InvalidArgument,
                          llvm::toString(precision.takeError()));
    result.precision = *precision;
  }
  result.reflectFtz = given.no_reflect_ftz == 0;
  result.cpuThreads = given.cpu_threads;
  result.arch = given.arch ? given.arch : "";
  if (!context) {
    if (result.arch.empty())
      return makeJitError(JitErrorKind::InvalidArgument,
                          "compiling without a context needs options->arch "
                          "(the target, e.g. \"sm_90\")");
    result.device = DeviceKind::GPU;
    result.deviceOrdinal = -1;
  } else if (context->kind == DeviceKind::CPU) {
    result.device = DeviceKind::CPU;
    result.arch.clear();
  } else {
    result.device = DeviceKind::GPU;
    result.deviceOrdinal = context->device->ordinal();
  }
  return result;
}

/// Whether \p source parses and has a @jit kernel \p name (a syntax error
/// counts as yes: the failure is the source's, not a missing kernel).
static bool hasKernel(llvm::StringRef source, llvm::StringRef fileName,
                      llvm::StringRef name) {
  llvm::SourceMgr sourceMgr;
  unsigned id = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, fileName), llvm::SMLoc());
  auto module = parseSourceFile(sourceMgr, id);
  if (!module) {
    llvm::consumeError(module.takeError());
    return true;
  }
  return llvm::is_contained(listKernels(**module), name);
}

mgp_status mgp_kernel_compile(mgp_context context, const char *source,
                              const char *file_name, const char *kernel_name,
                              const char *signature,
                              const mgp_compile_options *options,
                              mgp_kernel *kernel) {
  MGP_REQUIRE(kernel);
  *kernel = nullptr;
  MGP_REQUIRE(source);
  MGP_REQUIRE(kernel_name);
  MGP_REQUIRE(signature);
  std::shared_ptr<mgp_context_st> ctx;
  if (context) { // null: compile only
    ctx = contexts().find(context);
    if (!ctx)
      return notLive(__func__, "context");
  }
  llvm::Expected<JitOptions> jitOptions =
      makeJitOptions(ctx.get(), file_name, options);
  if (!jitOptions)
    return fail(jitOptions.takeError(), JitErrorKind::InvalidArgument);
  llvm::Expected<Kernel> parsed = jit(source, kernel_name, *jitOptions);
  if (!parsed)
    return fail(parsed.takeError(),
                hasKernel(source, jitOptions->fileName, kernel_name)
                    ? JitErrorKind::Compile
                    : JitErrorKind::NotFound);
  auto specialized = SpecializedKernel::create(*parsed, signature);
  if (!specialized)
    return fail(specialized.takeError(), JitErrorKind::Compile);
  auto result = std::make_shared<mgp_kernel_st>();
  result->kernel = std::move(*specialized);
  if (ctx)
    result->device = ctx->device;
  *kernel = kernels().add(std::move(result));
  return MGP_SUCCESS;
}

void mgp_kernel_destroy(mgp_kernel kernel) {
  // The object (and its module) goes when no call holds it any more.
  if (kernel)
    kernels().remove(kernel);
}

mgp_status mgp_kernel_ptx(mgp_kernel kernel, const char **ptx) {
  MGP_LIVE(kernels, kernel, k);
  MGP_REQUIRE(ptx);
  llvm::StringRef text = k->kernel->ptx();
  if (text.empty())
    return fail(MGP_ERROR_UNSUPPORTED,
                "kernel '" + k->kernel->name() +
                    "' is compiled for the interpreter; it has no PTX");
  *ptx = text.data(); // a std::string's buffer: NUL-terminated
  return MGP_SUCCESS;
}

mgp_status mgp_kernel_get_info(mgp_kernel kernel, mgp_kernel_info *info) {
  MGP_LIVE(kernels, kernel, object);
  MGP_REQUIRE(info);
  const SpecializedKernel &k = *object->kernel;
  info->name = k.name().data();
  info->entry = k.entryName().empty() ? "" : k.entryName().data();
  info->signature = k.signature().data();
  info->arch = k.arch().data();
  info->num_warps = k.numWarps();
  info->num_stages = k.numStages();
  info->shared_bytes = k.sharedBytes();
  info->num_params = static_cast<int>(k.params().size());
  info->num_launch_args = static_cast<int>(k.numLaunchArgs());
  return MGP_SUCCESS;
}

mgp_status mgp_kernel_get_param(mgp_kernel kernel, int index,
                                mgp_param_info *info) {
  MGP_LIVE(kernels, kernel, k);
  MGP_REQUIRE(info);
  const auto &params = k->kernel->params();
  if (index < 0 || static_cast<size_t>(index) >= params.size())
    return fail(MGP_ERROR_INVALID_ARGUMENT,
                llvm::formatv("mgp_kernel_get_param: kernel '{0}' has {1} "
                              "parameter(s), no index {2}",
                              k->kernel->name(), params.size(), index));
  const SpecializedKernel::Param &param = params[index];
  const SignatureParam &type = param.type;
  info->name = param.name.c_str();
  info->type = param.entry.c_str();
  info->kind = type.isPointer()     ? MGP_PARAM_POINTER
               : type.isConstexpr() ? MGP_PARAM_CONSTEXPR
                                    : MGP_PARAM_SCALAR;
  info->dtype = dtypeOf(type.type);
  info->annotated_constexpr = param.annotatedConstexpr;
  info->divisibility = type.divisibility;
  info->equals_one = type.equalsOne;
  info->launch_index = param.launchIndex;
  info->int_value = type.isConstexpr() && !type.isFloat ? type.intValue : 0;
  info->float_value = type.isConstexpr() && type.isFloat ? type.floatValue : 0;
  return MGP_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Launching
//===----------------------------------------------------------------------===//

mgp_status mgp_kernel_launch(mgp_kernel kernel, uint32_t grid_x,
                             uint32_t grid_y, uint32_t grid_z,
                             mgp_stream stream, const mgp_arg *args,
                             size_t num_args) {
  MGP_LIVE(kernels, kernel, k);
  if (num_args)
    MGP_REQUIRE(args);
  llvm::SmallVector<LaunchValue, 16> values(num_args);
  for (size_t i = 0; i < num_args; ++i) {
    const mgp_arg &arg = args[i];
    LaunchValue &value = values[i];
    switch (arg.kind) {
    case MGP_ARG_NONE:
      value.kind = LaunchValue::Kind::None;
      break;
    case MGP_ARG_DEVICE_POINTER:
    case MGP_ARG_HOST_POINTER:
      value.kind = arg.kind == MGP_ARG_HOST_POINTER
                       ? LaunchValue::Kind::HostPointer
                       : LaunchValue::Kind::DevicePointer;
      value.dtype = dtypeOfC(arg.dtype);
      value.bits = arg.value.address;
      value.bytes = arg.bytes;
      break;
    case MGP_ARG_INT:
      value.kind = LaunchValue::Kind::Int;
      value.bits = arg.value.u;
      break;
    case MGP_ARG_FLOAT:
      value.kind = LaunchValue::Kind::Float;
      value.value = arg.value.f;
      break;
    default:
      return fail(MGP_ERROR_INVALID_ARGUMENT,
                  llvm::formatv("mgp_kernel_launch: argument {0} has the "
                                "unknown kind {1}",
                                i + 1, arg.kind));
    }
  }
  llvm::Error err = k->kernel->launch(
      Grid(grid_x, grid_y, grid_z), reinterpret_cast<CUstream>(stream), values);
  if (err)
    return fail(std::move(err), JitErrorKind::Device);
  return MGP_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

mgp_status mgp_tensor_map_encode(const mgp_tensor_map_view *view, void *out) {
  if (!view)
    return nullArgument("mgp_tensor_map_encode", "view");
  if (!out)
    return nullArgument("mgp_tensor_map_encode", "out");
  std::optional<DType> dtype = dtypeOfC(view->dtype);
  if (!dtype)
    return fail(MGP_ERROR_INVALID_ARGUMENT,
                llvm::formatv("mgp_tensor_map_encode: unknown dtype {0}",
                              view->dtype));
  if (view->rank < 1 || view->rank > 5)
    return fail(MGP_ERROR_UNSUPPORTED,
                llvm::formatv("mgp_tensor_map_encode: rank {0} (TMA takes 1 "
                              "to 5 dimensions)",
                              view->rank));
  if (!view->shape || !view->strides || !view->block)
    return nullArgument("mgp_tensor_map_encode", "shape, strides or block");
  TensorMapSpec spec;
  spec.dtype = *dtype;
  spec.base = view->base;
  spec.shape.assign(view->shape, view->shape + view->rank);
  spec.strides.assign(view->strides, view->strides + view->rank);
  spec.block.assign(view->block, view->block + view->rank);
  spec.nanFill = view->nan_padding != 0;
  std::string why = whyNotTensorMap(spec);
  if (!why.empty())
    return fail(MGP_ERROR_UNSUPPORTED, "mgp_tensor_map_encode: " + why);
  if (llvm::Error err = encodeTensorMap(spec, out)) {
    JitErrorKind kind =
        err.isA<NoGpuError>() ? JitErrorKind::NoDevice : JitErrorKind::Device;
    return fail(std::move(err), kind);
  }
  return MGP_SUCCESS;
}
