/*===- CApiTest.c - the C API without a GPU --------------------*- C -*-===*
 *
 * This file tests mgp.h from C, through the public header only, on the
 * interpreter (no GPU needed): the version, compile errors with their
 * located diagnostics, unknown kernels, bad handles, options, signatures and
 * launch arguments (each with its message), parameter queries, PTX of a
 * compile-only kernel, and kernels run on random inputs against results
 * computed here in C.
 *
 *===----------------------------------------------------------------------===*/
#include "CApiTestSupport.h"

#include <math.h>
#include <stdint.h>

static char *kernelSource = NULL; /* tests/capi/kernels.py */

static mgp_context cpuContext(void) {
  mgp_context context = NULL;
  CHECK_STATUS(mgp_context_create(MGP_DEVICE_CPU, 0, &context), MGP_SUCCESS);
  return context;
}

/* Compiles `name` of kernels.py for `signature` on `context`. */
static mgp_kernel compileKernel(mgp_context context, const char *name,
                                const char *signature) {
  mgp_kernel kernel = NULL;
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py", name,
                                  signature, NULL, &kernel),
               MGP_SUCCESS);
  return kernel;
}

static void testVersion(void) {
  const char *version = mgp_version();
  CHECK(version && strlen(version) >= 5); /* "0.1.0" */
  CHECK(strchr(version, '.') != NULL);
  CHECK(mgp_api_version() == MGP_API_VERSION);
  CHECK(strcmp(mgp_status_name(MGP_ERROR_COMPILE), "MGP_ERROR_COMPILE") == 0);
  CHECK(strcmp(mgp_dtype_name(MGP_BF16), "bf16") == 0);
  CHECK(strcmp(mgp_dtype_name((mgp_dtype)99), "") == 0);
}

static void testNullHandles(void) {
  mgp_kernel kernel = NULL;
  mgp_context context = cpuContext();
  CHECK_STATUS(mgp_context_create(MGP_DEVICE_CPU, 0, NULL),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "mgp_context_create: context is null");
  CHECK_STATUS(mgp_kernel_compile(context, NULL, "k.py", "add_kernel", "i32",
                                  NULL, &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "source is null");
  CHECK(kernel == NULL);
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "k.py", "add_kernel",
                                  NULL, NULL, &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "signature is null");
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "k.py", "add_kernel",
                                  "i32", NULL, NULL),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(mgp_kernel_launch(NULL, 1, 1, 1, NULL, NULL, 0),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "mgp_kernel_launch: kernel is null");
  mgp_param_info info;
  CHECK_STATUS(mgp_kernel_get_param(NULL, 0, &info),
               MGP_ERROR_INVALID_ARGUMENT);
  const char *text = NULL;
  CHECK_STATUS(mgp_kernel_ptx(NULL, &text), MGP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(mgp_context_arch(NULL, &text), MGP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(mgp_context_synchronize(NULL), MGP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(mgp_context_create((mgp_device_kind)7, 0, &context),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "unknown device kind 7");
  mgp_kernel_destroy(NULL); /* no-ops */
  mgp_context_destroy(NULL);
  mgp_context_destroy(context);
}

static void testUnknownKernel(void) {
  mgp_context context = cpuContext();
  mgp_kernel kernel = NULL;
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py", "nope",
                                  "i32", NULL, &kernel),
               MGP_ERROR_NOT_FOUND);
  CHECK_CONTAINS(mgp_last_error(), "no @jit kernel 'nope'");
  CHECK_CONTAINS(mgp_last_error(), "add_kernel");
  CHECK(kernel == NULL);
  mgp_context_destroy(context);
}

static const char *badSource = "import triton.language as tl\n"
                               "\n"
                               "@triton.jit\n"
                               "def bad_kernel(x_ptr, BLOCK: tl.constexpr):\n"
                               "    offs = tl.arange(0, BLOCK)\n"
                               "    tl.store(x_ptr + offs, undefined_value)\n";

