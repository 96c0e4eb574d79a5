"""Runs one sample on one library and writes down what came out: a record.

Input: a ``spec.Sample`` and a library (``torch`` or ``symgrad``: their namespaces, found by
``library``). Output: a record (a dict, JSON-ready): the exception class torch's way
(``RuntimeError``, ``ValueError``, ``TypeError``, ``IndexError``...) or every result leaf
(dtype, shape, requires_grad, grad_fn class name, values), whether an ``out=``/in-place result
is the tensor given, and the gradient of every input that requires grad, from
``backward()`` of a fixed weighting of the floating results. Both libraries are seeded
(``manual_seed(0)``) before each sample, and a sample that runs more than ``TIMEOUT`` seconds
of CPU time is stopped and recorded as a timeout.
"""

from __future__ import annotations

import contextlib
import functools
import math
import re
import signal
import warnings

import numpy as np

from .spec import D, Raw, T, salt_of

TIMEOUT = 2.0
CANONICAL = ("IndexError", "TypeError", "ValueError", "RuntimeError")
DIGITS = {"float16": 5, "float32": 9, "float64": 13, "complex64": 9, "complex128": 13}


class SweepTimeout(BaseException):
    """Raised by the timer inside a sample that runs too long (a BaseException, so that no
    ``except Exception`` of the library under test swallows it)."""


@functools.cache
def library(name: str) -> dict:
    """The namespaces a sample's ``ns`` names, for ``torch`` or ``symgrad``."""
    import importlib
    top = importlib.import_module(name)
    spaces = {"torch": top, "Tensor": top.Tensor,
              "F": importlib.import_module(f"{name}.nn.functional")}
    for sub in ("linalg", "special", "fft"):
        try:
            spaces[sub] = importlib.import_module(f"{name}.{sub}")
        except ImportError:
            pass
    spaces["name"] = name   # (torch's settings stay as they are: other tests share the process)
    return spaces


def error_class(exc: BaseException) -> str:
    """The class torch's tests would name: the first of IndexError, TypeError, ValueError,
    RuntimeError in the exception's MRO, else its own class name."""
    for cls in type(exc).__mro__:
        if cls.__name__ in CANONICAL and cls.__module__ == "builtins":
            return cls.__name__
    return type(exc).__name__


def parser_kind(exc: BaseException) -> str | None:
    """For a TypeError of torch's argument parser, what it rejected: ``list for Tensor``,
    ``keyword dim=float``, ``combination (Tensor, list)``, ``arity``; else None."""
    if not isinstance(exc, TypeError):
        return None
    text = str(exc)
    m = re.search(r"must be ([\w .]+?), not (\w+)", text)
    if m:
        return f"{m.group(2)} for {m.group(1)}"
    m = re.search(r"invalid combination of arguments - got \((.*?)\), but", text)
    if m:
        return f"combination ({m.group(1)})"
    if "unexpected keyword argument" in text:
        return "unexpected keyword"
    if re.search(r"takes .* positional argument|missing \d+ required", text):
        return "arity"
    return None


# ---------------------------------------------------------------- building the call

