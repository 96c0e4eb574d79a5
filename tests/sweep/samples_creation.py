"""Sample generators of factories and random sampling: ``zeros ones full empty arange linspace
logspace eye tensor as_tensor meshgrid``, the ``*_like`` ones, and ``rand randn randint
randperm bernoulli multinomial normal poisson`` (compared value for value: both libraries are
seeded before each sample, and symgrad's generator reproduces torch's CPU streams).

Input: an op's name. Output: its samples (``spec.Sample``): sizes as varargs, tuples, lists,
empty and negative; ``dtype=`` of each dtype; ``requires_grad=``; data as nested lists of
ints, floats and bools. ``TABLE`` maps ops to generators.
"""

from __future__ import annotations

import functools

from .spec import ALL_DTYPES, D, Raw, T, calls

X = T((2, 3))
DTYPES = [D(d) for d in ALL_DTYPES]


def sized(op: str, head: tuple = (), tail: tuple = ()) -> list:
    """Sizes in every spelling, then ``dtype=`` of each dtype, then requires_grad."""
    out = calls(op, *[head + s + tail for s in [(2, 3), ((2, 3),), ([2, 3],), ((),), (0,),
                                                (3,), ((2, -1),), (-1,), ((2, 3.0),),
                                                (Raw("torch.Size([2, 3])",
                                                     lambda lib: lib["torch"].Size([2, 3])),)]])
    out += calls(op, *[head + ((2, 3),) + tail + ({"dtype": d},) for d in DTYPES])
    out += calls(op, head + ((2,),) + tail + ({"requires_grad": True},),
                 head + ((2,),) + tail + ({"dtype": D("int64"), "requires_grad": True},),
                 head + ((2,),) + tail + ({"device": "cpu"},),
                 head + ((2, 3),) + tail + ({"out": T((2, 3), grad=False)},))
    return out


def like(op: str, tail: tuple = ()) -> list:
    out = calls(op, *[(T((2, 3), dt),) + tail for dt in ALL_DTYPES])
    out += calls(op, *[(X,) + tail + ({"dtype": d},) for d in DTYPES])
    out += calls(op, (T(()),) + tail, (T((0, 3)),) + tail,
                 (X,) + tail + ({"requires_grad": True},),
                 (T((2, 3), "int64"),) + tail + ({"requires_grad": True},))
    return out


DATA = [1.5, 2, True, [1, 2, 3], [1.0, 2, 3], [True, False], [[1, 2], [3, 4]], [], [[], []],
        [[1, 2], [3]], [1, 2.5, True], [[1.5], [2.5]], 2**63, -(2**63), 1e40, [float("nan")],
        (1, 2), [T((2,)), T((2,))], T((2, 3)), [T(()), T(())], [T(()), 2.0]]


def tensors(op: str) -> list:
    out = calls(op, *[(d,) for d in DATA])
    out += calls(op, *[([1.0, 2.5, -3.0], {"dtype": d}) for d in DTYPES])
    out += calls(op, *[([1, 2, 3], {"dtype": d}) for d in DTYPES[:3]])
    out += calls(op, ([1.0, 2.0], {"requires_grad": True}), ([1, 2], {"requires_grad": True}),
                 (300, {"dtype": D("uint8")}), ([-1], {"dtype": D("uint8")}),
                 ([1.5], {"dtype": D("int64")}), (2.5, {"device": "cpu"}))
    return out


