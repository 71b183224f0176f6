#!/usr/bin/env python3
"""Runs torchvision's ResNet18 in ONNX Runtime: an independent reference.

This file implements the ONNX cross-check of mgp-run: it builds ResNet18 as an
ONNX model with the `onnx` helper API (Conv, BatchNormalization, Relu,
MaxPool, Add, GlobalAveragePool, Flatten, Gemm; nothing from mgp's graph
code) from a safetensors file with torchvision's parameter names, runs it with
ONNX Runtime on the CPU on a float32 NCHW .npy batch, and writes the logits
as a float32 .npy. The number of classes comes from `fc.weight`.

    onnx_reference.py --weights w.safetensors --input x.npy --output y.npy
                      [--save-model resnet18.onnx]
"""

import argparse
import sys

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file

# (layer, number of blocks, stride of its first block)
LAYERS = [("layer1", 2, 1), ("layer2", 2, 2), ("layer3", 2, 2), ("layer4", 2, 2)]


class Builder:
    """Collects nodes and initializers, checking every weight is present."""

    def __init__(self, weights):
        self.weights = weights
        self.nodes = []
        self.initializers = []
        self.used = set()

    def param(self, name):
        if name not in self.weights:
            sys.exit(f"onnx_reference.py: error: weights have no '{name}'")
        if name not in self.used:
            self.used.add(name)
            array = np.ascontiguousarray(self.weights[name], dtype=np.float32)
            self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op, inputs, output, **attrs):
        self.nodes.append(helper.make_node(op, inputs, [output], name=output, **attrs))
        return output

    def conv_bn(self, x, conv, bn, stride, padding, relu):
        weight = self.param(conv + ".weight")
        kernel = self.weights[weight].shape[2]
        y = self.node("Conv", [x, weight], conv,
                      kernel_shape=[kernel, kernel], strides=[stride, stride],
                      pads=[padding] * 4)
        y = self.node("BatchNormalization",
                      [y] + [self.param(f"{bn}.{p}") for p in
                             ("weight", "bias", "running_mean", "running_var")],
                      bn, epsilon=1e-5)
        return self.node("Relu", [y], bn + ".relu") if relu else y


def build_model(weights):
    b = Builder(weights)
    y = b.conv_bn("x", "conv1", "bn1", 2, 3, relu=True)
    y = b.node("MaxPool", [y], "maxpool", kernel_shape=[3, 3], strides=[2, 2],
               pads=[1, 1, 1, 1])
    for layer, blocks, first_stride in LAYERS:
        for i in range(blocks):
            p = f"{layer}.{i}"
            stride = first_stride if i == 0 else 1
            out = b.conv_bn(y, p + ".conv1", p + ".bn1", stride, 1, relu=True)
            out = b.conv_bn(out, p + ".conv2", p + ".bn2", 1, 1, relu=False)
            shortcut = y
            if p + ".downsample.0.weight" in weights:
                shortcut = b.conv_bn(y, p + ".downsample.0", p + ".downsample.1",
                                     stride, 0, relu=False)
            out = b.node("Add", [out, shortcut], p + ".add")
            y = b.node("Relu", [out], p + ".relu")
    y = b.node("GlobalAveragePool", [y], "avgpool")
    y = b.node("Flatten", [y], "flatten", axis=1)
    b.node("Gemm", [y, b.param("fc.weight"), b.param("fc.bias")], "logits",
           transB=1)
    classes = weights["fc.weight"].shape[0]
    graph = helper.make_graph(
        b.nodes, "resnet18",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["N", 3, "H", "W"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                       ["N", classes])],
        b.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def run_model(model, x):
    options = onnxruntime.SessionOptions()
    # No graph rewrites (fusions may reassociate): plain operator semantics.
    options.graph_optimization_level = (
        onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL)
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(["logits"], {"x": x})[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", required=True, help="torchvision-named .safetensors")
    parser.add_argument("--input", required=True, help="float32 NCHW .npy")
    parser.add_argument("--output", required=True, help="logits .npy to write")
    parser.add_argument("--save-model", help="also write the .onnx model")
    args = parser.parse_args()

    weights = load_file(args.weights)
    x = np.load(args.input)
    if x.dtype != np.float32 or x.ndim != 4 or x.shape[1] != 3:
        sys.exit(f"onnx_reference.py: error: {args.input}: expected float32 "
                 f"[N, 3, H, W], got {x.dtype} {list(x.shape)}")
    model = build_model(weights)
    if args.save_model:
        onnx.save(model, args.save_model)
    logits = run_model(model, np.ascontiguousarray(x))
    np.save(args.output, logits.astype(np.float32))
    print(f"onnxruntime {onnxruntime.__version__}: logits {list(logits.shape)} "
          f"-> {args.output}")


if __name__ == "__main__":
    main()
