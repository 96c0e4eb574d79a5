"""Nonlinear least squares with a sparse Jacobian from symgrad, solved by SciPy.

A signal u (5,000 samples) is observed through a nonlinear sensor, y = exp(u) + noise, and
recovered by penalized least squares: residuals exp(u_i) - y_i, and sqrt(alpha) (u_{i+1} -
u_i) for smoothness. The Jacobian is 9,999 x 5,000 with three nonzeros per column:
``symgrad.sparse.jacobian`` finds that pattern in the traced graph, colors its columns (two
colors: two JVPs, batched, in one compiled function) and returns a ``scipy.sparse`` matrix
with the same pattern at every call, which ``scipy.optimize.least_squares`` takes as ``jac``.
The Jacobian is checked against dense central differences on a small problem first.

    python examples/least_squares.py        (needs SciPy)
"""

import time

import numpy as np
from scipy.optimize import least_squares

import symgrad as sg

ALPHA = 50.0


def residuals(u, y):
    fit = sg.exp(u) - y
    smooth = np.sqrt(ALPHA) * (u[1:] - u[:-1])
    return sg.cat([fit, smooth])


def check_against_finite_differences() -> None:
    rng = np.random.default_rng(1)
    u, y = rng.normal(size=6), rng.uniform(0.5, 2.0, size=6)
    f = sg.compile(residuals)
    fd = np.stack([(f(u + e, y) - f(u - e, y)) / 2e-6 for e in np.eye(6) * 1e-6], axis=1)
    got = sg.sparse.jacobian(residuals)(u, y).toarray()
    assert np.allclose(got, fd, rtol=1e-7, atol=1e-9), np.abs(got - fd).max()
    print(f"sparse Jacobian matches central differences (max error "
          f"{np.abs(got - fd).max():.1e})")


def main() -> None:
    check_against_finite_differences()
    rng = np.random.default_rng(0)
    n = 5000
    t = np.linspace(0, 4 * np.pi, n)
    truth = np.sin(t) + 0.3 * np.sin(7 * t)
    y = np.exp(truth) + 0.05 * rng.normal(size=n)

    fun = sg.compile(residuals)
    jac = sg.sparse.jacobian(residuals)
    u0 = np.zeros(n)
    J = jac(u0, y)
    plan = jac.plan(u0, y)
    print(f"Jacobian {J.shape[0]} x {J.shape[1]}, {J.nnz} nonzeros, "
          f"{plan.n_colors} colors ({plan.mode} mode)")

    start = time.perf_counter()
    fit = least_squares(fun, u0, jac=jac, args=(y,),
                        method="trf", tr_solver="lsmr")
    elapsed = time.perf_counter() - start
    error = np.sqrt(np.mean((fit.x - truth) ** 2))
    print(f"least_squares: {fit.nfev} residual and {fit.njev} Jacobian evaluations, "
          f"{elapsed:.2f} s; cost {fit.cost:.4f}; rms error to the true signal {error:.4f}")
    assert fit.success and error < 0.05
    start = time.perf_counter()
    for _ in range(100):
        jac(fit.x, y, out=J)
    print(f"one sparse Jacobian: {(time.perf_counter() - start) * 10:.3f} ms")


if __name__ == "__main__":
    main()
