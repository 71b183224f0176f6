//===- TestErrors.h - llvm::Error helpers for the runtime tests -*- C++ -*-===//
//
// This file implements the two helpers the runtime tests use to look at
// llvm::Error and llvm::Expected values (LLVM's TestingSupport library is not
// part of the Debian packages): the message of an error, or "" for success.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_RUNTIME_TESTERRORS_H
#define MGP_TESTS_UNIT_RUNTIME_TESTERRORS_H

#include "llvm/Support/Error.h"

#include <string>

namespace mgp::test {

/// The error's message, or "" when \p err is success.
inline std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : std::string();
}

/// The error's message, or "" when \p value holds a value (which it keeps).
template <typename T> std::string errorText(llvm::Expected<T> &value) {
  return value ? std::string() : llvm::toString(value.takeError());
}

} // namespace mgp::test

#endif // MGP_TESTS_UNIT_RUNTIME_TESTERRORS_H
