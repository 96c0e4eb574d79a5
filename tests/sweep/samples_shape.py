"""Sample generators of the shape and movement ops: views and reshapes, joins and splits,
flips and rolls, diagonals and triangles, broadcasting helpers.

Input: an op's name. Output: its samples (``spec.Sample``), each op over every dtype and with
its arguments' spellings (negative dims, ``-1`` in shapes, sizes as tuples, lists or varargs,
sections as ints or index lists) and their errors (out of range, sizes that do not fit).
``TABLE`` maps ops to generators.
"""

from __future__ import annotations

import functools

from .spec import T, calls, over_dtypes

X = T((2, 3))
X3 = T((2, 3, 4))
S0 = T(())
E = T((0, 3))
M = T((3, 3))


def with_dtypes(op: str, tail: tuple, *entries) -> list:
    return over_dtypes(op, lambda dt: (T((2, 3), dt),) + tail) + calls(op, *entries)


ROWS = {
    "reshape": ((6,), [(X, (3, 2)), (X, (-1,)), (X, (-1, 2)), (X, [6]), (X, (4, 2)),
                       (X, (-1, -1)), (S0, (1, 1)), (S0, ()), (E, (3, 0)), (E, (-1, 0)),
                       (X3, (4, -1)), (X, (6, 1, 1))]),
    "flatten": ((), [(X3,), (X3, 1), (X3, 0, 1), (X3, -2, -1), (X3, 2, 1), (S0,), (E,),
                     (X3, 3), ({"input": X3, "start_dim": 1},)]),
    "ravel": ((), [(X3,), (S0,), (E,)]),
    "permute": (((1, 0),), [(X3, (2, 0, 1)), (X3, (0, 1)), (X3, (0, 0, 1)), (X3, (-1, 0, 1)),
                            (S0, ()), (X3, [1, 2, 0]), (E, (1, 0))]),
    "transpose": ((0, 1), [(X3, 0, 2), (X3, -1, 0), (X3, 1, 3), (S0, 0, -1), (E, 0, 1)]),
    "swapaxes": ((0, 1), [(X3, 0, 2), (X3, -1, 0), (X3, 1, 3)]),
    "t": ((), [(X3,), (S0,), (T((3,)),), (E,)]),
    "movedim": ((0, 1), [(X3, 0, -1), (X3, (0, 1), (2, 0)), (X3, [0], [2]), (X3, 0, 3),
                         (X3, (0, 0), (1, 2)), (S0, 0, 0)]),
    "moveaxis": ((0, 1), [(X3, 0, -1), (X3, (0, 1), (2, 0)), (X3, 0, 3)]),
    "squeeze": ((), [(T((2, 1, 3)),), (T((2, 1, 3)), 1), (T((2, 1, 3)), 0), (T((1, 1)), (0, 1)),
                     (T((2, 1, 3)), -2), (T((2, 1, 3)), 3), (S0,), (S0, 0), (E, 0)]),
    "unsqueeze": ((0,), [(X, 2), (X, -1), (X, -3), (X, 3), (X, -4), (S0, 0), (E, 1)]),
    "broadcast_to": (((2, 2, 3),), [(T((3,)), (2, 3)), (T((2, 1)), (2, 4)), (X, (-1, 3)),
                                    (X, (3, 3)), (S0, ()), (S0, (0,)), (X, (2, 0, 3))]),
    "tile": (((2, 1),), [(X, (2,)), (X, (1, 2, 2)), (S0, (3,)), (E, (2, 2)), (X, ())]),
    "repeat_interleave": ((2,), [(X, 2, 0), (X, T((2,), "int64", "idx3"), 0),
                                 (X, T((3,), "int64", "idx3"), 1), (X, -1), (X, 2, 2),
                                 (T((3,), "int64", "idx3"),), (S0, 3), (X, 2, {"dim": -1}),
                                 (X, T((4,), "int64", "idx3"), 0)]),
    "narrow": ((1, 0, 2), [(X, 0, 1, 1), (X, -1, 1, 2), (X, 1, 2, 2), (X, 1, -1, 1),
                           (X, 2, 0, 1), (X, 0, T((), "int64", "idx2"), 1), (E, 1, 0, 0)]),
    "select": ((1, 0), [(X, 0, -1), (X, 1, 3), (X, -1, -3), (X3, 2, 1), (S0, 0, 0)]),
    "flip": (((0,),), [(X, (0, 1)), (X, (-1,)), (X, ()), (X, [1]), (X, (0, 0)), (S0, (0,)),
                       (X3, (2, 0)), (E, (0,))]),
    "fliplr": ((), [(X3,), (T((3,)),), (S0,)]),
    "flipud": ((), [(X3,), (T((3,)),), (S0,)]),
    "roll": ((1,), [(X, 1, 0), (X, -1, 1), (X, (1, 2), (0, 1)), (X, 7), (X, 1, 2), (S0, 1),
                    (E, 1, 0), (X, (1, 2), (0,)), (X3, 5, -1)]),
    "rot90": ((), [(X, 1, (0, 1)), (X, 2, (1, 0)), (X, -1), (X, 5), (X3, 1, (0, 2)),
                   (X, 1, (0, 0)), (T((3,)), 1), (E, 1)]),
    "diagonal": ((), [(M, 1), (M, -1), (X3, 0, 1, 2), (X3, 0, -1, 0), (X, 5), (X, 0, 0, 0),
                      (T((3,)),), (E,), (X3, {"dim1": 2, "dim2": 0, "offset": 1})]),
    "diag": ((), [(T((3,)),), (T((3,)), 1), (T((3,)), -2), (M, 1), (S0,), (X3,), (E,),
                  (T((0,)),)]),
    "diag_embed": ((), [(T((3,)),), (X, 1), (X, -1, 0, 2), (X, 0, 0, 0), (S0,), (E,)]),
    "trace": ((), [(M,), (T((3,)),), (E,), (X3,)]),
    "tril": ((), [(M, 1), (M, -1), (X, 5), (X3,), (X3, -2), (T((3,)),), (E,)]),
    "triu": ((), [(M, 1), (M, -1), (X, 5), (X3,), (X3, -2), (T((3,)),), (E,)]),
    "unflatten": ((1, (3, 1)), [(X, 1, (3, -1)), (X, -1, (1, 3)), (X, 0, (2, 2)),
                                (X, 2, (3,)), (X3, 2, [2, 2]), (S0, 0, (1,))]),
    "atleast_1d": ((), [(S0,), (X3,), ([S0, X],), (E,)]),
    "atleast_2d": ((), [(S0,), (T((3,)),), (X3,), ([S0, T((3,))],)]),
    "atleast_3d": ((), [(S0,), (T((3,)),), (X,), (X3,), (T((2, 3, 4, 5)),)]),
    "clone": ((), [(S0,), (E,), (X3,)]),
    "numel": ((), [(S0,), (E,), (X3,)]),
    "unbind": ((), [(X, 1), (X, -1), (X, 2), (S0,), (E, 0), (E, 1)]),
    "chunk": ((2,), [(X, 2, 1), (X, 4, 1), (X, 3, -1), (X, 0), (X, 1, 2), (E, 2), (E, 2, 1),
                     (T((7,)), 3)]),
    "split": ((1,), [(X, 2, 1), (X, [1, 2], 1), (X, (1, 1), 0), (X, [1, 1], 1), (X, 0),
                     (X, 5), (X, [3], 1), (T((7,)), 3), (E, 1), (X, 2, -1), (X, [1, -1], 1)]),
    "tensor_split": ((2,), [(X, 2, 1), (X, [1, 2], 1), (X, (0, 3), 1), (X, [-1], 1),
                            (X, [2, 1], 1), (X, 0), (T((7,)), 3), (T((7,)), [-2, 5]),
                            (X, T((), "int64", "idx3"), 1), (X, T((2,), "int64", "idx3"), 1),
                            (E, 2), (X, 4, 1), ({"input": X, "sections": 2, "dim": 1},)]),
}


