//===- GraphParser.cpp - Reading .graph files -----------------------------===//
//
// This file implements the `.graph` parser in two steps: a recursive-descent
// pass over the tokens builds statement records (the grammar is in the `///`
// comments), then a checking pass turns them into a Graph, so that a use before
// the definition can be told apart from an undefined name.
//
//===----------------------------------------------------------------------===//

#include "graph/ir/GraphParser.h"
#include "graph/ir/Diagnostic.h"
#include "graph/ir/GraphLexer.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>

using namespace mgp::graph;
using llvm::Error;
using llvm::SMLoc;

namespace {

struct ArgSyntax {
  Token name;
  Token value; ///< Eof kind for a plain operand.
};

struct StmtSyntax {
  enum Kind { Dim, Input, Param, Node, Output } kind;
  Token name;                  ///< Declared or defined name.
  Token op;                    ///< Node: the op name.
  std::vector<Token> shape;    ///< Input/Param: dims; Dim: the default.
  std::vector<ArgSyntax> args; ///< Node: operands and attributes.
  std::vector<Token> outputs;  ///< Output: the names.
};

class Parser {
public:
  Parser(std::shared_ptr<llvm::SourceMgr> sourceMgr, llvm::StringRef buffer)
      : sourceMgr(std::move(sourceMgr)), lexer(buffer) {
    tok = lexer.lex();
  }

  llvm::Expected<Graph> parse();

private:
  Error error(SMLoc loc, const llvm::Twine &msg, SMLoc noteLoc = SMLoc(),
              const llvm::Twine &note = "") const {
    return makeDiagnostic(*sourceMgr, loc, msg, noteLoc, note);
  }
  Error expect(TokenKind kind, const char *what) {
    if (!tok.is(kind))
      return error(tok.getLoc(), llvm::Twine("expected ") + what);
    tok = lexer.lex();
    return Error::success();
  }
  llvm::Expected<Token> expectIdentifier(const char *what);

  Error parseStatement();
  Error parseShape(StmtSyntax &stmt);
  Error parseCall(StmtSyntax &stmt);

  Error build(Graph &graph);
  Error buildNode(Graph &graph, const StmtSyntax &stmt);
  llvm::Expected<int> resolveOperand(const Graph &graph, const Token &name);

  std::shared_ptr<llvm::SourceMgr> sourceMgr;
  GraphLexer lexer;
  Token tok;
  std::vector<StmtSyntax> stmts;
  llvm::StringMap<SMLoc> definitions; ///< Every defined value name.
  llvm::StringMap<int64_t> dimValues;
};

} // namespace

llvm::Expected<Token> Parser::expectIdentifier(const char *what) {
  if (!tok.is(TokenKind::Identifier))
    return error(tok.getLoc(), llvm::Twine("expected ") + what);
  Token name = tok;
  tok = lexer.lex();
  return name;
}

static bool isKeyword(llvm::StringRef text) {
  return text == "dim" || text == "input" || text == "param" ||
         text == "output";
}

