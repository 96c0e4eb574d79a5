"""Sample generators of torch's further shape functions: ``swapdims``, ``vsplit hsplit
dsplit``, ``split_with_sizes`` and the unsafe splits, ``diagflat``, ``narrow_copy``, the
``*_copy`` variants of the views, the scatters into views (``diagonal_scatter select_scatter
slice_scatter``) and the Tensor methods with no torch function: ``unfold sum_to_size
fill_diagonal_ resize_ resize_as_`` (the in-place views ``t_ transpose_ squeeze_...`` take the
samples of their torch functions: ``registry``).

Input: an op's name. Output: its samples (``spec.Sample``), each op over every dtype and with
its arguments' spellings and errors; ``table()`` maps ops to generators.
"""

from __future__ import annotations

import functools

from .spec import T, calls, over_dtypes

X = T((2, 3))
X3 = T((2, 3, 4))
S0 = T(())
E = T((0, 3))
M = T((3, 3))
C = T((2, 3), "complex128")
P = T((2, 3, 2))
FIXED = T((2, 3), grad=False)


def with_dtypes(op: str, tail: tuple, *entries) -> list:
    return over_dtypes(op, lambda dt: (T((2, 3), dt),) + tail) + calls(op, *entries)


ROWS = {
    "swapdims": ((0, 1), [(X3, 0, 2), (X3, -1, 0), (X3, 1, 3), (S0, 0, 0)]),
    "vsplit": ((2,), [(X3, [1]), (X3, 3), (T((3,)), 1), (X, (1,)), (X, 0), (T((4, 2)), 2)]),
    "hsplit": ((3,), [(X3, [1, 2]), (X3, 2), (T((6,)), 3), (T((6,)), [2]), (S0, 1),
                      (X, [-1]), (E, 3)]),
    "dsplit": ((1,), [(X3, 2), (X3, [1, 3]), (X3, 3), (T((2, 3, 4, 2)), 4)]),
    "split_with_sizes": (([1, 2], 1), [(X, [2], 0), (X, [1, 1], 1), (X3, (2, 2), -1),
                                       (E, [0], 0), (X, [3, 0], 1)]),
    "unsafe_split": ((2, 1), [(X, 1), (X3, 3, -1), (X, 0), (E, 1)]),
    "unsafe_chunk": ((2, 1), [(X, 3), (X3, 2, -1), (X, 0)]),
    "unsafe_split_with_sizes": (([1, 2], 1), [(X, [2], 0), (X, [2, 2], 1)]),
    "diagflat": ((), [(T((3,)), 1), (X, -1), (S0,), (E,), (X3, 2)]),
    "narrow_copy": ((1, 0, 2), [(X, 0, 1, 1), (X, -1, 1, 2), (X, 1, 2, 2), (X3, 2, 1, 3),
                                (X, 2, 0, 1)]),
    "view_copy": (((3, 2),), [(X, (-1,)), (X, (4, 2)), (S0, (1,))]),
    "permute_copy": (((1, 0),), [(X3, (2, 0, 1)), (X3, (0, 1))]),
    "transpose_copy": ((0, 1), [(X3, 0, 2), (X3, 1, 3)]),
    "unsqueeze_copy": ((0,), [(X, 2), (X, -1), (S0, 0)]),
    "squeeze_copy": ((), [(T((2, 1, 3)),), (T((2, 1, 3)), 1), (T((1, 1)), (0, 1))]),
    "diagonal_copy": ((), [(M, 1), (X3, 0, 1, 2), (X, 0, 0, 0)]),
    "expand_copy": (((2, 2, 3),), [(T((3,)), (2, 3)), (X, (3, 3))]),
    "select_copy": ((1, 0), [(X, 0, -1), (X, 1, 3), (X3, 2, 1)]),
    "slice_copy": ((1, 0, 2), [(X3, 2, 1, 4, 2), (X,), (X, 0, -1)]),
    "t_copy": ((), [(T((3,)),), (S0,), (X3,)]),
    "unbind_copy": ((1,), [(X3, -1), (X, 2)]),
    "split_copy": ((1, 1), [(X, 2, 1), (X3, 3, -1)]),
    "split_with_sizes_copy": (([1, 2], 1), [(X, [1, 1], 1)]),
    "detach_copy": ((), [(X3,), (S0,)]),
    "alias_copy": ((), [(X3,), (S0,)]),
    "unfold_copy": ((1, 2, 1), [(X3, 2, 2, 2), (X, 1, 4, 1)]),
    "as_strided_copy": (((2, 2), (1, 2)), [(X, (3,), (2,)), (X, (2, 2), (3, 1), 1)]),
    "diagonal_scatter": ((T((2,)),), [(M, T((2,)), 1), (M, T((3,)), 0), (M, T((2,)), 0),
                                      (X3, T((2, 3)), 0, 1, 2), (X, T((2,), "int64"))]),
    "select_scatter": ((T((3,)), 0, 0), [(X, T((2,)), 1, -1), (X, T((2,)), 1, 5),
                                         (X, T((3,)), 1, 0), (X3, T((2, 3)), 2, 1)]),
    "slice_scatter": ((T((2, 3)),), [(X, T((2, 2)), 1, 1), (X, T((2, 2)), 1, 0, 4, 2),
                                     (X, T((1, 3)), 0, 1), (X, T((3,))),
                                     (X, T((2, 3), "float32"))]),
}


