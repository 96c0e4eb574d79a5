"""One system on one problem size, in a process of its own (started by harness.py).

    python benchmarks/child.py '{"problem": ..., "size": ..., "system": ..., "phase": ...}'

Speaks JSON lines over its original stdout (the library's own prints go to stderr):

1. imports the system, makes the inputs, builds the system's function and calls it once,
   timing build + first call (the cold start, or the cache hit in a second process);
2. phase "cold": checks that first result against the reference, reports and exits;
   phase "warm": reports, then answers {"cmd": "time"} with per-call times (batches of calls,
   gc off, as timeit does) until {"cmd": "finish"}, which calls once more, checks that result
   and reports the peak RSS.

The reference is the hand-written NumPy gradient evaluated in float64 on the same inputs; the
NumPy child also checks it against central differences.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import sys
import time
import traceback


def maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # Linux: KiB


class Channel:
    """JSON lines on a private copy of stdout; fd 1 itself goes to stderr."""

    def __init__(self):
        self.out = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr

    def send(self, **msg) -> None:
        self.out.write(json.dumps(msg) + "\n")

    def recv(self) -> dict:
        line = sys.stdin.readline()
        return json.loads(line) if line else {"cmd": "finish"}


def compare(problem, args, result) -> dict:
    """Normwise errors of value and gradients against the float64 reference."""
    import numpy as np
    args64 = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in args]
    ref_value, ref_grads = problem.numpy(args64)(*args64)
    rtol = 1e-4 if problem.DTYPE == "float32" else 1e-8
    value, grads = result
    notes = []
    value = np.asarray(value)
    if value.size != 1:
        notes.append(f"value has shape {value.shape}")
    v_err = abs(float(value.reshape(-1)[0]) - float(ref_value)) / max(abs(float(ref_value)),
                                                                       1e-30)
    g_err = 0.0
    if len(grads) != len(ref_grads):
        notes.append(f"{len(grads)} gradients, expected {len(ref_grads)}")
    for i, (g, r) in enumerate(zip(grads, ref_grads)):
        g = np.asarray(g)
        if g.shape != r.shape:
            notes.append(f"gradient {i} has shape {g.shape}, expected {r.shape}")
            if g.size != r.size:
                g_err = float("inf")
                continue
            g = g.reshape(r.shape)
        scale = max(float(np.max(np.abs(r))), 1e-30)
        g_err = max(g_err, float(np.max(np.abs(g.astype(np.float64) - r))) / scale)
    if not (v_err <= rtol and g_err <= rtol):       # also catches NaN
        notes.append(f"value err {v_err:.1e}, grad err {g_err:.1e} > rtol {rtol:g}")
    dtypes = sorted({str(np.asarray(g).dtype) for g in grads})
    return {"ok": not notes, "value_err": v_err, "grad_err": g_err, "rtol": rtol,
            "out_dtypes": dtypes, "notes": "; ".join(notes)}


def finite_difference_check(problem, args) -> dict:
    """The hand-written gradient vs a central difference along a random direction (float64)."""
    import numpy as np
    args64 = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in args]
    f = problem.numpy(args64)
    _, grads = f(*args64)
    rng = np.random.default_rng(123)
    dirs = [rng.standard_normal(args64[i].shape) for i in problem.GRAD_ARGS]
    eps = 1e-6

    def at(step):
        moved = list(args64)
        for i, d in zip(problem.GRAD_ARGS, dirs):
            moved[i] = moved[i] + step * d
        return float(f(*moved)[0])
    fd = (at(eps) - at(-eps)) / (2 * eps)
    exact = sum(float(np.sum(g * d)) for g, d in zip(grads, dirs))
    err = abs(fd - exact) / max(abs(exact), 1e-30)
    return {"fd_rel_err": err, "fd_ok": err < 1e-5}


def library_version(system: str) -> str:
    import problems
    return getattr(sys.modules.get(problems.SYSTEM_MODULES[system]), "__version__", "?")


def default_variant(system: str) -> str:
    if system == "torch":
        import torch
        return f"eager, {torch.get_num_threads()} threads"
    return {"symgrad": "sg.value_and_grad", "numpy": "hand-written gradient"}.get(system, "")


def sample(fn, args, number: int) -> float:
    t0 = time.perf_counter()
    for _ in range(number):
        fn(*args)
    return (time.perf_counter() - t0) / number


def main() -> None:
    chan = Channel()
    opts = json.loads(sys.argv[1])
    try:
        t0 = time.perf_counter()
        import numpy as np  # noqa: F401
        import problems
        __import__(problems.SYSTEM_MODULES[opts["system"]])
        problem = problems.load(opts["problem"])
        import_s = time.perf_counter() - t0
        size = problems.size_of(problem, opts["size"])
        args = problem.inputs(size)
        rss_base = maxrss_mb()
        factory = getattr(problem, opts["system"])
        t0 = time.perf_counter()
        fn = factory(args)
        t1 = time.perf_counter()
        result = fn(*args)
        t2 = time.perf_counter()
    except Exception as exc:            # noqa: BLE001  (the harness records it and goes on)
        traceback.print_exc()
        chan.send(status="error", error=f"{type(exc).__name__}: {exc}")
        return
    info = {"status": "ok", "import_s": import_s,
            "variant": getattr(fn, "variant", "") or default_variant(opts["system"]),
            "build_s": t1 - t0, "first_call_s": t2 - t0, "rss_base_mb": rss_base,
            "rss_first_mb": maxrss_mb(), "version": library_version(opts["system"]),
            "pid": os.getpid()}
    if opts["phase"] == "cold":
        info["check"] = compare(problem, args, result)
        if opts["system"] == "numpy":
            info["check"].update(finite_difference_check(problem, args))
        chan.send(**info)
        return
    chan.send(**info)
    number = None
    while True:
        cmd = chan.recv()
        if cmd["cmd"] == "time":
            if number is None:          # calls per sample: about 2 ms per sample
                est = min(sample(fn, args, 1) for _ in range(3))
                number = max(1, min(100_000, int(2e-3 / max(est, 1e-9))))
            times, start = [], time.perf_counter()
            gc.disable()
            try:
                while True:
                    times.append(sample(fn, args, number))
                    elapsed = time.perf_counter() - start
                    if elapsed >= cmd["min_time"] and len(times) >= cmd["min_samples"]:
                        break
                    if len(times) >= 2 and elapsed > cmd["max_time"]:
                        break
            finally:
                gc.enable()
            chan.send(status="ok", times=times, number=number)
        else:
            peak = maxrss_mb()
            try:
                check = compare(problem, args, fn(*args))
            except Exception as exc:    # noqa: BLE001
                check = {"ok": False, "notes": f"{type(exc).__name__}: {exc}"}
            chan.send(status="ok", rss_peak_mb=peak, check=check)
            return


if __name__ == "__main__":
    main()