/// statement ::= 'dim' ident '=' integer
///             | ('input' | 'param') ident ':' 'f32' shape
///             | 'output' ident (',' ident)*
///             | ident '=' ident '(' args? ')'
Error Parser::parseStatement() {
  StmtSyntax stmt;
  llvm::StringRef word = tok.text;
  if (!tok.is(TokenKind::Identifier))
    return error(tok.getLoc(), "expected a statement ('dim', 'input', "
                               "'param', 'output' or 'name = op(...)')");
  tok = lexer.lex();
  if (word == "dim") {
    stmt.kind = StmtSyntax::Dim;
    auto name = expectIdentifier("a dimension name after 'dim'");
    if (!name)
      return name.takeError();
    stmt.name = *name;
    if (Error e = expect(TokenKind::Equal, "'=' after the dimension name"))
      return e;
    if (!tok.is(TokenKind::Integer))
      return error(tok.getLoc(), "expected an integer default for dimension '" +
                                     stmt.name.text + "'");
    stmt.shape.push_back(tok);
    tok = lexer.lex();
  } else if (word == "input" || word == "param") {
    stmt.kind = word == "input" ? StmtSyntax::Input : StmtSyntax::Param;
    auto name = expectIdentifier("a name after 'input' or 'param'");
    if (!name)
      return name.takeError();
    stmt.name = *name;
    if (Error e = expect(TokenKind::Colon, "':' and a type after the name"))
      return e;
    if (Error e = parseShape(stmt))
      return e;
  } else if (word == "output") {
    stmt.kind = StmtSyntax::Output;
    do {
      if (!stmt.outputs.empty())
        tok = lexer.lex(); // the comma
      auto name = expectIdentifier("a value name after 'output'");
      if (!name)
        return name.takeError();
      stmt.outputs.push_back(*name);
    } while (tok.is(TokenKind::Comma));
  } else {
    stmt.kind = StmtSyntax::Node;
    stmt.name = {TokenKind::Identifier, word};
    if (Error e = expect(TokenKind::Equal, "'=' after the result name"))
      return e;
    auto op = expectIdentifier("an op name after '='");
    if (!op)
      return op.takeError();
    stmt.op = *op;
    if (Error e = parseCall(stmt))
      return e;
  }
  stmts.push_back(std::move(stmt));
  return Error::success();
}

/// shape ::= 'f32' '[' dim (',' dim)* ']'    dim ::= integer | ident
Error Parser::parseShape(StmtSyntax &stmt) {
  if (!tok.is(TokenKind::Identifier) || tok.text != "f32")
    return error(tok.getLoc(), "expected the element type 'f32' (the only "
                               "type a graph value has)");
  tok = lexer.lex();
  if (Error e = expect(TokenKind::LBracket, "'[' to start the shape"))
    return e;
  while (true) {
    if (!tok.is(TokenKind::Integer) && !tok.is(TokenKind::Identifier))
      return error(tok.getLoc(), "expected a dimension (an integer or a "
                                 "dimension name)");
    stmt.shape.push_back(tok);
    tok = lexer.lex();
    if (tok.is(TokenKind::RBracket))
      break;
    if (Error e = expect(TokenKind::Comma, "',' or ']' in the shape"))
      return e;
  }
  tok = lexer.lex();
  return Error::success();
}

/// args ::= arg (',' arg)*    arg ::= ident | ident '=' number
Error Parser::parseCall(StmtSyntax &stmt) {
  if (Error e = expect(TokenKind::LParen, "'(' after the op name"))
    return e;
  if (tok.is(TokenKind::RParen)) {
    tok = lexer.lex();
    return Error::success();
  }
  while (true) {
    auto name = expectIdentifier("an operand name or 'attribute=value'");
    if (!name)
      return name.takeError();
    ArgSyntax arg{*name, Token()};
    if (tok.is(TokenKind::Equal)) {
      tok = lexer.lex();
      if (!tok.is(TokenKind::Integer) && !tok.is(TokenKind::Float))
        return error(tok.getLoc(), "expected a number as the value of "
                                   "attribute '" +
                                       arg.name.text + "'");
      arg.value = tok;
      tok = lexer.lex();
    }
    stmt.args.push_back(arg);
    if (tok.is(TokenKind::RParen))
      break;
    if (Error e = expect(TokenKind::Comma, "',' or ')' in the argument list"))
      return e;
  }
  tok = lexer.lex();
  return Error::success();
}

llvm::Expected<Graph> Parser::parse() {
  while (!tok.is(TokenKind::Eof)) {
    if (tok.is(TokenKind::Invalid))
      return error(tok.getLoc(), "unexpected '" + tok.text + "'");
    if (Error e = parseStatement())
      return std::move(e);
  }
  Graph graph(sourceMgr);
  if (Error e = build(graph))
    return std::move(e);
  return std::move(graph);
}

