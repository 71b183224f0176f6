"""The harness of the Triton kernel suite: registry, launchers, comparison."""
