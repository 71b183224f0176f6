#!/usr/bin/env python3
"""Checks that the portable binaries' text is laid out in the order of
cmake/portable-symbol-order.tar.xz: the first FIRST ordered functions that a
binary has must all lie in the first SPAN bytes of its text. Without the
order (lld did not get or did not read the file) they are spread over the
whole text, tens of MB.

    check_symbol_order.py ORDER_TXT BINARY... [--first 200] [--span 4194304]
"""

import argparse
import subprocess
import sys


def text_symbols(binary):
    """{name: address} of the binary's functions (nm, no demangling)."""
    out = subprocess.run(["nm", "--defined-only", binary], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        sys.exit(f"check_symbol_order: nm {binary}: {out.stderr.strip()}")
    symbols = {}
    for line in out.stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tT":
            symbols.setdefault(fields[2], int(fields[0], 16))
    return symbols


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("order")
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--first", type=int, default=200)
    parser.add_argument("--span", type=int, default=4 << 20)
    args = parser.parse_args()
    with open(args.order) as f:
        order = [line.strip() for line in f if line.strip()]
    failed = False
    for binary in args.binaries:
        symbols = text_symbols(binary)
        if not symbols:
            sys.exit(f"check_symbol_order: {binary} has no function symbols")
        start = min(symbols.values())
        found = [(name, symbols[name]) for name in order if name in symbols][:args.first]
        if len(found) < args.first:
            print(f"FAIL: {binary}: only {len(found)} of the order's functions are in it")
            failed = True
            continue
        far = [(name, address - start) for name, address in found if address - start >= args.span]
        spread = max(address for _, address in found) - start
        if far:
            print(f"FAIL: {binary}: {len(far)} of the first {args.first} ordered functions lie "
                  f"past {args.span} bytes into the text (e.g. {far[0][0]} at +{far[0][1]})")
            failed = True
        else:
            print(f"ok: {binary}: the first {args.first} ordered functions within "
                  f"{spread} bytes of the text's start")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