Error Parser::build(Graph &graph) {
  // Pass 1: every name and dimension, so later uses can be classified.
  bool hasOutput = false;
  for (const StmtSyntax &stmt : stmts) {
    if (stmt.kind == StmtSyntax::Output) {
      hasOutput = true;
      continue;
    }
    if (stmt.kind == StmtSyntax::Dim) {
      if (dimValues.count(stmt.name.text))
        return error(stmt.name.getLoc(),
                     "redefinition of dimension '" + stmt.name.text + "'");
      int64_t value = 0;
      if (stmt.shape[0].text.getAsInteger(10, value) || value < 1)
        return error(stmt.shape[0].getLoc(),
                     "dimension default must be a positive integer");
      dimValues[stmt.name.text] = value;
      graph.dims.push_back({stmt.name.text.str(), value, stmt.name.getLoc()});
      continue;
    }
    if (isKeyword(stmt.name.text))
      return error(stmt.name.getLoc(),
                   "'" + stmt.name.text + "' is a keyword, not a value name");
    auto [it, inserted] =
        definitions.try_emplace(stmt.name.text, stmt.name.getLoc());
    if (!inserted)
      return error(stmt.name.getLoc(),
                   "redefinition of '" + stmt.name.text + "'", it->second,
                   "previous definition is here");
  }
  // Pass 2: values and nodes in order.
  for (const StmtSyntax &stmt : stmts) {
    switch (stmt.kind) {
    case StmtSyntax::Dim:
      break;
    case StmtSyntax::Input:
    case StmtSyntax::Param: {
      Value value;
      value.name = stmt.name.text.str();
      value.kind =
          stmt.kind == StmtSyntax::Input ? ValueKind::Input : ValueKind::Param;
      value.loc = stmt.name.getLoc();
      for (const Token &dim : stmt.shape) {
        DimRef ref;
        if (dim.is(TokenKind::Identifier)) {
          if (!dimValues.count(dim.text))
            return error(dim.getLoc(), "undefined dimension '" + dim.text +
                                           "' (declare it with 'dim " +
                                           dim.text + " = <default>')");
          ref.symbol = dim.text.str();
        } else if (dim.text.getAsInteger(10, ref.value) || ref.value < 1) {
          return error(dim.getLoc(), "dimension must be a positive integer");
        }
        value.declShape.push_back(ref);
      }
      int index = graph.addValue(std::move(value));
      (stmt.kind == StmtSyntax::Input ? graph.inputs : graph.params)
          .push_back(index);
      break;
    }
    case StmtSyntax::Node:
      if (Error e = buildNode(graph, stmt))
        return e;
      break;
    case StmtSyntax::Output:
      for (const Token &name : stmt.outputs) {
        auto index = resolveOperand(graph, name);
        if (!index)
          return index.takeError();
        graph.outputs.push_back(*index);
      }
      break;
    }
  }
  if (!hasOutput)
    return error(tok.getLoc(), "the graph has no 'output' statement");
  return Error::success();
}

llvm::Expected<int> Parser::resolveOperand(const Graph &graph,
                                           const Token &name) {
  int index = graph.lookup(name.text);
  if (index >= 0)
    return index;
  auto it = definitions.find(name.text);
  if (it == definitions.end())
    return error(name.getLoc(), "use of undefined value '" + name.text + "'");
  return error(name.getLoc(),
               "'" + name.text +
                   "' is used before its definition (graphs are acyclic and "
                   "written in order)",
               it->second, "defined here");
}

