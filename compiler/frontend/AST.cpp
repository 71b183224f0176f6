//===- AST.cpp - the mgp abstract syntax tree ------------------------------===//
//
// This file implements the small helpers of the AST: literal constructors,
// operator spellings and the look-ups on functions, imports and modules.
//
//===----------------------------------------------------------------------===//
#include "compiler/frontend/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mgp::ast;
using llvm::StringRef;

std::unique_ptr<ConstantExpr> ConstantExpr::getInt(SourceLocation l,
                                                   int64_t v) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(l, ConstKind::Int));
  c->intValue = v;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getUInt64(SourceLocation l,
                                                      uint64_t v) {
  std::unique_ptr<ConstantExpr> c = getInt(l, int64_t(v));
  c->uint64Value = true;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getFloat(SourceLocation l,
                                                     double v) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(l, ConstKind::Float));
  c->floatValue = v;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getBool(SourceLocation l, bool v) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(l, ConstKind::Bool));
  c->intValue = v ? 1 : 0;
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getNone(SourceLocation l) {
  return std::unique_ptr<ConstantExpr>(new ConstantExpr(l, ConstKind::None));
}

std::unique_ptr<ConstantExpr> ConstantExpr::getString(SourceLocation l,
                                                      std::string v) {
  std::unique_ptr<ConstantExpr> c(new ConstantExpr(l, ConstKind::String));
  c->stringValue = std::move(v);
  return c;
}

std::unique_ptr<ConstantExpr> ConstantExpr::getEllipsis(SourceLocation l) {
  return std::unique_ptr<ConstantExpr>(
      new ConstantExpr(l, ConstKind::Ellipsis));
}

StringRef mgp::ast::spell(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add: return "+";
  case BinaryOp::Sub: return "-";
  case BinaryOp::Mul: return "*";
  case BinaryOp::MatMul: return "@";
  case BinaryOp::Div: return "/";
  case BinaryOp::FloorDiv: return "//";
  case BinaryOp::Mod: return "%";
  case BinaryOp::Pow: return "**";
  case BinaryOp::LShift: return "<<";
  case BinaryOp::RShift: return ">>";
  case BinaryOp::BitAnd: return "&";
  case BinaryOp::BitOr: return "|";
  case BinaryOp::BitXor: return "^";
  }
  llvm_unreachable("unknown BinaryOp");
}

StringRef mgp::ast::spell(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg: return "-";
  case UnaryOp::Pos: return "+";
  case UnaryOp::Not: return "not";
  case UnaryOp::Invert: return "~";
  }
  llvm_unreachable("unknown UnaryOp");
}

StringRef mgp::ast::spell(BoolOp op) {
  return op == BoolOp::And ? "and" : "or";
}

StringRef mgp::ast::spell(CmpOp op) {
  switch (op) {
  case CmpOp::Eq: return "==";
  case CmpOp::NotEq: return "!=";
  case CmpOp::Lt: return "<";
  case CmpOp::LtE: return "<=";
  case CmpOp::Gt: return ">";
  case CmpOp::GtE: return ">=";
  case CmpOp::Is: return "is";
  case CmpOp::IsNot: return "is not";
  case CmpOp::In: return "in";
  case CmpOp::NotIn: return "not in";
  }
  llvm_unreachable("unknown CmpOp");
}

const Keyword *CallExpr::findKeyword(StringRef name) const {
  for (const Keyword &kw : keywords)
    if (kw.name == name)
      return &kw;
  return nullptr;
}

bool FunctionDef::isKernel() const {
  for (const Decorator &d : decorators)
    if (d.isJit)
      return true;
  return false;
}

const Param *FunctionDef::findParam(StringRef paramName) const {
  for (const Param &p : params)
    if (p.name == paramName)
      return &p;
  return nullptr;
}

StringRef Import::getBoundName() const {
  if (!alias.empty())
    return alias;
  if (isFrom)
    return name;
  return StringRef(module).split('.').first;
}

std::string Import::getTargetPath() const {
  if (isFrom) // `from . import x` is `.x`, `from a import x` is `a.x`
    return StringRef(module).ends_with(".") ? module + name
                                            : module + "." + name;
  if (!alias.empty())
    return module;
  return StringRef(module).split('.').first.str();
}

const FunctionDef *Module::findFunction(StringRef name) const {
  for (auto it = functions.rbegin(); it != functions.rend(); ++it)
    if ((*it)->name == name)
      return it->get();
  return nullptr;
}

const ModuleConstant *Module::findConstant(StringRef name) const {
  for (auto it = constants.rbegin(); it != constants.rend(); ++it)
    if (it->name == name)
      return &*it;
  return nullptr;
}

const SkippedCode *Module::findSkippedFunction(StringRef name) const {
  for (const SkippedCode &s : skipped)
    if (!s.name.empty() && s.name == name)
      return &s;
  return nullptr;
}

std::vector<const FunctionDef *> Module::getKernels() const {
  std::vector<const FunctionDef *> kernels;
  for (const auto &f : functions)
    if (f->isKernel())
      kernels.push_back(f.get());
  return kernels;
}

/// Module::findKernel, following at most `depth` more aliases (so alias
/// cycles end).
static const FunctionDef *findKernelIn(const Module &m, StringRef name,
                                       unsigned depth) {
  for (auto it = m.kernelAliases.rbegin(); it != m.kernelAliases.rend(); ++it) {
    if (it->name != name || depth == 0)
      continue;
    const FunctionDef *fn = m.findFunction(it->function);
    // `f = triton.autotune(...)(g)` makes a kernel only if g is one.
    if (fn && (it->viaJit || fn->isKernel()))
      return fn;
    if (it->function != name)
      if (const FunctionDef *k = findKernelIn(m, it->function, depth - 1))
        return k;
  }
  const FunctionDef *fn = m.findFunction(name);
  return fn && fn->isKernel() ? fn : nullptr;
}

const FunctionDef *Module::findKernel(StringRef name) const {
  return findKernelIn(*this, name, 16);
}

std::vector<std::string> Module::getKernelNames() const {
  std::vector<std::string> names;
  auto add = [&](StringRef name) {
    if (!llvm::is_contained(names, name) && findKernel(name))
      names.push_back(name.str());
  };
  for (const auto &f : functions)
    add(f->name);
  for (const KernelAlias &a : kernelAliases)
    add(a.name);
  return names;
}
