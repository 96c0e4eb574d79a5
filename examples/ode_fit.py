"""Fit the parameters of an ODE with compiled gradients through a loop.

A damped pendulum theta'' = -k sin(theta) - c theta' is integrated with RK4 by
``symgrad.fori_loop``: the loop is a real C loop, its step count a runtime argument (changing
it does not recompile), and its reverse mode is a reverse loop over the stored states. We
observe the pendulum's angle at a few times, then recover k and c by gradient descent (Adam)
from a wrong guess.

    python examples/ode_fit.py
"""

import time

import numpy as np

import symgrad as sg

DT = 0.01


def rk4_step(state, k, c):
    """One RK4 step of (theta, omega)."""
    def f(th, om):
        return om, -k * sg.sin(th) - c * om
    th, om = state
    k1 = f(th, om)
    k2 = f(th + DT / 2 * k1[0], om + DT / 2 * k1[1])
    k3 = f(th + DT / 2 * k2[0], om + DT / 2 * k2[1])
    k4 = f(th + DT * k3[0], om + DT * k3[1])
    return (th + DT / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
            om + DT / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]))


def simulate(params, state, steps):
    """The state after ``steps`` RK4 steps (``steps`` may be a runtime integer)."""
    k, c = params[0], params[1]
    return sg.fori_loop(0, steps, lambda i, s: rk4_step(s, k, c), state)


def loss(params, theta0, observed, steps_between):
    """Squared error of the angle at each observation, integrating from one to the next."""
    state, total = (theta0, theta0 * 0.0), 0.0
    for j in range(observed.shape[0]):
        state = simulate(params, state, steps_between)
        total = total + (state[0] - observed[j]) ** 2
    return total


def main() -> None:
    true = np.array([9.81, 0.35])
    theta0 = np.array(1.0)
    steps_between = 50
    observe = sg.compile(lambda p, t0, n: sg.stack([
        simulate(p, (t0, t0 * 0.0), n * (j + 1))[0] for j in range(6)]))
    observed = observe(true, theta0, steps_between)
    print("observed angles:", np.round(observed, 4))

    step = sg.value_and_grad(loss, argnums=0)
    start = time.perf_counter()
    step(np.array([5.0, 0.1]), theta0, observed, steps_between)
    print(f"traced and compiled in {time.perf_counter() - start:.2f} s")

    params = np.array([5.0, 0.1])
    m, v = np.zeros(2), np.zeros(2)
    start = time.perf_counter()
    for it in range(1, 1001):
        value, grad = step(params, theta0, observed, steps_between)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        params = params - 0.05 * (m / (1 - 0.9 ** it)) / (np.sqrt(v / (1 - 0.999 ** it)) + 1e-12)
        if it % 200 == 0:
            print(f"step {it:4d}: loss {value:.3e}, k = {params[0]:.4f}, c = {params[1]:.4f}")
    per_step = (time.perf_counter() - start) / 1000 * 1e6
    print(f"fitted k = {params[0]:.4f} (true {true[0]}), c = {params[1]:.4f} (true {true[1]}); "
          f"{per_step:.0f} us per value_and_grad")
    assert np.allclose(params, true, rtol=1e-3), params


if __name__ == "__main__":
    main()
