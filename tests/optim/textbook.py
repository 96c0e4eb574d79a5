"""The update rules of the adaptive optimizers as torch's documentation writes them (the
algorithm boxes of torch.optim's pages), in float64 NumPy, one function per optimizer:
``rule(theta, grads_at, steps, **options) -> theta``. An oracle independent of symgrad's
kernels (no fused multiply-adds, no torch order of operations): agreement is to rounding.
"""

from __future__ import annotations

import numpy as np


def _g(theta, grads_at, t, wd, maximize):
    g = grads_at(theta, t)
    g = -g if maximize else g
    return g + wd * theta


def rmsprop(theta, grads_at, steps, lr=0.01, alpha=0.99, eps=1e-8, weight_decay=0.0,
            momentum=0.0, centered=False, maximize=False):
    v, b, g_avg = np.zeros_like(theta), np.zeros_like(theta), np.zeros_like(theta)
    for t in range(steps):
        g = _g(theta, grads_at, t, weight_decay, maximize)
        v = alpha * v + (1 - alpha) * g * g
        v_tilde = v
        if centered:
            g_avg = alpha * g_avg + (1 - alpha) * g
            v_tilde = v - g_avg * g_avg
        if momentum > 0:
            b = momentum * b + g / (np.sqrt(v_tilde) + eps)
            theta = theta - lr * b
        else:
            theta = theta - lr * g / (np.sqrt(v_tilde) + eps)
    return theta


def adagrad(theta, grads_at, steps, lr=0.01, lr_decay=0.0, weight_decay=0.0,
            initial_accumulator_value=0.0, eps=1e-10, maximize=False):
    total = np.full_like(theta, initial_accumulator_value)
    for t in range(steps):
        g = _g(theta, grads_at, t, weight_decay, maximize)
        clr = lr / (1 + t * lr_decay)                  # t counts from 0: (step - 1)
        total = total + g * g
        theta = theta - clr * g / (np.sqrt(total) + eps)
    return theta


def adadelta(theta, grads_at, steps, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0,
             maximize=False):
    v, u = np.zeros_like(theta), np.zeros_like(theta)
    for t in range(steps):
        g = _g(theta, grads_at, t, weight_decay, maximize)
        v = rho * v + (1 - rho) * g * g
        delta = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta * delta
        theta = theta - lr * delta
    return theta


def adamax(theta, grads_at, steps, lr=0.002, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
           maximize=False):
    (b1, b2), m, u = betas, np.zeros_like(theta), np.zeros_like(theta)
    for t in range(1, steps + 1):
        g = _g(theta, grads_at, t - 1, weight_decay, maximize)
        m = b1 * m + (1 - b1) * g
        u = np.maximum(b2 * u, np.abs(g) + eps)
        theta = theta - lr / (1 - b1 ** t) * m / u
    return theta


def nadam(theta, grads_at, steps, lr=0.002, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
          momentum_decay=0.004, decoupled_weight_decay=False, maximize=False):
    (b1, b2), m, v = betas, np.zeros_like(theta), np.zeros_like(theta)
    mu = [b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay)) for t in range(steps + 2)]
    for t in range(1, steps + 1):
        if decoupled_weight_decay:                     # the gradient is the step's own
            g = _g(theta, grads_at, t - 1, 0.0, maximize)
            theta = theta * (1 - lr * weight_decay)
        else:
            g = _g(theta, grads_at, t - 1, weight_decay, maximize)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = (mu[t + 1] * m / (1 - np.prod(mu[1:t + 2]))
                 + (1 - mu[t]) * g / (1 - np.prod(mu[1:t + 1])))
        v_hat = v / (1 - b2 ** t)
        theta = theta - lr * m_hat / (np.sqrt(v_hat) + eps)
    return theta


def radam(theta, grads_at, steps, lr=0.001, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
          decoupled_weight_decay=False, maximize=False):
    (b1, b2), m, v = betas, np.zeros_like(theta), np.zeros_like(theta)
    rho_inf = 2 / (1 - b2) - 1
    for t in range(1, steps + 1):
        if decoupled_weight_decay:                     # the gradient is the step's own
            g = _g(theta, grads_at, t - 1, 0.0, maximize)
            theta = theta * (1 - lr * weight_decay)
        else:
            g = _g(theta, grads_at, t - 1, weight_decay, maximize)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1 ** t)
        rho_t = rho_inf - 2 * t * b2 ** t / (1 - b2 ** t)
        if rho_t > 5:
            adaptive = np.sqrt(1 - b2 ** t) / (np.sqrt(v) + eps)
            rect = np.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                           / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            theta = theta - lr * m_hat * adaptive * rect
        else:
            theta = theta - lr * m_hat
    return theta


RULES = {"RMSprop": rmsprop, "Adagrad": adagrad, "Adadelta": adadelta, "Adamax": adamax,
         "NAdam": nadam, "RAdam": radam}
