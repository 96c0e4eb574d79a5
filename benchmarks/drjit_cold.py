"""Dr.Jit's cold first call on the small problems of ``make bench-compile``, for side by side.

Benchmark helper (runs under a Python that has ``drjit``: ``.venv-bench``, or any venv with
``pip install drjit numpy``; not under symgrad's). Input: a problem name. Output: one JSON line
(``--child``): the ``import drjit`` time, the first call's wall time (NumPy arguments in, the
value and the gradients out as NumPy arrays), and Dr.Jit's own record of the kernels it
compiled (``dr.kernel_history``: how many, their code generation and LLVM times); with
``--dump PATH`` also the results, for ``compile.py`` to compare with symgrad's.

Each problem is the ``make bench`` problem's computation (``problems/``, first size) written
with Dr.Jit's tensors on the LLVM backend (``drjit.llvm.ad``), the gradient by
``dr.enable_grad`` and ``dr.backward``. Differences from symgrad's version: Dr.Jit has no
``log1p`` (``log(1 + u)`` here); ``max(z, 0)`` is a ``select`` (``dr.maximum`` aborts in the
system's LLVM 15: "Cannot select: fmaximum"); the ODE's 200 RK4 steps are a ``dr.while_loop``
(as ``ode_fori``'s ``fori_loop``): unrolled by Python (``problems.ode.rk4``), Dr.Jit makes one
kernel of the whole backward pass whose LLVM time grows quadratically (measured here: 0.85 s
for 10 steps, 4.6 s for 20, 19.5 s for 40; 200 did not finish in 6 minutes), also with a
``dr.eval`` after each forward step.

Cold means: a fresh process and an empty kernel cache. Dr.Jit keeps compiled kernels on disk
(``~/.drjit`` by default); ``DRJIT_CACHE_DIR`` points it elsewhere, and ``compile.py`` sets it
to a new empty temporary directory for every run (``run()`` below does the same).

    python benchmarks/drjit_cold.py [--only seed,ode]        # one fresh process per problem
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

# symgrad's problem (compile_problems.PROBLEMS) -> the Dr.Jit function below that matches it.
PROBLEMS = ("seed", "logreg", "mlp", "elementwise", "rosenbrock", "nbody", "ode")
MATCHES = {"seed": "seed", "logreg": "logreg", "mlp": "mlp", "elementwise": "elementwise",
           "rosenbrock": "rosenbrock", "nbody": "nbody", "ode_fori": "ode", "ode": "ode"}


def inputs(name: str) -> list:
    sys.path.insert(0, str(HERE))
    import problems
    module = problems.load(name)
    return module.inputs(module.SIZES[0])


def seed(m, dr, x):
    x = m.TensorXf(x)
    dr.enable_grad(x)
    return dr.mean(3 * (x + 2) ** 2), [x]


def logreg(m, dr, w, b, x, y):
    w, b, x, y = (m.TensorXf(a) for a in (w, b, x, y))
    dr.enable_grad(w, b)
    z = x @ w + b
    value = dr.mean(dr.select(z > 0, z, 0) - z * y + dr.log(1 + dr.exp(-dr.abs(z))))
    return value, [w, b]


def mlp(m, dr, W1, b1, W2, b2, x, t):
    rows, classes = t.shape[0], W2.shape[1]
    W1, b1, W2, b2, x = (m.TensorXf(a) for a in (W1, b1, W2, b2, x))
    dr.enable_grad(W1, b1, W2, b2)
    z = dr.tanh(x @ W1 + b1) @ W2 + b2
    zmax = dr.detach(dr.max(z, axis=1))
    lse = dr.log(dr.sum(dr.exp(z - zmax[:, None]), axis=1)) + zmax
    picked = dr.gather(m.Float, z.array, m.UInt32(np.arange(rows) * classes + t))
    return dr.mean(lse.array - picked), [W1, b1, W2, b2]


def elementwise(m, dr, x, y):
    x, y = m.TensorXf64(x), m.TensorXf64(y)
    dr.enable_grad(x, y)
    value = dr.sum(dr.sin(x) * dr.exp(-x * x) + dr.tanh(x * y) + dr.log(1 + y * y))
    return value, [x, y]


def rosenbrock(m, dr, x):
    x = m.TensorXf64(x)
    dr.enable_grad(x)
    return dr.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2), [x]


def nbody(m, dr, r):
    n = r.shape[0]
    mask = m.TensorXf64(np.triu(np.ones((n, n)), 1))
    r = m.TensorXf64(r)
    dr.enable_grad(r)
    d = r[:, None, :] - r[None, :, :]
    d2 = dr.sum(d * d, axis=2)
    return dr.sum(dr.select(mask > 0, 1 / dr.sqrt(d2 + (1 - mask)), 0)), [r]


def ode(m, dr, p):
    """``dr.while_loop`` of 200 RK4 steps (``max_iterations``: reverse mode keeps each step's
    state), the step as ``problems.ode.step``."""
    sys.path.insert(0, str(HERE))
    from problems import ode as problem
    p = m.Float64(p)
    dr.enable_grad(p)
    th, om, k, c = (dr.gather(m.Float64, p, m.UInt32(i)) for i in range(4))

    def body(th, om, i):
        return (*problem.step(dr.sin, k, c, th, om), i + 1)
    th, om, _ = dr.while_loop((th, om, m.UInt32(0)), lambda th, om, i: i < problem.STEPS,
                              body, max_iterations=problem.STEPS)
    return th * th + om * om, [p]


def first_call(name: str, args: list) -> list:
    """The value and gradients of ``name`` at ``args``: NumPy in, NumPy out."""
    import drjit as dr
    import drjit.llvm.ad as m
    value, wrt = globals()[name](m, dr, *args)
    dr.backward(value)
    return [np.asarray(value.numpy(), dtype=np.float64).reshape(())] + \
        [np.asarray(dr.grad(a).numpy(), dtype=np.float64) for a in wrt]


def child(name: str, dump: str | None) -> dict:
    t0 = time.perf_counter()
    import drjit as dr
    import drjit.llvm.ad  # noqa: F401  (the LLVM backend: loads libLLVM)
    imported = time.perf_counter()
    dr.set_flag(dr.JitFlag.KernelHistory, True)
    args = inputs(name)
    start = time.perf_counter()
    results = first_call(name, args)
    first = time.perf_counter() - start
    history = dr.kernel_history()
    jit = [k for k in history if k.get("type") == dr.KernelType.JIT]
    if dump:
        np.savez(dump, *results)
    return {"problem": name, "import": imported - t0, "first_call": first,
            "kernels": len(jit), "launches": len(history),
            "compiled": sum(1 for k in jit if not k.get("cache_hit") and not k.get("cache_disk")),
            "codegen_ms": sum(k.get("codegen_time", 0.0) for k in jit),
            "llvm_ms": sum(k.get("backend_time", 0.0) for k in jit),
            "cache_dir": os.environ.get("DRJIT_CACHE_DIR", ""),
            "cache_files": len(os.listdir(os.environ["DRJIT_CACHE_DIR"]))
            if os.environ.get("DRJIT_CACHE_DIR") else None,
            "drjit": dr.__version__}


def run(python: str, name: str, dump: str | None = None) -> dict:
    """``name``'s cold first call in a fresh ``python`` process with an empty kernel cache."""
    with tempfile.TemporaryDirectory(prefix="drjit-cold-") as cache:
        env = dict(os.environ, DRJIT_CACHE_DIR=cache)
        cmd = [python, str(Path(__file__).resolve()), "--child", name]
        out = subprocess.run(cmd + (["--dump", dump] if dump else []), env=env, check=True,
                             capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def available(python: str) -> str | None:
    """Dr.Jit's version under ``python``, or None when it cannot import ``drjit.llvm.ad``."""
    try:
        proc = subprocess.run([python, "-c", "import drjit, drjit.llvm.ad; "
                               "print(drjit.__version__)"], capture_output=True, text=True,
                              timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child")
    parser.add_argument("--dump")
    parser.add_argument("--only", default=",".join(PROBLEMS))
    a = parser.parse_args()
    if a.child:
        print(json.dumps(child(a.child, a.dump)))
        return
    for name in a.only.split(","):
        r = run(sys.executable, name)
        print(f"{name}: import {r['import'] * 1e3:.0f} ms, first call "
              f"{r['first_call'] * 1e3:.0f} ms, {r['compiled']} kernels compiled "
              f"(LLVM {r['llvm_ms']:.0f} ms)")


if __name__ == "__main__":
    main()
