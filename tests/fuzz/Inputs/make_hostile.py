"""Writes the hostile weight files of tests/fuzz into a directory.

For tests/lit/models/Inputs/tiny.graph: the same F32 weights once with the
data aligned and once misaligned (an odd header length and every tensor at
an offset of 2 modulo 4), and a header length of 2^64 - 1. Standard library
only.
"""
import json
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
SHAPES = [("conv.weight", [2, 3, 3, 3]), ("fc.weight", [4, 2]), ("fc.bias", [4])]


def values(count, salt):
    return [0.05 * (((i + salt) * 7) % 13 - 6) for i in range(count)]


def weights(shift, pad_header):
    header, blob = {}, b"\0" * shift
    for salt, (name, shape) in enumerate(SHAPES):
        count = 1
        for d in shape:
            count *= d
        data = struct.pack("<%df" % count, *values(count, salt))
        header[name] = {"dtype": "F32", "shape": shape,
                        "data_offsets": [len(blob), len(blob) + len(data)]}
        blob += data
    text = json.dumps(header).encode()
    text += b" " * pad_header
    return struct.pack("<Q", len(text)) + text + blob


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


write("aligned.safetensors", weights(0, 0))
write("misaligned.safetensors", weights(2, 3))
write("oversized-header.safetensors",
      struct.pack("<Q", 2**64 - 1) + b'{"a": {}}' + b"\0" * 16)
write("header-longer-than-int32.safetensors",
      struct.pack("<Q", 2**31 + 5) + b"{}")
