//===- JitError.cpp - errors that say what kind of failure they are -------===//
//
// This file implements the JitError helpers.
//
//===----------------------------------------------------------------------===//
#include "runtime/jit/JitError.h"

using namespace mgp;

char JitError::ID = 0;

llvm::Error mgp::makeJitError(JitErrorKind kind, const llvm::Twine &message) {
  return llvm::make_error<JitError>(kind, message.str());
}

llvm::Error mgp::withJitErrorKind(JitErrorKind kind, llvm::Error err) {
  if (!err)
    return err;
  if (err.isA<JitError>())
    return err;
  return makeJitError(kind, llvm::toString(std::move(err)));
}

std::pair<JitErrorKind, std::string> mgp::takeJitError(llvm::Error err,
                                                       JitErrorKind fallback) {
  JitErrorKind kind = fallback;
  std::string message;
  llvm::handleAllErrors(
      std::move(err),
      [&](const JitError &jitError) {
        kind = jitError.kind();
        message += (message.empty() ? "" : "\n") + jitError.what();
      },
      [&](const llvm::ErrorInfoBase &other) {
        message += (message.empty() ? "" : "\n") + other.message();
      });
  return {kind, message};
}
