#!/usr/bin/env python3
"""Runs a command and checks both its exit status and its output.

ctest's PASS_REGULAR_EXPRESSION ignores the exit status, so a program that
prints the expected text and then crashes would pass. This wrapper prints the
command's output (stdout and stderr, interleaved as written) and fails unless
the status is the expected one and the output matches every regular
expression (Python syntax, `.` also matching newlines).

Usage: expect_output.py [--status N | --error] [--match REGEX]... -- CMD ARG...
  --status N   the exit status the command must end with (default 0)
  --error      the command must fail as a program reports an error: a status
               from 1 to 125, never a signal (a crash) or 126-255
  --match RE   a regular expression the output must contain (repeatable)
  --reject RE  a regular expression the output must not contain (repeatable)
"""
import argparse
import re
import signal
import subprocess
import sys


def describe(status):
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"killed by {name}"
    return f"exit status {status}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--status", type=int, default=None)
    parser.add_argument("--error", action="store_true")
    parser.add_argument("--match", action="append", default=[])
    parser.add_argument("--reject", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command after --")
    if args.error and args.status is not None:
        parser.error("--status and --error exclude each other")

    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    output = result.stdout.decode("utf-8", "replace")
    sys.stdout.write(output)
    failures = []
    status = result.returncode
    if args.error:
        if not 1 <= status <= 125:
            failures.append(f"expected an error exit (1-125), got "
                            f"{describe(status)}")
    else:
        want = 0 if args.status is None else args.status
        if status != want:
            failures.append(f"expected exit status {want}, got "
                            f"{describe(status)}")
    for pattern in args.match:
        if not re.search(pattern, output, re.S):
            failures.append(f"output does not match: {pattern}")
    for pattern in args.reject:
        if re.search(pattern, output, re.S):
            failures.append(f"output matches what it must not: {pattern}")
    for failure in failures:
        print(f"expect_output: FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
