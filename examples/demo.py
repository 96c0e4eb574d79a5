"""symgrad's main demo: train logistic regression with compiled gradients, show the C, and
time one value_and_grad step against a hand-written NumPy gradient.

Run: make demo   (or: python examples/demo.py)
"""

import time

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F


@sg.compile
def loss(w, b, x, y):
    z = sg.matmul(x, w) + b
    return F.binary_cross_entropy_with_logits(z, y)


def numpy_value_and_grad(w, b, x, y):
    """The same loss and gradient, derived by hand."""
    z = x @ w + b
    value = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
    g = (1 / (1 + np.exp(-z)) - y) / z.size
    return value, (x.T @ g, g.sum(0))


def median_time(fn, *args, repeat=2000):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def main():
    rng = np.random.default_rng(0)
    n, d, k = 1024, 256, 10
    x = rng.standard_normal((n, d)).astype(np.float32)
    true_w = rng.standard_normal((d, k)).astype(np.float32)
    y = (x @ true_w > 0).astype(np.float32)
    w = np.zeros((d, k), np.float32)
    b = np.zeros(k, np.float32)

    step = sg.value_and_grad(loss, argnums=(0, 1))
    t0 = time.perf_counter()
    step(w, b, x, y)
    print(f"first call (trace + optimize + C + compile, or cache hit): "
          f"{time.perf_counter() - t0:.2f} s")

    for i in range(201):
        val, (dw, db) = step(w, b, x, y)
        w -= 0.5 * dw
        b -= 0.5 * db
        if i % 50 == 0:
            acc = np.mean((x @ w + b > 0) == (y > 0))
            print(f"step {i:4d}  loss {float(val):.4f}  accuracy {acc:.3f}")

    ref_val, (ref_dw, ref_db) = numpy_value_and_grad(w, b, x, y)
    val, (dw, db) = step(w, b, x, y)
    worst = max(np.abs(dw - ref_dw).max(), np.abs(db - ref_db).max())
    print(f"max |grad - numpy grad|: {worst:.2e}")

    print("\n----- generated C (value and gradient of the loss) -----")
    print(step.c_source)

    for shape in ((1, 5, 3), (1024, 256, 10)):
        n, d, k = shape
        xs = rng.standard_normal((n, d)).astype(np.float32)
        ys = (rng.random((n, k)) > 0.5).astype(np.float32)
        ws = rng.standard_normal((d, k)).astype(np.float32)
        bs = rng.standard_normal(k).astype(np.float32)
        step(ws, bs, xs, ys)
        t_sg = median_time(step, ws, bs, xs, ys, repeat=2000 if n == 1 else 300)
        t_np = median_time(numpy_value_and_grad, ws, bs, xs, ys, repeat=2000 if n == 1 else 300)
        print(f"value_and_grad, x {n}x{d}, {k} outputs: symgrad {t_sg * 1e6:8.1f} us   "
              f"numpy by hand {t_np * 1e6:8.1f} us   (median)")


if __name__ == "__main__":
    main()
