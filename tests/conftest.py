"""Shared fixtures: every test session compiles into its own private cache directory, and
verifies the IR after tracing and after every optimization pass (SYMGRAD_CHECK=1)."""

import os
import tempfile

import numpy as np
import pytest

os.environ.setdefault("SYMGRAD_CHECK", "1")
if "SYMGRAD_CACHE_DIR" not in os.environ:
    os.environ["SYMGRAD_CACHE_DIR"] = tempfile.mkdtemp(prefix="symgrad-test-cache-")


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
