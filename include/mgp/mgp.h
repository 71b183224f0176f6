/*===- mgp.h - the C API of mgp -----------------------------------*- C -*-===*
 *
 * This file declares mgp's C API (libmgp.so): compile a Triton-style kernel
 * from source text for one specialization (a signature in Triton's AOT
 * syntax, as `mgpc --signature` takes it), query its parameters, and launch
 * it on a GPU on a CUstream the caller owns, or on mgp's CPU interpreter on
 * host memory. Kernels come from the same JIT and disk cache as the C++ API
 * (runtime/jit/Jit.h).
 *
 *   mgp_context ctx;
 *   mgp_kernel k;
 *   if (mgp_context_create(MGP_DEVICE_GPU, 0, &ctx) != MGP_SUCCESS ||
 *       mgp_kernel_compile(ctx, source, "add.py", "add_kernel",
 *                          "*fp32:16,*fp32:16,*fp32:16,i32,1024", NULL,
 *                          &k) != MGP_SUCCESS)
 *     fprintf(stderr, "%s\n", mgp_last_error());
 *   mgp_arg args[4] = {mgp_arg_device(x, MGP_FP32), mgp_arg_device(y,
 *MGP_FP32), mgp_arg_device(out, MGP_FP32), mgp_arg_int(n)};
 *   mgp_kernel_launch(k, (n + 1023) / 1024, 1, 1, stream, args, 4);
 *
 * Conventions: every function returns an mgp_status; on failure
 * mgp_last_error() holds a message (for compile errors the compiler's
 * located diagnostics: `file:line:col: error: ...`, the source line and a
 * caret). Handles are opaque; a null handle is an MGP_ERROR_INVALID_ARGUMENT,
 * never a crash. Nothing of C++ crosses this boundary.
 *
 *===----------------------------------------------------------------------===*/
#ifndef MGP_MGP_H
#define MGP_MGP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define MGP_API __attribute__((visibility("default")))
#else
#define MGP_API
#endif

/** The version of this interface; mgp_api_version() returns the library's. */
#define MGP_API_VERSION 1

/** The CUDA driver's stream type (cuda.h's CUstream), without cuda.h. */
typedef struct CUstream_st *mgp_stream;

/** A device that kernels compile for and run on (GPU or interpreter). */
typedef struct mgp_context_st *mgp_context;
/** A kernel compiled for one specialization. */
typedef struct mgp_kernel_st *mgp_kernel;

typedef enum mgp_status {
  MGP_SUCCESS = 0,
  /** A null handle or pointer, a bad option, signature, argument or grid. */
  MGP_ERROR_INVALID_ARGUMENT = 1,
  /** The source has no @jit kernel of that name. */
  MGP_ERROR_NOT_FOUND = 2,
  /** The compiler rejected the kernel; the message is its diagnostics. */
  MGP_ERROR_COMPILE = 3,
  /** No CUDA driver, no device, or no device of that ordinal. */
  MGP_ERROR_NO_DEVICE = 4,
  /** A CUDA driver call failed (loading the PTX, launching). */
  MGP_ERROR_DEVICE = 5,
  /** The interpreter stopped a kernel (e.g. an out-of-bounds access). */
  MGP_ERROR_EXECUTION = 6,
  /** The request needs something this handle lacks (e.g. PTX of a kernel
      compiled for the interpreter, a launch of a compile-only kernel). */
  MGP_ERROR_UNSUPPORTED = 7
} mgp_status;

typedef enum mgp_device_kind {
  MGP_DEVICE_GPU = 0, /**< a CUDA device: device pointers, PTX */
  MGP_DEVICE_CPU = 1  /**< the interpreter: host pointers */
} mgp_device_kind;