static void testCompileErrorIsLocated(void) {
  mgp_context context = cpuContext();
  mgp_kernel kernel = NULL;
  CHECK_STATUS(mgp_kernel_compile(context, badSource, "bad.py", "bad_kernel",
                                  "*fp32,128", NULL, &kernel),
               MGP_ERROR_COMPILE);
  const char *message = mgp_last_error();
  CHECK_CONTAINS(message, "bad.py:6:");
  CHECK_CONTAINS(message, "error:");
  CHECK_CONTAINS(message, "undefined_value");
  CHECK_CONTAINS(message, "    tl.store(x_ptr + offs, undefined_value)\n");
  CHECK_CONTAINS(message, "^");
  CHECK(kernel == NULL);

  /* A syntax error fails before any signature is looked at. */
  CHECK_STATUS(mgp_kernel_compile(context,
                                  "@triton.jit\ndef k(x_ptr:\n    pass\n",
                                  "syntax.py", "k", "*fp32", NULL, &kernel),
               MGP_ERROR_COMPILE);
  CHECK_CONTAINS(mgp_last_error(),
                 "syntax.py:3:5: error: expected an expression");
  CHECK_CONTAINS(mgp_last_error(), "error:");
  mgp_context_destroy(context);
}

static void testBadSignatureAndOptions(void) {
  mgp_context context = cpuContext();
  mgp_kernel kernel = NULL;
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py",
                                  "add_kernel", "*fp32,*fp32,*fp32,i32", NULL,
                                  &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "kernel 'add_kernel' has 5 parameter(s) (x_ptr, y_ptr, "
                 "out_ptr, n, BLOCK); the signature \"*fp32,*fp32,*fp32,i32\" "
                 "gives 4");
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py",
                                  "add_kernel", "*fp32,*fp32,*fp32,i32,i32",
                                  NULL, &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "parameter 'BLOCK' is a tl.constexpr");
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py",
                                  "add_kernel", "*fp99,*fp32,*fp32,i32,16",
                                  NULL, &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "unknown pointee type 'fp99'");

  mgp_compile_options options;
  memset(&options, 0, sizeof(options));
  options.num_warps = 3;
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py",
                                  "add_kernel", "*fp32,*fp32,*fp32,i32,16",
                                  &options, &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "num_warps must be a power of two in 1..32, got 3");
  options.num_warps = 0;
  options.precision = "fp8";
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py",
                                  "add_kernel", "*fp32,*fp32,*fp32,i32,16",
                                  &options, &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "unknown precision 'fp8'");
  CHECK(kernel == NULL);
  mgp_context_destroy(context);
}

static void testParamQueries(void) {
  mgp_context context = cpuContext();
  mgp_kernel kernel = compileKernel(context, "add_kernel",
                                    "*fp32:16,*fp32,*fp32:16,i32:16,256");
  if (!kernel)
    return;
  mgp_kernel_info info;
  CHECK_STATUS(mgp_kernel_get_info(kernel, &info), MGP_SUCCESS);
  CHECK(strcmp(info.name, "add_kernel") == 0);
  CHECK(strcmp(info.signature, "*fp32:16,*fp32,*fp32:16,i32:16,256") == 0);
  CHECK(strcmp(info.arch, "cpu") == 0);
  CHECK(info.num_params == 5 && info.num_launch_args == 4);
  CHECK(info.num_warps == 4 && info.num_stages == 3);

  mgp_param_info param;
  CHECK_STATUS(mgp_kernel_get_param(kernel, 0, &param), MGP_SUCCESS);
  CHECK(strcmp(param.name, "x_ptr") == 0 &&
        strcmp(param.type, "*fp32:16") == 0);
  CHECK(param.kind == MGP_PARAM_POINTER && param.dtype == MGP_FP32);
  CHECK(param.divisibility == 16 && !param.equals_one &&
        param.launch_index == 0 && !param.annotated_constexpr);
  CHECK_STATUS(mgp_kernel_get_param(kernel, 1, &param), MGP_SUCCESS);
  CHECK(strcmp(param.name, "y_ptr") == 0 && param.divisibility == 1);
  CHECK_STATUS(mgp_kernel_get_param(kernel, 3, &param), MGP_SUCCESS);
  CHECK(param.kind == MGP_PARAM_SCALAR && param.dtype == MGP_I32 &&
        param.divisibility == 16 && param.launch_index == 3);
  CHECK_STATUS(mgp_kernel_get_param(kernel, 4, &param), MGP_SUCCESS);
  CHECK(strcmp(param.name, "BLOCK") == 0 && param.kind == MGP_PARAM_CONSTEXPR);
  CHECK(param.annotated_constexpr && param.int_value == 256 &&
        param.launch_index == -1 && param.dtype == MGP_I64);
  CHECK_STATUS(mgp_kernel_get_param(kernel, 5, &param),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "kernel 'add_kernel' has 5 parameter(s)");

  /* An unannotated parameter given a value is a constexpr as well; an i32:1
     stays a launch argument. */
  mgp_kernel_destroy(kernel);
  kernel = compileKernel(context, "axpy_kernel", "*fp32,*fp32,0.5,i32:1,64");
  if (!kernel)
    return;
  CHECK_STATUS(mgp_kernel_get_param(kernel, 2, &param), MGP_SUCCESS);
  CHECK(param.kind == MGP_PARAM_CONSTEXPR && !param.annotated_constexpr &&
        param.dtype == MGP_FP64 && param.float_value == 0.5);
  CHECK_STATUS(mgp_kernel_get_param(kernel, 3, &param), MGP_SUCCESS);
  CHECK(param.equals_one && param.launch_index == 2);
  mgp_kernel_destroy(kernel);
  mgp_context_destroy(context);
}

