#!/usr/bin/env python3
"""Turns tools/bench_vs_torch.py's JSON lines into markdown tables and a plot.

Reads one or more results files (one JSON record per line: a "meta" record
per run, then one "measurement" record per (system, batch, precision); when
the same measurement appears twice, the later one wins) and prints:

1. at --batch (default 128): one row per precision, the ms per batch of every
   system and the ratio system ms / mgp ms (above 1: mgp is faster, in bold);
2. at --batch, the details: images/s, compile or start-up time, top-1
   agreement and max relative error against PyTorch fp32 (TF32 off) and
   float64, each computed from the outputs of the timed runs;
3. per precision with more than one batch, images/s per system and batch.

A measurement that failed, ran past its cap or was skipped stays in the
tables with its status, never dropped. --plot writes a PNG of images/s
against the batch (log-log, one panel per precision; needs matplotlib).

    bench_report.py results.jsonl [more.jsonl ...] [--batch 128]
                    [--markdown out.md] [--plot sweep.png] [--all-details]

Needs only the Python standard library (and matplotlib for --plot). Exit
status 2 when a file cannot be read or holds no measurement.
"""

import argparse
import json
import sys

PROG = "bench_report.py"
# Display order and names of the systems of tools/bench_vs_torch.py.
SYSTEMS = ("mgp", "eager", "eager-graph", "compile", "max-autotune")
LABELS = {
    "mgp": "mgp",
    "eager": "eager",
    "eager-graph": "eager + CUDA graph",
    "compile": "torch.compile default",
    "max-autotune": "max-autotune + freezing",
}
PRECISIONS = ("fp32", "tf32", "fp16", "bf16")


def fail(message, status=2):
    print(f"{PROG}: error: {message}", file=sys.stderr)
    sys.exit(status)


def load(paths):
    """(meta records, {(system, batch, precision): measurement record})."""
    metas, records = [], {}
    for path in paths:
        try:
            with open(path) as f:
                lines = f.readlines()
        except OSError as e:
            fail(f"cannot read {path}: {e.strerror}")
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                # The last line of a run cut short may be partial: skip it.
                if number == len(lines):
                    print(f"{PROG}: warning: {path}:{number}: partial last line skipped",
                          file=sys.stderr)
                    continue
                fail(f"{path}:{number}: not JSON ({e.msg})")
            if rec.get("kind") == "meta":
                metas.append(rec)
            elif rec.get("kind") == "measurement":
                key = (rec["system"], int(rec["batch"]), rec["precision"])
                records[key] = rec
    if not records:
        fail(f"no measurement in {', '.join(paths)}")
    return metas, records


def present(records, index):
    """The systems, batches or precisions (index 0, 1, 2) in the records, ordered."""
    values = {key[index] for key in records}
    if index == 0:
        return [s for s in SYSTEMS if s in values] + sorted(values - set(SYSTEMS))
    if index == 2:
        return [p for p in PRECISIONS if p in values] + sorted(values - set(PRECISIONS))
    return sorted(values)


def ok(rec):
    return rec is not None and rec.get("status") == "ok" and rec.get("median_ms")


def status_text(rec):
    """What a table shows instead of a time: failed, over the cap, skipped."""
    if rec is None:
        return "-"
    status = rec.get("status", "?")
    if status == "timeout":
        return f"timeout ({rec.get('cap_s', 0):.0f} s cap)"
    if status == "ok":
        return "no time"
    return status


def short(text, limit=90):
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def fmt_err(value):
    return "-" if value is None else f"{value:.1e}"


def fmt_ratio(value):
    text = f"{value:.2f}"
    return f"**{text}**" if value > 1.0 else text


def fmt_compile(rec):
    if rec is None or rec.get("compile_s") is None:
        return "-"
    text = f"{rec['compile_s']:.2f}" if rec["compile_s"] < 10 else f"{rec['compile_s']:.0f}"
    if rec.get("warm_start_s") is not None:
        text = f"cold {text}, warm {rec['warm_start_s']:.2f}"
    return text


def fmt_rate(rec):
    if not ok(rec):
        return status_text(rec)
    rate = rec["batch"] * 1e3 / rec["median_ms"]
    return f"{rate:,.0f} ({rec['median_ms']:.3f} ms)"


def table_ratios(records, batch):
    """One row per precision: ms per batch of every system, ratio to mgp."""
    systems = present(records, 0)
    others = [s for s in systems if s != "mgp"]
    head = ["precision"] + (["mgp ms"] if "mgp" in systems else []) + \
        [f"{LABELS.get(s, s)} ms (/ mgp)" for s in others]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for p in present(records, 2):
        if not any(k[1] == batch and k[2] == p for k in records):
            continue
        mgp = records.get(("mgp", batch, p))
        row = [p]
        if "mgp" in systems:
            row.append(f"{mgp['median_ms']:.3f}" if ok(mgp) else status_text(mgp))
        for s in others:
            rec = records.get((s, batch, p))
            if not ok(rec):
                row.append(status_text(rec))
            elif ok(mgp):
                row.append(f"{rec['median_ms']:.3f} ({fmt_ratio(rec['median_ms'] / mgp['median_ms'])})")
            else:
                row.append(f"{rec['median_ms']:.3f}")
        lines.append("| " + " | ".join(row) + " |")
    return lines