/** Element and scalar types, with the signature's names. */
typedef enum mgp_dtype {
  MGP_DTYPE_NONE = 0,
  MGP_I1 = 1, /**< "i1" (Triton's bool, "u1") */
  MGP_I8 = 2,
  MGP_I16 = 3,
  MGP_I32 = 4,
  MGP_I64 = 5,
  MGP_U8 = 6,
  MGP_U16 = 7,
  MGP_U32 = 8,
  MGP_U64 = 9,
  MGP_FP16 = 10,
  MGP_BF16 = 11,
  MGP_FP32 = 12,
  MGP_FP64 = 13,
  MGP_FP8E4NV = 14, /**< "fp8e4nv": float8 e4m3fn */
  MGP_FP8E5 = 15,   /**< "fp8e5": float8 e5m2 */
  MGP_FP8E4B15 = 16 /**< "fp8e4b15": Triton's float8 e4m3, exponent bias 15 */
} mgp_dtype;

/** The library's version ("0.1.0"), a static string. */
MGP_API const char *mgp_version(void);
/** The interface version the library implements (MGP_API_VERSION). */
MGP_API int mgp_api_version(void);
/** The message of the last failed call on the calling thread ("" if none);
    valid until the next failing call on this thread. */
MGP_API const char *mgp_last_error(void);
/** "MGP_SUCCESS", "MGP_ERROR_COMPILE", ... (a static string). */
MGP_API const char *mgp_status_name(mgp_status status);
/** The signature name of \p dtype ("fp32"), or "" for an unknown value. */
MGP_API const char *mgp_dtype_name(mgp_dtype dtype);

/*===--- Contexts ---------------------------------------------------------===*/

/** Number of CUDA devices: 0 (MGP_SUCCESS) without a driver library or a
    device; MGP_ERROR_DEVICE when a driver is there but fails (a broken
    install), so that a broken GPU is never taken for a missing one. */
MGP_API mgp_status mgp_device_count(int *count);

/** A context on GPU \p ordinal (its primary context, which PyTorch and the
    CUDA runtime share, becomes current on the calling thread) or on the
    interpreter (\p ordinal ignored). */
MGP_API mgp_status mgp_context_create(mgp_device_kind kind, int ordinal,
                                      mgp_context *context);
/** Destroys \p context (null: nothing). Its kernels must be destroyed first. */
MGP_API void mgp_context_destroy(mgp_context context);
MGP_API mgp_status mgp_context_device_kind(mgp_context context,
                                           mgp_device_kind *kind);
/** The device's name ("NVIDIA H200", "cpu"), valid while \p context lives. */
MGP_API mgp_status mgp_context_device_name(mgp_context context,
                                           const char **name);
/** The arch kernels compile for ("sm_90a"; "cpu" for the interpreter). */
MGP_API mgp_status mgp_context_arch(mgp_context context, const char **arch);
/** Waits until the device has finished all work (no-op on the CPU). */
MGP_API mgp_status mgp_context_synchronize(mgp_context context);

/*===--- Compiling --------------------------------------------------------===*/

/** Compile options; an all-zero struct (or a null pointer) means defaults. */
typedef struct mgp_compile_options {
  int num_warps;         /**< power of two in 1..32; 0: 4 */
  int num_stages;        /**< software pipelining stages >= 1; 0: 3 */
  const char *precision; /**< "tf32" (null: each dot's own) or "ieee" */
  /** Target arch ("sm_80", "sm_90a"); null: the context's. Required when
      compiling without a context (PTX only). */
  const char *arch;
  unsigned cpu_threads; /**< interpreter worker threads; 0: all cores */
  /** Nonzero: libdevice's f32 functions keep denormals (Triton's
      enable_reflect_ftz=False); 0: they flush them to zero, Triton's
      default. */
  int no_reflect_ftz;
  /** The most registers per thread (Triton's maxnreg, PTX `.maxnreg`): 16..255;
      0: no limit. */
  int maxnreg;
} mgp_compile_options;