/* x + y on `n` random floats through the interpreter, exactly. */
static void checkVectorAdd(int n, const char *signature, int blockArgs) {
  mgp_context context = cpuContext();
  mgp_kernel kernel = compileKernel(context, "add_kernel", signature);
  float *x = (float *)malloc(sizeof(float) * n);
  float *y = (float *)malloc(sizeof(float) * n);
  float *out = (float *)malloc(sizeof(float) * n);
  seedRandom(1234 + n);
  for (int i = 0; i < n; ++i) {
    x[i] = randomFloat();
    y[i] = randomFloat();
    out[i] = NAN;
  }
  uint64_t bytes = sizeof(float) * (uint64_t)n;
  mgp_arg args[5] = {
      mgp_arg_host(x, bytes, MGP_FP32), mgp_arg_host(y, bytes, MGP_FP32),
      mgp_arg_host(out, bytes, MGP_FP32), mgp_arg_int(n), mgp_arg_int(256)};
  if (kernel)
    CHECK_STATUS(mgp_kernel_launch(kernel, (n + 255) / 256, 1, 1, NULL, args,
                                   blockArgs ? 5 : 4),
                 MGP_SUCCESS);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += out[i] != x[i] + y[i];
  CHECK(wrong == 0);
  free(x);
  free(y);
  free(out);
  mgp_kernel_destroy(kernel);
  mgp_context_destroy(context);
}

/* Handles used after their destroy call, destroyed twice, of the other kind
   or made up: every call says so, none touches freed memory (the ASan build
   runs this too), and a new handle never takes over a stale one's value. */