def complex_views() -> dict:
    return {"torch.view_as_real_copy": lambda: calls(
                "torch.view_as_real_copy", (C,), (T((3,), "complex64"),), (X,)),
            "torch.view_as_complex_copy": lambda: calls(
                "torch.view_as_complex_copy", (P,), (T((2, 3, 2), grad=False),),
                (T((3, 2), "float32", grad=False),), (X,))}


def methods() -> dict:
    """The Tensor methods with no torch function of their name."""
    return {
        "Tensor.unfold": lambda: over_dtypes(
            "Tensor.unfold", lambda dt: (T((2, 3), dt), 1, 2, 1)) + calls(
            "Tensor.unfold", (X, 0, 2, 1), (X3, 2, 2, 2), (X3, -1, 3, 1), (S0, 0, 1, 1),
            (X, 1, 4, 1), (X, 1, 2, 0), (X, 2, 1, 1), (X, 1, 0, 1), (E, 1, 2, 1)),
        "Tensor.sum_to_size": lambda: over_dtypes(
            "Tensor.sum_to_size", lambda dt: (T((2, 3), dt), 1, 3)) + calls(
            "Tensor.sum_to_size", (X, (3,)), (X3, (1, 3, 1)), (X, 2, 2), (X, (2, 3)),
            (X3, 3, 4), (S0, ())),
        "Tensor.fill_diagonal_": lambda: over_dtypes(
            "Tensor.fill_diagonal_", lambda dt: (T((3, 3), dt, grad=False), 2)) + calls(
            "Tensor.fill_diagonal_", (T((5, 3), grad=False), 1.5),
            (T((7, 3), grad=False), 2, {"wrap": True}), (T((3, 5), grad=False), 2, True),
            (T((2, 2, 2), grad=False), 0), (T((2, 3, 2), grad=False), 1),
            (T((3,), grad=False), 1), (M, 1)),
        "Tensor.resize_": lambda: calls(
            "Tensor.resize_", (FIXED, 3, 2), (FIXED, (6,)), (FIXED, [4]), (FIXED, 2, 2),
            (FIXED, (1, 3, 2, 1)), (FIXED, 0), (X, 3, 2), (FIXED, -1), (FIXED, 2.5),
            (T((2, 3), "int64"), 5)),
        "Tensor.resize_as_": lambda: calls(
            "Tensor.resize_as_", (FIXED, T((3, 2))), (FIXED, T((4,))), (X, T((6,))),
            (T((2, 3), "int64"), T((2,), "float32"))),
    }


def table() -> dict:
    out = {}
    for name, (tail, entries) in ROWS.items():
        out[f"torch.{name}"] = functools.partial(with_dtypes, f"torch.{name}", tail, *entries)
    out.update(complex_views())
    out.update(methods())
    return out