def ranges() -> dict:
    out = {}
    out["torch.arange"] = lambda: calls(
        "torch.arange", (5,), (1, 4), (0, 1, 0.1), (5, 0, -1), (0, 5, 0), (1.5,), (0, 2.5, 0.5),
        (5, 0), (0, 1, 0.3, {"dtype": D("int64")}), (5, {"dtype": D("float16")}),
        (-3, 3, {"dtype": D("uint8")}), (T((), "int64", "p"),), (0, T(()), 0.5), (0,),
        (1, 2, 3, {"dtype": D("bool")}), (4, {"requires_grad": True}),
        (0, 5, {"dtype": D("float64"), "requires_grad": True}), (float("inf"),),
        (4, {"out": T((4,), "int64")}), (0.1, 0.9, 0.2), (10, {"dtype": D("int32")}))
    for name in ("linspace", "logspace"):
        op = f"torch.{name}"
        out[op] = lambda op=op: calls(
            op, (0, 1, 5), (0, 1, 1), (0, 1, 0), (0, 1, -1), (1, 0, 4), (0, 10, 4,
                                                                         {"dtype": D("int64")}),
            (0.0, 2.0, 7, {"dtype": D("float64")}), (0, 1, 5, {"dtype": D("float16")}),
            (T(()), 1, 3), (0, T((), "float64", "p"), 3), (-5, 5, 11, {"dtype": D("int32")}),
            (0, 1, 3, {"requires_grad": True}), (0, 1, 2.0), (0, 1, 5, {"out": T((5,))}),
            *([(0, 2, 5, 2.0), (0, 3, 4, {"base": 0.5}), (0, 2, 3, {"base": -2.0})]
              if name == "logspace" else []))
    out["torch.eye"] = lambda: calls(
        "torch.eye", (3,), (2, 4), (0,), (-1,), (3, {"dtype": D("int64")}), (3, 0),
        (2, {"dtype": D("bool")}), (2, {"requires_grad": True}), (3, None),
        (2, {"out": T((2, 2))}), *[(2, {"dtype": d}) for d in DTYPES])
    out["torch.full"] = lambda: calls(
        "torch.full", ((2, 3), 1.5), ((2, 3), 2), ((2, 3), True), ((), 1.0), ((0,), 1.0),
        ((2,), float("nan")), ((2,), 2, {"dtype": D("float32")}), ((2,), 2.5,
                                                                   {"dtype": D("int64")}),
        ((2,), 300, {"dtype": D("uint8")}), ((2,), T(())), ((2,), 1.0, {"requires_grad": True}),
        ([2, 3], 0.5), (2, 0.5), ((2, -1), 0.5), ((2,), 1.5, {"out": T((2,))}))
    return out


def complex_sized(op: str) -> list:
    """Complex samples: fewer than 16 real parts (torch's scalar path), exactly 16 and more
    (its 16-element blocks, and the last block redrawn)."""
    return calls(op, *[(shape, {"dtype": D(dt)}) for shape, dt in [
        ((2, 3), "complex64"), ((8,), "complex64"), ((3, 3), "complex64"), ((3,), "complex128"),
        ((9,), "complex128"), ((4, 5), "complex128")]],
        ((2,), {"dtype": D("complex128"), "requires_grad": True}))


def complex_like(op: str) -> list:
    return calls(op, (T((2, 3), "complex64"),), (T((3, 3), "complex128"),),
                 (X, {"dtype": D("complex128")}), (T((0, 3), "complex64"),))


C = T((2, 3), "complex128", grad=False)
COMPLEX_NORMAL = [(T((2, 3), "complex128"), 1.0), (C, 0.5), (T((3, 3), "complex64", grad=False),
                                                               2.0),
                  (C, T((2, 3), kind="p", grad=False)), (C, T((3,), "float32", "p", grad=False)),
                  (X, T((2, 3), "complex128")), (0.5, T((2, 3), "complex128")),
                  (0.0, 1.0, (2, 3), {"dtype": D("complex128")}),
                  (1.0, 2.0, (9,), {"dtype": D("complex64")}), (C, -1.0)]


