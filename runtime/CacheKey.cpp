//===- CacheKey.cpp - the identity of a compiled kernel -------------------===//
//
// This file implements the cache key. Each field is fed to SHA-256 as a tag
// byte, a 64-bit little-endian length and the bytes, and each list with its
// element count first, so that moving text from one field to the next (or an
// index from one list to the next) always changes the key.
//
//===----------------------------------------------------------------------===//
#include "runtime/CacheKey.h"

#include "compiler/pipeline/CompilerHash.h"
#include "compiler/pipeline/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <cstring>

using namespace mgp;

namespace {
/// Feeds tagged, length-prefixed fields to a SHA-256.
class KeyHasher {
public:
  void number(char tag, uint64_t value) {
    uint8_t bytes[9];
    bytes[0] = static_cast<uint8_t>(tag);
    for (int i = 0; i < 8; ++i)
      bytes[i + 1] = static_cast<uint8_t>(value >> (8 * i));
    sha.update(llvm::ArrayRef<uint8_t>(bytes));
  }
  void text(char tag, llvm::StringRef value) {
    number(tag, value.size());
    sha.update(value);
  }
  std::string hex() { return llvm::toHex(sha.final(), /*LowerCase=*/true); }

private:
  llvm::SHA256 sha;
};
} // namespace

llvm::StringRef mgp::compilerIdentity() {
  // The version alone would let a rebuilt compiler trust PTX from an older
  // build of the same version; the sources' hash (cmake/CompilerHash.cmake)
  // changes with every edit under compiler/.
  return MGP_VERSION_STRING "+" MGP_COMPILER_HASH;
}

CacheKeyInput mgp::makeCacheKeyInput(llvm::StringRef source,
                                     llvm::StringRef kernelName,
                                     const KernelOptions &options,
                                     const Specialization &specialization) {
  return CacheKeyInput{compilerIdentity(), options, source, kernelName,
                       specialization};
}

std::string mgp::computeCacheKey(const CacheKeyInput &input) {
  KeyHasher h;
  h.text('V', input.compilerVersion);
  h.text('A', input.options.arch);
  h.number('W', static_cast<uint64_t>(input.options.numWarps));
  h.number('S', static_cast<uint64_t>(input.options.numStages));
  h.text('P', input.options.precision);
  h.text('K', input.kernelName);
  h.text('C', input.source);

  const Specialization &spec = input.specialization;
  h.number('T', spec.argTypes.size());
  for (const std::string &type : spec.argTypes)
    h.text('t', type);
  h.number('X', spec.constexprs.size());
  for (const ConstexprValue &value : spec.constexprs) {
    h.number('i', value.index);
    h.text('n', value.name);
    h.number('f', value.isFloat);
    uint64_t bits = static_cast<uint64_t>(value.intValue);
    if (value.isFloat)
      std::memcpy(&bits, &value.floatValue, sizeof(bits));
    h.number('v', bits);
  }
  h.number('D', spec.divisibleBy16.size());
  for (unsigned index : spec.divisibleBy16)
    h.number('d', index);
  h.number('O', spec.equalToOne.size());
  for (unsigned index : spec.equalToOne)
    h.number('o', index);
  return h.hex();
}