Error Parser::buildNode(Graph &graph, const StmtSyntax &stmt) {
  std::optional<OpKind> kind = lookupOp(stmt.op.text);
  if (!kind)
    return error(stmt.op.getLoc(), "unknown op '" + stmt.op.text + "'");
  const OpSchema &schema = getOpSchema(*kind);
  std::vector<int> operands;
  std::vector<Attribute> attrs;
  llvm::StringSet<> seenAttrs;
  for (const ArgSyntax &arg : stmt.args) {
    if (arg.value.is(TokenKind::Eof)) {
      if (!attrs.empty())
        return error(arg.name.getLoc(), "operands must come before attributes");
      auto index = resolveOperand(graph, arg.name);
      if (!index)
        return index.takeError();
      operands.push_back(*index);
      continue;
    }
    const AttrSchema *attrSchema = findAttr(schema, arg.name.text);
    if (!attrSchema)
      return error(arg.name.getLoc(), "'" + stmt.op.text +
                                          "' has no attribute '" +
                                          arg.name.text + "'");
    if (!seenAttrs.insert(arg.name.text).second)
      return error(arg.name.getLoc(),
                   "duplicate attribute '" + arg.name.text + "'");
    if (!attrSchema->isFloat && !arg.value.is(TokenKind::Integer))
      return error(arg.value.getLoc(), "attribute '" + arg.name.text +
                                           "' of '" + stmt.op.text +
                                           "' must be an integer");
    double value = 0;
    if (arg.value.text.getAsDouble(value) || !std::isfinite(value))
      return error(arg.value.getLoc(),
                   "invalid number '" + arg.value.text + "'");
    if (value < attrSchema->minValue || value > attrSchema->maxValue ||
        (attrSchema->isFloat && value <= 0 && attrSchema->minValue == 0))
      return error(
          arg.value.getLoc(),
          "attribute '" + arg.name.text + "' of '" + stmt.op.text +
              "' is out of range (" +
              (attrSchema->isFloat
                   ? "must be positive"
                   : "allowed: " +
                         std::to_string(int64_t(attrSchema->minValue)) +
                         " to " +
                         std::to_string(int64_t(attrSchema->maxValue))) +
              ")");
    attrs.push_back({arg.name.text.str(), value});
  }
  if (operands.size() < schema.minOperands ||
      operands.size() > schema.maxOperands) {
    std::string expected = schema.minOperands == schema.maxOperands
                               ? std::to_string(schema.minOperands)
                               : std::to_string(schema.minOperands) + " or " +
                                     std::to_string(schema.maxOperands);
    return error(stmt.op.getLoc(), "'" + stmt.op.text + "' takes " + expected +
                                       " operand" +
                                       (schema.maxOperands == 1 ? "" : "s") +
                                       " (" + schema.operandNames + "), got " +
                                       std::to_string(operands.size()));
  }
  for (const AttrSchema &attrSchema : schema.attrs) {
    if (seenAttrs.count(attrSchema.name))
      continue;
    if (attrSchema.required)
      return error(stmt.op.getLoc(), "'" + stmt.op.text +
                                         "' requires attribute '" +
                                         attrSchema.name + "'");
    double value = attrSchema.defaultValue;
    // Pooling strides default to the kernel size, as in PyTorch.
    if (llvm::StringRef(attrSchema.name) == "stride" && value == 0)
      for (const Attribute &a : attrs)
        if (a.name == "kernel")
          value = a.value;
    attrs.push_back({attrSchema.name, value});
  }
  graph.addNode(*kind, stmt.name.text, std::move(operands), std::move(attrs),
                stmt.name.getLoc());
  return Error::success();
}

llvm::Expected<Graph> mgp::graph::parseGraphString(llvm::StringRef text,
                                                   llvm::StringRef bufferName) {
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  unsigned id = sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), SMLoc());
  llvm::StringRef buffer = sourceMgr->getMemoryBuffer(id)->getBuffer();
  return Parser(sourceMgr, buffer).parse();
}

llvm::Expected<Graph> mgp::graph::parseGraphFile(llvm::StringRef path) {
  auto fileOrErr = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!fileOrErr)
    return llvm::createStringError(
        fileOrErr.getError(), "cannot read graph '%s': %s", path.str().c_str(),
        fileOrErr.getError().message().c_str());
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  unsigned id = sourceMgr->AddNewSourceBuffer(std::move(*fileOrErr), SMLoc());
  llvm::StringRef buffer = sourceMgr->getMemoryBuffer(id)->getBuffer();
  return Parser(sourceMgr, buffer).parse();
}
