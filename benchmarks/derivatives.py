"""Derivatives beyond the gradient (make bench-derivatives): per-example gradients, dense and
sparse Hessians, a sparse Jacobian, forward mode; symgrad against jax.jit, torch.func and
CasADi in one run.

Problems (NumPy in, NumPy out for every system; each result is checked against symgrad's):

* ``per_example``: ``vmap(grad(loss))`` of a 784-256-10 tanh MLP's cross-entropy, batch 256,
  float32; also a Python loop over symgrad's compiled ``grad`` of one example;
* ``hessian_dense``: the dense Hessian of the Rosenbrock function, N = 100 and N = 1000;
* ``hessian_sparse``: its sparse Hessian at N = 10,000 (tridiagonal: star coloring, 3
  Hessian-vector products), against CasADi's generated C for its sparse Hessian (built with
  gcc -O3 -march=native, called through ``casadi.external``) and, once, symgrad's dense
  Hessian at the same N;
* ``bundle_adjustment``: the Jacobian of a bundle-adjustment residual function (BAL camera
  model: Rodrigues rotation, translation, focal length, two radial distortion terms; 9
  camera and 3 point parameters per observation, 2 residuals) at the ADBench/GradBench
  shape (21 cameras, 11,315 points, 36,455 observations): symgrad's sparse Jacobian (a
  72,910 x 34,134 CSR matrix) against jax.jit of vmap(jacfwd) of one observation (its dense
  2 x 9 and 2 x 3 blocks);
* ``jvp_elementwise``: the JVP of the suite's elementwise problem at N = 10^6 against its
  VJP (``value_and_grad``), both symgrad.

Per-call times are medians over rounds in which the systems of a problem alternate (machine
noise falls on all of them alike).

    python benchmarks/derivatives.py [--only per_example,hessian_dense] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def _median_call(fn, rounds: int, min_time: float = 0.2) -> list:
    """One sample per round: the mean time of enough calls to fill ``min_time``."""
    fn()
    samples = []
    for _ in range(rounds):
        n, start = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time or (n >= 2 and elapsed > 2.0):
                break
        samples.append(elapsed / n)
    return samples


def alternate(systems: dict, rounds: int) -> dict:
    """Median seconds per call of each system, the systems taking turns round by round."""
    for fn in systems.values():
        fn()
    samples: dict = {k: [] for k in systems}
    for r in range(rounds):
        order = list(systems)
        order = order[r % len(order):] + order[:r % len(order)]
        for k in order:
            samples[k] += _median_call(systems[k], 1)
    return {k: float(np.median(v)) for k, v in samples.items()}


def _jax():
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        return jax
    except ImportError:
        return None


def _torch():
    try:
        import torch
        torch.set_num_threads(1)
        return torch
    except ImportError:
        return None


# ---------------------------------------------------------------- per-example gradients

def per_example(rounds: int) -> dict:
    import symgrad as sg
    rng = np.random.default_rng(0)
    dt = np.float32
    params = {"w1": (rng.normal(size=(784, 256)) / 28).astype(dt), "b1": np.zeros(256, dt),
              "w2": (rng.normal(size=(256, 10)) / 16).astype(dt), "b2": np.zeros(10, dt)}
    x = rng.normal(size=(256, 784)).astype(dt)
    y = rng.integers(0, 10, size=256)

    def loss(p, xi, yi):
        h = sg.tanh(xi @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        return sg.logsumexp(logits, 0) - logits[yi]
    f = sg.vmap(sg.grad(loss), in_axes=(None, 0, 0))
    one = sg.grad(loss)
    ref = f(params, x, y)
    systems = {"symgrad vmap(grad)": lambda: f(params, x, y),
               "symgrad loop of grad": lambda: [one(params, x[i], y[i]) for i in range(256)]}
    jax = _jax()
    if jax is not None:
        import jax.numpy as jnp

        def jloss(p, xi, yi):
            h = jnp.tanh(xi @ p["w1"] + p["b1"])
            logits = h @ p["w2"] + p["b2"]
            return jax.nn.logsumexp(logits) - logits[yi]
        jf = jax.jit(jax.vmap(jax.grad(jloss), in_axes=(None, 0, 0)))
        _check(ref, {k: np.asarray(v) for k, v in jf(params, x, y).items()}, 1e-4)
        systems["jax.jit(vmap(grad))"] = lambda: {k: np.asarray(v)
                                                  for k, v in jf(params, x, y).items()}
    torch = _torch()
    if torch is not None:
        from torch.func import grad, vmap

        def tloss(p, xi, yi):
            h = torch.tanh(xi @ p["w1"] + p["b1"])
            logits = h @ p["w2"] + p["b2"]
            return torch.logsumexp(logits, 0) - logits.gather(0, yi.reshape(1))[0]
        tf = vmap(grad(tloss), in_dims=(None, 0, 0))

        def run_torch():
            tp = {k: torch.from_numpy(v) for k, v in params.items()}
            return {k: v.numpy() for k, v in tf(tp, torch.from_numpy(x),
                                                 torch.from_numpy(y)).items()}
        _check(ref, run_torch(), 1e-4)
        systems["torch.func vmap(grad)"] = run_torch
    return alternate(systems, rounds)


def _check(want, got, rtol: float) -> None:
    for k in want:
        scale = np.abs(want[k]).max() + 1e-30
        err = np.abs(np.asarray(got[k]) - want[k]).max() / scale
        if err > rtol:
            raise AssertionError(f"{k}: relative error {err:.2e}")


# ---------------------------------------------------------------- Hessians

def rosenbrock(np_):
    def f(x):
        return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()
    return f


def hessian_dense(rounds: int) -> dict:
    """At N = 100 and N = 1000 (the n x n result: 8 MB, written once by one loop)."""
    times = {}
    for n in (100, 1000):
        times.update({f"{k} N={n}": t for k, t in _hessian_dense(n, rounds).items()})
    return times


def _hessian_dense(n: int, rounds: int) -> dict:
    import symgrad as sg
    x = np.random.default_rng(1).normal(size=n)
    h = sg.hessian(rosenbrock(sg))
    ref = h(x)
    systems = {"symgrad hessian": lambda: h(x)}
    jax = _jax()
    if jax is not None:
        import jax.numpy as jnp
        jh = jax.jit(jax.hessian(lambda z: jnp.sum(100 * (z[1:] - z[:-1] ** 2) ** 2
                                                   + (1 - z[:-1]) ** 2)))
        assert np.allclose(np.asarray(jh(x)), ref, rtol=1e-10, atol=1e-8)
        systems["jax.jit(hessian)"] = lambda: np.asarray(jh(x))
    torch = _torch()
    if torch is not None:
        from torch.func import hessian
        th = hessian(lambda z: (100 * (z[1:] - z[:-1] ** 2) ** 2 + (1 - z[:-1]) ** 2).sum())
        systems["torch.func hessian"] = lambda: th(torch.from_numpy(x)).numpy()
        assert np.allclose(systems["torch.func hessian"](), ref, rtol=1e-10, atol=1e-8)
    return alternate(systems, rounds)


def _casadi_hessian(n: int):
    """CasADi's sparse Rosenbrock Hessian as generated C (gcc -O3), or None."""
    try:
        import casadi as ca
    except ImportError:
        return None
    x = ca.SX.sym("x", n)
    f = ca.sum1(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    fn = ca.Function("rosen_hess", [x], [ca.hessian(f, x)[0]])
    d = Path(tempfile.mkdtemp(prefix="casadi-"))
    gen = ca.CodeGenerator("rosen_hess.c", {"with_header": False})
    gen.add(fn)
    gen.generate(str(d) + "/")
    subprocess.check_call(["gcc", "-O3", "-march=native", "-shared", "-fPIC",
                           str(d / "rosen_hess.c"), "-o", str(d / "rosen_hess.so")])
    return ca.external("rosen_hess", str(d / "rosen_hess.so"))


def hessian_sparse(rounds: int) -> dict:
    import symgrad as sg
    n = 10_000
    x = np.random.default_rng(2).normal(size=n)
    h = sg.sparse.hessian(rosenbrock(sg))
    out = h(x)
    systems = {"symgrad sparse.hessian": lambda: h(x),
               "symgrad sparse.hessian (out=)": lambda: h(x, out=out)}
    cas = _casadi_hessian(n)
    if cas is not None:
        got = cas(x).sparse()
        assert abs(got - out).max() < 1e-8 * abs(out).max()
        systems["CasADi generated C"] = lambda: cas(x).sparse()
    result = alternate(systems, rounds)
    dense = sg.hessian(rosenbrock(sg))
    start = time.perf_counter()
    full = dense(x)
    result["symgrad dense hessian (one call, with its first)"] = time.perf_counter() - start
    start = time.perf_counter()
    dense(x)
    result["symgrad dense hessian (one call)"] = time.perf_counter() - start
    assert np.allclose(full[:50, :50], out[:50, :50].toarray(), rtol=1e-10)
    return result


# ---------------------------------------------------------------- bundle adjustment

def ba_data(seed: int = 3, cams: int = 21, points: int = 11315, obs: int = 36455):
    rng = np.random.default_rng(seed)
    c = np.concatenate([rng.normal(scale=0.1, size=(cams, 3)),
                        rng.normal(scale=0.5, size=(cams, 3)) + [0, 0, -10],
                        rng.uniform(400, 600, size=(cams, 1)),
                        rng.normal(scale=1e-3, size=(cams, 2))], axis=1)
    p = rng.normal(size=(points, 3))
    cam_idx = np.concatenate([np.arange(cams), rng.integers(0, cams, obs - cams)])
    pt_idx = np.concatenate([np.arange(points), rng.integers(0, points, obs - points)])
    observed = rng.normal(scale=50, size=(obs, 2))
    return c, p, cam_idx.astype(np.int64), pt_idx.astype(np.int64), observed


def ba_residuals(np_, cross, stack_cols, norm_rows):
    """The BAL residual vectorized over observations, for a NumPy-like module."""
    def residuals(cams, points, cam_idx, pt_idx, observed):
        c, X = cams[cam_idx], points[pt_idx]
        w, t = c[:, 0:3], c[:, 3:6]
        f, k1, k2 = c[:, 6:7], c[:, 7:8], c[:, 8:9]
        theta = norm_rows(w)
        k = w / theta
        cos, sin = np_.cos(theta), np_.sin(theta)
        kdotx = (k * X).sum(1, keepdims=True) if np_.__name__ != "symgrad" else \
            (k * X).sum(1, keepdim=True)
        P = X * cos + cross(k, X) * sin + k * kdotx * (1 - cos) + t
        p = -P[:, 0:2] / P[:, 2:3]
        r2 = (p * p).sum(1, keepdims=True) if np_.__name__ != "symgrad" else \
            (p * p).sum(1, keepdim=True)
        return ((f * (1 + k1 * r2 + k2 * r2 * r2)) * p - observed).reshape(-1)
    return residuals


def _cross(stack_cols):
    def cross(a, b):
        return stack_cols([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
                           a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                           a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]])
    return cross


