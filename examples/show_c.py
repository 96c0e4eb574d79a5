"""Print what symgrad makes of a small function: the traced IR, its gradient's IR, the IR after
each optimization pass, and the generated C (each statement commented with its source line).

Run: python examples/show_c.py
"""

import numpy as np

import symgrad as sg


def energy(x, y):
    r = sg.sqrt(x * x + y * y)
    return (sg.exp(-r) * sg.cos(3 * x)).sum()


if __name__ == "__main__":
    x = np.linspace(-1, 1, 8)
    y = np.linspace(0, 2, 8)
    sg.inspect(sg.value_and_grad(energy, argnums=(0, 1)), x, y)