static void testDeadHandles(void) {
  mgp_context context = cpuContext();
  mgp_kernel kernel =
      compileKernel(context, "add_kernel", "*fp32,*fp32,*fp32,i32,256");
  mgp_kernel_info info;
  CHECK_STATUS(mgp_kernel_get_info(kernel, &info), MGP_SUCCESS);
  mgp_kernel_destroy(kernel);
  CHECK_STATUS(mgp_kernel_get_info(kernel, &info), MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "mgp_kernel_get_info: kernel is not a live handle");
  float x = 1.0f, y = 2.0f, out = 0.0f;
  mgp_arg args[4] = {mgp_arg_host(&x, 4, MGP_FP32),
                     mgp_arg_host(&y, 4, MGP_FP32),
                     mgp_arg_host(&out, 4, MGP_FP32), mgp_arg_int(1)};
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, args, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "mgp_kernel_launch: kernel is not a live");
  CHECK(out == 0.0f);
  mgp_kernel_destroy(kernel); /* twice: nothing happens */

  /* A new kernel gets a new handle; the stale one stays dead. */
  mgp_kernel again =
      compileKernel(context, "add_kernel", "*fp32,*fp32,*fp32,i32,256");
  CHECK(again != kernel);
  CHECK_STATUS(mgp_kernel_launch(again, 1, 1, 1, NULL, args, 4), MGP_SUCCESS);
  CHECK(out == 3.0f);
  CHECK_STATUS(mgp_kernel_get_info(kernel, &info), MGP_ERROR_INVALID_ARGUMENT);

  /* A handle of the other kind, and a made-up one. */
  const char *name = NULL;
  CHECK_STATUS(mgp_context_device_name((mgp_context)again, &name),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(mgp_kernel_get_info((mgp_kernel)context, &info),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(mgp_kernel_get_info((mgp_kernel)&info, &info),
               MGP_ERROR_INVALID_ARGUMENT);

  /* A destroyed context: calls on it fail; its kernels still run. */
  mgp_context_destroy(context);
  CHECK_STATUS(mgp_context_device_name(context, &name),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "context is not a live handle");
  mgp_kernel orphan = NULL;
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py",
                                  "add_kernel", "*fp32,*fp32,*fp32,i32,256",
                                  NULL, &orphan),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK(orphan == NULL);
  out = 0.0f;
  CHECK_STATUS(mgp_kernel_launch(again, 1, 1, 1, NULL, args, 4), MGP_SUCCESS);
  CHECK(out == 3.0f);
  mgp_kernel_destroy(again);
  mgp_context_destroy(context); /* twice: nothing happens */
}

static void testVectorAdd(void) {
  checkVectorAdd(1000, "*fp32:16,*fp32:16,*fp32:16,i32,256", 0);
  checkVectorAdd(4096, "*fp32:16,*fp32:16,*fp32:16,i32:16,256", 1);
}

static void testHelperConstantAndScalars(void) {
  mgp_context context = cpuContext();
  enum { N = 777 };
  static float x[N], out[N], expected[N];
  seedRandom(99);
  for (int i = 0; i < N; ++i) {
    x[i] = randomFloat();
    out[i] = randomFloat();
    /* SCALE (2.0) * alpha * x + out, as the kernel rounds it in fp32 */
    expected[i] = (x[i] * 0.75f) * 2.0f + out[i];
  }
  mgp_kernel axpy =
      compileKernel(context, "axpy_kernel", "*fp32,*fp32,fp32,i32,128");
  mgp_arg args[4] = {mgp_arg_host(x, sizeof(x), MGP_FP32),
                     mgp_arg_host(out, sizeof(out), MGP_FP32),
                     mgp_arg_float(0.75), mgp_arg_int(N)};
  if (axpy)
    CHECK_STATUS(mgp_kernel_launch(axpy, (N + 127) / 128, 1, 1, NULL, args, 4),
                 MGP_SUCCESS);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += out[i] != expected[i];
  CHECK(wrong == 0);
  mgp_kernel_destroy(axpy);

  /* i1, i64, u64, fp16 and fp64 scalars reach the kernel. */
  mgp_kernel scalars =
      compileKernel(context, "scalars_kernel", "*i64,i1,i64,u64,fp16,fp64");
  int64_t values[5] = {-1, -1, -1, -1, -1};
  mgp_arg scalarArgs[6] = {mgp_arg_host(values, sizeof(values), MGP_I64),
                           mgp_arg_int(1),
                           mgp_arg_int(-(INT64_C(1) << 40)),
                           mgp_arg_int(INT64_C(0x7fffffffffff0001)),
                           mgp_arg_float(1.5),
                           mgp_arg_float(-2.25)};
  if (scalars)
    CHECK_STATUS(mgp_kernel_launch(scalars, 1, 1, 1, NULL, scalarArgs, 6),
                 MGP_SUCCESS);
  CHECK(values[0] == 1);
  CHECK(values[1] == -(INT64_C(1) << 40));
  CHECK(values[2] == INT64_C(0x7fffffffffff0001));
  CHECK(values[3] == 6);   /* 1.5 * 4 */
  CHECK(values[4] == -18); /* -2.25 * 8 */
  mgp_kernel_destroy(scalars);
  mgp_context_destroy(context);
}