def bundle_adjustment(rounds: int) -> dict:
    import symgrad as sg
    data = ba_data()
    stack = lambda cols: sg.stack(cols, 1)   # noqa: E731
    res = ba_residuals(sg, _cross(stack), stack,
                       lambda w: sg.sqrt((w * w).sum(1, keepdim=True)))
    jac = sg.sparse.jacobian(res, argnums=(0, 1))
    J = jac(*data)
    _check_ba_fd(res, data, J)
    systems = {"symgrad sparse.jacobian": lambda: jac(*data),
               "symgrad sparse.jacobian (out=)": lambda: jac(*data, out=J)}
    jax = _jax()
    if jax is not None:
        import jax.numpy as jnp
        jstack = lambda cols: jnp.stack(cols, 1)   # noqa: E731
        jres = ba_residuals(jnp, _cross(jstack), jstack,
                            lambda w: jnp.sqrt((w * w).sum(1, keepdims=True)))

        def one(cam, X, o):
            return jres(cam[None], X[None], jnp.zeros(1, int), jnp.zeros(1, int), o[None])
        blocks = jax.jit(lambda c, p, ci, pi, o: jax.vmap(jax.jacfwd(one, argnums=(0, 1)))(
            c[ci], p[pi], o))
        systems["jax.jit(vmap(jacfwd)) blocks"] = lambda: [np.asarray(b)
                                                           for b in blocks(*data)]
        _check_ba_blocks(systems["jax.jit(vmap(jacfwd)) blocks"](), J, data)
    out = alternate(systems, rounds)
    out["(Jacobian)"] = f"{J.shape[0]} x {J.shape[1]}, {J.nnz} nonzeros, " \
        f"{jac.plan(*data).n_colors} colors ({jac.plan(*data).mode})"
    return out


