//===- Version.h - the compiler's identity ----------------------*- C++ -*-===//
//
// The version string printed by `--version`; it is also part of every cache
// key, so that a new compiler never trusts PTX produced by an old one.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_PIPELINE_VERSION_H
#define MGP_PIPELINE_VERSION_H

namespace mgp {
/// The mgp version, from the top-level CMake project.
inline constexpr const char *kVersion = MGP_VERSION_STRING;
} // namespace mgp

#endif // MGP_PIPELINE_VERSION_H
