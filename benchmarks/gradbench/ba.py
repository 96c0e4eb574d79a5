"""GradBench ``ba``: bundle adjustment, the reprojection and weight residuals and their
sparse Jacobian (ADBench's BA).

Functions: ``objective`` (a dict: ``reproj_err``, the 2p weighted reprojection residuals
w_i (project(cam_{c(i)}, X_{x(i)}) - feat_i), and ``w_err``, the p residuals 1 - w_i^2) and
``jacobian``, their Jacobian with respect to (cams, X, w) as a ``scipy.sparse.csr_matrix`` of
3p rows (reprojection residuals of observation i at rows 2i, 2i+1, then the weight
residuals) by 11n + 3m + p columns (cameras, then points, then weights): GradBench's
``BASparseMat`` layout, 15 nonzeros in each reprojection row and one in each weight row
(a ``SparseJacobian``: the ``scipy.sparse.csr_matrix`` and, for the check, its values).
``jacobian (blocks)`` is the same Jacobian, symgrad written the way torch and JAX are (for
torch and JAX it is their ``jacobian`` again).

The camera (``evals/ba/README.md``, ``cpp/gradbench/evals/ba.hpp``): 11 parameters,
Rodrigues rotation (3), centre (3), focal length, principal point (2), two radial
distortion coefficients; project(cam, X) rotates X - centre, divides by depth, applies
the distortion 1 + k1 r^2 + k2 r^4, scales by the focal length and adds the principal point.
The reference rotates by X + rot x X when |rot| = 0; every input here has the same nonzero
rotation (|rot| = 1.59), so all three systems leave that branch out.

Inputs: every GradBench data file ``evals/ba/data/ba{i}_n{N}_m{M}_p{P}.txt`` holds one camera,
one point, one weight and one feature (the same 17 numbers in all twenty files); the eval
(``parse``) and the tools replicate them: n copies of the camera, m of the point, p of the
weight and of the feature, and observation i sees camera i mod n and point i mod m. We
build the same arrays from (n, m, p) (the data files are not shipped). The eval's defaults
are ba1..ba14. Default subset: ba1 (n=49, m=7,776, p=31,843) and ba5 (n=257, m=65,132,
p=225,911); ``full``: ba1..ba5.

Each system writes it the natural way: the residuals vectorized over observations for the
objective; for the Jacobian, torch (``torch.func``) and JAX (``jax.jit``) take
``vmap(jacfwd)`` of one observation's residuals (its dense 2 x 11, 2 x 3 and 2 x 1 blocks;
the weight residual's derivative -2 w by ``vmap(grad)``) and put the blocks into the CSR
matrix whose pattern they built once; symgrad's ``jacobian`` is ``sg.sparse.jacobian`` of
the same vectorized residual function the objective is (the pattern read from the graph and
colored on the first call; a new CSR matrix per call, as the others return, though ``out=``
could refill one); its ``jacobian (blocks)`` is the torch/JAX formulation
(``sg.vmap(sg.jacfwd)`` of one observation).

symgrad's sparse Jacobian reads the pattern from the graph, so its matrix stores only the
structural nonzeros: 14 per reprojection row (x0 does not enter the second residual nor y0
the first), where GradBench's layout (and the blocks here) stores 15, two of them zero;
compare the matrices as matrices (e.g. ``abs(A - B).max()``), not their stored arrays.

Numerics: symgrad's ``reproj_err`` differs from torch's by up to 2.4e-14 absolute (2.3e-13
of its largest entry, 3e-14 of the objective's largest output; JAX's is bit-identical): each
residual is w (proj - feat) with proj and feat about 271.86 and 271.76, so a rounding of proj
(ulp 5.7e-14) is ~2e-13 of the 0.1-sized residual; symgrad rounds the projection otherwise in
its last bit (not its vector libm: ``SYMGRAD_VECTOR_MATH=0`` gives the same numbers).
The Jacobians agree to ~1e-15.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

NAME = "ba"
FUNCTIONS = ("objective", "jacobian", "jacobian (blocks)")
NOTES = {
    "jacobian": "torch and JAX: vmap(jacfwd) of one observation, the blocks put into the CSR "
                "matrix; symgrad: sg.sparse.jacobian of the vectorized residuals (its first "
                "call includes reading the pattern from the graph and coloring it)",
    "jacobian (blocks)": "symgrad written as torch and JAX are (sg.vmap(sg.jacfwd) of one "
                         "observation, the same CSR assembly); torch's and JAX's numbers are "
                         "their jacobian timed again"}

# The one camera, point, weight and feature of every GradBench BA data file.
_CAM = (-0.758453, -1.109613, -0.845551, 34.556073, 39.676747, 53.881673, 419.194514,
        5.864426, -8.518870, 0.087812, 0.002739)
_X = (7.203245, 0.001144, 3.023326)
_W = 0.417022
_FEAT = (271.760969, 834.209256)

_SIZES = {1: (49, 7776, 31843), 2: (21, 11315, 36455), 3: (161, 48126, 182072),
          4: (372, 47423, 204472), 5: (257, 65132, 225911)}


def configs(full: bool) -> list[tuple[str, dict]]:
    chosen = sorted(_SIZES) if full else [1, 5]
    return [(f"ba{i} n={n},m={m},p={p}", {"n": n, "m": m, "p": p})
            for i in chosen for n, m, p in [_SIZES[i]]]


def inputs(n: int, m: int, p: int) -> dict:
    i = np.arange(p)
    return {"cams": np.tile(_CAM, (n, 1)), "X": np.tile(_X, (m, 1)), "w": np.full(p, _W),
            "feats": np.tile(_FEAT, (p, 1)),
            "cam_idx": (i % n).astype(np.int64), "pt_idx": (i % m).astype(np.int64)}


class _Pattern:
    """GradBench's CSR layout for the blocks: set up once, refilled by each call."""

    def __init__(self, inp: dict):
        n, m, p = len(inp["cams"]), len(inp["X"]), len(inp["w"])
        self.shape = (3 * p, 11 * n + 3 * m + p)
        cam_cols = 11 * inp["cam_idx"][:, None] + np.arange(11)
        pt_cols = 11 * n + 3 * inp["pt_idx"][:, None] + np.arange(3)
        w_cols = (11 * n + 3 * m + np.arange(p))[:, None]
        row = np.concatenate([cam_cols, pt_cols, w_cols], axis=1)         # (p, 15)
        self.indices = np.concatenate([np.repeat(row, 2, axis=0).ravel(), w_cols.ravel()])
        self.indptr = np.concatenate([np.arange(0, 30 * p + 1, 15),
                                      30 * p + np.arange(1, p + 1)])

    def matrix(self, d_cam, d_x, d_w, d_werr) -> SparseJacobian:
        """d_cam (p, 2, 11), d_x (p, 2, 3), d_w (p, 2), d_werr (p,): the CSR matrix."""
        blocks = np.concatenate([d_cam, d_x, d_w[..., None]], axis=2)
        data = np.concatenate([blocks.ravel(), d_werr])
        return SparseJacobian(sp.csr_matrix((data, self.indices, self.indptr),
                                            shape=self.shape), self)

    def values(self, J) -> np.ndarray:
        """J's entries at this layout's positions, then the largest |entry| outside it."""
        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        at = np.asarray(J[rows, self.indices]).ravel()
        ones = sp.csr_matrix((np.ones(len(self.indices)), self.indices, self.indptr),
                             shape=self.shape)
        outside = abs(J - J.multiply(ones)).max()
        return np.append(at, outside)


