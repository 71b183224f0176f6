//===- Target.cpp - what code is generated for ----------------------------===//
//
// This file implements Target's parsing from one table of the known targets.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/Target.h"

using namespace mgp;

namespace {
struct KnownTarget {
  const char *name;
  int capability;
  bool wgmma;
};
const KnownTarget kTargets[] = {{"sm_80", 80, false}, {"sm_86", 86, false},
                                {"sm_89", 89, false}, {"sm_90", 90, false},
                                {"sm_90a", 90, true}, {"cpu", 0, false}};
} // namespace

Target::Target() : Target("sm_90", 90, false) {}

llvm::Expected<Target> Target::parse(llvm::StringRef name) {
  for (const KnownTarget &known : kTargets)
    if (name == known.name)
      return Target(known.name, known.capability, known.wgmma);
  return llvm::createStringError("unsupported GPU architecture '" + name +
                                 "' (expected sm_80, sm_86, sm_89, sm_90, "
                                 "sm_90a or cpu)");
}

Target Target::cpu() { return Target("cpu", 0, false); }
