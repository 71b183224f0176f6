//===- Graph.h - The op-level model graph -----------------------*- C++ -*-===//
//
// This file implements the in-memory form of a `.graph` model: named values
// (inputs, parameters and node results), nodes in topological order with
// their integer/float attributes, the symbolic dimensions with their defaults,
// and the outputs. A graph keeps the source it was parsed from so that every
// later pass can report errors at a node's line and column.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_GRAPH_H
#define MGP_GRAPH_GRAPH_H

#include "graph/ir/Ops.h"
#include "graph/ir/Tensor.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace mgp::graph {

/// One dimension of a declared shape: a number or a symbol bound later.
struct DimRef {
  int64_t value = 0;  ///< The size when `symbol` is empty.
  std::string symbol; ///< A symbolic dimension (`N`, `H`, `classes`).
};

/// A symbolic dimension declared with `dim NAME = DEFAULT`.
struct DimDecl {
  std::string name;
  int64_t defaultValue = 0;
  llvm::SMLoc loc;
};

enum class ValueKind { Input, Param, Node };

/// A named value of the graph.
struct Value {
  std::string name;
  ValueKind kind = ValueKind::Node;
  std::vector<DimRef> declShape; ///< As written (inputs and params only).
  Shape shape;                   ///< Concrete, after shape inference.
  int producer = -1;             ///< Index of the defining node, or -1.
  llvm::SMLoc loc;
};

/// An attribute value: integer or float, as the op's schema says.
struct Attribute {
  std::string name;
  double value = 0; ///< Integers are stored exactly (they are small).
};

/// One operation `result = op(operands..., attrs...)`.
struct Node {
  OpKind op = OpKind::Relu;
  int result = -1;           ///< Value index.
  std::vector<int> operands; ///< Value indices.
  std::vector<Attribute> attrs;
  llvm::SMLoc loc;

  /// The value of attribute `name` (its default where the node has none: the
  /// parser fills in every default, passes may leave one out).
  double attr(llvm::StringRef name) const;
  int64_t intAttr(llvm::StringRef name) const {
    return static_cast<int64_t>(attr(name));
  }
  void setAttr(llvm::StringRef name, double value);
};

/// A model graph. Nodes are in topological (definition) order.
class Graph {
public:
  explicit Graph(std::shared_ptr<llvm::SourceMgr> sourceMgr = nullptr)
      : sourceMgr(std::move(sourceMgr)) {}

  std::vector<Value> values;
  std::vector<Node> nodes;
  std::vector<int> inputs;  ///< Value indices in declaration order.
  std::vector<int> params;  ///< Value indices in declaration order.
  std::vector<int> outputs; ///< Value indices.
  std::vector<DimDecl> dims;

  /// Adds a value and returns its index; the name must be new.
  int addValue(Value value);
  /// The index of the value called `name`, or -1.
  int lookup(llvm::StringRef name) const;
  /// Appends a node defining a new value `resultName`; returns its index.
  int addNode(OpKind op, llvm::StringRef resultName, std::vector<int> operands,
              std::vector<Attribute> attrs, llvm::SMLoc loc);

  /// Number of uses of each value (operands of nodes plus graph outputs).
  std::vector<int> useCounts() const;

  /// An error at `loc` rendered as `file:line:col: error: msg` with the
  /// source line and a caret (plain text when the graph has no source).
  llvm::Error errorAt(llvm::SMLoc loc, const llvm::Twine &msg) const;

  const std::shared_ptr<llvm::SourceMgr> &getSourceMgr() const {
    return sourceMgr;
  }

private:
  std::shared_ptr<llvm::SourceMgr> sourceMgr;
  llvm::StringMap<int> valueByName;
};

/// Writes `graph` back in `.graph` syntax (the same text the parser reads).
void printGraph(const Graph &graph, llvm::raw_ostream &os);

} // namespace mgp::graph

#endif // MGP_GRAPH_GRAPH_H
