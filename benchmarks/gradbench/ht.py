"""GradBench ``ht``: hand tracking (ADBench's HAND), the residuals of a skinned hand model
against measured points, and their Jacobian.

Functions: ``objective``, the 3N residuals points_i - hand_point_i (point i's three
coordinates adjacent), and ``jacobian``, their Jacobian: 3N x 26 in the "simple" variant
(with respect to the pose theta), 3N x 28 in the "complicated" one (two columns for each
point's own barycentric coordinates u_i, whose block is diagonal and therefore stored as
3N x 2 beside the 26 theta columns, as the eval's output does).

Definition (``cpp/gradbench/evals/ht.hpp``, the eval's validator; ``tools/pytorch/
ht_objective.py``): theta holds a global angle-axis rotation (3), a global translation (3)
and 20 finger angles (two for each finger's second bone, one for its third and fourth);
each of the 22 bones is posed by its Euler angles (R = Rz Ry Rx, angles in x, z, y order)
applied to its base relative transform, chained to absolute transforms through the bones'
parents and multiplied by the inverse base absolutes; the vertices are those transforms of
the homogeneous base positions blended by the skinning weights (all three systems blend the
transforms first, one matrix product weights @ (bones x 12), then transform each vertex once:
the same sum in another order; transforming every vertex by every bone and then summing made
every system's Jacobian 10-15x slower at 10,000 vertices, torch's 760 ms instead of 50), then
rotated globally (the identity when |rotation| < 1e-4), scaled by 1 and translated. Simple:
hand_point_i is vertex correspondences[i]; complicated: the point u_i0 a + u_i1 b +
(1 - u_i0 - u_i1) c of triangle correspondences[i] = (a, b, c). The C++ reference's Ry is
[[cos, 0, sin], [0, 1, 0], [-sin, 0, cos]]; GradBench's PyTorch tool has sin's signs the
other way: we follow the C++.

Inputs: the eval reads a hand model (``model/bones.txt``: 22 bones, their parents, base
relatives and inverse base absolutes; ``vertices.txt``: positions and skinning weights of
10,000 vertices for the eval's default "big" model, 544 for "small", one to four bones per
vertex; ``triangles.txt``: 1,084 triangles over the first 544 vertices) and a data file
(``hand{i}_t26_c{N}.txt``: N points with their correspondences, N barycentric pairs u in
the complicated variant, and theta) from GradBench's mirror. We synthesize a model of the
same sizes and structure deterministically (``numpy.random.default_rng(seed)``): the same
bone tree (wrist, five four-bone fingers, forearm), random rigid base relatives with the
inverse base absolutes consistent with them, vertices around the bones with one to four
weights each (in the model's proportions, summing to 1), 1,084 random triangles over the
first 544 vertices; N points near the hand, correspondences (triangles or vertices), u
inside the triangle, and theta (rotation, translation, angles of the data's magnitudes).
The eval's defaults: the big model, complicated, N in {100, 192, 200, 400, 800, 1600, 3200,
6400, 12800, 25600, 51200, 100000}. Default subset: complicated, N = 100 and N = 12,800 (the
issue's "HT with 100 points" and "HT at 12800 points"), and simple, N = 100; ``full``: every
N of both variants.

Each system writes it the natural way: the model vectorized over bones and vertices (a
Python loop over the 22 bones for the parent chain), the pose parameters gathered from
theta by a fixed index, the rotations built with ``stack``, the small-angle case by ``where``
(``torch.func`` cannot trace a Python ``if`` on a tensor; symgrad could, through a guard);
the Jacobian in forward mode (it is 3N x 26 or 28), ``jacfwd`` with respect to theta and, in
the complicated variant, a 2-vector added to every u_i (each residual depends on its own u_i
only, so those two columns are the diagonal blocks): torch eager with ``torch.func.jacfwd``,
``jax.jit`` of the same code (spelled through ``_JaxTorch``, a few torch names mapped to
``jax.numpy``) and ``jax.jacfwd``, symgrad ``sg.compile`` and ``sg.jacfwd`` of the torch code.
"""