def random_ops() -> dict:
    P = T((2, 4), kind="prob", grad=False)
    out = {}
    for name in ("rand", "randn"):
        out[f"torch.{name}"] = lambda n=name: sized(f"torch.{n}") + complex_sized(f"torch.{n}")
    out["torch.randint"] = lambda: calls(
        "torch.randint", (10, (3,)), (2, 9, (2, 3)), (10, (0,)), (10, ()), (-5, 5, (6,)),
        (5, 2, (3,)), (10, (3,), {"dtype": D("float32")}), (2**40, (3,)),
        (10, (3,), {"dtype": D("uint8")}), (0, 2, (4,), {"dtype": D("bool")}), (10, 3),
        (3, {"size": (2, 2)}), (10, (2,), {"out": T((2,), "int64")}),
        (10, (3,), {"dtype": D("complex64")}), (5, 2, (3,), {"dtype": D("complex128")}))
    out["torch.randperm"] = lambda: calls(
        "torch.randperm", (5,), (0,), (1,), (-1,), (6, {"dtype": D("float64")}),
        (300, {"dtype": D("uint8")}), (40,), (4, {"dtype": D("int32")}),
        (4, {"out": T((4,), "int64")}), (4, {"dtype": D("complex128")}))
    for name in ("rand_like", "randn_like", "empty_like", "zeros_like", "ones_like"):
        out[f"torch.{name}"] = lambda n=name: like(f"torch.{n}") + (
            complex_like(f"torch.{n}") if n in ("rand_like", "randn_like") else [])
    out["torch.full_like"] = lambda: like("torch.full_like", (2.5,)) + calls(
        "torch.full_like", (T((2, 3), "int64"), 2.5), (X, 7), (T((2, 3), "bool"), 2))
    out["torch.randint_like"] = lambda: like("torch.randint_like", (10,)) + calls(
        "torch.randint_like", (X, 2, 9), (X, {"high": 5}), (X, 5, 2),
        (T((2, 3), "complex64"), 5))
    out["torch.bernoulli"] = lambda: calls(
        "torch.bernoulli", (T((3, 4), kind="01"),), (T((3, 4), "float32", "01"),),
        (T((2, 3), "float16", "01"),), (X,), (T((3, 4), kind="01"), 0.3),
        (T((3, 4), kind="01"), {"p": 0.7}), (T((2, 3), "int64", "t"),), (T((0,), kind="01"),),
        (T((), kind="01"),), (T((2, 3), kind="01", grad=False), {"out": T((2, 3), grad=False)}),
        (T((2, 3), "complex128", "01"),), (T((2, 3), "complex64"), 0.5), (T((0, 3), "complex128"),))
    out["torch.multinomial"] = lambda: calls(
        "torch.multinomial", (P, 2), (P, 4), (P, 5), (P, 6, True), (P, 3, {"replacement": True}),
        (T((4,), kind="prob", grad=False), 2), (T((4,), kind="p", grad=False), 3),
        (T((2, 4), "float32", "prob", grad=False), 2), (T((2, 4), kind="n", grad=False), 2),
        (P, 0), (T((2, 4), "int64", "p"), 2), (T((), kind="p", grad=False), 1),
        (T((2, 4), "complex128", "p", grad=False), 2))
    out["torch.normal"] = lambda: calls(
        "torch.normal", (X, T((2, 3), kind="p")), (X, 1.0), (0.5, T((2, 3), kind="p")),
        (0.0, 1.0, (2, 3)), (0.0, 1.0, {"size": (3,)}), (X, T((3,), kind="p")),
        (X, T((2, 3), kind="n")), (T((2, 3), "float32"), 2.0), (0.0, -1.0, (2,)),
        (0.0, 1.0, (2, 3), {"dtype": D("float64")}), (T((), grad=False), T((), kind="p")),
        (T((2, 3), grad=False), T((2, 3), kind="p", grad=False), {"out": T((2, 3))}),
        *COMPLEX_NORMAL)
    out["torch.poisson"] = lambda: calls(
        "torch.poisson", (T((2, 3), kind="p"),), (T((2, 3), "float32", "p"),), (T((0,)),),
        (T((2, 3), kind="n"),), (T((4,), kind="e"),), (T((3,), "int64", "p"),), (T((), kind="p"),),
        (T((2, 3), "complex128", "p"),))
    return out


def table() -> dict:
    out = {}
    for name in ("zeros", "ones", "empty"):
        out[f"torch.{name}"] = lambda n=name: sized(f"torch.{n}")
    out["torch.tensor"] = lambda: tensors("torch.tensor")
    out["torch.as_tensor"] = lambda: tensors("torch.as_tensor")
    out["torch.meshgrid"] = lambda: calls(
        "torch.meshgrid", (T((2,)), T((3,)), {"indexing": "ij"}),
        (T((2,)), T((3,)), {"indexing": "xy"}), ([T((2,)), T((3,))], {"indexing": "ij"}),
        (T((2,)), T((3,)), T((4,)), {"indexing": "xy"}), (T(()), T((2,)), {"indexing": "ij"}),
        (T((2,)), T((3,), "int64"), {"indexing": "ij"}), (T((2, 2)), T((3,)), {"indexing": "ij"}),
        (T((2,)), {"indexing": "bad"}), (T((0,)), T((2,)), {"indexing": "ij"}))
    out.update(ranges())
    out.update(random_ops())
    for name in ("tril_indices", "triu_indices"):
        op = f"torch.{name}"
        out[op] = functools.partial(calls, op, (3, 3), (3, 4), (4, 3, 1), (4, 3, -1), (3, 3, 5),
                                    (3, 3, -5), (0, 3), (1, 1), (-1, 3), (3, 3, 0,
                                                                          {"dtype": D("int32")}),
                                    (3, 3, {"dtype": D("float32")}))
    return out
