"""symgrad on Dask clusters: compiled functions as first-class Dask citizens.

    import symgrad.dask as sgd
    y = sgd.map_blocks(f, x)                                  # x: a dask array
    value, grads = sgd.value_and_grad_over(loss, (w, b), (X, Y), argnums=(0, 1),
                                           client=client)     # X, Y: chunked along axis 0

Workers receive the compiled C (never the Python function) and load it once per process from
their disk cache, or build it once; they never trace (see ``api.distributed``). Needs Dask
(``pip install "symgrad[dask]"``: ``dask[array]`` and ``distributed``).

Layer: package (the public names).
"""

from .api.distributed import Shipped, map_blocks, value_and_grad_over, worker_threads

__all__ = ["Shipped", "map_blocks", "value_and_grad_over", "worker_threads"]
