"""symgrad.dask on a real distributed.LocalCluster (2 worker processes, loopback only).

The reduced gradient is checked against the single-process gradient of the whole data set and
against a hand-derived NumPy formula; the workers must not trace (they never import the tracing
pipeline) and compile at most once each (their own cache directory starts empty).
"""

from __future__ import annotations


import numpy as np
import pytest

distributed = pytest.importorskip("distributed")
da = pytest.importorskip("dask.array")

import symgrad as sg  # noqa: E402
import symgrad.dask as sgd  # noqa: E402


def logistic_loss(w, b, x, y):
    z = x @ w + b
    return (sg.softplus(z) - y * z).sum()


def numpy_value_and_grad(w, b, x, y):
    z = x @ w + b
    p = 1 / (1 + np.exp(-z))
    return np.sum(np.logaddexp(0, z) - y * z), (x.T @ (p - y), np.sum(p - y))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    cache = tmp_path_factory.mktemp("worker-cache")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None,
                                       env={"SYMGRAD_CACHE_DIR": str(cache)})
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def data(rng, n=4000, d=6):
    x = rng.normal(size=(n, d))
    y = (x @ rng.normal(size=d) + 0.3 * rng.normal(size=n) > 0).astype(np.float64)
    return x, y


def worker_facts(client) -> dict:
    """Per worker: (whether it traced anything, how many modules it compiled)."""
    def facts():
        from symgrad import tracing
        from symgrad.build import cache
        return (tracing.stats["traces"] > 0, cache.stats["compiles"])
    return client.run(facts)


def test_value_and_grad_over_chunks_matches_one_process(client, rng):
    x, y = data(rng)
    w, b = rng.normal(size=6), np.float64(0.1)
    chunks = [(x[i:i + 500], y[i:i + 500]) for i in range(0, 4000, 500)]
    value, (gw, gb) = sgd.value_and_grad_over(logistic_loss, (w, b), chunks, argnums=(0, 1),
                                              client=client)
    whole_value, (whole_gw, whole_gb) = sg.value_and_grad(logistic_loss, argnums=(0, 1))(
        w, b, x, y)
    np.testing.assert_allclose(value, whole_value, rtol=1e-12)
    np.testing.assert_allclose(gw, whole_gw, rtol=1e-11)
    np.testing.assert_allclose(gb, whole_gb, rtol=1e-11)
    ref_value, (ref_gw, ref_gb) = numpy_value_and_grad(w, b, x, y)
    np.testing.assert_allclose(value, ref_value, rtol=1e-12)
    np.testing.assert_allclose(gw, ref_gw, rtol=1e-10)
    facts = worker_facts(client)
    assert len(facts) == 2
    for traced, compiles in facts.values():
        assert not traced and compiles <= 1
    # Again, with new parameters: nothing new to load anywhere.
    before = worker_facts(client)
    sgd.value_and_grad_over(logistic_loss, (w * 2, b), chunks, argnums=(0, 1), client=client)
    assert worker_facts(client) == before


def test_dask_arrays_partitioned_along_axis_0(client, rng):
    x, y = data(rng, n=3000)
    w, b = rng.normal(size=6), np.float64(-0.2)
    X, Y = da.from_array(x, chunks=(1000, 6)), da.from_array(y, chunks=1000)
    value, gw = sgd.value_and_grad_over(logistic_loss, (w, b), (X, Y), client=client)
    ref_value, (ref_gw, _) = numpy_value_and_grad(w, b, x, y)
    np.testing.assert_allclose(value, ref_value, rtol=1e-12)
    np.testing.assert_allclose(gw, ref_gw, rtol=1e-10)
    with pytest.raises(ValueError, match="partitioned alike along axis 0"):
        sgd.value_and_grad_over(logistic_loss, (w, b),
                                (X, da.from_array(y, chunks=500)), client=client)


def test_without_a_client_runs_in_this_process(rng):
    x, y = data(rng, n=600)
    w, b = rng.normal(size=6), np.float64(0.0)
    chunks = [(x[:200], y[:200]), (x[200:], y[200:])]     # two signatures
    value, gw = sgd.value_and_grad_over(logistic_loss, (w, b), chunks)
    ref_value, (ref_gw, _) = numpy_value_and_grad(w, b, x, y)
    np.testing.assert_allclose(value, ref_value, rtol=1e-12)
    np.testing.assert_allclose(gw, ref_gw, rtol=1e-10)


def test_map_blocks(client, rng):
    @sg.compile
    def smooth(x):
        return sg.tanh(x) * 2 + x ** 2

    x = rng.normal(size=(1000, 5))
    X = da.from_array(x, chunks=(300, 5))            # blocks of 300 and of 100 rows
    got = sgd.map_blocks(smooth, X).compute(scheduler=client.get)
    np.testing.assert_allclose(got, np.tanh(x) * 2 + x ** 2, rtol=1e-13, atol=1e-15)
    rows = sgd.map_blocks(sg.compile(lambda x: (x * x).sum(1)), X, drop_axis=1)
    np.testing.assert_allclose(rows.compute(scheduler=client.get), (x * x).sum(1), rtol=1e-13)
    for traced, compiles in worker_facts(client).values():
        assert not traced
    with pytest.raises(TypeError, match="must return one array"):
        sgd.map_blocks(sg.compile(lambda x: (x, x)), X)