def _check_ba_fd(res, data, J) -> None:
    """A few columns of the sparse Jacobian against central differences."""
    import symgrad as sg
    f = sg.compile(res)
    cams, points = data[0], data[1]
    rng = np.random.default_rng(9)
    dense_cols = J.tocsc()
    for col in list(rng.integers(0, cams.size, 4)) + list(cams.size +
                                                         rng.integers(0, points.size, 4)):
        e = np.zeros(cams.size + points.size)
        h = 1e-6 * max(1.0, abs(np.concatenate([cams.ravel(), points.ravel()])[col]))
        e[col] = h
        plus = f(cams + e[:cams.size].reshape(cams.shape),
                 points + e[cams.size:].reshape(points.shape), *data[2:])
        minus = f(cams - e[:cams.size].reshape(cams.shape),
                  points - e[cams.size:].reshape(points.shape), *data[2:])
        fd = (plus - minus) / (2 * h)
        got = dense_cols[:, col].toarray().ravel()
        assert np.allclose(got, fd, rtol=1e-5, atol=1e-5 * np.abs(fd).max()), col


def _check_ba_blocks(blocks, J, data) -> None:
    cam_idx, pt_idx = data[2], data[3]
    dc, dp = blocks
    for o in (0, 1, 5000, len(cam_idx) - 1):
        for r in range(2):
            row = J.getrow(2 * o + r).toarray().ravel()
            assert np.allclose(row[cam_idx[o] * 9:cam_idx[o] * 9 + 9], dc[o, r], rtol=1e-8)
            start = data[0].size + pt_idx[o] * 3
            assert np.allclose(row[start:start + 3], dp[o, r], rtol=1e-8)


