//===- CacheKey.cpp - the identity of a compiled kernel -------------------===//
//
// This file implements the cache key. Each field is fed to SHA-256 as a tag
// byte, a 64-bit little-endian length and the bytes, and each list with its
// element count first, so that moving text from one field to the next (or a
// hint from one parameter to the next) always changes the key.
//
//===----------------------------------------------------------------------===//
#include "runtime/CacheKey.h"

#include "compiler/api/ModuleSearch.h"
#include "compiler/api/NormalizeSource.h"
#include "compiler/api/Version.h"
#include "compiler/pipeline/CompilerHash.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
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

std::string mgp::computeCacheKey(const KernelRequest &request,
                                 llvm::StringRef compilerVersion) {
  KeyHasher h;
  h.text('V', compilerVersion);
  h.text('A', request.target.arch());
  h.number('W', static_cast<uint64_t>(request.options.numWarps));
  h.number('S', static_cast<uint64_t>(request.options.numStages));
  h.text('P', dotPrecisionName(request.options.precision));
  h.number('F', request.options.reflectFtz);
  h.number('R', static_cast<uint64_t>(request.options.maxNumRegs));
  h.text('K', request.kernelName);
  // The kernel and every function and constant it names, so that an edit
  // elsewhere in the file keeps the key.
  h.text('C', normalizeKernelSource(request.source, request.kernelName));
  // The module files its imports may load (`from .utils import f`), whole:
  // an edit to an imported helper changes the key.
  std::vector<std::string> modules =
      findImportedModuleFiles(request.source, request.fileName, {});
  h.number('I', modules.size());
  for (const std::string &file : modules) {
    h.text('i', file);
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
    h.number('r', static_cast<bool>(text));
    h.text('m', text ? (*text)->getBuffer() : llvm::StringRef());
  }
  h.number('T', request.signature.params.size());
  for (const SignatureParam &param : request.signature.params) {
    h.number('k', static_cast<uint64_t>(param.kind));
    h.text('t', dtypeName(param.type));
    h.number('d', static_cast<uint64_t>(param.divisibility));
    h.number('o', param.equalsOne);
    h.number('f', param.isFloat);
    uint64_t bits = static_cast<uint64_t>(param.intValue);
    if (param.isFloat)
      std::memcpy(&bits, &param.floatValue, sizeof(bits));
    h.number('v', bits);
    h.text('s', param.isString ? llvm::StringRef(param.stringValue) : "");
    h.number('q', param.isString);
    h.number('z', param.isNone);
  }
  return h.hex();
}
