/* A C program using only <mgp/mgp.h> and -lmgp: compiles a vector add for
   the interpreter, runs it on random inputs, and checks every element.
   Usage: consumer_c KERNEL_FILE */
#include <mgp/mgp.h>

#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  char *source = readAll(argv[1]);
  if (!source)
    return 2;
  printf("mgp %s (API %d)\n", mgp_version(), mgp_api_version());
  mgp_context context;
  mgp_kernel kernel;
  if (mgp_context_create(MGP_DEVICE_CPU, 0, &context) != MGP_SUCCESS ||
      mgp_kernel_compile(context, source, argv[1], "add_kernel",
                         "*fp32,*fp32,*fp32,i32,128", NULL,
                         &kernel) != MGP_SUCCESS) {
    fprintf(stderr, "%s\n", mgp_last_error());
    return 1;
  }
  enum { N = 1000 };
  static float x[N], y[N], out[N];
  srand(7);
  for (int i = 0; i < N; ++i) {
    x[i] = (float)rand() / RAND_MAX - 0.5f;
    y[i] = (float)rand() / RAND_MAX + 0.25f;
  }
  mgp_arg args[4] = {mgp_arg_host(x, sizeof(x), MGP_FP32),
                     mgp_arg_host(y, sizeof(y), MGP_FP32),
                     mgp_arg_host(out, sizeof(out), MGP_FP32), mgp_arg_int(N)};
  if (mgp_kernel_launch(kernel, (N + 127) / 128, 1, 1, NULL, args, 4) !=
      MGP_SUCCESS) {
    fprintf(stderr, "%s\n", mgp_last_error());
    return 1;
  }
  for (int i = 0; i < N; ++i)
    if (out[i] != x[i] + y[i]) {
      fprintf(stderr, "element %d: %g != %g\n", i, out[i], x[i] + y[i]);
      return 1;
    }
  printf("PASS: C consumer, %d elements\n", N);
  mgp_kernel_destroy(kernel);
  mgp_context_destroy(context);
  free(source);
  return 0;
}
