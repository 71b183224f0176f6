//===- JitError.h - errors that say what kind of failure they are -*- C++ -*-=//
//
// This file implements JitError, an llvm::Error payload carrying a message and
// the kind of failure (a bad request, an unknown kernel, a compile error, no
// device, a driver failure, an interpreter failure, an unsupported request),
// so that the C API can map a failure to its status code without reading the
// message. Errors of other types count as the kind the caller expects.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_JIT_JITERROR_H
#define MGP_RUNTIME_JIT_JITERROR_H

#include "llvm/Support/Error.h"

#include <string>

namespace mgp {

/// What went wrong.
enum class JitErrorKind {
  InvalidArgument, ///< the caller's request (signature, argument, grid)
  NotFound,        ///< no such kernel
  Compile,         ///< the compiler's diagnostics
  NoDevice,        ///< no driver, no device
  Device,          ///< a failed driver call
  Execution,       ///< the interpreter stopped a kernel
  Unsupported,     ///< the object cannot do this (e.g. launch without device)
};

class JitError : public llvm::ErrorInfo<JitError> {
public:
  static char ID;
  JitError(JitErrorKind kind, std::string message)
      : errorKind(kind), text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  JitErrorKind kind() const { return errorKind; }
  const std::string &what() const { return text; }

private:
  JitErrorKind errorKind;
  std::string text;
};

/// A JitError of \p kind with \p message.
llvm::Error makeJitError(JitErrorKind kind, const llvm::Twine &message);
/// \p err as a JitError of \p kind, unless it is a JitError already (success
/// stays success).
llvm::Error withJitErrorKind(JitErrorKind kind, llvm::Error err);
/// Consumes \p err (a failure): its kind (\p fallback unless it is a
/// JitError) and its message.
std::pair<JitErrorKind, std::string> takeJitError(llvm::Error err,
                                                  JitErrorKind fallback);

} // namespace mgp

#endif // MGP_RUNTIME_JIT_JITERROR_H
