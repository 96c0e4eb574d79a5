"""torch and JAX on the large problems of ``make bench-compile``, for side by side.

Benchmark helper (runs under a Python that has torch and jax: ``.venv-bench``; not under
symgrad's). Input: a problem name and a system. Output: one JSON line (``--child``): the
import time, the first call's wall time and the second call's, NumPy arguments in; with
``--dump PATH`` also the value and the gradients, for ``compile.py`` to compare with symgrad's.

The problems are ``compile_problems.py``'s own functions (``rk4_loss``, ``det_fn``,
``det_flat_fn``) run on the other system's tensors, so the computation is the same line for
line:

* **torch**, eager: one forward pass and ``backward()``. This is what running the user's
  program once costs at the speed of torch's C++ dispatcher: tracing executes the program
  once too, so it is a floor that symgrad's Python trace cannot beat by its own means.
* **JAX**: ``jax.jit(jax.value_and_grad(f))``, first call = trace + XLA compile + run: the
  other compiler's cold first call on the same program (float64).

Each run is a fresh process. ``compile.py --peers-python PATH`` runs them; by hand:

    python benchmarks/compile_peers.py --only det7,rk4_400 [--runs 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compile_problems import det_flat_fn, det_fn, rk4_loss  # noqa: E402

SYSTEMS = ("torch", "jax")
# problem -> (build(ns, columns) -> (fn, args), argnums)
PROBLEMS = {
    **{f"rk4_{n}": (lambda ns, cols, n=n: rk4_loss(ns, n), (0, 1)) for n in (10, 100, 400)},
    "det7": (lambda ns, cols: det_fn(cols, 7), (0,)),
    "det7_flat": (lambda ns, cols: det_flat_fn(7), (0,)),
}


def _namespace(system: str):
    """(tensor module, columns(parts)) of a system, imported here (the import is timed)."""
    if system == "jax":
        import jax
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        return jnp, lambda parts: jnp.concatenate(parts, axis=1)
    import torch
    torch.set_num_threads(1)
    return torch, lambda parts: torch.cat(parts, dim=1)


def _runner(system: str, fn, argnums: tuple):
    """``call(*arrays) -> [value, *gradients]`` as NumPy arrays."""
    if system == "jax":
        import jax
        g = jax.jit(jax.value_and_grad(fn, argnums=argnums))

        def call(*args):
            value, grads = jax.block_until_ready(g(*args))
            return [np.asarray(value), *map(np.asarray, grads)]
        return call
    import torch

    def call(*args):
        ts = [torch.tensor(a, requires_grad=i in argnums) for i, a in enumerate(args)]
        value = fn(*ts)
        value.backward()
        return [value.detach().numpy(), *(ts[i].grad.numpy() for i in argnums)]
    return call


def child(system: str, name: str, dump: str | None) -> None:
    t0 = time.perf_counter()
    ns, columns = _namespace(system)
    imported = time.perf_counter() - t0
    build, argnums = PROBLEMS[name]
    fn, args = build(ns, columns)
    call = _runner(system, fn, argnums)
    start, cpu = time.perf_counter(), time.process_time()
    results = call(*args)
    first, first_cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    call(*args)
    second = time.perf_counter() - start
    if dump:
        np.savez(dump, *[np.asarray(r, dtype=np.float64) for r in results])
    print(json.dumps({"system": system, "problem": name, "import": imported,
                      "first_call": first, "first_call_cpu": first_cpu,
                      "second_call": second}))


TIMEOUT = 900.0   # seconds a system may take on one problem (JAX's compile grows superlinearly)


def run(python: str, system: str, name: str, dump: str | None = None) -> dict:
    """One fresh process of ``python`` running ``system`` on problem ``name``; a run that
    takes more than ``TIMEOUT`` seconds is stopped and reported as such, one that fails (JAX
    killed for want of memory on the 400-step RK4: 24 GB) as ``failed`` with its reason."""
    cmd = [python, __file__, "--child", name, "--system", system] + \
        (["--dump", dump] if dump else [])
    env = dict(os.environ, JAX_PLATFORMS="cpu", XLA_FLAGS="--xla_cpu_multi_thread_eigen=false",
               OMP_NUM_THREADS="1")
    try:
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True,
                             timeout=TIMEOUT).stdout
    except subprocess.TimeoutExpired:
        return {"system": system, "problem": name, "timeout": TIMEOUT}
    except subprocess.CalledProcessError as e:
        why = f"killed by signal {-e.returncode}" if e.returncode < 0 else \
            f"exit status {e.returncode}"
        if e.returncode == -9:
            why += " (out of memory?)"
        return {"system": system, "problem": name, "failed": why}
    return json.loads(out.strip().splitlines()[-1])


def available(python: str) -> str | None:
    """The torch and JAX versions ``python`` imports, or None."""
    code = "import torch, jax; print(torch.__version__, jax.__version__)"
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode:
        return None
    torch_v, jax_v = out.stdout.split()
    return f"torch {torch_v}, JAX {jax_v}"


def measure(python: str, name: str, runs: int, dumps: str | None = None) -> dict | None:
    """Per system, the medians over ``runs`` fresh processes (None: not a peers problem);
    the first run's results dumped to ``dumps/<system>-<name>.npz`` when ``dumps`` is set."""
    if name not in PROBLEMS:
        return None
    side = {}
    for system in SYSTEMS:
        dump = None if dumps is None else str(Path(dumps) / f"{system}-{name}.npz")
        records = []
        for r in range(runs):
            records.append(run(python, system, name, dump if r == 0 else None))
            if "timeout" in records[-1] or "failed" in records[-1]:
                break     # (no second try of what could not finish)
        if "timeout" in records[-1] or "failed" in records[-1]:
            side[system] = {k: v for k, v in records[-1].items() if k in ("timeout", "failed")}
            continue
        side[system] = {k: statistics.median(r[k] for r in records)
                        for k in ("import", "first_call", "first_call_cpu", "second_call")}
        side[system]["dump"] = dump
    return side


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--child")
    parser.add_argument("--system", choices=SYSTEMS)
    parser.add_argument("--dump")
    parser.add_argument("--only", default=",".join(PROBLEMS))
    parser.add_argument("--runs", type=int, default=1)
    a = parser.parse_args()
    if a.child:
        child(a.system, a.child, a.dump)
        return
    for name in a.only.split(","):
        side = measure(sys.executable, name, a.runs)
        for system, m in side.items():
            if "timeout" in m:
                print(f"{name} {system}: did not finish in {m['timeout']:.0f} s", flush=True)
                continue
            if "failed" in m:
                print(f"{name} {system}: failed, {m['failed']}", flush=True)
                continue
            print(f"{name} {system}: import {m['import']:.2f} s, first call "
                  f"{m['first_call']:.2f} s ({m['first_call_cpu']:.2f} s CPU), "
                  f"second call {m['second_call'] * 1e3:.1f} ms", flush=True)


if __name__ == "__main__":
    main()
