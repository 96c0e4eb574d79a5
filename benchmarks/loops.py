"""Loops (make bench-loops): compile time and speed of structured control flow.

Problems, each a value_and_grad, each compiled in a fresh process with an empty cache
directory (``cold``: the first call, with the library already imported: trace, passes,
lowering, code generation and the C compiler; for JAX, its tracing and XLA's compile):

* ``ode_fori``: the suite's ODE problem (``problems/ode.py``: RK4 of a damped pendulum on
  scalars, 200 steps) written with ``sg.fori_loop`` and the step count a runtime argument
  (a while loop: its backward keeps a tape of carries and recomputes each step); a call with
  another step count must not recompile. ``ode_scan``: the same with Python int bounds (a
  scan, whose backward reads the values it stored). ``ode_unrolled``: the Python loop
  unrolled, as the suite measures it;
* ``rk4_fori N``: an RK4 of 2-vector states (``sg.stack``) through ``fori_loop`` with N = 10
  and 10,000 steps as a runtime argument: one compile serves both;
* ``lstm``: the ADBench/GradBench LSTM objective (2 layers, 14-bit characters, a 1024-character
  sequence; the gradient with respect to all weights), written with ``sg.scan``, beside
  ``jax.jit(jax.value_and_grad)`` of the same ``lax.scan`` formulation when JAX is installed
  (``make bench`` installs it in .venv-bench).

Per-call times are medians of repeated timed batches in one run (NumPy in, NumPy out); the
ODE problems are also timed side by side in one process, their batches alternating, for
their ratios.

    python benchmarks/loops.py [--only ode_fori,lstm] [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from problems.ode import step as ode_step  # noqa: E402  (one RK4 step, as the suite's)

DT = 0.01


# ---------------------------------------------------------------- problems

def ode_fori():
    import symgrad as sg

    def loss(p, n):
        k, c = p[2], p[3]
        th, om = sg.fori_loop(0, n, lambda i, s: ode_step(sg.sin, k, c, *s), (p[0], p[1]))
        return th * th + om * om
    return sg.value_and_grad(loss, argnums=0), [np.array([1.0, 0.5, 9.81, 0.3]), 200]


def ode_scan():
    """The same with Python int bounds: a scan (its backward reads the stored residuals)."""
    import symgrad as sg

    def loss(p):
        k, c = p[2], p[3]
        th, om = sg.fori_loop(0, 200, lambda i, s: ode_step(sg.sin, k, c, *s), (p[0], p[1]))
        return th * th + om * om
    return sg.value_and_grad(loss, argnums=0), [np.array([1.0, 0.5, 9.81, 0.3])]


def ode_unrolled():
    import symgrad as sg
    from problems import ode
    return sg.value_and_grad(lambda p: ode.rk4(p, sg.sin)), [np.array([1.0, 0.5, 9.81, 0.3])]


def rk4_fori(steps: int):
    import symgrad as sg

    def f(u, p):
        return sg.stack([u[1], -p[0] * sg.sin(u[0]) - p[1] * u[1]])

    def body(i, u, p):
        k1 = f(u, p)
        k2 = f(u + DT / 2 * k1, p)
        k3 = f(u + DT / 2 * k2, p)
        k4 = f(u + DT * k3, p)
        return u + DT / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

    def loss(u0, p, n):
        u = sg.fori_loop(0, n, lambda i, u: body(i, u, p), u0)
        return (u * u).sum()
    return sg.value_and_grad(loss, argnums=(0, 1)), [np.array([1.0, 0.5]),
                                                      np.array([9.81, 0.3]), steps]


LSTM_L, LSTM_B, LSTM_C = 2, 14, 1024


def lstm_inputs():
    rng = np.random.default_rng(0)
    main = rng.uniform(-0.5, 0.5, (2 * LSTM_L, 4 * LSTM_B))
    extra = rng.uniform(-0.5, 0.5, (3, LSTM_B))
    state = rng.uniform(-0.5, 0.5, (2 * LSTM_L, LSTM_B))
    seq = (rng.uniform(size=(LSTM_C, LSTM_B)) < 0.5).astype(np.float64)
    return [main, extra, state, seq]


def lstm_objective(np_, scan, sigmoid, main, extra, state, seq):
    """ADBench's LSTM objective over any array library (``np_``: its namespace; ``scan``:
    its scan with JAX's signature)."""
    b = LSTM_B

    def model(w, bias, h, c, x):
        gates = np_.concatenate([x, h, x, h]) * w + bias
        forget, ingate = sigmoid(gates[:b]), sigmoid(gates[b:2 * b])
        outgate, change = sigmoid(gates[2 * b:3 * b]), np_.tanh(gates[3 * b:])
        c = c * forget + ingate * change
        return outgate * np_.tanh(c), c

    def step(carry, xs):
        st, total = carry
        x_in, y_gold = xs
        x2 = x_in * extra[0]
        new = []
        for k in range(LSTM_L):
            h, c = model(main[2 * k], main[2 * k + 1], st[2 * k], st[2 * k + 1], x2)
            new += [h, c]
            x2 = h
        ypred = x2 * extra[1] + extra[2]
        ynorm = ypred - np_.log(np_.exp(ypred).sum() + 2)
        return (np_.stack(new), total + (y_gold * ynorm).sum()), None
    (_, total), _ = scan(step, (state, seq[0, 0] * 0.0), (seq[:-1], seq[1:]))
    return -total / ((seq.shape[0] - 1) * b)