# ---------------------------------------------------------------- forward mode

def jvp_elementwise(rounds: int) -> dict:
    import symgrad as sg
    sys.path.insert(0, str(HERE.parent / "tests"))
    from references import elementwise
    rng = np.random.default_rng(4)
    x, y = rng.normal(size=10 ** 6), rng.normal(size=10 ** 6)
    u, v = rng.normal(size=10 ** 6), rng.normal(size=10 ** 6)
    vg = sg.value_and_grad(elementwise, argnums=(0, 1))
    value, (gx, gy) = vg(x, y)
    out, tangent = sg.jvp(elementwise, (x, y), (u, v))
    assert np.isclose(tangent, gx @ u + gy @ v, rtol=1e-9)
    return alternate({"symgrad jvp": lambda: sg.jvp(elementwise, (x, y), (u, v)),
                      "symgrad value_and_grad (VJP)": lambda: vg(x, y)}, rounds)


PROBLEMS = {"per_example": per_example, "hessian_dense": hessian_dense,
            "hessian_sparse": hessian_sparse, "bundle_adjustment": bundle_adjustment,
            "jvp_elementwise": jvp_elementwise}


def _show(name: str, times: dict) -> None:
    print(f"\n{name}")
    base = next(iter(times.values()))
    for k, t in times.items():
        if isinstance(t, str):
            print(f"  {k:48s} {t}")
        else:
            print(f"  {k:48s} {t * 1e3:10.3f} ms   {t / base:6.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(PROBLEMS)
    results = {}
    for name in names:
        results[name] = PROBLEMS[name](args.rounds)
        _show(name, results[name])
    out = HERE / "results" / "derivatives.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    print(f"\nwritten {out.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