def table_details(records, batch):
    """One row per (precision, system) at `batch`."""
    head = ["precision", "system", "ms/batch", "images/s", "ms / mgp ms", "compile s",
            "top-1 vs fp32", "max rel err vs fp32", "vs fp64", "notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for p in present(records, 2):
        mgp = records.get(("mgp", batch, p))
        for s in present(records, 0):
            rec = records.get((s, batch, p))
            if rec is None:
                continue
            notes = [rec["layout"]] if rec.get("layout") else []
            if rec.get("status") != "ok" and rec.get("error"):
                notes.append(short(rec["error"]))
            if rec.get("notes"):
                notes.append(short(rec["notes"]))
            if ok(rec):
                ms = f"{rec['median_ms']:.3f}"
                rate = f"{batch * 1e3 / rec['median_ms']:,.0f}"
                ratio = (fmt_ratio(rec["median_ms"] / mgp["median_ms"])
                         if ok(mgp) and s != "mgp" else "-")
            else:
                ms, rate, ratio = status_text(rec), "-", "-"
            top1 = (f"{rec['top1']}/{rec.get('top1_of', batch)}"
                    if rec.get("top1") is not None else "-")
            lines.append("| " + " | ".join([
                p, LABELS.get(s, s), ms, rate, ratio, fmt_compile(rec), top1,
                fmt_err(rec.get("rel_err_fp32")), fmt_err(rec.get("rel_err_fp64")),
                "; ".join(notes) or ""]) + " |")
    return lines


def table_sweep(records, precision):
    """images/s (ms per batch) per batch and system at `precision`."""
    systems = present(records, 0)
    batches = [b for b in present(records, 1)
               if any(k[1] == b and k[2] == precision for k in records)]
    head = ["batch"] + [LABELS.get(s, s) for s in systems]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for b in batches:
        row = [str(b)] + [fmt_rate(records.get((s, b, precision))) for s in systems]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def describe(metas):
    """One line per run: device, versions, commit, settings."""
    out = []
    for m in metas:
        out.append(
            f"Run of {m.get('time', '?')}: {m.get('device', '?')}, torch {m.get('torch', '?')}, "
            f"mgp {m.get('git', '?')}; ResNet18 3x{m.get('size', '?')}x{m.get('size', '?')}, "
            f"seed {m.get('seed', '?')}, medians of {m.get('runs', '?')} runs after "
            f"{m.get('warmup', '?')} warm-up; command: `{m.get('command', '?')}`")
    return out


def render(metas, records, batch, all_details=False):
    out = []
    out += describe(metas)
    batches = present(records, 1)
    if batch in batches:
        out += ["", f"ResNet18 at batch {batch}, ms per batch (median); in brackets PyTorch ms / "
                f"mgp ms (above 1, in bold: mgp is faster):", ""]
        out += table_ratios(records, batch)
    for b in (batches if all_details else [batch] if batch in batches else []):
        out += ["", f"Batch {b}: details (compile s: torch.compile's first call, eager's first "
                f"call, the CUDA graph's warm-up and capture, mgp-run's process wall with an "
                f"empty cache and again warm):", ""]
        out += table_details(records, b)
    for p in present(records, 2):
        if len([b for b in batches if any(k[1] == b and k[2] == p for k in records)]) > 1:
            out += ["", f"{p}: images/s (ms per batch) by batch:", ""]
            out += table_sweep(records, p)
    return "\n".join(out) + "\n"


def plot(metas, records, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        fail(f"--plot needs matplotlib ({e}); pip install matplotlib")
    precisions = [p for p in present(records, 2)
                  if len({k[1] for k in records if k[2] == p}) > 1]
    if not precisions:
        fail("--plot needs a precision measured at more than one batch")
    fig, axes = plt.subplots(1, len(precisions), figsize=(6 * len(precisions), 4.5),
                             squeeze=False)
    markers = dict(zip(SYSTEMS, "os^Dv"))
    colors = dict(zip(SYSTEMS, ("C3", "C0", "C1", "C2", "C4")))
    for ax, p in zip(axes[0], precisions):
        batches = sorted({k[1] for k in records if k[2] == p})
        for s in present(records, 0):
            recs = [(b, records.get((s, b, p))) for b in batches]
            recs = [(b, r) for b, r in recs if r is not None]
            if not recs:
                continue
            good = [(b, b * 1e3 / r["median_ms"]) for b, r in recs if ok(r)]
            bad = [f"batch {b}: {status_text(r)}" for b, r in recs if not ok(r)]
            label = LABELS.get(s, s) + (f" ({'; '.join(bad)})" if bad else "")
            xs, ys = [g[0] for g in good], [g[1] for g in good]
            ax.plot(xs, ys, marker=markers.get(s, "o"), label=label, color=colors.get(s),
                    linewidth=2.5 if s == "mgp" else 1.5)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(batches)
        ax.set_xticklabels([str(b) for b in batches])
        ax.set_xlabel("batch")
        ax.set_ylabel("images/s (median)")
        ax.set_title(f"ResNet18 {p}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    device = metas[0].get("device") if metas else None
    if device:
        fig.suptitle(f"{device}, torch {metas[0].get('torch', '?')}, mgp {metas[0].get('git', '?')}",
                     fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", help="JSON lines of bench_vs_torch.py --json")
    parser.add_argument("--batch", type=int, default=128, help="batch of the ratio table")
    parser.add_argument("--markdown", help="also write the tables here")
    parser.add_argument("--plot", help="write images/s against the batch to this PNG")
    parser.add_argument("--all-details", action="store_true",
                        help="the details table at every batch, not only --batch")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    metas, records = load(args.results)
    text = render(metas, records, args.batch, args.all_details)
    sys.stdout.write(text)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(text)
    if args.plot:
        plot(metas, records, args.plot)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
