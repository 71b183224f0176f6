/*===- launch_overhead_c.c - microseconds per mgp_kernel_launch ---*- C -*-===*
 *
 * This file implements the C API's launch-overhead benchmark: a warm
 * mgp_kernel_launch of an empty kernel (grid 1) and of a vector add on 1M
 * floats (grid 1024), N back to back on one stream, timed until the calls
 * return and until a synchronize after the last; then the floor: the same
 * kernels' PTX (mgp_kernel_ptx) loaded with cuModuleLoadData and launched N
 * times with cuLaunchKernel directly, same arguments and stream (the rows
 * "driver ..."). The table has the format of mgp-bench-launch's, so
 * bench/launch_overhead.py reads it (--mgp-c-bench). It needs only mgp.h and libmgp.so, so it builds on the GPU
 * machine against the portable archive:
 *
 *   gcc -O2 -std=c99 -I/tmp/mgp-portable/include bench/launch_overhead_c.c \
 *       -L/tmp/mgp-portable/lib -lmgp -ldl -Wl,-rpath,/tmp/mgp-portable/lib \
 *       -o /tmp/mgp-bench-launch-c
 *   /tmp/mgp-bench-launch-c bench/launch_overhead.py [LAUNCHES]
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include <mgp/mgp.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*MemAllocFn)(uint64_t *, size_t);
typedef int (*StreamCreateFn)(mgp_stream *, unsigned);
typedef int (*StreamSyncFn)(mgp_stream);
typedef int (*ModuleLoadDataFn)(void **, const void *);
typedef int (*ModuleGetFunctionFn)(void **, void *, const char *);
typedef int (*LaunchKernelFn)(void *, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, unsigned, void *, void **,
                              void **);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static char *readAll(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  rewind(file);
  char *text = malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, file) == (size_t)size)
    text[size] = '\0';
  fclose(file);
  return text;
}

static int fail(const char *what) {
  fprintf(stderr, "launch_overhead_c: %s: %s\n", what, mgp_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s KERNEL_FILE [LAUNCHES]\n", argv[0]);
    return 2;
  }
  int launches = argc > 2 ? atoi(argv[2]) : 10000;
  int devices = 0;
  if (mgp_device_count(&devices) != MGP_SUCCESS || devices == 0) {
    printf("skipped: no GPU (%s)\n", mgp_last_error());
    return 0;
  }
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  MemAllocFn alloc = cuda ? (MemAllocFn)dlsym(cuda, "cuMemAlloc_v2") : NULL;
  StreamCreateFn streamCreate =
      cuda ? (StreamCreateFn)dlsym(cuda, "cuStreamCreate") : NULL;
  StreamSyncFn streamSync =
      cuda ? (StreamSyncFn)dlsym(cuda, "cuStreamSynchronize") : NULL;
  ModuleLoadDataFn moduleLoad =
      cuda ? (ModuleLoadDataFn)dlsym(cuda, "cuModuleLoadData") : NULL;
  ModuleGetFunctionFn getFunction =
      cuda ? (ModuleGetFunctionFn)dlsym(cuda, "cuModuleGetFunction") : NULL;
  LaunchKernelFn launchKernel =
      cuda ? (LaunchKernelFn)dlsym(cuda, "cuLaunchKernel") : NULL;
  char *source = readAll(argv[1]);
  mgp_context context;
  if (!alloc || !streamCreate || !streamSync || !moduleLoad || !getFunction ||
      !launchKernel || !source)
    return fail("setup (libcuda functions or the kernel file)");
  if (mgp_context_create(MGP_DEVICE_GPU, 0, &context) != MGP_SUCCESS)
    return fail("mgp_context_create");
  const int n = 1 << 20;
  uint64_t x, y, out;
  mgp_stream stream;
  if (alloc(&x, n * 4u) || alloc(&y, n * 4u) || alloc(&out, n * 4u) ||
      streamCreate(&stream, 0))
    return fail("cuMemAlloc / cuStreamCreate");
  mgp_kernel empty, add;
  if (mgp_kernel_compile(context, source, argv[1], "empty_kernel",
                         "*fp32:16,i32:16,128", NULL, &empty) != MGP_SUCCESS ||
      mgp_kernel_compile(context, source, argv[1], "add_kernel",
                         "*fp32:16,*fp32:16,*fp32:16,i32:16,1024", NULL,
                         &add) != MGP_SUCCESS)
    return fail("mgp_kernel_compile");
  mgp_arg emptyArgs[2] = {mgp_arg_device(x, MGP_FP32), mgp_arg_int(n)};
  mgp_arg addArgs[4] = {mgp_arg_device(x, MGP_FP32),
                        mgp_arg_device(y, MGP_FP32),
                        mgp_arg_device(out, MGP_FP32), mgp_arg_int(n)};
  struct {
    const char *name;
    mgp_kernel kernel;
    unsigned grid;
    const mgp_arg *args;
    size_t count;
  } rows[2] = {{"empty kernel (grid 1)", empty, 1, emptyArgs, 2},
               {"add 1M fp32 (grid 1024)", add, n / 1024, addArgs, 4}};
  printf("mgp C API launch overhead, warm cache, %d launches each\n", launches);
  printf("%-28s %18s %22s\n", "kernel", "host us/launch",
         "incl. sync us/launch");
  for (int r = 0; r < 2; ++r) {
    if (mgp_kernel_launch(rows[r].kernel, rows[r].grid, 1, 1, stream,
                          rows[r].args, rows[r].count) != MGP_SUCCESS ||
        streamSync(stream))
      return fail("warm-up launch");
    double start = now();
    for (int i = 0; i < launches; ++i)
      if (mgp_kernel_launch(rows[r].kernel, rows[r].grid, 1, 1, stream,
                            rows[r].args, rows[r].count) != MGP_SUCCESS)
        return fail("mgp_kernel_launch");
    double issued = now();
    streamSync(stream);
    double done = now();
    printf("%-28s %18.2f %22.2f\n", rows[r].name,
           (issued - start) * 1e6 / launches, (done - start) * 1e6 / launches);
  }
  /* The floor: the same PTX, arguments and stream through cuLaunchKernel
     alone (pointers as 8-byte, i32 scalars as 4-byte parameters). */
  for (int r = 0; r < 2; ++r) {
    const char *ptx = NULL;
    mgp_kernel_info info;
    void *module = NULL, *function = NULL;
    if (mgp_kernel_ptx(rows[r].kernel, &ptx) != MGP_SUCCESS ||
        mgp_kernel_get_info(rows[r].kernel, &info) != MGP_SUCCESS)
      return fail("mgp_kernel_ptx / mgp_kernel_get_info");
    if (moduleLoad(&module, ptx) || getFunction(&function, module, info.entry))
      return fail("cuModuleLoadData / cuModuleGetFunction");
    uint64_t slots[4];
    void *params[4];
    for (size_t i = 0; i < rows[r].count; ++i) {
      slots[i] = rows[r].args[i].value.u;
      params[i] = &slots[i];
    }
    unsigned block = (unsigned)info.num_warps * 32u;
    int status = 0;
    status |= launchKernel(function, rows[r].grid, 1, 1, block, 1, 1,
                           info.shared_bytes, (void *)stream, params, NULL);
    if (status || streamSync(stream))
      return fail("driver warm-up launch");
    double start = now();
    for (int i = 0; i < launches; ++i)
      status |= launchKernel(function, rows[r].grid, 1, 1, block, 1, 1,
                             info.shared_bytes, (void *)stream, params, NULL);
    double issued = now();
    status |= streamSync(stream);
    double done = now();
    if (status)
      return fail("cuLaunchKernel");
    printf("driver %-21s %18.2f %22.2f\n", rows[r].name,
           (issued - start) * 1e6 / launches, (done - start) * 1e6 / launches);
  }
  mgp_kernel_destroy(empty);
  mgp_kernel_destroy(add);
  mgp_context_destroy(context);
  free(source);
  return 0;
}