/** Compiles kernel \p kernel_name of \p source (the whole file, named
    \p file_name in diagnostics) for \p signature: one entry per parameter,
    `*fp32:16` (pointer, 16-byte aligned), `*fp16`, `i32`, `i32:16`, `i32:1`,
    `i64`, `u64`, `i1`, `fp32`, or a number for a constexpr (every parameter
    annotated tl.constexpr needs one). Found in the memory or disk cache when
    compiled before (MGP_CACHE_DIR). With a null \p context the kernel is
    compiled to PTX for options->arch and cannot be launched. */
MGP_API mgp_status mgp_kernel_compile(mgp_context context, const char *source,
                                      const char *file_name,
                                      const char *kernel_name,
                                      const char *signature,
                                      const mgp_compile_options *options,
                                      mgp_kernel *kernel);
/** Destroys \p kernel (null: nothing). */
MGP_API void mgp_kernel_destroy(mgp_kernel kernel);

/** The PTX of a GPU or compile-only kernel (NUL-terminated, valid while the
    kernel lives); MGP_ERROR_UNSUPPORTED for an interpreter kernel. */
MGP_API mgp_status mgp_kernel_ptx(mgp_kernel kernel, const char **ptx);

/** What a compiled kernel is. Strings are valid while the kernel lives. */
typedef struct mgp_kernel_info {
  const char *name;      /**< the kernel's name in the source */
  const char *entry;     /**< the PTX .entry name ("" on the interpreter) */
  const char *signature; /**< the specialization, e.g. "*fp32:16,i32,1024" */
  const char *arch;      /**< "sm_90a", or "cpu" */
  int num_warps;
  int num_stages;
  unsigned shared_bytes; /**< dynamic shared memory per block */
  int num_params;        /**< every parameter, constexprs included */
  int num_launch_args;   /**< parameters a launch passes (not constexpr) */
} mgp_kernel_info;
MGP_API mgp_status mgp_kernel_get_info(mgp_kernel kernel,
                                       mgp_kernel_info *info);

typedef enum mgp_param_kind {
  MGP_PARAM_POINTER = 0,  /**< a pointer to elements of `dtype` */
  MGP_PARAM_SCALAR = 1,   /**< a runtime scalar of `dtype` */
  MGP_PARAM_CONSTEXPR = 2 /**< a value compiled in; not passed at launch */
} mgp_param_kind;

/** One parameter of a compiled kernel. */
typedef struct mgp_param_info {
  const char *name; /**< valid while the kernel lives */
  const char *type; /**< its signature entry: "*fp32:16", "i32", "1024" */
  int kind;         /**< mgp_param_kind */
  int dtype;        /**< pointee or scalar type; constexprs: I64 or FP64 */
  int annotated_constexpr; /**< declared `: tl.constexpr` in the source */
  int divisibility;        /**< 16 with the :16 hint, else 1 */
  int equals_one;          /**< the :1 hint */
  int launch_index;        /**< position among launch arguments, or -1 */
  int64_t int_value;       /**< constexpr value (dtype I64) */
  double float_value;      /**< constexpr value (dtype FP64) */
} mgp_param_info;
/** Parameter \p index (0-based) of \p kernel. */
MGP_API mgp_status mgp_kernel_get_param(mgp_kernel kernel, int index,
                                        mgp_param_info *info);

/*===--- Launching --------------------------------------------------------===*/

typedef enum mgp_arg_kind {
  MGP_ARG_NONE = 0,           /**< nothing: allowed for constexpr parameters */
  MGP_ARG_DEVICE_POINTER = 1, /**< value.address: a CUdeviceptr */
  MGP_ARG_HOST_POINTER = 2,   /**< value.address: host memory of `bytes` */
  MGP_ARG_INT = 3,            /**< value.i (u64 parameters: value.u) */
  MGP_ARG_FLOAT = 4           /**< value.f */
} mgp_arg_kind;