class SparseJacobian:
    """The ``jacobian`` result: the CSR matrix (``.matrix``, ``tocsr()``) and, for the runner's
    check (``np.asarray``, outside the timed call), its values at GradBench's 15-per-row
    positions followed by the largest entry anywhere else (0), whatever the stored pattern:
    symgrad's matrix stores 14 nonzeros per reprojection row, the blocks' 15."""

    def __init__(self, matrix: sp.csr_matrix, pattern: _Pattern):
        self.matrix, self.pattern = matrix, pattern

    def tocsr(self) -> sp.csr_matrix:
        return self.matrix

    def __array__(self, dtype=None, copy=None):
        return self.pattern.values(self.matrix).astype(dtype or np.float64)


# ---------------------------------------------------------------- torch

def _torch_residuals(torch):
    def project(cam, X):
        rot, centre, f = cam[..., 0:3], cam[..., 3:6], cam[..., 6:7]
        x0, rad = cam[..., 7:9], cam[..., 9:11]
        Xo = X - centre
        theta = torch.sqrt((rot * rot).sum(-1, keepdim=True))
        axis = rot / theta
        cos, sin = torch.cos(theta), torch.sin(theta)
        Xcam = (Xo * cos + torch.linalg.cross(axis, Xo, dim=-1) * sin
                + axis * (axis * Xo).sum(-1, keepdim=True) * (1 - cos))
        proj = Xcam[..., 0:2] / Xcam[..., 2:3]
        rsq = (proj * proj).sum(-1, keepdim=True)
        return proj * (1 + rad[..., 0:1] * rsq + rad[..., 1:2] * rsq * rsq) * f + x0

    def reproj(cam, X, w, feat):
        return w[..., None] * (project(cam, X) - feat)
    return reproj


