//===- Graph.cpp - The op-level model graph -------------------------------===//
//
// This file implements the graph container (values, nodes, lookups, use
// counts), located errors, and the printer that writes a graph back in the
// `.graph` syntax.
//
//===----------------------------------------------------------------------===//

#include "graph/ir/Graph.h"
#include "graph/ir/Diagnostic.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mgp::graph;

std::string mgp::graph::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

double Node::attr(llvm::StringRef name) const {
  for (const Attribute &a : attrs)
    if (a.name == name)
      return a.value;
  // Passes may leave an attribute at its default unwritten (the parser
  // writes every one).
  const AttrSchema *schema = findAttr(getOpSchema(op), name);
  if (!schema)
    llvm_unreachable("attribute missing: the op has no such attribute");
  return schema->defaultValue;
}

void Node::setAttr(llvm::StringRef name, double value) {
  for (Attribute &a : attrs)
    if (a.name == name) {
      a.value = value;
      return;
    }
  attrs.push_back({name.str(), value});
}

int Graph::addValue(Value value) {
  int index = static_cast<int>(values.size());
  bool inserted = valueByName.try_emplace(value.name, index).second;
  assert(inserted && "value names are unique");
  (void)inserted;
  values.push_back(std::move(value));
  return index;
}

int Graph::lookup(llvm::StringRef name) const {
  auto it = valueByName.find(name);
  return it == valueByName.end() ? -1 : it->second;
}

int Graph::addNode(OpKind op, llvm::StringRef resultName,
                   std::vector<int> operands, std::vector<Attribute> attrs,
                   llvm::SMLoc loc) {
  Value result;
  result.name = resultName.str();
  result.kind = ValueKind::Node;
  result.producer = static_cast<int>(nodes.size());
  result.loc = loc;
  Node node;
  node.op = op;
  node.result = addValue(std::move(result));
  node.operands = std::move(operands);
  node.attrs = std::move(attrs);
  node.loc = loc;
  nodes.push_back(std::move(node));
  return static_cast<int>(nodes.size()) - 1;
}

std::vector<int> Graph::useCounts() const {
  std::vector<int> uses(values.size(), 0);
  for (const Node &node : nodes)
    for (int operand : node.operands)
      ++uses[operand];
  for (int output : outputs)
    ++uses[output];
  return uses;
}

llvm::Error Graph::errorAt(llvm::SMLoc loc, const llvm::Twine &msg) const {
  if (sourceMgr && loc.isValid())
    return makeDiagnostic(*sourceMgr, loc, msg);
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static void printDeclShape(const Value &value, llvm::raw_ostream &os) {
  os << "f32[";
  for (size_t i = 0; i < value.declShape.size(); ++i) {
    const DimRef &dim = value.declShape[i];
    os << (i ? ", " : "");
    if (dim.symbol.empty())
      os << dim.value;
    else
      os << dim.symbol;
  }
  os << "]";
}

void mgp::graph::printGraph(const Graph &graph, llvm::raw_ostream &os) {
  for (const DimDecl &dim : graph.dims)
    os << "dim " << dim.name << " = " << dim.defaultValue << "\n";
  for (int index : graph.inputs) {
    os << "input " << graph.values[index].name << ": ";
    printDeclShape(graph.values[index], os);
    os << "\n";
  }
  for (int index : graph.params) {
    os << "param " << graph.values[index].name << ": ";
    printDeclShape(graph.values[index], os);
    os << "\n";
  }
  for (const Node &node : graph.nodes) {
    const OpSchema &schema = getOpSchema(node.op);
    os << graph.values[node.result].name << " = " << schema.name << "(";
    bool first = true;
    for (int operand : node.operands) {
      os << (first ? "" : ", ") << graph.values[operand].name;
      first = false;
    }
    for (const Attribute &attr : node.attrs) {
      os << (first ? "" : ", ") << attr.name << "=";
      const AttrSchema *attrSchema = findAttr(schema, attr.name);
      if (attrSchema && !attrSchema->isFloat)
        os << static_cast<int64_t>(attr.value);
      else
        os << llvm::format("%g", attr.value);
      first = false;
    }
    os << ")\n";
  }
  os << "output";
  for (size_t i = 0; i < graph.outputs.size(); ++i)
    os << (i ? ", " : " ") << graph.values[graph.outputs[i]].name;
  os << "\n";
}
