"""ode: RK4 of a damped pendulum theta'' = -(g/l) sin(theta) - c theta', dt = 0.01, 200 steps
unrolled in Python; loss theta_T^2 + omega_T^2; gradient w.r.t. p = (theta0, omega0, g/l, c),
a float64 4-vector."""

from __future__ import annotations

import math

import numpy as np

from . import Size

NAME = "ode"
DTYPE = "float64"
X64 = True
DT, STEPS = 0.01, 200
SIZES = [Size("RK4, 200 steps", {}, x=STEPS)]
TARGET = {"RK4, 200 steps": "20us"}
GRAD_ARGS = (0,)
SKIP_QUICK = ("jax", "pytensor", "casadi")     # XLA, Numba, gcc: minutes on this graph


def inputs(size: Size) -> list:
    return [np.array([1.0, 0.5, 9.81, 0.3])]


def step(sin, k, c, th, om):
    """One RK4 step of (theta, omega), for any array system (``sin`` is the system's)."""
    h = DT
    k1t, k1o = om, -k * sin(th) - c * om
    t2, o2 = th + h / 2 * k1t, om + h / 2 * k1o
    k2t, k2o = o2, -k * sin(t2) - c * o2
    t3, o3 = th + h / 2 * k2t, om + h / 2 * k2o
    k3t, k3o = o3, -k * sin(t3) - c * o3
    t4, o4 = th + h * k3t, om + h * k3o
    k4t, k4o = o4, -k * sin(t4) - c * o4
    return (th + h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t),
            om + h / 6 * (k1o + 2 * k2o + 2 * k3o + k4o))


def rk4(p, sin):
    """The forward pass, written once for every array system: ``sin`` is the system's."""
    th, om, k, c = p[0], p[1], p[2], p[3]
    for _ in range(STEPS):
        th, om = step(sin, k, c, th, om)
    return th * th + om * om


def numpy(args):
    """By hand: the adjoint of each RK4 step, backwards over the stored states.

    With f(th, om) = (om, -k sin th - c om), the VJP of f at u with cotangent (a, b) is
    (-k cos(u_th) b, a - c b) for the state and (-sin(u_th) b, -u_om b) for (k, c).
    Scalars throughout (Python floats and math): the fastest way to write it without arrays.
    """
    h = DT

    def f(p):
        th, om, k, c = (float(v) for v in p)
        states = []
        for _ in range(STEPS):
            states.append((th, om))
            k1t, k1o = om, -k * math.sin(th) - c * om
            t2, o2 = th + h / 2 * k1t, om + h / 2 * k1o
            k2t, k2o = o2, -k * math.sin(t2) - c * o2
            t3, o3 = th + h / 2 * k2t, om + h / 2 * k2o
            k3t, k3o = o3, -k * math.sin(t3) - c * o3
            t4, o4 = th + h * k3t, om + h * k3o
            k4t, k4o = o4, -k * math.sin(t4) - c * o4
            th = th + h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t)
            om = om + h / 6 * (k1o + 2 * k2o + 2 * k3o + k4o)
        value = th * th + om * om
        at, ao = 2 * th, 2 * om                    # cotangent of the state
        gk = gc = 0.0
        for th, om in reversed(states):
            # the stages of this step again (u2, u3, u4 are the points f is evaluated at)
            k1t, k1o = om, -k * math.sin(th) - c * om
            t2, o2 = th + h / 2 * k1t, om + h / 2 * k1o
            k2t, k2o = o2, -k * math.sin(t2) - c * o2
            t3, o3 = th + h / 2 * k2t, om + h / 2 * k2o
            k3t, k3o = o3, -k * math.sin(t3) - c * o3
            t4, o4 = th + h * k3t, om + h * k3o
            # s' = s + h/6 (k1 + 2 k2 + 2 k3 + k4): cotangents of the slopes
            g1t, g1o = h / 6 * at, h / 6 * ao
            g2t, g2o = h / 3 * at, h / 3 * ao
            g3t, g3o = h / 3 * at, h / 3 * ao
            g4t, g4o = h / 6 * at, h / 6 * ao
            # k4 = f(u4), u4 = s + h k3
            vt, vo = -k * math.cos(t4) * g4o, g4t - c * g4o
            gk, gc = gk - math.sin(t4) * g4o, gc - o4 * g4o
            at, ao = at + vt, ao + vo
            g3t, g3o = g3t + h * vt, g3o + h * vo
            # k3 = f(u3), u3 = s + h/2 k2
            vt, vo = -k * math.cos(t3) * g3o, g3t - c * g3o
            gk, gc = gk - math.sin(t3) * g3o, gc - o3 * g3o
            at, ao = at + vt, ao + vo
            g2t, g2o = g2t + h / 2 * vt, g2o + h / 2 * vo
            # k2 = f(u2), u2 = s + h/2 k1
            vt, vo = -k * math.cos(t2) * g2o, g2t - c * g2o
            gk, gc = gk - math.sin(t2) * g2o, gc - o2 * g2o
            at, ao = at + vt, ao + vo
            g1t, g1o = g1t + h / 2 * vt, g1o + h / 2 * vo
            # k1 = f(s)
            vt, vo = -k * math.cos(th) * g1o, g1t - c * g1o
            gk, gc = gk - math.sin(th) * g1o, gc - om * g1o
            at, ao = at + vt, ao + vo
        return np.float64(value), (np.array([at, ao, gk, gc]),)
    f.variant = "hand-written adjoint, Python floats + math"
    return f


def symgrad(args):
    import symgrad as sg

    def ode(p):
        return rk4(p, sg.sin)
    return sg.value_and_grad(ode, argnums=(0,))


def torch(args):
    import torch

    def f(p):
        pt = torch.from_numpy(p).requires_grad_()
        out = rk4(pt, torch.sin)
        out.backward()
        return out.detach().numpy(), (pt.grad.numpy(),)
    return f


def jax(args):
    import jax.numpy as jnp
    from systems import jax_value_and_grad
    return jax_value_and_grad(lambda p: rk4(p, jnp.sin), (0,), X64)


def pytensor(args):
    import pytensor.tensor as pt
    from systems import pytensor_value_and_grad
    p = pt.vector("p", dtype="float64")
    return pytensor_value_and_grad([p], rk4(p, pt.sin), [p])


def casadi(args):
    """A scalar expression graph (SX): the natural CasADi form of an unrolled scalar loop."""
    import casadi as ca
    from systems import casadi_value_and_grad
    p = ca.SX.sym("p", 4)
    return casadi_value_and_grad("ode", [p], rk4(p, ca.sin), [p], [(4,)])
