"""The strong-Wolfe line search of ``LBFGS`` (``line_search_fn="strong_wolfe"``), with its
cubic interpolation.

Layer: front end (torch.optim mirror). Input: a function ``evaluate(x, t, d) -> (loss,
flat gradient)``, the start point, a direction and its initial step. Output: the loss, flat
gradient and step length where the strong Wolfe conditions hold (or the best point found),
and the number of evaluations. It follows torch's ``_strong_wolfe`` (after minFunc's
lswolfe) step by step, with torch's number types: a directional derivative is a 0-d tensor
there, a NumPy scalar of the parameters' dtype here (so ``f + c1 * t * gtd`` rounds to float32
as torch's does), a loss a Python float; a number divided by a 0-d tensor is the tensor's
reciprocal times the number, as torch's ``__rtruediv__`` computes it.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

import numpy as np

from . import kernels as K


def divide(num: Any, den: Any) -> Any:
    """``num / den`` as torch computes it: a Python number over a 0-d tensor is
    ``den.reciprocal() * num``."""
    if isinstance(den, np.generic) and not isinstance(num, np.generic):
        return np.reciprocal(den) * num
    return num / den


def cubic_interpolate(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any,
                      bounds: tuple | None = None) -> Any:
    """The minimizer of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to
    ``bounds`` (default: the interval between the points); its midpoint if the cubic has
    no minimizer."""
    if bounds is None:
        bounds = (x1, x2) if x1 <= x2 else (x2, x1)
    low, high = bounds
    d1 = g1 + g2 - divide(3 * (f1 - f2), x1 - x2)
    d2_square = d1 * d1 - g1 * g2           # torch's pow(x, 2) is x * x
    if not d2_square >= 0:
        return (low + high) / 2.0
    d2 = np.sqrt(d2_square)
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, low), high)


class _Search:
    """One line search: the trial points seen, the bracket, the evaluation count."""

    def __init__(self, evaluate: Callable, x: list, d: np.ndarray, f: float,
                 g: np.ndarray, gtd: Any, c1: float, c2: float) -> None:
        self.evaluate, self.x, self.d = evaluate, x, d
        self.f, self.g, self.gtd, self.c1, self.c2 = f, g, gtd, c1, c2
        self.evals = 0
        self.bracket: list = []
        self.bracket_f: list = []
        self.bracket_g: list = []
        self.bracket_gtd: list = []

    def trial(self, t: Any) -> tuple:
        """Loss, gradient and directional derivative at step ``t``."""
        f_new, g_new = self.evaluate(self.x, t, self.d)
        self.evals += 1
        return f_new, g_new, K.dot(g_new, self.d)

    def sufficient_decrease_fails(self, t: Any, f_new: float) -> bool:
        """Armijo's condition, rounded as torch's (a 0-d tensor on the right)."""
        return bool(f_new > (self.f + self.c1 * t * self.gtd))

    def curvature_holds(self, gtd_new: Any) -> bool:
        return bool(abs(gtd_new) <= -self.c2 * self.gtd)

    def set_bracket(self, points: list, fs: list, gs: list, gtds: list | None) -> None:
        self.bracket, self.bracket_f, self.bracket_g = points, fs, gs
        if gtds is not None:
            self.bracket_gtd = gtds

    def expand(self, t: Any, max_ls: int) -> tuple[bool, int]:
        """Step forward until an interval brackets a Wolfe point (or one is found)."""
        f_new, g_new, gtd_new = self.trial(t)
        t_prev, f_prev, g_prev, gtd_prev = 0, self.f, self.g, self.gtd
        ls_iter = 0
        while ls_iter < max_ls:
            if self.sufficient_decrease_fails(t, f_new) or (ls_iter > 1 and f_new >= f_prev):
                self.set_bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new],
                                 [gtd_prev, gtd_new])
                return False, ls_iter
            if self.curvature_holds(gtd_new):
                self.set_bracket([t], [f_new], [g_new], None)
                return True, ls_iter
            if gtd_new >= 0:
                self.set_bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new],
                                 [gtd_prev, gtd_new])
                return False, ls_iter
            min_step = t + 0.01 * (t - t_prev)
            max_step = t * 10
            t_prev, t = t, cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                             bounds=(min_step, max_step))
            f_prev, g_prev, gtd_prev = f_new, g_new, gtd_new
            f_new, g_new, gtd_new = self.trial(t)
            ls_iter += 1
        self.set_bracket([0, t], [self.f, f_new], [self.g, g_new], None)
        return False, ls_iter

    def zoom_point(self, insufficient: bool) -> tuple[Any, bool]:
        """The next trial inside the bracket: the cubic's minimizer, moved a tenth of the
        bracket away from its ends when it crowds them (twice in a row, or at an end)."""
        b = self.bracket
        t = cubic_interpolate(b[0], self.bracket_f[0], self.bracket_gtd[0],
                              b[1], self.bracket_f[1], self.bracket_gtd[1])
        top, bottom = max(b), min(b)
        eps = 0.1 * (top - bottom)
        if not min(top - t, t - bottom) < eps:
            return t, False
        if not (insufficient or t >= top or t <= bottom):
            return t, True
        if abs(t - top) < abs(t - bottom):
            return top - eps, False
        return bottom + eps, False

    def place(self, pos: int, t: Any, f_new: float, g_new: np.ndarray, gtd_new: Any) -> None:
        self.bracket[pos], self.bracket_f[pos] = t, f_new
        self.bracket_g[pos], self.bracket_gtd[pos] = g_new, gtd_new

    def zoom(self, ls_iter: int, max_ls: int, tolerance_change: float) -> int:
        """Shrink the bracket until a point satisfies the strong Wolfe conditions; the
        position of the best point in it."""
        insufficient = False
        low, high = (0, 1) if self.bracket_f[0] <= self.bracket_f[-1] else (1, 0)
        d_norm = np.abs(self.d).max()
        while ls_iter < max_ls:
            if abs(self.bracket[1] - self.bracket[0]) * d_norm < tolerance_change:
                break
            t, insufficient = self.zoom_point(insufficient)
            f_new, g_new, gtd_new = self.trial(t)
            ls_iter += 1
            if self.sufficient_decrease_fails(t, f_new) or f_new >= self.bracket_f[low]:
                self.place(high, t, f_new, g_new, gtd_new)
                low, high = (0, 1) if self.bracket_f[0] <= self.bracket_f[1] else (1, 0)
                continue
            if self.curvature_holds(gtd_new):
                self.place(low, t, f_new, g_new, gtd_new)
                break
            if gtd_new * (self.bracket[high] - self.bracket[low]) >= 0:
                self.place(high, self.bracket[low], self.bracket_f[low], self.bracket_g[low],
                           self.bracket_gtd[low])
            self.place(low, t, f_new, g_new, gtd_new)
        return low


def strong_wolfe(evaluate: Callable, x: list, t: Any, d: np.ndarray, f: float,
                 g: np.ndarray, gtd: Any, c1: float = 1e-4, c2: float = 0.9,
                 tolerance_change: float = 1e-9, max_ls: int = 25) -> tuple:
    """``(loss, flat gradient, step, evaluations)`` at the step the search settles on."""
    search = _Search(evaluate, x, d, f, g, gtd, c1, c2)
    done, ls_iter = search.expand(t, max_ls)
    if done:
        low = 0
    else:
        low = search.zoom(ls_iter, max_ls, tolerance_change)
    return search.bracket_f[low], search.bracket_g[low], search.bracket[low], search.evals
