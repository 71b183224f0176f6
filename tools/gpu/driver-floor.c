// This file implements the driver floor of a GPU process (docs/graph.md):
// cuInit, primary context retain, and the release, each timed; argv[1] ==
// "keep" exits without releasing. Build on the GPU machine:
//   gcc -O2 -I/usr/local/cuda/include tools/gpu/driver-floor.c -o /tmp/floor \
//       -L/usr/local/cuda/lib64/stubs -lcuda
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  double t0 = now();
  if (cuInit(0)) return 1;
  double t1 = now();
  CUdevice d;
  CUcontext c;
  CUdeviceptr p;
  if (cuDeviceGet(&d, 0) || cuDevicePrimaryCtxRetain(&c, d) ||
      cuCtxSetCurrent(c) || cuMemAlloc(&p, 64 << 20))
    return 2;
  double t2 = now();
  printf("cuInit %.1f ms, primary ctx retain + set + 64 MiB alloc %.1f ms\n",
         t1 - t0, t2 - t1);
  if (argc > 1 && strcmp(argv[1], "keep") == 0) return 0;
  cuMemFree(p);
  cuDevicePrimaryCtxRelease(d);
  printf("release %.1f ms\n", now() - t2);
  return 0;
}