static void testLaunchErrors(void) {
  mgp_context context = cpuContext();
  mgp_kernel kernel =
      compileKernel(context, "add_kernel", "*fp32:16,*fp32,*fp32,i32:16,256");
  if (!kernel)
    return;
  /* 16-byte aligned storage with room for an unaligned view at +1. */
  static float data[3][80] __attribute__((aligned(16)));
  mgp_arg args[5] = {mgp_arg_host(data[0], 256, MGP_FP32),
                     mgp_arg_host(data[1], 256, MGP_FP32),
                     mgp_arg_host(data[2], 256, MGP_FP32), mgp_arg_int(64),
                     mgp_arg_int(256)};
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, args, 5), MGP_SUCCESS);

  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, args, 3),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "kernel 'add_kernel' takes 4 argument(s) (x_ptr, y_ptr, "
                 "out_ptr, n), or 5 with its constexprs (x_ptr, y_ptr, "
                 "out_ptr, n, BLOCK), got 3");
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, NULL, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "args is null");

  mgp_arg bad[5];
  memcpy(bad, args, sizeof(bad));
  bad[0] = mgp_arg_int(7);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "kernel 'add_kernel', argument 1 ('x_ptr'): expected a "
                 "pointer to fp32, got the integer 7");
  memcpy(bad, args, sizeof(bad));
  bad[1].dtype = MGP_FP16;
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "argument 2 ('y_ptr'): expected a pointer to fp32, got a "
                 "host pointer to fp16");
  memcpy(bad, args, sizeof(bad));
  bad[2] = mgp_arg_device(0x10000, MGP_FP32);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "argument 3 ('out_ptr'): a device pointer cannot be passed "
                 "to the interpreter");
  memcpy(bad, args, sizeof(bad));
  bad[1].bytes = 0;
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "argument 2 ('y_ptr'): a host pointer "
                                   "needs the size of its memory in bytes");
  memcpy(bad, args, sizeof(bad));
  bad[0] = mgp_arg_host(data[0] + 1, 252, MGP_FP32);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "argument 1 ('x_ptr'): the kernel is "
                                   "specialized for a 16-byte aligned address "
                                   "(*fp32:16)");
  memcpy(bad, args, sizeof(bad));
  bad[3] = mgp_arg_int(60);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "argument 4 ('n'): the kernel is "
                                   "specialized for a multiple of 16 "
                                   "(i32:16), got the integer 60");
  bad[3] = mgp_arg_int(INT64_C(1) << 40);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "argument 4 ('n'): expected i32, got the "
                                   "integer 1099511627776, which does not "
                                   "fit in i32");
  bad[3] = mgp_arg_float(64.0);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "expected i32, got the float 64.0");
  memcpy(bad, args, sizeof(bad));
  bad[4] = mgp_arg_int(512);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 5),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "argument 5 ('BLOCK'): the kernel is "
                                   "compiled for BLOCK = 256, got the "
                                   "integer 512");
  bad[4].kind = 42;
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 5),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "argument 5 has the unknown kind 42");

  CHECK_STATUS(mgp_kernel_launch(kernel, 0, 1, 1, NULL, args, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(),
                 "kernel 'add_kernel': grid (0, 1, 1) has an empty dimension");
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 70000, 1, NULL, args, 4),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "grid (1, 70000, 1) exceeds the device's "
                                   "limits (2147483647, 65535, 65535)");

  /* The interpreter checks every access: a buffer too small stops it. */
  memcpy(bad, args, sizeof(bad));
  bad[2].bytes = 128;
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, bad, 4),
               MGP_ERROR_EXECUTION);
  CHECK(strlen(mgp_last_error()) > 0);
  mgp_kernel_destroy(kernel);
  mgp_context_destroy(context);
}