def torch_impl(inp: dict) -> dict:
    import torch
    from torch.func import grad, jacfwd, vmap
    reproj = _torch_residuals(torch)
    pattern = _Pattern(inp)
    blocks = vmap(jacfwd(reproj, argnums=(0, 1, 2)))
    d_werr = vmap(grad(lambda w: 1 - w * w))

    def gathered():
        t = {k: torch.from_numpy(v) for k, v in inp.items()}
        return t["cams"][t["cam_idx"]], t["X"][t["pt_idx"]], t["w"], t["feats"]

    def objective():
        cam, X, w, feat = gathered()
        return {"reproj_err": reproj(cam, X, w, feat).reshape(-1).numpy(),
                "w_err": (1 - w * w).numpy()}

    def jacobian():
        cam, X, w, feat = gathered()
        d_cam, d_x, d_w = blocks(cam, X, w, feat)
        return pattern.matrix(d_cam.numpy(), d_x.numpy(), d_w.numpy(), d_werr(w).numpy())
    return {"objective": objective, "jacobian": jacobian, "jacobian (blocks)": jacobian}


# ---------------------------------------------------------------- JAX

def _jax_residuals(jnp):
    def project(cam, X):
        rot, centre, f = cam[..., 0:3], cam[..., 3:6], cam[..., 6:7]
        x0, rad = cam[..., 7:9], cam[..., 9:11]
        Xo = X - centre
        theta = jnp.sqrt((rot * rot).sum(-1, keepdims=True))
        axis = rot / theta
        cos, sin = jnp.cos(theta), jnp.sin(theta)
        Xcam = (Xo * cos + jnp.cross(axis, Xo) * sin
                + axis * (axis * Xo).sum(-1, keepdims=True) * (1 - cos))
        proj = Xcam[..., 0:2] / Xcam[..., 2:3]
        rsq = (proj * proj).sum(-1, keepdims=True)
        return proj * (1 + rad[..., 0:1] * rsq + rad[..., 1:2] * rsq * rsq) * f + x0

    def reproj(cam, X, w, feat):
        return w[..., None] * (project(cam, X) - feat)
    return reproj


def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    reproj = _jax_residuals(jnp)
    pattern = _Pattern(inp)

    @jax.jit
    def objective_j(cams, X, w, feats, cam_idx, pt_idx):
        return reproj(cams[cam_idx], X[pt_idx], w, feats).reshape(-1), 1 - w * w

    @jax.jit
    def blocks_j(cams, X, w, feats, cam_idx, pt_idx):
        d_cam, d_x, d_w = jax.vmap(jax.jacfwd(reproj, argnums=(0, 1, 2)))(
            cams[cam_idx], X[pt_idx], w, feats)
        return d_cam, d_x, d_w, jax.vmap(jax.grad(lambda w: 1 - w * w))(w)

    args = [inp[k] for k in ("cams", "X", "w", "feats", "cam_idx", "pt_idx")]

    def objective():
        r, we = objective_j(*args)
        return {"reproj_err": np.asarray(r), "w_err": np.asarray(we)}

    def jacobian():
        return pattern.matrix(*(np.asarray(b) for b in blocks_j(*args)))
    return {"objective": objective, "jacobian": jacobian, "jacobian (blocks)": jacobian}


# ---------------------------------------------------------------- symgrad

def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg
    reproj = _torch_residuals(sg)          # symgrad speaks torch: the same spelling
    pattern = _Pattern(inp)

    def residuals(cams, X, w, feats, cam_idx, pt_idx):
        return reproj(cams[cam_idx], X[pt_idx], w, feats).reshape(-1), 1 - w * w

    obj = sg.compile(residuals)
    jac = sg.sparse.jacobian(residuals, argnums=(0, 1, 2))

    @sg.compile
    def blocks_s(cams, X, w, feats, cam_idx, pt_idx):
        d_cam, d_x, d_w = sg.vmap(sg.jacfwd(reproj, argnums=(0, 1, 2)))(
            cams[cam_idx], X[pt_idx], w, feats)
        return d_cam, d_x, d_w, sg.vmap(sg.grad(lambda w: 1 - w * w))(w)

    args = [inp[k] for k in ("cams", "X", "w", "feats", "cam_idx", "pt_idx")]

    def objective():
        r, we = obj(*args)
        return {"reproj_err": r, "w_err": we}

    def jacobian():
        return SparseJacobian(jac(*args), pattern)

    def jacobian_blocks():
        return pattern.matrix(*blocks_s(*args))
    return {"objective": objective, "jacobian": jacobian, "jacobian (blocks)": jacobian_blocks}
