//===- PhaseTimer.h - mgp-run's startup phases under MGP_DEBUG --*- C++ -*-===//
//
// This file implements PhaseTimer, which prints one stderr line per phase of
// an mgp-run run (parse, inputs, weights, passes, backend, prepare, first run)
// with its wall time and the time since the timer started, when MGP_DEBUG is
// set (not empty, not 0). It is how the warm start is profiled.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_TOOLS_MGP_RUN_PHASETIMER_H
#define MGP_TOOLS_MGP_RUN_PHASETIMER_H

#include "compiler/api/Environment.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

namespace mgp::run {

/// Wall time per phase, printed as `mgp-run: phase <name>: <ms> ms (at <ms>
/// ms)` when enabled.
class PhaseTimer {
public:
  using Clock = std::chrono::steady_clock;

  /// Enabled when MGP_DEBUG is set to something other than "" and "0".
  static bool enabledByEnvironment() { return isEnvOn(EnvVar::Debug); }

  explicit PhaseTimer(bool enabled, llvm::raw_ostream &os = llvm::errs())
      : enabled(enabled), os(os), start(Clock::now()), last(start) {}

  /// Ends the current phase, named `name`, and starts the next one.
  void mark(llvm::StringRef name) {
    Clock::time_point now = Clock::now();
    if (enabled)
      os << llvm::format("mgp-run: phase %s: %.1f ms (at %.1f ms)\n",
                         name.str().c_str(), ms(last, now), ms(start, now));
    last = now;
  }

  bool isEnabled() const { return enabled; }

private:
  static double ms(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  }
  bool enabled;
  llvm::raw_ostream &os;
  Clock::time_point start, last;
};

} // namespace mgp::run

#endif // MGP_TOOLS_MGP_RUN_PHASETIMER_H