static void testCompileOnlyPTX(void) {
  mgp_kernel kernel = NULL;
  CHECK_STATUS(mgp_kernel_compile(NULL, kernelSource, "kernels.py",
                                  "add_kernel",
                                  "*fp32:16,*fp32:16,*fp32:16,"
                                  "i32,1024",
                                  NULL, &kernel),
               MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "options->arch");
  mgp_compile_options options;
  memset(&options, 0, sizeof(options));
  options.arch = "sm_90";
  options.num_warps = 8;
  CHECK_STATUS(mgp_kernel_compile(
                   NULL, kernelSource, "kernels.py", "add_kernel",
                   "*fp32:16,*fp32:16,*fp32:16,i32,1024", &options, &kernel),
               MGP_SUCCESS);
  if (!kernel)
    return;
  const char *ptx = NULL;
  CHECK_STATUS(mgp_kernel_ptx(kernel, &ptx), MGP_SUCCESS);
  CHECK_CONTAINS(ptx, ".target sm_90");
  CHECK_CONTAINS(ptx, ".entry add_kernel");
  mgp_kernel_info info;
  CHECK_STATUS(mgp_kernel_get_info(kernel, &info), MGP_SUCCESS);
  CHECK(strcmp(info.entry, "add_kernel") == 0 && info.num_warps == 8);
  CHECK(strcmp(info.arch, "sm_90") == 0);
  CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, NULL, 0),
               MGP_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(mgp_last_error(), "compiled for sm_90 without a device");
  mgp_kernel_destroy(kernel);

  /* An interpreter kernel has no PTX. */
  mgp_context context = cpuContext();
  kernel = compileKernel(context, "add_kernel", "*fp32,*fp32,*fp32,i32,64");
  if (kernel)
    CHECK_STATUS(mgp_kernel_ptx(kernel, &ptx), MGP_ERROR_UNSUPPORTED);
  mgp_kernel_destroy(kernel);
  mgp_context_destroy(context);
}

/* The PTX of kernel "k" of \p source for *fp32,1024 at sm_90, or NULL; the
   caller frees it. */
static char *compileK(const char *source) {
  mgp_compile_options options;
  memset(&options, 0, sizeof(options));
  options.arch = "sm_90";
  mgp_kernel kernel = NULL;
  CHECK_STATUS(mgp_kernel_compile(NULL, source, "edited.py", "k", "*fp32,1024",
                                  &options, &kernel),
               MGP_SUCCESS);
  const char *ptx = NULL;
  char *copy = NULL;
  if (kernel && mgp_kernel_ptx(kernel, &ptx) == MGP_SUCCESS) {
    copy = malloc(strlen(ptx) + 1);
    strcpy(copy, ptx);
  }
  mgp_kernel_destroy(kernel);
  return copy;
}

/* libdevice's f32 sqrt flushes denormals as Triton's does (sqrt.approx.ftz)
   unless options.no_reflect_ftz asks to keep them (sqrt.approx.f32); the two
   are different kernels, neither answered by the other's cache entry. */
static void testReflectFtz(void) {
  static const char *const source =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.jit\n"
      "def k(X, B: tl.constexpr):\n"
      "    offs = tl.arange(0, B)\n"
      "    tl.store(X + offs, tl.sqrt(tl.load(X + offs)))\n";
  for (int keep = 0; keep < 2; ++keep) {
    mgp_compile_options options;
    memset(&options, 0, sizeof(options));
    options.arch = "sm_90";
    options.no_reflect_ftz = keep;
    mgp_kernel kernel = NULL;
    CHECK_STATUS(mgp_kernel_compile(NULL, source, "ftz.py", "k", "*fp32,1024",
                                    &options, &kernel),
                 MGP_SUCCESS);
    const char *ptx = NULL;
    if (kernel && mgp_kernel_ptx(kernel, &ptx) == MGP_SUCCESS) {
      CHECK_CONTAINS(ptx, keep ? "sqrt.approx.f32" : "sqrt.approx.ftz.f32");
      CHECK(keep ? strstr(ptx, ".ftz") == NULL : 1);
    }
    mgp_kernel_destroy(kernel);
  }
}

/* options.maxnreg (Triton's maxnreg) reaches the PTX as `.maxnreg`; 0 sets
   no limit, and an out-of-range value is refused naming the option. */
