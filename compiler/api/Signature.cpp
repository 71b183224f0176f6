//===- Signature.cpp - kernel signatures in Triton's AOT syntax -----------===//
//
// This file implements parseSignature and the printing of signatures:
// `*fp32:16,*fp32,i32,1024` -> four SignatureParams.
//
//===----------------------------------------------------------------------===//
#include "compiler/api/Signature.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cstdlib>
#include <optional>

using namespace llvm;
using namespace mgp;

namespace {
Error entryError(size_t index, StringRef entry, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid signature entry " + Twine(index) + " '" +
                               entry + "': " + message);
}

/// literal ::= [-]digits | float literal (contains '.', 'e' or is inf/nan)
Expected<SignatureParam> parseConstexpr(size_t index, StringRef entry) {
  SignatureParam param;
  param.kind = SignatureParam::Kind::Constexpr;
  int64_t intValue;
  if (!entry.getAsInteger(10, intValue)) {
    param.type = DType::I64;
    param.intValue = intValue;
    return param;
  }
  // 2**63 .. 2**64 - 1: a uint64 constant, as Triton types such integers.
  uint64_t uintValue;
  if (!entry.getAsInteger(10, uintValue)) {
    param.type = DType::U64;
    param.intValue = static_cast<int64_t>(uintValue);
    return param;
  }
  if (entry == "True" || entry == "False") {
    param.type = DType::I64;
    param.intValue = entry == "True";
    return param;
  }
  if (entry == "None") {
    param.isNone = true;
    return param;
  }
  // A string: quoted, or a bare word (identifier characters only).
  if (entry.size() >= 2 && (entry.front() == '\'' || entry.front() == '"') &&
      entry.back() == entry.front()) {
    param.isString = true;
    param.stringValue = entry.drop_front().drop_back().str();
    return param;
  }
  auto isWordChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  if (!entry.empty() &&
      (llvm::isAlpha(entry.front()) || entry.front() == '_') &&
      llvm::all_of(entry, isWordChar) && entry != "inf" && entry != "nan") {
    param.isString = true;
    param.stringValue = entry.str();
    return param;
  }
  std::string text = entry.str();
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size())
    return entryError(index, entry,
                      "expected a type such as 'fp32', '*fp16' or 'i32', or a "
                      "constexpr number or string");
  param.type = DType::F64;
  param.isFloat = true;
  param.floatValue = value;
  return param;
}

/// entry ::= '*' ['k'] type [':16'] | type [':16' | ':1'] | literal
Expected<SignatureParam> parseEntry(size_t index, StringRef entry) {
  if (entry.empty())
    return entryError(index, entry, "empty entry");
  StringRef body = entry;
  SignatureParam param;
  if (body.consume_front("*")) {
    param.kind = SignatureParam::Kind::Pointer;
    // `*kfp32`: Triton's const pointer (no dtype name starts with `k`).
    if (body.starts_with("k") &&
        dtypeFromName(body.drop_front().split(':').first.trim())) {
      body = body.drop_front();
      param.isConst = true;
    }
  }
  auto [typeName, hint] = body.split(':');
  std::optional<DType> type = dtypeFromName(typeName.trim());
  if (!type) {
    if (param.isPointer())
      return entryError(index, entry,
                        "unknown pointee type '" + typeName.trim() + "'");
    if (body.contains(':'))
      return entryError(index, entry, "unknown type '" + typeName.trim() + "'");
    return parseConstexpr(index, entry);
  }
  param.type = *type;
  if (!body.contains(':'))
    return param;
  hint = hint.trim();
  if (isFloatDType(*type) && !param.isPointer())
    return entryError(index, entry,
                      "hints apply to pointers and integers only");
  if (hint == "16") {
    param.divisibility = 16;
  } else if (hint == "1" && !param.isPointer()) {
    param.equalsOne = true;
  } else {
    return entryError(index, entry,
                      "unknown hint ':" + hint + "' (expected ':16'" +
                          (param.isPointer() ? ")" : " or ':1')"));
  }
  return param;
}
} // namespace

Expected<Signature> mgp::parseSignature(StringRef text) {
  Signature signature;
  if (text.trim().empty())
    return signature;
  SmallVector<StringRef> entries;
  text.split(entries, ',');
  for (auto [index, rawEntry] : llvm::enumerate(entries)) {
    Expected<SignatureParam> param = parseEntry(index, rawEntry.trim());
    if (!param)
      return param.takeError();
    signature.params.push_back(*param);
  }
  return signature;
}

std::string Signature::str() const {
  std::string text;
  raw_string_ostream os(text);
  for (auto [index, param] : llvm::enumerate(params)) {
    if (index)
      os << ',';
    if (param.isConstexpr()) {
      if (param.isNone) {
        os << "None";
      } else if (param.isString) {
        os << '\'' << param.stringValue << '\'';
      } else if (param.isFloat) {
        // Shortest text that parses back to the same double, and as a float.
        char buffer[64];
        auto result =
            std::to_chars(buffer, buffer + sizeof(buffer), param.floatValue);
        StringRef number(buffer, result.ptr - buffer);
        os << number;
        if (number.find_first_of(".eni") == StringRef::npos)
          os << ".0";
      } else if (param.type == DType::U64) {
        os << static_cast<uint64_t>(param.intValue);
      } else {
        os << param.intValue;
      }
      continue;
    }
    if (param.isPointer())
      os << (param.isConst ? "*k" : "*");
    os << dtypeName(param.type);
    if (param.divisibility == 16)
      os << ":16";
    else if (param.equalsOne)
      os << ":1";
  }
  return text;
}
