/*===- CApiGpuTest.c - the C API on a GPU ----------------------*- C -*-===*
 *
 * This file tests mgp.h on a GPU (label gpu), from C: a vector add of 1M
 * random floats on a stream the test creates, compared exactly with the sum
 * computed here; scalars of every width reaching the kernel; a host pointer
 * and an unaligned device pointer refused with their messages. Device memory
 * comes from libcuda, opened here with dlopen (mgp.h has no allocator).
 * Without a driver library or a device it prints "skipped: no GPU" and exits
 * 77, which ctest reports as skipped; a driver that is there but fails, and
 * any other failure, fail.
 *
 *===----------------------------------------------------------------------===*/
#include "CApiTestSupport.h"

#include <dlfcn.h>
#include <math.h>

typedef int (*MemAllocFn)(uint64_t *, size_t);
typedef int (*MemFreeFn)(uint64_t);
typedef int (*MemcpyHtoDFn)(uint64_t, const void *, size_t);
typedef int (*MemcpyDtoHFn)(void *, uint64_t, size_t);
typedef int (*StreamCreateFn)(mgp_stream *, unsigned);
typedef int (*StreamSyncFn)(mgp_stream);
typedef int (*StreamDestroyFn)(mgp_stream);

static struct {
  MemAllocFn alloc;
  MemFreeFn free;
  MemcpyHtoDFn toDevice;
  MemcpyDtoHFn toHost;
  StreamCreateFn streamCreate;
  StreamSyncFn streamSync;
  StreamDestroyFn streamDestroy;
} cuda;

static char *kernelSource = NULL;
static mgp_context context = NULL;

static int loadDriver(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib)
    return 0;
  cuda.alloc = (MemAllocFn)dlsym(lib, "cuMemAlloc_v2");
  cuda.free = (MemFreeFn)dlsym(lib, "cuMemFree_v2");
  cuda.toDevice = (MemcpyHtoDFn)dlsym(lib, "cuMemcpyHtoD_v2");
  cuda.toHost = (MemcpyDtoHFn)dlsym(lib, "cuMemcpyDtoH_v2");
  cuda.streamCreate = (StreamCreateFn)dlsym(lib, "cuStreamCreate");
  cuda.streamSync = (StreamSyncFn)dlsym(lib, "cuStreamSynchronize");
  cuda.streamDestroy = (StreamDestroyFn)dlsym(lib, "cuStreamDestroy_v2");
  return cuda.alloc && cuda.free && cuda.toDevice && cuda.toHost &&
         cuda.streamCreate && cuda.streamSync && cuda.streamDestroy;
}

static uint64_t upload(const void *data, size_t bytes) {
  uint64_t address = 0;
  CHECK(cuda.alloc(&address, bytes) == 0);
  if (data)
    CHECK(cuda.toDevice(address, data, bytes) == 0);
  return address;
}

static mgp_kernel compileKernel(const char *name, const char *signature) {
  mgp_kernel kernel = NULL;
  CHECK_STATUS(mgp_kernel_compile(context, kernelSource, "kernels.py", name,
                                  signature, NULL, &kernel),
               MGP_SUCCESS);
  return kernel;
}

