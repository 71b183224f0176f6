//===- GraphParserTest.cpp - Tests of the .graph parser -------------------===//
//
// This file implements the parser tests: a good graph (and ResNet18) parse
// into the expected values and nodes, the printer's output parses back to the
// same graph, and every error comes with its line, column and caret.
//
//===----------------------------------------------------------------------===//

#include "graph/ir/GraphParser.h"
#include "graph/ir/Diagnostic.h"

#include "gtest/gtest.h"

using namespace mgp::graph;

namespace {

/// The rendered diagnostic of a graph that must fail to parse.
std::string parseError(llvm::StringRef text) {
  auto graph = parseGraphString(text, "t.graph");
  if (graph) {
    ADD_FAILURE() << "parsed without error:\n" << text.str();
    return "";
  }
  std::string message;
  llvm::handleAllErrors(
      graph.takeError(),
      [&](const DiagnosticError &d) { message = d.getText(); },
      [&](const llvm::ErrorInfoBase &e) { message = "plain: " + e.message(); });
  return message;
}

const char *smallGraph = R"(# a comment
dim N = 2
input x: f32[N, 3, 8, 8]
param w: f32[4, 3, 3, 3]
y = conv2d(x, w, stride=2, padding=1)   # trailing comment
z = relu(y)
p = maxpool2d(z, kernel=2)
output p
)";

TEST(GraphParserTest, ParsesValuesNodesAndDefaults) {
  auto graph = parseGraphString(smallGraph);
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  ASSERT_EQ(graph->inputs.size(), 1u);
  ASSERT_EQ(graph->params.size(), 1u);
  ASSERT_EQ(graph->nodes.size(), 3u);
  const Node &conv = graph->nodes[0];
  EXPECT_EQ(conv.op, OpKind::Conv2d);
  EXPECT_EQ(conv.intAttr("stride"), 2);
  EXPECT_EQ(conv.intAttr("padding"), 1);
  EXPECT_EQ(graph->values[conv.operands[1]].name, "w");
  const Node &pool = graph->nodes[2];
  EXPECT_EQ(pool.intAttr("kernel"), 2);
  EXPECT_EQ(pool.intAttr("stride"), 2) << "pool stride defaults to kernel";
  EXPECT_EQ(pool.intAttr("padding"), 0);
  const Value &x = graph->values[graph->inputs[0]];
  ASSERT_EQ(x.declShape.size(), 4u);
  EXPECT_EQ(x.declShape[0].symbol, "N");
  EXPECT_EQ(x.declShape[1].value, 3);
  EXPECT_EQ(graph->values[graph->outputs[0]].name, "p");
  ASSERT_EQ(graph->dims.size(), 1u);
  EXPECT_EQ(graph->dims[0].defaultValue, 2);
}

TEST(GraphParserTest, PrintedGraphParsesBackIdentically) {
  auto graph = parseGraphString(smallGraph);
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  std::string printed;
  llvm::raw_string_ostream os(printed);
  printGraph(*graph, os);
  auto again = parseGraphString(printed);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError()) << printed;
  std::string reprinted;
  llvm::raw_string_ostream os2(reprinted);
  printGraph(*again, os2);
  EXPECT_EQ(printed, reprinted);
  EXPECT_NE(printed.find("y = conv2d(x, w, stride=2, padding=1)"),
            std::string::npos)
      << printed;
}

TEST(GraphParserTest, ParsesResNet18WithTorchvisionNames) {
  auto graph = parseGraphFile(MGP_SOURCE_DIR "/models/resnet18.graph");
  ASSERT_TRUE(bool(graph)) << llvm::toString(graph.takeError());
  EXPECT_EQ(graph->params.size(), 102u); // state_dict minus num_batches_tracked
  for (const char *name :
       {"conv1.weight", "bn1.running_var", "layer1.0.conv1.weight",
        "layer1.1.bn2.bias", "layer2.0.downsample.0.weight",
        "layer2.0.downsample.1.running_mean", "layer4.1.conv2.weight",
        "fc.weight", "fc.bias"}) {
    int index = graph->lookup(name);
    ASSERT_GE(index, 0) << name;
    EXPECT_EQ(graph->values[index].kind, ValueKind::Param) << name;
  }
  EXPECT_LT(graph->lookup("layer1.0.downsample.0.weight"), 0);
  int convs = 0;
  for (const Node &node : graph->nodes)
    convs += node.op == OpKind::Conv2d;
  EXPECT_EQ(convs, 20);
}

