"""GradBench ``det``: the determinant of an ell x ell matrix by expansion by minors (cmpad's
``det_by_minor``), and its gradient.

Functions: ``primal``, det(A) (a scalar); ``gradient``, its gradient with respect to A, in
row-major order (ell^2 values). The eval's input is A as a flat row-major vector and ell.

The eval asks for the expansion by minors, O(ell!) work, not a factorization. Fully
expanded, that recursion is the Leibniz formula det(A) = sum over the permutations p of
{0..ell-1} of sign(p) prod_i A[i, p(i)]: the same ell! products, which is how GradBench's
tools for systems without cheap recursion write it (``tools/futhark/det.fut``, as its
README suggests). All three systems here use that form, vectorized: a table of the ell!
permutations (lexicographic order) and their signs, built once per ell outside the call, one
gather ``A[arange(ell), perms]`` (ell! x ell), a product along rows and a signed sum; the
gradient is each system's reverse mode of it. (The recursive spelling on scalars is not
viable at ell = 9 in any of them: 986,410 calls, ~1 s per call in torch eager and a trace of
millions of scalar ops for ``jax.jit`` and symgrad.)

Inputs: the eval's generator (``evals/det/run.py``): ``np.random.seed(31337)``, then for each
ell in turn A = ``np.random.rand(ell * ell)``. Its sizes are ell = 5..11. Default subset:
ell = 5, 7, 9; ``full``: 5..10 (at ell = 11 the permutation table alone is 11! x 11 int64,
3.5 GB, and each system's gather another 3.5 GB).
"""

from __future__ import annotations

import itertools

import numpy as np

from . import replayed

NAME = "det"
FUNCTIONS = ("primal", "gradient")

ELLS = (5, 6, 7, 8, 9, 10, 11)
NOTES = {"primal": "symgrad can also run the recursion itself (cmpad's expansion along the "
         "first row on the flat A, natural Python), as its README shows: its trace shares the "
         "2^ell distinct minors, so a call takes 3.4-5.8 us at ell = 5..9 (primal and "
         "gradient), but the first call traces all ell! paths: 0.2 / 0.4 / 1.9 / 16 s "
         "(primal) and 0.1 / 0.9 / 4.5 / 33 s (gradient, 3.5 GB) at ell = 5 / 7 / 8 / 9 "
         "(measured once, not in this run)"}


def configs(full: bool) -> list[tuple[str, dict]]:
    ells = ELLS[:-1] if full else (5, 7, 9)
    return [(f"ell={ell}", {"ell": ell}) for ell in ells]


def inputs(ell: int) -> dict:
    return {"A": replayed(ELLS, lambda size: np.random.rand(size * size), ell), "ell": ell}


def permutations(ell: int) -> tuple[np.ndarray, np.ndarray]:
    """All permutations of range(ell) as rows (ell! x ell, int64), and their signs (+1/-1)."""
    perms = np.array(list(itertools.permutations(range(ell))), dtype=np.int64)
    inversions = sum((perms[:, i:i + 1] > perms[:, i + 1:]).sum(1) for i in range(ell - 1))
    return perms, np.where(inversions % 2 == 0, 1.0, -1.0)


# ---------------------------------------------------------------- torch

def torch_impl(inp: dict) -> dict:
    import torch
    ell = inp["ell"]
    perms, signs = map(torch.from_numpy, permutations(ell))
    rows = torch.arange(ell)

    def det(a):
        return (signs * a.reshape(ell, ell)[rows, perms].prod(1)).sum()

    def primal():
        return det(torch.from_numpy(inp["A"])).numpy()

    def gradient():
        a = torch.from_numpy(inp["A"]).requires_grad_()
        (g,) = torch.autograd.grad(det(a), a)
        return g.numpy()
    return {"primal": primal, "gradient": gradient}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp
    ell = inp["ell"]
    perms, signs = permutations(ell)

    def det(a, perms, signs):
        return (signs * a.reshape(ell, ell)[jnp.arange(ell), perms].prod(1)).sum()

    primal_j, gradient_j = jax.jit(det), jax.jit(jax.grad(det))
    a = inp["A"]
    return {"primal": lambda: np.asarray(primal_j(a, perms, signs)),
            "gradient": lambda: np.asarray(gradient_j(a, perms, signs))}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg
    ell = inp["ell"]
    perms, signs = permutations(ell)

    def det(a, perms, signs):
        return (signs * a.reshape(ell, ell)[sg.arange(ell), perms].prod(1)).sum()

    primal_s, gradient_s = sg.compile(det), sg.grad(det)
    a = inp["A"]
    return {"primal": lambda: primal_s(a, perms, signs),
            "gradient": lambda: gradient_s(a, perms, signs)}