from __future__ import annotations

import numpy as np

NAME = "ht"
FUNCTIONS = ("objective", "jacobian")

_PARENTS = np.array([-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18, 19, 0])
_N_VERTS = {"big": 10000, "small": 544}
_N_TRIANGLES, _TRIANGLE_VERTS = 1084, 544
_POINTS = (100, 192, 200, 400, 800, 1600, 3200, 6400, 12800, 25600, 51200, 100000)


def configs(full: bool) -> list[tuple[str, dict]]:
    if full:
        chosen = [(v, n) for v in ("complicated", "simple") for n in _POINTS]
    else:
        chosen = [("complicated", 100), ("complicated", 12800), ("simple", 100)]
    return [(f"{v} big N={n}", {"variant": v, "n_points": n, "model": "big"})
            for v, n in chosen]


def _pose_index(n_bones: int) -> np.ndarray:
    """Where each entry of the (n_bones + 3, 3) pose parameters comes from in
    concatenate([theta, [0, 1]]): 26 is a zero, 27 a one."""
    index = np.full((n_bones + 3, 3), 26)
    index[0], index[1], index[2] = [0, 1, 2], 27, [3, 4, 5]
    i_theta, row = 6, 5
    for _finger in range(5):
        for joint in range(3):
            index[row, 0] = i_theta
            i_theta += 1
            if joint == 0:
                index[row, 1] = i_theta
                i_theta += 1
            row += 1
        row += 1
    return index


def _rigid(rng, angle_scale: float, offset) -> np.ndarray:
    a, b, c = rng.normal(scale=angle_scale, size=3)
    ca, sa, cb, sb, cc, sc = np.cos(a), np.sin(a), np.cos(b), np.sin(b), np.cos(c), np.sin(c)
    rx = np.array([[1, 0, 0], [0, ca, -sa], [0, sa, ca]])
    ry = np.array([[cb, 0, sb], [0, 1, 0], [-sb, 0, cb]])
    rz = np.array([[cc, -sc, 0], [sc, cc, 0], [0, 0, 1]])
    t = np.eye(4)
    t[:3, :3], t[:3, 3] = rz @ ry @ rx, offset
    return t


def _model(n_verts: int, rng) -> dict:
    n_bones = len(_PARENTS)
    rel = np.stack([_rigid(rng, 0.6 if p <= 0 else 0.2,
                           [0.0, 0.0036, 0.0] if p <= 0 else [0.0, 0.03 + 0.07 * rng.random(), 0.0])
                    for p in _PARENTS])
    absolute = []
    for i, p in enumerate(_PARENTS):
        absolute.append(rel[i] if p < 0 else absolute[p] @ rel[i])
    absolute = np.stack(absolute)
    # vertices: around a bone's origin; one to four bones each, in the model's proportions
    home = rng.integers(n_bones, size=n_verts)
    positions = absolute[home, :3, 3] + rng.normal(scale=0.02, size=(n_verts, 3))
    count = rng.choice(4, size=n_verts, p=[0.3971, 0.5296, 0.0385, 0.0348]) + 1
    weights = np.zeros((n_verts, n_bones))
    for v in range(n_verts):
        bones = np.unique(np.concatenate([[home[v]], rng.integers(n_bones, size=count[v] - 1)]))
        weights[v, bones] = rng.random(len(bones)) + 0.1
    weights /= weights.sum(1, keepdims=True)
    return {"base_relatives": rel, "inverse_base_absolutes": np.linalg.inv(absolute),
            "base_positions": np.concatenate([positions, np.ones((n_verts, 1))], axis=1),
            "weights": weights, "parents": _PARENTS,
            "triangles": rng.integers(_TRIANGLE_VERTS, size=(_N_TRIANGLES, 3))}


