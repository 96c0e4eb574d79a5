"""Per-example gradient norms of a small MLP with ``vmap(grad(loss))``.

Differentially private SGD clips each example's gradient, and data debugging ranks examples
by how hard they pull on the weights: both need one gradient per example, not their sum.
``symgrad.vmap(symgrad.grad(loss), in_axes=(None, 0, 0))`` computes all of them in one
compiled function: the per-example backward pass runs on the whole batch at once (batched
matrix products, one loop per fused group), never a Python loop over examples. The result is
checked against a loop of single-example gradients, and the norms are computed and clipped.

    python examples/per_example_gradients.py
"""

import time

import numpy as np

import symgrad as sg


def loss(params, x, label):
    """Cross-entropy of one example (x: 784 pixels, label: its class)."""
    h = sg.tanh(x @ params["w1"] + params["b1"])
    logits = h @ params["w2"] + params["b2"]
    return sg.logsumexp(logits, 0) - logits[label]


def main() -> None:
    rng = np.random.default_rng(0)
    params = {"w1": rng.normal(size=(784, 128)) / 28, "b1": np.zeros(128),
              "w2": rng.normal(size=(128, 10)) / 11, "b2": np.zeros(10)}
    x = rng.normal(size=(64, 784))
    labels = rng.integers(0, 10, size=64)

    per_example = sg.vmap(sg.grad(loss), in_axes=(None, 0, 0))
    grads = per_example(params, x, labels)            # each leaf: (64, *param.shape)
    norms = np.sqrt(sum(np.sum(g.reshape(64, -1) ** 2, axis=1) for g in grads.values()))

    one = sg.grad(loss)
    for i in (0, 17, 63):
        g = one(params, x[i], labels[i])
        for k in params:
            assert np.allclose(grads[k][i], g[k], rtol=1e-10, atol=1e-12)
    print("per-example gradients match single-example gradients")

    clip = np.median(norms)
    scale = np.minimum(1.0, clip / norms)
    clipped = {k: np.tensordot(scale, g, axes=1) / len(x) for k, g in grads.items()}
    print(f"gradient norms: min {norms.min():.3f}, median {clip:.3f}, max {norms.max():.3f}")
    print(f"largest five: examples {np.argsort(norms)[-5:][::-1].tolist()}")
    print(f"clipped mean gradient norm: "
          f"{np.sqrt(sum(np.sum(v ** 2) for v in clipped.values())):.4f}")

    start = time.perf_counter()
    for _ in range(20):
        per_example(params, x, labels)
    batched = (time.perf_counter() - start) / 20
    start = time.perf_counter()
    for i in range(len(x)):
        one(params, x[i], labels[i])
    looped = time.perf_counter() - start
    print(f"vmap(grad): {batched * 1e3:.2f} ms per batch; a Python loop of compiled grads: "
          f"{looped * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