TEST(GraphParserTest, UnknownOp) {
  std::string msg = parseError("input x: f32[1]\ny = conv3d(x)\noutput y\n");
  EXPECT_NE(msg.find("t.graph:2:5: error: unknown op 'conv3d'"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("y = conv3d(x)\n    ^"), std::string::npos) << msg;
}

TEST(GraphParserTest, UndefinedName) {
  std::string msg = parseError("input x: f32[1]\ny = relu(q)\noutput y\n");
  EXPECT_NE(msg.find("t.graph:2:10: error: use of undefined value 'q'"),
            std::string::npos)
      << msg;
}

TEST(GraphParserTest, Redefinition) {
  std::string msg =
      parseError("input x: f32[1]\ny = relu(x)\ny = relu(x)\noutput y\n");
  EXPECT_NE(msg.find("t.graph:3:1: error: redefinition of 'y'"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("t.graph:2:1: note: previous definition is here"),
            std::string::npos)
      << msg;
}

TEST(GraphParserTest, BadAttributes) {
  EXPECT_NE(parseError("input x: f32[1,1,4,4]\ny = maxpool2d(x, size=2)\n"
                       "output y\n")
                .find("2:18: error: 'maxpool2d' has no attribute 'size'"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f32[1,1,4,4]\ny = maxpool2d(x, kernel=2.5)\n"
                       "output y\n")
                .find("error: attribute 'kernel' of 'maxpool2d' must be an "
                      "integer"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f32[1,1,4,4]\ny = maxpool2d(x, kernel=0)\n"
                       "output y\n")
                .find("error: attribute 'kernel' of 'maxpool2d' is out of "
                      "range (allowed: 1 to"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f32[1,1,4,4]\ny = maxpool2d(x)\noutput y\n")
                .find("error: 'maxpool2d' requires attribute 'kernel'"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f32[1,1,4,4]\n"
                       "y = maxpool2d(x, kernel=2, kernel=3)\noutput y\n")
                .find("error: duplicate attribute 'kernel'"),
            std::string::npos);
}

TEST(GraphParserTest, WrongArity) {
  std::string msg = parseError("input x: f32[1]\ny = relu(x, x)\noutput y\n");
  EXPECT_NE(msg.find("2:5: error: 'relu' takes 1 operand (input), got 2"),
            std::string::npos)
      << msg;
  msg = parseError("input x: f32[1]\ny = conv2d(x)\noutput y\n");
  EXPECT_NE(msg.find("error: 'conv2d' takes 2 or 3 operands (input, weight, "
                     "bias), got 1"),
            std::string::npos)
      << msg;
}

TEST(GraphParserTest, UseBeforeDefinitionAndCycles) {
  std::string msg =
      parseError("input x: f32[1]\na = add(x, b)\nb = relu(a)\noutput b\n");
  EXPECT_NE(msg.find("2:12: error: 'b' is used before its definition"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("3:1: note: defined here"), std::string::npos) << msg;
  msg = parseError("input x: f32[1]\na = relu(a)\noutput a\n");
  EXPECT_NE(msg.find("'a' is used before its definition"), std::string::npos)
      << msg;
}

TEST(GraphParserTest, MissingOutput) {
  std::string msg = parseError("input x: f32[1]\ny = relu(x)\n");
  EXPECT_NE(msg.find("error: the graph has no 'output' statement"),
            std::string::npos)
      << msg;
}

TEST(GraphParserTest, SyntaxAndDimensionErrors) {
  EXPECT_NE(parseError("input x: f32[M]\noutput x\n")
                .find("1:14: error: undefined dimension 'M'"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f64[1]\noutput x\n")
                .find("error: expected the element type 'f32'"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f32[1]\ny = relu(x\noutput y\n")
                .find("error: expected ',' or ')' in the argument list"),
            std::string::npos);
  EXPECT_NE(
      parseError("input x: f32[1]\n$\n").find("2:1: error: unexpected '$'"),
      std::string::npos);
  EXPECT_NE(parseError("dim N = 0\ninput x: f32[N]\noutput x\n")
                .find("error: dimension default must be a positive integer"),
            std::string::npos);
}

TEST(GraphParserTest, MoreSyntaxErrors) {
  EXPECT_NE(
      parseError("input x: f32[1]\ny = maxpool2d(kernel=2, x)\noutput y\n")
          .find("2:25: error: operands must come before attributes"),
      std::string::npos);
  EXPECT_NE(parseError("input output: f32[1]\noutput output\n")
                .find("1:7: error: 'output' is a keyword, not a value name"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f32[1,1,4,4]\ny = maxpool2d(x, kernel=k)\n"
                       "output y\n")
                .find("error: expected a number as the value of attribute "
                      "'kernel'"),
            std::string::npos);
  EXPECT_NE(parseError("dim N = 1\ndim N = 2\ninput x: f32[N]\noutput x\n")
                .find("2:5: error: redefinition of dimension 'N'"),
            std::string::npos);
  EXPECT_NE(parseError("input x: f32[1, 3x]\noutput x\n")
                .find("1:17: error: expected a dimension (an integer or a "
                      "dimension name)"),
            std::string::npos);
}

TEST(GraphParserTest, MissingFileIsAPlainError) {
  auto graph = parseGraphFile("/nonexistent/dir/model.graph");
  ASSERT_FALSE(bool(graph));
  EXPECT_NE(llvm::toString(graph.takeError()).find("cannot read graph"),
            std::string::npos);
}

} // namespace
