//===- TokenKinds.cpp - names of the mgp token kinds ----------------------===//
//
// This file implements getTokenKindName, the spelling of a token kind used in
// parser messages ("expected ':'", "unexpected newline").
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Token.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mgp;

llvm::StringRef mgp::getTokenKindName(TokenKind kind) {
  switch (kind) {
  case TokenKind::EndOfFile: return "end of file";
  case TokenKind::Error: return "invalid token";
  case TokenKind::Newline: return "newline";
  case TokenKind::Indent: return "indent";
  case TokenKind::Dedent: return "dedent";
  case TokenKind::Name: return "name";
  case TokenKind::Int: return "integer literal";
  case TokenKind::Float: return "float literal";
  case TokenKind::String: return "string literal";
  case TokenKind::KwFalse: return "'False'";
  case TokenKind::KwNone: return "'None'";
  case TokenKind::KwTrue: return "'True'";
  case TokenKind::KwAnd: return "'and'";
  case TokenKind::KwAs: return "'as'";
  case TokenKind::KwAssert: return "'assert'";
  case TokenKind::KwAsync: return "'async'";
  case TokenKind::KwAwait: return "'await'";
  case TokenKind::KwBreak: return "'break'";
  case TokenKind::KwClass: return "'class'";
  case TokenKind::KwContinue: return "'continue'";
  case TokenKind::KwDef: return "'def'";
  case TokenKind::KwDel: return "'del'";
  case TokenKind::KwElif: return "'elif'";
  case TokenKind::KwElse: return "'else'";
  case TokenKind::KwExcept: return "'except'";
  case TokenKind::KwFinally: return "'finally'";
  case TokenKind::KwFor: return "'for'";
  case TokenKind::KwFrom: return "'from'";
  case TokenKind::KwGlobal: return "'global'";
  case TokenKind::KwIf: return "'if'";
  case TokenKind::KwImport: return "'import'";
  case TokenKind::KwIn: return "'in'";
  case TokenKind::KwIs: return "'is'";
  case TokenKind::KwLambda: return "'lambda'";
  case TokenKind::KwNonlocal: return "'nonlocal'";
  case TokenKind::KwNot: return "'not'";
  case TokenKind::KwOr: return "'or'";
  case TokenKind::KwPass: return "'pass'";
  case TokenKind::KwRaise: return "'raise'";
  case TokenKind::KwReturn: return "'return'";
  case TokenKind::KwTry: return "'try'";
  case TokenKind::KwWhile: return "'while'";
  case TokenKind::KwWith: return "'with'";
  case TokenKind::KwYield: return "'yield'";
  case TokenKind::LParen: return "'('";
  case TokenKind::RParen: return "')'";
  case TokenKind::LSquare: return "'['";
  case TokenKind::RSquare: return "']'";
  case TokenKind::LBrace: return "'{'";
  case TokenKind::RBrace: return "'}'";
  case TokenKind::Comma: return "','";
  case TokenKind::Colon: return "':'";
  case TokenKind::Semicolon: return "';'";
  case TokenKind::Dot: return "'.'";
  case TokenKind::Ellipsis: return "'...'";
  case TokenKind::Arrow: return "'->'";
  case TokenKind::At: return "'@'";
  case TokenKind::Equal: return "'='";
  case TokenKind::ColonEqual: return "':='";
  case TokenKind::Plus: return "'+'";
  case TokenKind::Minus: return "'-'";
  case TokenKind::Star: return "'*'";
  case TokenKind::Slash: return "'/'";
  case TokenKind::SlashSlash: return "'//'";
  case TokenKind::Percent: return "'%'";
  case TokenKind::StarStar: return "'**'";
  case TokenKind::LessLess: return "'<<'";
  case TokenKind::GreaterGreater: return "'>>'";
  case TokenKind::Amp: return "'&'";
  case TokenKind::Pipe: return "'|'";
  case TokenKind::Caret: return "'^'";
  case TokenKind::Tilde: return "'~'";
  case TokenKind::Less: return "'<'";
  case TokenKind::Greater: return "'>'";
  case TokenKind::LessEqual: return "'<='";
  case TokenKind::GreaterEqual: return "'>='";
  case TokenKind::EqualEqual: return "'=='";
  case TokenKind::NotEqual: return "'!='";
  case TokenKind::PlusEqual: return "'+='";
  case TokenKind::MinusEqual: return "'-='";
  case TokenKind::StarEqual: return "'*='";
  case TokenKind::SlashEqual: return "'/='";
  case TokenKind::SlashSlashEqual: return "'//='";
  case TokenKind::PercentEqual: return "'%='";
  case TokenKind::StarStarEqual: return "'**='";
  case TokenKind::AmpEqual: return "'&='";
  case TokenKind::PipeEqual: return "'|='";
  case TokenKind::CaretEqual: return "'^='";
  case TokenKind::LessLessEqual: return "'<<='";
  case TokenKind::GreaterGreaterEqual: return "'>>='";
  case TokenKind::AtEqual: return "'@='";
  }
  llvm_unreachable("unknown TokenKind");
}
