"""Shared fixtures: every test session compiles into its own private cache directory, and
verifies the IR after tracing and after every optimization pass (SYMGRAD_CHECK=1)."""

import os
import shutil
import tempfile
import zlib

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


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Each test draws from its module's NumPy generators (``R``, ``RNG``...) as if it ran
    alone: they are seeded afresh from the test's id before its fixtures are made, so its
    numbers do not depend on which tests ran before it on the same worker (pytest-xdist
    hands tests to workers in an order that changes from run to run)."""
    module = getattr(item, "module", None)
    if module is None:
        return
    seed = zlib.crc32(item.nodeid.encode())
    for name, value in list(vars(module).items()):
        if isinstance(value, np.random.Generator):
            setattr(module, name, np.random.default_rng(seed))


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


@pytest.fixture
def thread_count():
    """For a test that sets symgrad's thread count (``sg.set_num_threads``): the setting
    it found is restored after it."""
    from symgrad import config
    before = config.settings.num_threads
    yield
    config.settings.num_threads = before
