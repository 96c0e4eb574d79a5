"""Resources (issue 5, item 6): calling a compiled gradient in a loop leaks nothing, and the
per-call workspace is allocated once per specialization and thread, never per call.

`make bench-memory` runs the long version (10^6 calls) and the peak-memory comparison.
"""

from __future__ import annotations

import gc
import sys
import threading
import tracemalloc

import numpy as np
import pytest
from references import elementwise, elementwise_numpy

import symgrad as sg


def seed(x):
    return (3 * (x + 2) ** 2).mean()


def rss_kib() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc/self/status")


def test_python_allocations_do_not_grow_over_many_calls():
    f = sg.value_and_grad(seed)
    x = np.full((2, 2), 0.5, np.float32)
    for _ in range(2000):
        f(x)
    gc.collect()
    tracemalloc.start()
    try:
        start, _ = tracemalloc.get_traced_memory()
        for _ in range(20_000):
            value, grad = f(x)
        del value, grad
        gc.collect()
        end, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Nothing per call survives it: the growth is noise, far below one byte per call.
    assert end - start < 4096, f"{end - start} bytes kept after 20,000 calls"


@linux_only
def test_resident_memory_stays_flat_over_many_calls():
    f = sg.value_and_grad(seed)
    x = np.full((2, 2), 0.5, np.float32)
    for _ in range(10_000):
        f(x)
    before = rss_kib()
    for _ in range(200_000):
        f(x)
    growth = rss_kib() - before
    assert growth < 512, f"resident memory grew {growth} KiB over 200,000 calls"


@linux_only
def test_pooled_outputs_are_reused_when_dropped():
    f = sg.value_and_grad(elementwise, argnums=(0, 1))
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-2, 2, 200_000), rng.uniform(-2, 2, 200_000)   # 1.6 MB per gradient
    for _ in range(5):
        f(x, y)
    before = rss_kib()
    for _ in range(300):
        _, (_, dy) = f(x, y)
    growth = rss_kib() - before
    # 300 calls x 3.2 MB of outputs = 960 MB if nothing were reused; allow one call's worth.
    assert growth < 4 * 1024, f"resident memory grew {growth} KiB over 300 calls"
    np.testing.assert_allclose(dy, elementwise_numpy(x, y)[2], rtol=1e-12)


def test_workspace_is_allocated_once_per_specialization_and_thread():
    @sg.compile
    def chain(a, b, c):
        # matmuls whose temporaries live in the workspace
        return sg.tanh(sg.matmul(sg.tanh(sg.matmul(a, b)), c)).sum()

    rng = np.random.default_rng(1)
    a, b, c = (rng.standard_normal((32, 32)) for _ in range(3))
    expected = np.tanh(np.tanh(a @ b) @ c).sum()
    assert np.isclose(chain(a, b, c), expected, rtol=1e-12)
    spec = chain.last_specialization
    assert spec.workspace_bytes > 1, "this program should need a workspace"
    first = spec.workspace
    for _ in range(100):
        chain(a, b, c)
    assert spec.workspace is first

    seen = {}

    def other_thread():
        chain(a, b, c)
        seen["array"] = spec.workspace
        for _ in range(10):
            chain(a, b, c)
        seen["same"] = spec.workspace is seen["array"]

    t = threading.Thread(target=other_thread)
    t.start()
    t.join()
    assert seen["array"] is not first and seen["same"]
