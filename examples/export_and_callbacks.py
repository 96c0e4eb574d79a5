"""symgrad's C outside symgrad: a standalone export, a C function pointer, SciPy callbacks.

1. ``export_c`` writes the gradient of a damped oscillator's loss as C99 files (``name.c``,
   ``name.h``, ``Makefile``, ``test_name.c``); ``make check`` builds them with nothing but a C
   compiler and runs the generated test, which compares with the values symgrad computed here.
2. ``low_level_callable`` hands ``scipy.integrate.quad`` a C callback (``double f(int n,
   double *xx, void *user_data)``): quad calls the compiled function without Python.
3. ``c_function`` returns a cffi function pointer and its C signature, for C code (or
   ctypes, Numba, a C++ solver) that takes a callback.

Each part prints what it costs per call: medians of several runs (the C driver's: the best).

    python examples/export_and_callbacks.py [directory]   (the export goes to directory,
                                                          default: a temporary one)
"""

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy import integrate

import symgrad as sg


def loss(k, c, x0):
    """Squared distance of a damped oscillator x'' = -k x - c x' (explicit Euler, 50 steps
    of dt = 0.04) from a target, as a function of its stiffness k, damping c and start x0."""
    x, v = x0, 0.0 * x0
    for _ in range(50):
        x, v = x + 0.04 * v, v + 0.04 * (-k * x - c * v)
    return ((x - 0.5) ** 2).sum()


def median_time(fn, repeat: int = 7, number: int = 1000) -> float:
    """Median seconds per call of ``fn()`` over ``repeat`` runs of ``number`` calls."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs)


def export(directory: Path) -> None:
    grad = sg.grad(loss, argnums=(0, 1))
    k, c, x0 = np.float64(4.0), np.float64(0.3), np.linspace(-1.0, 1.0, 8)
    e = grad.export_c(directory, k, c, x0, name="oscillator_grad")
    print(f"1. exported {', '.join(sorted(e.files))} to {directory}")
    print(f"   {e.signature}")
    print(f"   work array: {e.work_size} bytes")
    if shutil.which("make") is None:
        print("   (make is not installed: build with `cc oscillator_grad.c "
              "test_oscillator_grad.c -lm`)")
        return
    done = subprocess.run(["make", "-s", "check"], cwd=directory, capture_output=True,
                          text=True)
    print("   make check: " + done.stdout.strip().splitlines()[-1])
    if done.returncode:
        sys.exit(done.stdout + done.stderr)
    # The cost of a call from C: a driver calling through a function pointer.
    (directory / "bench.c").write_text(DRIVER)
    done = subprocess.run("cc -O2 -std=c99 bench.c oscillator_grad.o -o bench -lm && ./bench",
                          shell=True, cwd=directory, capture_output=True, text=True)
    print("   " + (done.stdout.strip() or done.stderr.strip()[:200]))


DRIVER = r"""
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>
#include "oscillator_grad.h"

static double work[(OSCILLATOR_GRAD_WORK_SIZE + 7) / 8];

int main(void)
{
    double k = 4.0, c = 0.3, x0[8], dk, dc, best = 1e9;
    int (*fn)(const double *, const double *, const double *, double *, double *, void *,
              int) = oscillator_grad;
    for (int i = 0; i < 8; i++) x0[i] = -1.0 + 2.0 * i / 7;
    for (int r = 0; r < 7; r++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int i = 0; i < 100000; i++) fn(&k, &c, x0, &dk, &dc, work, 1);
        clock_gettime(CLOCK_MONOTONIC, &b);
        const double us = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e5 / 1e3;
        if (us < best) best = us;
    }
    printf("from C, through a function pointer: %.2f us a call (best of 7 x 100000)\n", best);
    return 0;
}
"""


def quad() -> None:
    @sg.compile
    def integrand(x, a, b):
        return sg.exp(-a * x * x) * sg.cos(b * x)
    a, b = 1.5, 2.0
    exact = np.sqrt(np.pi / a) * np.exp(-b * b / (4 * a))
    callback = integrand.low_level_callable(0.0, 1.0, 1.0)
    value, _, info = integrate.quad(callback, -10, 10, args=(a, b), full_output=1)
    evaluations = info["neval"]
    per_c = median_time(lambda: integrate.quad(callback, -10, 10, args=(a, b)), number=200)
    per_py = median_time(lambda: integrate.quad(lambda x: float(integrand(x, a, b)), -10, 10),
                         number=20)
    print(f"2. quad of exp(-a x^2) cos(b x) over [-10, 10]: {value:.15f} "
          f"(exact {exact:.15f}), {evaluations} evaluations")
    print(f"   through low_level_callable: {per_c * 1e6:8.1f} us a quad "
          f"({per_c / evaluations * 1e9:6.0f} ns an evaluation)")
    print(f"   through a Python callback:  {per_py * 1e6:8.1f} us a quad "
          f"({per_py / evaluations * 1e9:6.0f} ns an evaluation)")
    assert abs(value - exact) < 1e-12


def pointer() -> None:
    grad = sg.grad(loss, argnums=(0, 1))
    args = (np.float64(4.0), np.float64(0.3), np.linspace(-1.0, 1.0, 8))
    cf = grad.c_function(*args)
    ffi = cf.ffi
    ins = [ffi.from_buffer("double[]", np.asarray(a, dtype=np.float64)) for a in args]
    outs = [np.empty(()), np.empty(())]
    ptrs = ins + [ffi.from_buffer("double[]", o) for o in outs]
    work = ffi.from_buffer("unsigned char[]", np.empty(cf.work_size, np.uint8))
    assert cf.pointer(*ptrs, work, 1) == 0
    dk, dc = grad(*args)
    # The same C as the compiled function's, built as one unit (a large compiled function
    # is split over translation units; its cold ones at -O1 may round differently).
    assert np.allclose([outs[0], outs[1]], [dk, dc], rtol=1e-12, atol=0)
    through_pointer = median_time(lambda: cf.pointer(*ptrs, work, 1))
    through_symgrad = median_time(lambda: grad(*args))
    print(f"3. c_function: {cf.signature}")
    print(f"   at 0x{cf.address:x}; gradient ({float(dk):.6f}, {float(dc):.6f}) as symgrad's")
    print(f"   a call from Python through the pointer: {through_pointer * 1e6:.2f} us; "
          f"through the compiled function: {through_symgrad * 1e6:.2f} us")


def main() -> None:
    if len(sys.argv) > 1:
        export(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as d:
            export(Path(d))
    quad()
    pointer()


if __name__ == "__main__":
    main()