def as_strided() -> list:
    op = "torch.as_strided"
    return over_dtypes(op, lambda dt: (T((2, 3), dt), (2, 2), (1, 2))) + calls(
        op, (X, (3,), (2,)), (X, (2, 2), (3, 1), 1), (X, (2, 2), (1, 1)), (X, (4, 4), (4, 1)),
        (X, (), ()), (X, (2,), (0,)), (X, (2, 2), (1, 2), 5), (X, (2,), (-1,)), (S0, (1,), (1,)),
        (X, [3, 2], [1, 3]), (X, (2, 2), (1,)))


def joins(op: str) -> list:
    """cat/stack and their relatives over lists of tensors."""
    out = over_dtypes(op, lambda dt: ([T((2, 3), dt), T((2, 3), dt)],))
    out += calls(op, ([X, T((1, 3))],), ([X, T((2, 1))], 1), ([X, X], -1), ([X, X], 2),
                 ([X, T((2, 3), "float32")],), ([T((2, 3), "int64"), T((2, 3), "float32")],),
                 ([X, T((0,))],), ([T((0,)), T((0,))],), ([],), ([S0, S0],), ((X, X),),
                 ([X],), ([X, X], {"dim": 1}), ([X, T((3,))],),
                 ([T((2, 3), grad=False), T((2, 3), grad=False)],
                  {"out": T((4, 3), grad=False)}),
                 ([X, X], {"out": T((4, 3), grad=False)}), ([T((3,)), T((2,))],),
                 ([T((2, 3), "bool"), T((2, 3), "uint8")],), (X,))
    return out


def table() -> dict:
    out = {}
    for name, (tail, entries) in ROWS.items():
        out[f"torch.{name}"] = functools.partial(with_dtypes, f"torch.{name}", tail, *entries)
    for name in ("cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack",
                 "column_stack", "row_stack"):
        out[f"torch.{name}"] = functools.partial(joins, f"torch.{name}")
    out["torch.broadcast_tensors"] = lambda: calls(
        "torch.broadcast_tensors", (X, T((3,))), (T((2, 1)), T((1, 3)), S0), (X, T((4,))), (X,),
        (E, T((1,))), (T((2, 3), "int64"), T((3,), "float32")))
    out["torch.broadcast_shapes"] = lambda: calls(
        "torch.broadcast_shapes", ((2, 1), (3,)), ((2,), (3,)), ((), (2, 3)), ((0,), (1,)),
        ((2, 3),), (2, (3, 1)))
    out["torch.as_strided"] = as_strided
    out["torch.block_diag"] = lambda: calls(
        "torch.block_diag", (X, M), (S0, T((2,))), (X, T((2, 2), "int64")), (), (E, X),
        (T((2, 3), "bool"), T((1, 1), "bool")), (X3,))
    out["torch.cartesian_prod"] = lambda: calls(
        "torch.cartesian_prod", (T((2,)), T((3,))), (T((2,)),), (T((2,), "int64"), T((2,))),
        (T((0,)), T((2,))), (X, T((2,))), (T((2,)), T((2,)), T((2,))))
    return out