class Built:
    """A sample's arguments built for one library, and the leaves that require grad."""

    def __init__(self, lib: dict, sample):
        self.lib, self.sample, self.leaves, self.receiver, self.out = lib, sample, [], None, None
        self.position = 0
        self.args = [self.build(a) for a in sample.args]
        self.kwargs = {k: self.build(v) for k, v in sample.kwargs.items()}
        if "out" in self.kwargs:
            self.out = self.kwargs["out"]
        if inplace(sample) and self.args:
            self.receiver = self.args[0]

    def build(self, value):
        if isinstance(value, T):
            return self.tensor(value)
        if isinstance(value, D):
            return getattr(self.lib["torch"], value.name)
        if isinstance(value, Raw):
            return value.build(self.lib)
        if isinstance(value, list):
            return [self.build(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.build(v) for v in value)
        return value

    def tensor(self, spec: T):
        self.position += 1
        data = spec.data(salt_of(f"{self.position}:{spec.render()}"))
        top = self.lib["torch"]
        t = top.tensor(data.copy())
        if spec.requires_grad:
            t.requires_grad_(True)
            self.leaves.append(t)
            # the receiver of an in-place method is a copy of the leaf (an in-place op on a
            # leaf that requires grad is the error the ``leaf`` samples check)
            if self.position == 1 and inplace(self.sample) and self.sample.tag != "leaf":
                t = t.clone()
        return t


def inplace(sample) -> bool:
    name = sample.name
    if sample.ns in ("F", "torch"):   # F.relu_, torch.exp_...: in-place functions
        return name.endswith("_") and not name.startswith("_")
    return sample.ns == "Tensor" and (name.endswith("_") and not name.startswith("__")
                                      or name.startswith("__i") and name != "__index__"
                                      and name != "__init__" or name == "__setitem__")


def call(built: Built):
    sample, lib = built.sample, built.lib
    if sample.ns == "Tensor":
        receiver = built.args[0]
        if sample.name == "__setitem__":
            receiver.__setitem__(*built.args[1:], **built.kwargs)
            return receiver
        return getattr(receiver, sample.name)(*built.args[1:], **built.kwargs)
    return getattr(lib[sample.ns], sample.name)(*built.args, **built.kwargs)


# ---------------------------------------------------------------- what came out

def is_tensor(lib: dict, value) -> bool:
    return isinstance(value, lib["Tensor"])


def rounded(values: np.ndarray, dtype: str) -> list:
    """The values as JSON numbers: floats to the digits their dtype holds (nan, inf kept)."""
    flat = values.reshape(-1)
    if values.dtype.kind == "c":   # complex: real and imaginary parts, interleaved
        flat = np.stack([flat.real, flat.imag], axis=-1).reshape(-1)
    if values.dtype.kind == "b":
        return [int(v) for v in flat]
    if values.dtype.kind in "iu":
        return [int(v) for v in flat]
    digits = DIGITS.get(dtype, 17)
    return [float(f"{v:.{digits}g}") if math.isfinite(v) else float(v)
            for v in flat.astype(np.float64)]


def tensor_leaf(lib: dict, t) -> dict:
    fn = t.grad_fn
    try:
        values = t.detach().numpy()
    except RuntimeError:   # torch's ZeroTensor (an unused input's gradient in some rules)
        values = t.detach().numpy(force=True)
    dtype = str(t.dtype).replace("torch.", "")
    return {"dtype": dtype, "shape": list(t.shape), "rg": bool(t.requires_grad),
            "fn": None if fn is None else type(fn).__name__, "v": rounded(values, dtype)}


def describe(lib: dict, value, leaves: list) -> str:
    """The structure of a result as text (``T``, ``(T,T)``, ``max(values=T,indices=T)``),
    appending each leaf's record to ``leaves``."""
    if is_tensor(lib, value):
        leaves.append(tensor_leaf(lib, value))
        return "T"
    if isinstance(value, tuple) and type(value).__name__ == "Size":
        leaves.append({"py": list(value)})
        return "Size"
    fields = getattr(type(value), "__match_args__", None) or getattr(value, "_fields", None)
    if isinstance(value, tuple) and fields:
        inner = ",".join(f"{f}={describe(lib, v, leaves)}" for f, v in zip(fields, value))
        return f"{type(value).__name__}({inner})"
    if isinstance(value, (tuple, list)):
        inner = ",".join(describe(lib, v, leaves) for v in value)
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    if isinstance(value, np.ndarray):
        leaves.append({"dtype": str(value.dtype), "shape": list(value.shape),
                       "v": rounded(value, str(value.dtype))})
        return "ndarray"
    return python_leaf(value, leaves)


def python_leaf(value, leaves: list) -> str:
    if value is None or isinstance(value, (bool, int, str)):
        leaves.append({"py": value})
        return type(value).__name__
    if isinstance(value, float):
        leaves.append({"py": rounded(np.array([value]), "float64")[0]})
        return "float"
    leaves.append({"py": str(value).replace("symgrad", "torch")})
    return "object"   # a dtype, a device...: compared by what it prints


def cotangent(lib: dict, t):
    """A fixed weighting of a result (1, 1.25, ... 2.5, repeating: exact in every float
    dtype), so that each element's gradient counts separately."""
    n = t.numel()
    w = (1.0 + (np.arange(n) % 7) * 0.25).reshape(tuple(t.shape))
    return lib["torch"].tensor(w.astype(t.detach().numpy().dtype))


def gradients(lib: dict, built: Built, result) -> dict:
    outs = []
    flatten(lib, result, outs)
    outs = [t for t in outs if t.requires_grad and (t.dtype.is_floating_point
                                                     or t.dtype.is_complex)]
    if not outs or not built.leaves:
        return {}
    try:
        loss = None
        for t in outs:
            if t.dtype.is_complex:   # a real loss: weigh the two parts differently
                w = cotangent(lib, t.real)
                term = (t.real * w).sum() + (t.imag * (w * 0.5 + 1)).sum()
            else:
                term = (t * cotangent(lib, t)).sum()
            loss = term if loss is None else loss + term
        loss.backward()
    except Exception as exc:   # noqa: BLE001  (the class is the record)
        return {"ge": error_class(exc)}
    grads = [None if leaf.grad is None else tensor_leaf(lib, leaf.grad)
             for leaf in built.leaves]
    return {"g": grads}


def flatten(lib: dict, value, into: list) -> None:
    if is_tensor(lib, value):
        into.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            flatten(lib, v, into)


def identity(built: Built, result) -> dict:
    if built.out is not None:
        outs = built.out if isinstance(built.out, (tuple, list)) else [built.out]
        got = result if isinstance(result, (tuple, list)) else [result]
        return {"same": len(outs) == len(got) and all(a is b for a, b in zip(outs, got))}
    if built.receiver is not None:
        return {"same": result is built.receiver}
    return {}


# ---------------------------------------------------------------- one sample

@contextlib.contextmanager
def time_limit(seconds: float):
    """Raises SweepTimeout in the block after ``seconds`` of this process's CPU time (not wall
    time: a busy machine does not make a sample time out)."""
    def stop(signum, frame):
        raise SweepTimeout()
    old = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def run(lib: dict, sample, timeout: float = TIMEOUT) -> dict:
    """The record of ``sample`` under ``lib`` (see the module's docstring). A sample that
    times out runs once more (a first call may have spent its time importing) before it is
    recorded as a timeout."""
    for _ in range(2):
        lib["torch"].manual_seed(0)
        try:
            with time_limit(timeout), warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                return outcome(lib, sample)
        except SweepTimeout:
            pass
    return {"timeout": True}


def outcome(lib: dict, sample) -> dict:
    try:
        built = Built(lib, sample)
        result = call(built)
    except Exception as exc:   # noqa: BLE001  (the class is the record)
        record = {"e": error_class(exc), "m": str(exc).split("\n")[0][:120]}
        kind = parser_kind(exc)
        if kind:
            record["k"] = kind
        return record
    if result is NotImplemented:   # an operator declining an operand: Python's TypeError
        return {"e": "TypeError", "k": "operator returns NotImplemented"}
    leaves: list = []
    try:
        record = {"s": describe(lib, result, leaves), "o": leaves}
    except Exception as exc:   # noqa: BLE001
        return {"e": "unreadable result: " + error_class(exc)}
    record.update(identity(built, result))
    try:
        record.update(gradients(lib, built, result))
    except Exception as exc:   # noqa: BLE001  (reading a gradient failed)
        record["ge"] = error_class(exc)
    return record
