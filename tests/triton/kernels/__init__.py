"""Triton kernels written in the styles of public Triton code, each file one
family with its host launchers (tests/triton/cases/ holds their tests)."""
