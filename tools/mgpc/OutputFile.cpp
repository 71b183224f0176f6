//===- OutputFile.cpp - atomic writes of mgpc's output --------------------===//
//
// This file implements writeFileAtomically (see OutputFile.h).
//
//===----------------------------------------------------------------------===//
#include "tools/mgpc/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static Error writeError(StringRef path, std::error_code ec) {
  return createStringError(ec, "cannot write output file '%s': %s",
                           path.str().c_str(), ec.message().c_str());
}

Error mgp::writeFileAtomically(StringRef path, StringRef contents) {
  if (path == "-") {
    outs() << contents;
    outs().flush();
    return Error::success();
  }
  SmallString<256> temp;
  int fd;
  if (std::error_code ec =
          sys::fs::createUniqueFile(path + ".tmp-%%%%%%%%", fd, temp))
    return writeError(path, ec);
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      sys::fs::remove(temp);
      return writeError(path, ec);
    }
  }
  if (std::error_code ec = sys::fs::rename(temp, path)) {
    sys::fs::remove(temp);
    return writeError(path, ec);
  }
  return Error::success();
}
