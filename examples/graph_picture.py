"""The seed tutorial's computational graph, drawn by symgrad: z = x @ w + b and a binary
cross-entropy loss, with the backward pass that computes dloss/dw and dloss/db (orange).

    python examples/graph_picture.py [out.svg]    (needs Graphviz's `dot`; the default output
                                                  is examples/figures/seed_graph.svg)
"""

import sys
from pathlib import Path

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F


def loss(w, b, x, y):
    z = sg.matmul(x, w) + b
    return F.binary_cross_entropy_with_logits(z, y)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parent / "figures" / "seed_graph.svg"
    rng = np.random.default_rng(0)
    x, y = np.ones(5), np.zeros(3)
    w, b = rng.normal(size=(5, 3)), rng.normal(size=3)
    inspection = sg.inspect(sg.value_and_grad(loss, argnums=(0, 1)), w, b, x, y,
                            print_=False)
    inspection.render(str(out), stage="adjoint")
    print(f"wrote {out}: the traced forward graph and its adjoint (orange)")
    optimized = out.with_name(out.stem + "_optimized" + out.suffix)
    inspection.render(str(optimized), stage="optimized")
    print(f"wrote {optimized}: after the passes, each fused C loop a cluster")


if __name__ == "__main__":
    main()