/** One launch argument. */
typedef struct mgp_arg {
  int32_t kind;  /**< mgp_arg_kind */
  int32_t dtype; /**< a pointer's element type (mgp_dtype) */
  union {
    uint64_t address;
    int64_t i;
    uint64_t u;
    double f;
  } value;
  /** Host pointers: the bytes valid from `address` on (the interpreter
      checks every access against them); ignored otherwise. */
  uint64_t bytes;
} mgp_arg;

static inline mgp_arg mgp_arg_device(uint64_t address, mgp_dtype dtype) {
  mgp_arg arg = {MGP_ARG_DEVICE_POINTER, (int32_t)dtype, {0}, 0};
  arg.value.address = address;
  return arg;
}
static inline mgp_arg mgp_arg_host(void *data, uint64_t bytes,
                                   mgp_dtype dtype) {
  mgp_arg arg = {MGP_ARG_HOST_POINTER, (int32_t)dtype, {0}, bytes};
  arg.value.address = (uint64_t)(uintptr_t)data;
  return arg;
}
static inline mgp_arg mgp_arg_int(int64_t value) {
  mgp_arg arg = {MGP_ARG_INT, MGP_DTYPE_NONE, {0}, 0};
  arg.value.i = value;
  return arg;
}
static inline mgp_arg mgp_arg_float(double value) {
  mgp_arg arg = {MGP_ARG_FLOAT, MGP_DTYPE_NONE, {0}, 0};
  arg.value.f = value;
  return arg;
}

/** Launches \p kernel on a grid_x * grid_y * grid_z grid of programs, on
    \p stream (a CUstream of the kernel's device; null: the default stream;
    ignored by the interpreter, which returns when the kernel is done).
    \p args holds either one argument per launch argument (the parameters
    that are not constexpr) or one per parameter, where a constexpr's entry
    is MGP_ARG_NONE or its compiled value. Every argument is checked against
    the specialization (kind, dtype, range, :16 alignment, :1) before
    anything runs; a mismatch is MGP_ERROR_INVALID_ARGUMENT naming the
    parameter. */
MGP_API mgp_status mgp_kernel_launch(mgp_kernel kernel, uint32_t grid_x,
                                     uint32_t grid_y, uint32_t grid_z,
                                     mgp_stream stream, const mgp_arg *args,
                                     size_t num_args);

/*===--- Tensor maps (TMA) ------------------------------------------------===*/

/** A tiled view of a tensor in device memory: what a tensor descriptor
    (`tl.make_tensor_descriptor(base, shape, strides, block_shape,
    padding_option)`) describes. */
typedef struct mgp_tensor_map_view {
  int32_t dtype;          /**< the elements' type (mgp_dtype) */
  int rank;               /**< 1 to 5 */
  uint64_t base;          /**< device address of element 0 */
  const int64_t *shape;   /**< rank entries, outermost first */
  const int64_t *strides; /**< rank entries, in elements */
  const int64_t *block;   /**< rank entries: the block a load or store moves */
  int nan_padding;        /**< nonzero: elements outside read NaN, else 0 */
} mgp_tensor_map_view;

/** Encodes the 128-byte TMA descriptor (CUtensorMap) of \p view into \p out
    (host memory). A kernel for compute capability 9.0 or newer reads it
    from device memory: copy the 128 bytes to a 64-byte aligned device
    buffer and pass its address as `_tensor_map=` of the kernel's
    `tl.make_tensor_descriptor` of the same view; its `desc.load` and
    `desc.store` then copy blocks with TMA (docs/python.md). The view must
    follow TMA's rules: a base aligned to 16 bytes, the last stride 1 and
    the others multiples of 16 bytes, block dimensions of 1 to 256 elements
    whose last one spans a multiple of 16 bytes, NaN padding for fp16, bf16,
    fp32 and fp64 only; otherwise MGP_ERROR_UNSUPPORTED naming the rule (the
    descriptor then works without a tensor map). MGP_ERROR_NO_DEVICE
    without a CUDA driver. */
MGP_API mgp_status mgp_tensor_map_encode(const mgp_tensor_map_view *view,
                                         void *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MGP_MGP_H */
