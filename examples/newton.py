"""Newton's method in a compiled loop that stops on a tolerance, and its derivatives.

The real root x(a, b) of x^3 + a x - b = 0 (a > 0) is found by Newton iterations in
``symgrad.while_loop``: the number of iterations depends on the values, so the C runs a real
``while`` loop. Its reverse mode runs the iterations backwards over the states the loop stored
(``while_loop`` is differentiable here, unlike JAX's). The gradient of the root is checked
against the implicit function theorem: dx/da = -x / (3x^2 + a), dx/db = 1 / (3x^2 + a).

    python examples/newton.py
"""


import symgrad as sg


def root(a, b, tol=1e-12):
    def f(x):
        return x ** 3 + a * x - b

    def not_converged(state):
        x, n = state
        return (sg.abs(f(x)) > tol) & (n < 100)

    def newton(state):
        x, n = state
        return x - f(x) / (3 * x ** 2 + a), n + 1

    x, iterations = sg.while_loop(not_converged, newton, (b * 0.0, 0))
    return x, iterations


def main() -> None:
    solve = sg.compile(root)
    d_root = sg.grad(lambda a, b: root(a, b)[0], argnums=(0, 1))
    for a, b in ((1.0, 2.0), (3.0, -7.5), (0.5, 40.0)):
        x, n = solve(a, b)
        da, db = d_root(a, b)
        slope = 3 * x ** 2 + a
        print(f"a={a:4}, b={b:5}: root {x:.12f} after {int(n)} iterations "
              f"(residual {x ** 3 + a * x - b:.1e})")
        print(f"    d root/da = {da:.12f}  (implicit function theorem: {-x / slope:.12f})")
        print(f"    d root/db = {db:.12f}  (implicit function theorem: {1 / slope:.12f})")
        assert abs(da + x / slope) < 1e-9 and abs(db - 1 / slope) < 1e-9


if __name__ == "__main__":
    main()
