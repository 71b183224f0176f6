// RUN: mgpc --version | FileCheck %s --check-prefix=MGPC
// RUN: mgp-opt --help | FileCheck %s --check-prefix=OPT
// MGPC: mgpc {{[0-9]+\.[0-9]+\.[0-9]+}}
// OPT: OVERVIEW: mgp optimizer driver