def inputs(variant: str, n_points: int, model: str = "big", seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    inp = _model(_N_VERTS[model], rng)
    theta = np.concatenate([rng.normal(size=3), rng.uniform(0, 2.5, size=3),
                            rng.normal(scale=0.8, size=20)])
    inp["theta"] = theta
    inp["points"] = theta[3:6] + rng.normal(scale=0.1, size=(n_points, 3))
    if variant == "complicated":
        u = rng.random((n_points, 2))
        outside = u.sum(1) > 1
        u[outside] = 1 - u[outside]
        inp["us"] = u
        inp["correspondences"] = rng.integers(_N_TRIANGLES, size=n_points)
    else:
        inp["correspondences"] = rng.integers(len(inp["weights"]), size=n_points)
    return inp


# ---------------------------------------------------------------- torch (and symgrad)

def _euler(torch, a):
    """Rotation matrices R = Rz Ry Rx of (bones, 3) angles in x, z, y order."""
    tx, tz, ty = a[:, 0], a[:, 1], a[:, 2]
    one, zero = torch.ones_like(tx), torch.zeros_like(tx)
    rx = torch.stack([one, zero, zero, zero, torch.cos(tx), -torch.sin(tx),
                      zero, torch.sin(tx), torch.cos(tx)], 1).reshape(-1, 3, 3)
    ry = torch.stack([torch.cos(ty), zero, torch.sin(ty), zero, one, zero,
                      -torch.sin(ty), zero, torch.cos(ty)], 1).reshape(-1, 3, 3)
    rz = torch.stack([torch.cos(tz), -torch.sin(tz), zero, torch.sin(tz), torch.cos(tz),
                      zero, zero, zero, one], 1).reshape(-1, 3, 3)
    return rz @ ry @ rx


def _angle_axis(torch, r):
    """The rotation by |r| about r / |r| (Rodrigues); the identity when |r| < 1e-4."""
    n = torch.sqrt((r * r).sum())
    x, y, z = r[0] / n, r[1] / n, r[2] / n
    s, c = torch.sin(n), torch.cos(n)
    rot = torch.stack([
        x * x + (1 - x * x) * c, x * y * (1 - c) - z * s, x * z * (1 - c) + y * s,
        x * y * (1 - c) + z * s, y * y + (1 - y * y) * c, y * z * (1 - c) - x * s,
        x * z * (1 - c) - y * s, z * y * (1 - c) + x * s, z * z + (1 - z * z) * c])
    return torch.where(n < 1e-4, torch.eye(3, dtype=r.dtype), rot.reshape(3, 3))


def _torch_model(torch, inp: dict):
    """The skinned vertices over a torch-like namespace: torch, or symgrad (whose
    functions have torch's names), or ``_JaxTorch``; the model arrays are arguments. The
    closure holds the bone tree only, not the input dict: symgrad checks at each call what a
    compiled function's closure reaches (the dict's 2.7 MB of arrays, which are also passed
    as arguments: 0.4 ms a call at 12,800 points; README, "What a compiled function
    captures"), as it must for anything the function could read."""
    parents = [int(p) for p in inp["parents"]]
    n_bones = len(parents)
    pose_index = _pose_index(n_bones)

    def vertices(theta, base_rel, inv_base_abs, base_pos, weights):
        ends = [torch.zeros_like(theta[:1]), torch.ones_like(theta[:1])]
        pose = torch.cat([theta] + ends)[pose_index]                    # (bones + 3, 3)
        rel = torch.cat([base_rel[:, :, :3] @ _euler(torch, pose[3:]), base_rel[:, :, 3:]], 2)
        absolutes = []
        for i, p in enumerate(parents):
            absolutes.append(rel[i] if p < 0 else absolutes[p] @ rel[i])
        transforms = (torch.stack(absolutes) @ inv_base_abs)[:, :3]     # (bones, 3, 4)
        blended = (weights @ transforms.reshape(n_bones, 12)).reshape(-1, 3, 4)
        skinned = (blended @ base_pos[:, :, None])[:, :, 0]             # (verts, 3)
        return skinned @ (_angle_axis(torch, pose[0]) * pose[1]).T + pose[2]
    return vertices


def _model_args(inp: dict, convert) -> list:
    return [convert(inp[k]) for k in ("base_relatives", "inverse_base_absolutes",
                                      "base_positions", "weights")]


def _residuals(torch, inp: dict):
    """residuals(theta, du, *model, points, corr, tri, us): du is added to every u_i."""
    vertices = _torch_model(torch, inp)

    def simple(theta, *rest):
        *model, points, corr = rest
        return (points - vertices(theta, *model)[corr]).reshape(-1)

    def complicated(theta, du, *rest):
        *model, points, corr, tri, us = rest
        verts = vertices(theta, *model)
        t = tri[corr]
        u = us + du
        hand = (u[:, 0:1] * verts[t[:, 0]] + u[:, 1:2] * verts[t[:, 1]]
                + (1 - u[:, 0:1] - u[:, 1:2]) * verts[t[:, 2]])
        return (points - hand).reshape(-1)
    return complicated if "us" in inp else simple


def _data_args(inp: dict, convert) -> list:
    extra = [inp["triangles"], inp["us"]] if "us" in inp else []
    return [convert(a) for a in [inp["points"], inp["correspondences"]] + extra]


def torch_impl(inp: dict) -> dict:
    import torch
    from torch.func import jacfwd
    res = _residuals(torch, inp)
    complicated = "us" in inp
    jac = jacfwd(res, argnums=(0, 1) if complicated else 0)

    def args():
        lead = [torch.zeros(2, dtype=torch.float64)] if complicated else []
        return ([torch.from_numpy(inp["theta"])] + lead + _model_args(inp, torch.from_numpy)
                + _data_args(inp, torch.from_numpy))

    def objective():
        return res(*args()).numpy()

    def jacobian():
        J = jac(*args())
        return torch.cat([J[1], J[0]], 1).numpy() if complicated else J.numpy()
    return {"objective": objective, "jacobian": jacobian}


def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg
    res = _residuals(sg, inp)
    complicated = "us" in inp
    fixed = _model_args(inp, np.asarray) + _data_args(inp, np.asarray)
    lead = [np.zeros(2)] if complicated else []
    obj = sg.compile(res)
    jac = sg.jacfwd(res, argnums=(0, 1) if complicated else 0)

    def objective():
        return obj(inp["theta"], *lead, *fixed)

    def jacobian():
        J = jac(inp["theta"], *lead, *fixed)
        return np.concatenate([J[1], J[0]], 1) if complicated else J
    return {"objective": objective, "jacobian": jacobian}


# ---------------------------------------------------------------- JAX

def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    res = _residuals(_JaxTorch(jnp), inp)
    complicated = "us" in inp
    fixed = _model_args(inp, np.asarray) + _data_args(inp, np.asarray)
    lead = [np.zeros(2)] if complicated else []
    obj = jax.jit(res)
    jac = jax.jit(jax.jacfwd(res, argnums=(0, 1) if complicated else 0))

    def objective():
        return np.asarray(obj(inp["theta"], *lead, *fixed))

    def jacobian():
        J = jac(inp["theta"], *lead, *fixed)
        return np.concatenate([np.asarray(J[1]), np.asarray(J[0])], 1) if complicated \
            else np.asarray(J)
    return {"objective": objective, "jacobian": jacobian}


class _JaxTorch:
    """The few torch names the model uses, spelled in jax.numpy (the code is the same)."""

    def __init__(self, jnp):
        self.jnp = jnp

    def __getattr__(self, name):
        return getattr(self.jnp, name)

    def cat(self, arrays, dim=0):
        return self.jnp.concatenate(arrays, dim)

    def stack(self, arrays, dim=0):
        return self.jnp.stack(arrays, dim)

    def eye(self, n, dtype=None):
        return self.jnp.eye(n, dtype=dtype)