static void testMaxnreg(void) {
  static const char *const source =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.jit\n"
      "def k(X, B: tl.constexpr):\n"
      "    offs = tl.arange(0, B)\n"
      "    tl.store(X + offs, tl.load(X + offs) * 2.0)\n";
  const int limits[] = {0, 72, 300};
  for (int i = 0; i < 3; ++i) {
    mgp_compile_options options;
    memset(&options, 0, sizeof(options));
    options.arch = "sm_90";
    options.maxnreg = limits[i];
    mgp_kernel kernel = NULL;
    mgp_status status = mgp_kernel_compile(NULL, source, "maxnreg.py", "k",
                                           "*fp32,1024", &options, &kernel);
    if (limits[i] == 300) {
      CHECK(status == MGP_ERROR_INVALID_ARGUMENT);
      CHECK_CONTAINS(mgp_last_error(), "maxnreg must be 0");
      CHECK(kernel == NULL);
      continue;
    }
    CHECK_STATUS(status, MGP_SUCCESS);
    const char *ptx = NULL;
    if (kernel && mgp_kernel_ptx(kernel, &ptx) == MGP_SUCCESS) {
      if (limits[i])
        CHECK_CONTAINS(ptx, ".maxnreg 72");
      else
        CHECK(strstr(ptx, ".maxnreg") == NULL);
    }
    mgp_kernel_destroy(kernel);
  }
}

/* An edited kernel is compiled again, never answered by the memory or disk
   cache with the old code: a kernel rebound as `k = triton.jit(k)` and one
   under a decorator whose arguments span lines. The scale is 3.0 (PTX
   0f40400000), then 5.0 (0f40A00000). */
static void testEditedKernelRecompiles(void) {
  static const char *const forms[] = {
      "import triton\nimport triton.language as tl\n\n"
      "def k(X, B: tl.constexpr):\n"
      "    offs = tl.arange(0, B)\n"
      "    tl.store(X + offs, tl.load(X + offs) * SCALE)\n\n"
      "k = triton.jit(k)\n",
      "import triton\nimport triton.language as tl\n\n"
      "@triton.autotune(\n"
      "    configs=[triton.Config({}, num_warps=w) for w in (2, 4)],\n"
      "    key=[],\n"
      ")\n"
      "@triton.jit\n"
      "def k(X, B: tl.constexpr):\n"
      "    offs = tl.arange(0, B)\n"
      "    tl.store(X + offs, tl.load(X + offs) * SCALE)\n"};
  for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); ++i) {
    const char *at = strstr(forms[i], "SCALE");
    char *three = malloc(strlen(forms[i]) + 1);
    char *five = malloc(strlen(forms[i]) + 1);
    size_t head = (size_t)(at - forms[i]);
    sprintf(three, "%.*s3.0%s", (int)head, forms[i], at + 5);
    sprintf(five, "%.*s5.0%s", (int)head, forms[i], at + 5);
    char *first = compileK(three);
    char *second = compileK(five);
    if (first && second) {
      CHECK_CONTAINS(first, "0f40400000");
      CHECK_CONTAINS(second, "0f40A00000");
    }
    free(first);
    free(second);
    free(three);
    free(five);
  }
}

/* Without a GPU, a GPU context is MGP_ERROR_NO_DEVICE with the driver's
   reason; with one, the context says what it is. */
static void testGpuContext(void) {
  int count = 0;
  mgp_status status = mgp_device_count(&count);
  mgp_context context = NULL;
  /* No driver library or no device: 0 devices, not an error (a driver that
     is there but fails is MGP_ERROR_DEVICE: the GPU tests cover that). */
  CHECK_STATUS(status, MGP_SUCCESS);
  if (count == 0) {
    CHECK_STATUS(mgp_context_create(MGP_DEVICE_GPU, 0, &context),
                 MGP_ERROR_NO_DEVICE);
    CHECK_CONTAINS(mgp_last_error(), "no CUDA");
    CHECK(context == NULL);
    return;
  }
  CHECK_STATUS(mgp_context_create(MGP_DEVICE_GPU, count, &context),
               MGP_ERROR_NO_DEVICE);
  CHECK_CONTAINS(mgp_last_error(), "no CUDA device");
  CHECK_STATUS(mgp_context_create(MGP_DEVICE_GPU, 0, &context), MGP_SUCCESS);
  const char *arch = NULL;
  CHECK_STATUS(mgp_context_arch(context, &arch), MGP_SUCCESS);
  CHECK(arch && strncmp(arch, "sm_", 3) == 0);
  mgp_context_destroy(context);
}