def lstm():
    import symgrad as sg

    class NS:
        concatenate, tanh, log, exp, stack = sg.cat, sg.tanh, sg.log, sg.exp, sg.stack

    def loss(main, extra, state, seq):
        return lstm_objective(NS, sg.scan, sg.sigmoid, main, extra, state, seq)
    return sg.value_and_grad(loss, argnums=(0, 1)), lstm_inputs()


def lstm_jax():
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)

    def loss(main, extra, state, seq):
        return lstm_objective(jnp, jax.lax.scan, jax.nn.sigmoid, main, extra, state, seq)
    vg = jax.jit(jax.value_and_grad(loss, argnums=(0, 1)))

    def call(*args):
        value, grads = vg(*args)
        return np.asarray(value), tuple(np.asarray(g) for g in grads)
    return call, lstm_inputs()


PROBLEMS = {"ode_fori": ode_fori, "ode_scan": ode_scan, "ode_unrolled": ode_unrolled,
            "rk4_fori_10": lambda: rk4_fori(10), "rk4_fori_10000": lambda: rk4_fori(10000),
            "lstm": lstm, "lstm_jax": lstm_jax}


# ---------------------------------------------------------------- measuring

def child(name: str, repeat: int) -> dict:
    """Run in a fresh process: the first call's time (the library imported already: trace,
    passes, lowering, code generation, the C compiler), then per-call medians."""
    import symgrad  # noqa: F401
    if name.endswith("jax"):
        import jax  # noqa: F401
    start = time.perf_counter()
    fn, args = PROBLEMS[name]()
    first = fn(*args)
    cold = time.perf_counter() - start
    per_call = _median_call(fn, args, repeat)
    result = {"cold_s": cold, "call_us": per_call * 1e6,
              "value": float(np.asarray(first[0]))}
    if name == "ode_fori":      # another step count: the same compiled code
        other = fn(args[0], 317)
        result["specializations"] = len(fn.specializations)
        result["value_317"] = float(other[0])
    if name.startswith("rk4_fori"):
        result["specializations"] = len(fn.specializations)
    return result


def _median_call(fn, args, repeat: int) -> float:
    start, n = time.perf_counter(), 0
    while time.perf_counter() - start < 0.2:
        fn(*args)
        n += 1
    batch = max(1, n // 2)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn(*args)
        times.append((time.perf_counter() - t0) / batch)
    return float(np.median(times))


def alternating(names: list, repeat: int) -> dict:
    """Per-call medians of several problems timed in one process, batches alternating (the
    unrolled ODE's time varies by tens of percent from one process to the next: its 22k
    straight-line statements do not fit the instruction cache the same way each time)."""
    fns = {n: PROBLEMS[n]() for n in names}
    for fn, args in fns.values():
        fn(*args)
    times: dict = {n: [] for n in names}
    for _ in range(2 * repeat):
        for n, (fn, args) in fns.items():
            t0 = time.perf_counter()
            for _ in range(500):
                fn(*args)
            times[n].append((time.perf_counter() - t0) / 500)
    base = np.array(times[names[-1]])
    return {n: {"call_us": float(np.median(times[n])) * 1e6,
                "ratio": float(np.median(np.array(times[n]) / base))} for n in names}


def run_fresh(name: str, repeat: int) -> dict | None:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, SYMGRAD_CACHE_DIR=cache)
        env["PYTHONPATH"] = str(HERE.parent) + os.pathsep + env.get("PYTHONPATH", "")
        proc = subprocess.run([sys.executable, __file__, "--child", name, "--repeat",
                               str(repeat)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        if "ModuleNotFoundError" in proc.stderr:
            return None
        raise RuntimeError(f"{name} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--child", default="")
    a = parser.parse_args()
    if a.child == "ode_side_by_side":
        print(json.dumps(alternating(["ode_fori", "ode_scan", "ode_unrolled"], a.repeat)))
        return
    if a.child:
        print(json.dumps(child(a.child, a.repeat)))
        return
    names = [n for n in PROBLEMS if not a.only or n in a.only.split(",")]
    print(f"{'problem':16} {'cold':>8} {'per call':>12}  notes")
    for name in names:
        r = run_fresh(name, a.repeat)
        if r is None:
            print(f"{name:16} {'-':>8} {'-':>12}  (not installed)")
            continue
        notes = f"value {r['value']:.12g}"
        if "specializations" in r:
            notes += f"; {r['specializations']} specialization(s)"
        print(f"{name:16} {r['cold_s']:7.3f}s {r['call_us']:10.1f}us  {notes}")
    if not a.only or "ode" in a.only:
        side = run_fresh("ode_side_by_side", a.repeat)
        print("\nthe ODE problems in one process, alternating (per call, ratio to unrolled):")
        for name, r in side.items():
            print(f"{name:16} {r['call_us']:19.1f}us  {r['ratio']:.2f}x")


if __name__ == "__main__":
    main()
