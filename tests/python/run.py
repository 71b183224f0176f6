"""Runs one test module of tests/python with unittest, for ctest.

Exit status: 0 when every test passed (skips are listed with their reasons),
1 on any failure or error, 77 (ctest's SKIP_RETURN_CODE) when the module
could not run at all for a stated reason - a missing package or no GPU -
raised as unittest.SkipTest at import, or when every test was skipped.
"""
import os
import sys
import unittest

SKIPPED = 77


def main():
    name = sys.argv[1]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    try:
        module = __import__(name)
    except unittest.SkipTest as e:
        print(f"skipped: {e}")
        return SKIPPED
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    for test, reason in result.skipped:
        print(f"skipped {test.id()}: {reason}")
    if not result.wasSuccessful():
        return 1
    if result.testsRun and len(result.skipped) == result.testsRun:
        print(f"skipped: all {result.testsRun} tests of {name} were skipped")
        return SKIPPED
    if result.testsRun == 0:
        print(f"{name} has no tests")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