/* Tensor maps: the rules TMA imposes are checked before the driver is
   asked (MGP_ERROR_UNSUPPORTED naming the rule); a valid view is encoded
   with a GPU and is MGP_ERROR_NO_DEVICE without one. */
static void testTensorMapEncode(void) {
  int64_t shape[2] = {100, 72}, strides[2] = {80, 1}, block[2] = {32, 64};
  mgp_tensor_map_view view = {MGP_FP16, 2, 4096, shape, strides, block, 0};
  unsigned char map[128];
  CHECK_STATUS(mgp_tensor_map_encode(NULL, map), MGP_ERROR_INVALID_ARGUMENT);
  CHECK_CONTAINS(mgp_last_error(), "view is null");
  CHECK_STATUS(mgp_tensor_map_encode(&view, NULL), MGP_ERROR_INVALID_ARGUMENT);
  mgp_tensor_map_view bad = view;
  bad.rank = 6;
  CHECK_STATUS(mgp_tensor_map_encode(&bad, map), MGP_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(mgp_last_error(), "rank 6");
  int64_t oddStrides[2] = {44, 1}; /* 88-byte rows */
  bad = view;
  bad.strides = oddStrides;
  CHECK_STATUS(mgp_tensor_map_encode(&bad, map), MGP_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(mgp_last_error(), "stride 0 of 88 bytes");
  int64_t narrow[2] = {32, 4}; /* 8-byte block rows */
  bad = view;
  bad.block = narrow;
  CHECK_STATUS(mgp_tensor_map_encode(&bad, map), MGP_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(mgp_last_error(), "rows of 8 bytes");
  bad = view;
  bad.base = 4098;
  CHECK_STATUS(mgp_tensor_map_encode(&bad, map), MGP_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(mgp_last_error(), "not aligned to 16 bytes");
  bad = view;
  bad.dtype = MGP_I32;
  bad.nan_padding = 1;
  CHECK_STATUS(mgp_tensor_map_encode(&bad, map), MGP_ERROR_UNSUPPORTED);
  CHECK_CONTAINS(mgp_last_error(), "NaN padding");
  bad = view;
  bad.dtype = 40;
  CHECK_STATUS(mgp_tensor_map_encode(&bad, map), MGP_ERROR_INVALID_ARGUMENT);
  int count = 0;
  CHECK_STATUS(mgp_device_count(&count), MGP_SUCCESS);
  if (count == 0) {
    CHECK_STATUS(mgp_tensor_map_encode(&view, map), MGP_ERROR_NO_DEVICE);
    CHECK_CONTAINS(mgp_last_error(), "no CUDA");
  } else {
    memset(map, 0, sizeof(map));
    CHECK_STATUS(mgp_tensor_map_encode(&view, map), MGP_SUCCESS);
    int nonzero = 0;
    for (int i = 0; i < 128; ++i)
      nonzero |= map[i];
    CHECK(nonzero);
  }
}

int main(int argc, char **argv) {
  kernelSource = readFile(kernelFile());
  if (!kernelSource) {
    fprintf(stderr, "cannot read %s\n", kernelFile());
    return 1;
  }
  static const TestCase tests[] = {
      {"version", testVersion},
      {"null-handles", testNullHandles},
      {"dead-handles", testDeadHandles},
      {"unknown-kernel", testUnknownKernel},
      {"compile-error-located", testCompileErrorIsLocated},
      {"bad-signature-and-options", testBadSignatureAndOptions},
      {"param-queries", testParamQueries},
      {"vector-add", testVectorAdd},
      {"helper-constant-scalars", testHelperConstantAndScalars},
      {"launch-errors", testLaunchErrors},
      {"compile-only-ptx", testCompileOnlyPTX},
      {"edited-kernel-recompiles", testEditedKernelRecompiles},
      {"reflect-ftz", testReflectFtz},
      {"maxnreg", testMaxnreg},
      {"gpu-context", testGpuContext},
      {"tensor-map-encode", testTensorMapEncode},
  };
  int status = runTests(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
  free(kernelSource);
  return status;
}
