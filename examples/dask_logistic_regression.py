"""Logistic regression trained on a chunked data set through a Dask cluster.

A LocalCluster of two worker processes (loopback only) stands in for a real cluster: with a
real one, pass its ``Client`` instead. The data set (200,000 x 20) is a pair of dask arrays
chunked along the rows; each gradient step sends the parameters to the workers, each worker
runs the compiled ``value_and_grad`` of the loss on its chunks, and the partial results are
added up in a tree. The workers receive the compiled C, not the Python function, and never
trace. The first step's gradient is checked against the one-process gradient of the whole data.

    python examples/dask_logistic_regression.py     (needs dask[array] and distributed)
"""

import time

import numpy as np
import dask.array as da
from distributed import Client, LocalCluster

import symgrad as sg
import symgrad.dask as sgd

N, D, CHUNK, STEPS, RATE = 200_000, 20, 25_000, 60, 2.0


def loss(w, b, x, y):
    """The mean logistic loss... summed here: the chunks' sums add up to the total."""
    z = x @ w + b
    return (sg.softplus(z) - y * z).sum()


def main() -> None:
    w_true = np.random.default_rng(0).normal(size=D)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        # The data set is made on the workers, chunk by chunk, and stays there (a real one
        # would be read there: dask.array.from_zarr, read_parquet...); each step then sends
        # only (w, b) and gets back a value and two gradients.
        rng = da.random.default_rng(1)
        X = rng.normal(size=(N, D), chunks=(CHUNK, D))
        Y = ((X @ w_true + 0.5 * rng.normal(size=N, chunks=CHUNK)) > 0).astype(np.float64)
        X, Y = client.persist([X, Y])
        x, y = client.compute([X, Y], sync=True)      # for the one-process check only
        w, b = np.zeros(D), np.float64(0.0)
        value, (gw, gb) = sgd.value_and_grad_over(loss, (w, b), (X, Y), argnums=(0, 1),
                                                  client=client)
        one_value, (one_gw, one_gb) = sg.value_and_grad(loss, argnums=(0, 1))(w, b, x, y)
        assert np.allclose(gw, one_gw, rtol=1e-10) and np.isclose(value, one_value)
        print(f"{X.numblocks[0]} chunks of {CHUNK} rows on {len(client.nthreads())} workers; "
              f"the first gradient matches the one-process gradient "
              f"(max difference {np.abs(gw - one_gw).max():.1e})")
        start = time.perf_counter()
        for step in range(STEPS):
            value, (gw, gb) = sgd.value_and_grad_over(loss, (w, b), (X, Y), argnums=(0, 1),
                                                      client=client)
            w, b = w - RATE * gw / N, b - RATE * gb / N
            if step % 10 == 0 or step == STEPS - 1:
                print(f"step {step:3d}  mean loss {value / N:.5f}")
        elapsed = time.perf_counter() - start
        facts = client.run(lambda: __import__("sys").modules.get("symgrad.pipeline") is None)
    accuracy = np.mean(((x @ w + b) > 0) == (y > 0.5))
    cosine = w @ w_true / np.linalg.norm(w) / np.linalg.norm(w_true)
    print(f"{STEPS} steps in {elapsed:.2f} s ({elapsed / STEPS * 1e3:.1f} ms a step); "
          f"accuracy {accuracy:.4f}; cosine(w, w_true) {cosine:.4f}")
    print(f"workers that never traced: {sum(facts.values())} of {len(facts)}")


if __name__ == "__main__":
    main()
