"""Shared fixtures: every test session compiles into its own private cache directory, and
verifies the IR after tracing and after every optimization pass (SYMGRAD_CHECK=1)."""

import os
import shutil
import tempfile

import numpy as np
import pytest

os.environ.setdefault("SYMGRAD_CHECK", "1")
_OWN_CACHE = None
if "SYMGRAD_CACHE_DIR" not in os.environ:
    _OWN_CACHE = os.environ["SYMGRAD_CACHE_DIR"] = tempfile.mkdtemp(prefix="symgrad-test-cache-")


def pytest_sessionfinish(session, exitstatus):
    """Remove the session's own cache directory (tens of MB of compiled modules); one that
    the caller chose through SYMGRAD_CACHE_DIR is left alone."""
    if _OWN_CACHE is not None:
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


@pytest.fixture
def builds(monkeypatch):
    """The number of C builds (one per compile, shape-generic or not) since the test
    started."""
    from symgrad import pipeline
    count = [0]
    real = pipeline._build

    def counting(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(pipeline, "_build", counting)
    return count