static void testVectorAdd(void) {
  enum { N = 1 << 20 };
  float *x = (float *)malloc(sizeof(float) * N);
  float *y = (float *)malloc(sizeof(float) * N);
  float *out = (float *)malloc(sizeof(float) * N);
  seedRandom(2024);
  for (int i = 0; i < N; ++i) {
    x[i] = randomFloat();
    y[i] = randomFloat();
    out[i] = NAN;
  }
  uint64_t dx = upload(x, sizeof(float) * N), dy = upload(y, sizeof(float) * N);
  uint64_t dout = upload(out, sizeof(float) * N);
  mgp_stream stream = NULL;
  CHECK(cuda.streamCreate(&stream, 0) == 0);
  mgp_kernel kernel =
      compileKernel("add_kernel", "*fp32:16,*fp32:16,*fp32:16,i32:16,1024");
  mgp_arg args[4] = {mgp_arg_device(dx, MGP_FP32), mgp_arg_device(dy, MGP_FP32),
                     mgp_arg_device(dout, MGP_FP32), mgp_arg_int(N)};
  if (kernel)
    CHECK_STATUS(mgp_kernel_launch(kernel, N / 1024, 1, 1, stream, args, 4),
                 MGP_SUCCESS);
  CHECK(cuda.streamSync(stream) == 0);
  CHECK(cuda.toHost(out, dout, sizeof(float) * N) == 0);
  int wrong = 0;
  for (int i = 0; i < N; ++i)
    wrong += out[i] != x[i] + y[i];
  CHECK(wrong == 0);

  /* Refused before launching: a host pointer, an unaligned address. */
  if (kernel) {
    mgp_arg bad[4];
    memcpy(bad, args, sizeof(bad));
    bad[0] = mgp_arg_host(x, sizeof(float) * N, MGP_FP32);
    CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, stream, bad, 4),
                 MGP_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(mgp_last_error(), "argument 1 ('x_ptr'): a host pointer "
                                     "cannot be passed to a GPU kernel");
    memcpy(bad, args, sizeof(bad));
    bad[1] = mgp_arg_device(dy + 4, MGP_FP32);
    CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, stream, bad, 4),
                 MGP_ERROR_INVALID_ARGUMENT);
    CHECK_CONTAINS(mgp_last_error(), "16-byte aligned address");
  }
  CHECK(cuda.streamDestroy(stream) == 0);
  mgp_kernel_destroy(kernel);
  cuda.free(dx);
  cuda.free(dy);
  cuda.free(dout);
  free(x);
  free(y);
  free(out);
}

static void testScalars(void) {
  mgp_kernel kernel =
      compileKernel("scalars_kernel", "*i64,i1,i64,u64,fp16,fp64");
  int64_t values[5] = {-1, -1, -1, -1, -1};
  uint64_t device = upload(values, sizeof(values));
  mgp_arg args[6] = {mgp_arg_device(device, MGP_I64),
                     mgp_arg_int(1),
                     mgp_arg_int(-(INT64_C(1) << 40)),
                     mgp_arg_int(INT64_C(0x7fffffffffff0001)),
                     mgp_arg_float(1.5),
                     mgp_arg_float(-2.25)};
  if (kernel)
    CHECK_STATUS(mgp_kernel_launch(kernel, 1, 1, 1, NULL, args, 6),
                 MGP_SUCCESS);
  CHECK_STATUS(mgp_context_synchronize(context), MGP_SUCCESS);
  CHECK(cuda.toHost(values, device, sizeof(values)) == 0);
  CHECK(values[0] == 1);
  CHECK(values[1] == -(INT64_C(1) << 40));
  CHECK(values[2] == INT64_C(0x7fffffffffff0001));
  CHECK(values[3] == 6);
  CHECK(values[4] == -18);
  mgp_kernel_destroy(kernel);
  cuda.free(device);
}

int main(int argc, char **argv) {
  int count = 0;
  if (mgp_device_count(&count) != MGP_SUCCESS) {
    fprintf(stderr, "a GPU driver is present but unusable: %s\n",
            mgp_last_error());
    return 1;
  }
  if (count == 0) {
    printf("skipped: no GPU\n");
    return 77;
  }
  if (!loadDriver()) {
    fprintf(stderr, "libcuda.so.1 lacks a function this test needs\n");
    return 1;
  }
  kernelSource = readFile(kernelFile());
  if (!kernelSource ||
      mgp_context_create(MGP_DEVICE_GPU, 0, &context) != MGP_SUCCESS) {
    fprintf(stderr, "setup failed: %s\n", mgp_last_error());
    return 1;
  }
  static const TestCase tests[] = {
      {"vector-add", testVectorAdd},
      {"scalars", testScalars},
  };
  int status = runTests(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
  mgp_context_destroy(context);
  free(kernelSource);
  return status;
}
