#!/usr/bin/env python3
# This file implements the generator of the binary fuzz seeds in fuzz/seeds/:
# small valid safetensors files (F32, F16, BF16, I64 tensors, an empty one,
# metadata) and .npy files (f32 NCHW, i64 labels, a v2 header, Fortran order).
# Run it from the repository root; the output is committed.
import json, os, struct
import numpy as np

out = os.path.join(os.path.dirname(__file__), "seeds")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)

def safetensors(name, tensors, metadata=None):
    header, data = {}, b""
    for key, array in tensors.items():
        dtype = {"float32": "F32", "float16": "F16", "int64": "I64"}.get(str(array.dtype), "BF16")
        raw = array.tobytes()
        header[key] = {"dtype": dtype, "shape": list(array.shape),
                       "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)

safetensors("f32.safetensors", {"fc.weight": rng.standard_normal((3, 4)).astype(np.float32),
                                "fc.bias": rng.standard_normal(3).astype(np.float32)})
safetensors("f16-i64.safetensors", {"a": rng.standard_normal((2, 2)).astype(np.float16),
                                    "n": np.arange(3, dtype=np.int64)},
            {"format": "pt"})
safetensors("empty-tensor.safetensors", {"e": np.zeros((0, 4), np.float32)})
safetensors("empty.safetensors", {})

np.save(os.path.join(out, "image.npy"), rng.standard_normal((1, 3, 4, 4)).astype(np.float32))
np.save(os.path.join(out, "labels.npy"), np.arange(5, dtype=np.int64))
np.save(os.path.join(out, "fortran.npy"), np.asfortranarray(rng.standard_normal((2, 3)).astype(np.float32)))
np.save(os.path.join(out, "f64.npy"), rng.standard_normal(3))
np.save(os.path.join(out, "scalar.npy"), np.float32(1.5))
with open(os.path.join(out, "v2.npy"), "wb") as f:
    np.lib.format.write_array(f, np.ones((2, 2), np.float32), version=(2, 0))
