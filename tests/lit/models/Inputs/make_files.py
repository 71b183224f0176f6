"""Writes the input files of the mgp-run lit tests into a directory.

Good and corrupt .safetensors weights for Inputs/tiny.graph, good and bad
.npy inputs and labels, a corrupt PNG and class-name files. Only the Python
standard library is used, so the tests need no numpy.
"""
import json
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def safetensors(tensors, header_len=None, raw_header=None):
    """tensors: list of (name, dtype, shape, data bytes or (begin, end))."""
    header, blobs, offset = {}, b"", 0
    for name, dtype, shape, data in tensors:
        if isinstance(data, tuple):
            header[name] = {"dtype": dtype, "shape": shape, "data_offsets": list(data)}
            continue
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [offset, offset + len(data)]}
        blobs += data
        offset += len(data)
    text = raw_header if raw_header is not None else json.dumps(header).encode()
    length = len(text) if header_len is None else header_len
    return struct.pack("<Q", length) + text + blobs


def f32(count, scale=0.1):
    return struct.pack("<%df" % count, *[scale * ((i * 7) % 11 - 5) for i in range(count)])


def f16(count):
    # 0.25 * ((i % 5) - 2) as half floats
    halves = {-2: 0xB800, -1: 0xB400, 0: 0x0000, 1: 0x3400, 2: 0x3800}
    return struct.pack("<%dH" % count, *[halves[(i % 5) - 2] for i in range(count)])


good = [("conv.weight", "F32", [2, 3, 3, 3], f32(54)),
        ("fc.weight", "F32", [4, 2], f32(8)),
        ("fc.bias", "F32", [4], f32(4))]
write("good.safetensors", safetensors(good))
write("ten-classes.safetensors", safetensors(
    [good[0], ("fc.weight", "F32", [10, 2], f32(20)), ("fc.bias", "F32", [10], f32(10))]))
write("f16.safetensors", safetensors(
    [("conv.weight", "F16", [2, 3, 3, 3], f16(54)), ("fc.weight", "BF16", [4, 2], f16(8)),
     ("fc.bias", "F16", [4], f16(4))]))
write("truncated.safetensors", b"abc")
write("header-past-eof.safetensors", safetensors([], header_len=1000, raw_header=b"{}"))
write("bad-json.safetensors", safetensors([], raw_header=b'{"conv.weight": {"dtype": '))
write("out-of-range.safetensors", safetensors(
    [("conv.weight", "F32", [2, 3, 3, 3], (0, 216))] + good[1:]))
write("overlap.safetensors", safetensors(
    [("conv.weight", "F32", [2, 3, 3, 3], f32(54)), ("fc.weight", "F32", [4, 2], (200, 232)),
     ("fc.bias", "F32", [4], f32(4))]))
write("missing.safetensors", safetensors(good[:2]))
write("wrong-shape.safetensors", safetensors(
    [("conv.weight", "F32", [2, 3, 5, 5], f32(150))] + good[1:]))
write("wrong-dtype.safetensors", safetensors(
    [("conv.weight", "I32", [2, 3, 3, 3], f32(54))] + good[1:]))
write("size-mismatch.safetensors", safetensors(
    [("conv.weight", "F32", [2, 3, 3, 3], f32(50))] + good[1:]))


def npy(descr, shape, data, fortran=False):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False",
        "".join("%d," % d for d in shape) if len(shape) == 1 else ", ".join(map(str, shape)))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


write("x2.npy", npy("<f4", [2, 3, 8, 8], f32(384, 0.5)))
write("x-f64.npy", npy("<f8", [1, 3, 8, 8], b"\0" * 1536))
write("x-fortran.npy", npy("<f4", [1, 3, 8, 8], f32(192), fortran=True))
write("x-rank3.npy", npy("<f4", [3, 8, 8], f32(192)))
write("x-truncated.npy", npy("<f4", [1, 3, 8, 8], f32(10)))
write("x-1ch.npy", npy("<f4", [1, 1, 8, 8], f32(64)))
write("labels2.npy", npy("<i8", [2], struct.pack("<2q", 1, 2)))
write("labels3.npy", npy("<i8", [3], struct.pack("<3q", 1, 2, 3)))
write("labels-f4.npy", npy("<f4", [2], f32(2)))
write("bad.png", b"\x89PNG\r\n\x1a\n but not really a png")
write("names3.txt", b"cat\ndog\nbird\n")
write("names4.txt", b"cat\ndog\nbird\nfish\n")


def png(width, height, seed):
    """An 8-bit RGB PNG with a colour gradient, written with zlib alone."""
    import zlib
    rows = b""
    for y in range(height):
        rows += b"\0" + bytes((x * 5 + y * 3 + c * seed) % 256
                              for x in range(width) for c in range(3))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


write("a.png", png(40, 30, 7))
write("b.png", png(24, 48, 11))
