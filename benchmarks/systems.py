"""What the problems share per system: JAX's jit of value_and_grad, PyTensor's function of cost
and grad, CasADi's generated C compiled with gcc and called through cffi.

Everything here is imported lazily by the problem modules, so a child process only loads the
system it benchmarks. Cache locations come from the environment the harness sets for each
problem size (BENCH_CACHE_DIR; SYMGRAD_CACHE_DIR, PYTENSOR_FLAGS, NUMBA_CACHE_DIR beside it).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

import numpy as np


def cache_dir(system: str) -> Path:
    root = os.environ.get("BENCH_CACHE_DIR") or tempfile.mkdtemp(prefix="symgrad-bench-")
    path = Path(root) / system
    path.mkdir(parents=True, exist_ok=True)
    return path


# ---------------------------------------------------------------------------------- JAX

def jax_value_and_grad(fn, argnums, x64: bool):
    """``jax.jit(jax.value_and_grad(fn, argnums))`` with NumPy in and out.

    The persistent compilation cache points at this size's cache dir so that the harness's
    second process measures a cache hit, as for symgrad.
    """
    import jax
    jax.config.update("jax_enable_x64", x64)
    jax.config.update("jax_compilation_cache_dir", str(cache_dir("jax")))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    jitted = jax.jit(jax.value_and_grad(fn, argnums=argnums))

    def call(*args):
        value, grads = jitted(*args)
        return np.asarray(value), tuple(np.asarray(g) for g in grads)
    call.variant = f"jit, x64={'on' if x64 else 'off'}"
    return call


# ---------------------------------------------------------------------------------- PyTensor

def pytensor_value_and_grad(inputs, cost, wrt):
    """``pytensor.function(inputs, [cost, *pytensor.grad(cost, wrt)])`` in the default mode."""
    import pytensor
    from pytensor.compile.mode import get_default_mode
    grads = pytensor.grad(cost, wrt)
    f = pytensor.function(inputs, [cost, *grads])

    def call(*args):
        value, *gs = f(*args)
        return value, tuple(gs)
    linker = type(get_default_mode().linker).__name__
    call.variant = f"default mode, {linker}"
    return call


# ---------------------------------------------------------------------------------- CasADi

# The flags symgrad compiles its own C with (symgrad.build.c.compiler.DEFAULT_OPT_FLAGS), so
# that the two generated-C systems differ by their code, not by their compiler options.
CASADI_CFLAGS = ["-O3", "-march=native", "-fno-math-errno", "-ffp-contract=off", "-fPIC"]


def casadi_value_and_grad(name, syms, cost, wrt, grad_shapes, prepare=None):
    """A CasADi Function of (cost, gradient w.r.t. each of ``wrt``), run as generated C.

    CasADi matrices are column-major: a problem declares each (rows, cols) NumPy argument as
    the (cols, rows) symbol so that the C-ordered buffer is passed as it is, and each gradient
    comes back in the argument's own layout (``grad_shapes``, the NumPy shapes of the
    gradients). ``prepare(*args)`` maps the call's NumPy
    arguments to the list of float64 arrays fed to the symbols (default: each argument).
    If the C cannot be generated or compiled, falls back to CasADi's own virtual machine and
    says so in ``variant``.
    """
    import casadi
    grads = [casadi.gradient(cost, w) for w in wrt]
    f = casadi.Function(name, syms, [cost, *grads])
    kind = "SX" if isinstance(cost, casadi.SX) else "MX"
    in_shapes = [s.shape for s in syms]                     # CasADi's (rows, cols)
    out_shapes = [()] + [tuple(s) for s in grad_shapes]
    prepare = prepare or (lambda *args: args)
    try:
        call = _casadi_c(f, name, in_shapes, out_shapes, prepare)
        call.variant = f"{kind} -> generated C, gcc {' '.join(CASADI_CFLAGS[:2])}"
    except Exception as exc:            # noqa: BLE001  (report it, run the VM instead)
        call = _casadi_vm(f, in_shapes, out_shapes, prepare)
        call.variant = f"{kind} Function (VM; C failed: {str(exc).splitlines()[0][:80]})"
    return call


def _casadi_c(f, name, in_shapes, out_shapes, prepare):
    import casadi
    import cffi
    cg = casadi.CodeGenerator(f"{name}.c")
    cg.add(f)
    source = cg.dump()
    key = hashlib.sha256((source + " ".join(CASADI_CFLAGS)).encode()).hexdigest()[:16]
    build = cache_dir("casadi")
    so = build / f"{name}_{key}.so"
    if not so.exists():                 # a cache hit in the harness's second process
        c_file = build / f"{name}_{key}.c"
        c_file.write_text(source)
        tmp = build / f"{name}_{key}.{os.getpid()}.so"
        subprocess.run(["gcc", *CASADI_CFLAGS, "-shared", "-o", str(tmp), str(c_file), "-lm"],
                       check=True, capture_output=True, text=True)
        os.replace(tmp, so)
    ffi = cffi.FFI()
    ffi.cdef(f"int {name}(const double** arg, double** res, long long* iw, double* w, int mem);")
    lib = ffi.dlopen(str(so))
    entry = getattr(lib, name)
    arg = ffi.new("double*[]", max(f.sz_arg(), 1))
    res = ffi.new("double*[]", max(f.sz_res(), 1))
    iw = ffi.new("long long[]", max(f.sz_iw(), 1))
    w = ffi.new("double[]", max(f.sz_w(), 1))
    from_buffer = ffi.from_buffer

    def call(*args):
        ins = [np.ascontiguousarray(a, dtype=np.float64) for a in prepare(*args)]
        keep = [from_buffer("double[]", a) for a in ins]
        for i, p in enumerate(keep):
            arg[i] = p
        outs = [np.empty(s) for s in out_shapes]
        keep += [from_buffer("double[]", o) for o in outs]
        for j, o in enumerate(keep[len(ins):]):
            res[j] = o
        if entry(arg, res, iw, w, 0):
            raise RuntimeError("the CasADi generated function returned an error")
        return outs[0], tuple(outs[1:])
    call.lib = lib                      # keep the library loaded as long as the function lives
    return call


def _casadi_vm(f, in_shapes, out_shapes, prepare):
    import casadi

    def call(*args):
        ins = [casadi.reshape(casadi.DM(np.ascontiguousarray(a, dtype=np.float64).ravel()),
                              rows, cols) for a, (rows, cols) in zip(prepare(*args), in_shapes)]
        outs = f(*ins)
        outs = [np.array(casadi.vec(o)).reshape(s) for o, s in zip(outs, out_shapes)]
        return outs[0], tuple(outs[1:])
    return call
