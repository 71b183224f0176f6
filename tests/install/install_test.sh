#!/usr/bin/env bash
# `cmake --install` of a build into a fresh prefix, then an out-of-tree
# consumer built against it: consumer/ through find_package(mgp) (C and C++),
# and the C program again through pkg-config (mgp.pc); each runs a vector add
# on the interpreter. Usage: install_test.sh BUILD_DIR WORK_DIR KERNEL_FILE
set -euo pipefail
build=$1 work=$2 kernels=$3
here=$(cd "$(dirname "$0")" && pwd)
prefix=$work/prefix
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for f in lib/libmgp.so include/mgp/mgp.h include/mgp/mgp.hpp \
         include/mgp/runtime/jit/Jit.h lib/cmake/mgp/mgpConfig.cmake \
         lib/pkgconfig/mgp.pc bin/mgpc bin/mgp-run; do
  [ -e "$prefix/$f" ] || { echo "FAIL: the install lacks $f"; exit 1; }
done
export MGP_CACHE_DIR=$work/cache
cmake -S "$here/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
if [ "${MGP_C_ONLY:-0}" = 1 ]; then  # portable: the C API only
  cmake --build "$work/consumer" --target consumer_c > "$work/build.log"
else
  cmake --build "$work/consumer" > "$work/build.log"
  "$work/consumer/consumer_cxx" "$kernels"
fi
"$work/consumer/consumer_c" "$kernels"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc -std=c99 -o "$work/consumer_pc" "$here/consumer/consumer.c" \
  $(pkg-config --cflags mgp) $(pkg-config --libs mgp) \
  -Wl,-rpath,"$(pkg-config --variable=libdir mgp)"
"$work/consumer_pc" "$kernels"
echo "PASS: installed prefix, find_package(mgp) and pkg-config consumers"
