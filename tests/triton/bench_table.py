#!/usr/bin/env python3
"""Joins the --bench JSON of a Triton run and of an mgp run of
run_suite.py into one markdown table.

    bench_table.py TRITON.json MGP.json [--out FILE] [--title TEXT]

One row per (case, shape): mgp's result (PASS/FAIL/SKIP, against the
reference and, with --against, Triton's outputs), its error note, Triton's
and mgp's median microseconds and the speed ratio Triton / mgp (above 1:
mgp is faster); then the geometric mean of the ratios over the rows timed
on both sides, and the counts. Rows Triton did not pass are marked.
"""

import argparse
import json
import math
import sys


def load(path):
    with open(path) as f:
        data = json.load(f)
    rows = {(r["case"], r["shape"]): r for r in data["results"]}
    return data, rows


def fmt_us(value):
    if value is None:
        return ""
    return f"{value:.1f}" if value < 1000 else f"{value:.0f}"


def table(triton_path, mgp_path, title=None):
    tdata, trows = load(triton_path)
    mdata, mrows = load(mgp_path)
    keys = list(mrows) + [k for k in trows if k not in mrows]
    lines = [f"## {title or 'Triton kernel suite: mgp against Triton'}", "",
             f"Triton: {tdata['launcher']} on {tdata['device']}; mgp: {mdata['launcher']} on "
             f"{mdata['device']}; median of {mdata['reps']} timed calls after "
             f"{mdata.get('warmup', '?')} warm-up calls"
             + (f" and {mdata['warmup_ms']:g} ms of warm-up" if "warmup_ms" in mdata else "")
             + (", Triton and mgp timed alternately, call by call, in one process"
                if tdata.get("paired") or mdata.get("paired") else "")
             + ", microseconds (CUDA events, L2 flushed "
             "before each call). Ratio = Triton / mgp (above 1: mgp is faster).", "",
             "| case | shape | mgp result | error / note | Triton us | mgp us | Triton/mgp |",
             "|---|---|---|---|---|---|---|"]
    ratios, counts = [], {}
    for key in keys:
        t, m = trows.get(key), mrows.get(key)
        result = m["result"] if m else "not run"
        counts[result] = counts.get(result, 0) + 1
        note = (m or {}).get("note", "") or ""
        if t is not None and t["result"] != "PASS":
            note = f"Triton {t['result']}: {t.get('note', '')}; " + note
        t_us = t.get("us") if t else None
        m_us = m.get("us") if m else None
        ratio = ""
        if t_us and m_us:
            ratios.append(t_us / m_us)
            ratio = f"{t_us / m_us:.2f}"
        note = " ".join(note.split()).replace("|", "\\|")[:160]
        err = (m or {}).get("max_err", "")
        lines.append(f"| {key[0]} | {key[1]} | {result} | {err + ' ' if err else ''}{note} | "
                     f"{fmt_us(t_us)} | {fmt_us(m_us)} | {ratio} |")
    geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None
    lines += ["", f"{len(keys)} (case, shape) rows: " +
              ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) + "; " +
              (f"geometric mean of Triton/mgp over the {len(ratios)} rows timed on both sides: "
               f"**{geomean:.3f}**" if geomean else "no row timed on both sides") + "."]
    return "\n".join(lines) + "\n", geomean


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("triton_json")
    parser.add_argument("mgp_json")
    parser.add_argument("--out", help="write the markdown here as well")
    parser.add_argument("--title")
    args = parser.parse_args(argv)
    text, _ = table(args.triton_json, args.mgp_json, args.title)
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
