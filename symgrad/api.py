"""The user-facing transforms: ``compile``, ``grad``, ``value_and_grad``, ``inspect``.

Input: Python functions and call arguments. Output: ``CompiledFunction`` objects that trace once
per signature (shapes, dtypes, structure, static values), keep one ``Specialization`` per
signature, and run the compiled C with NumPy arrays in and out. Called with tensors that are
being traced or that require grad, a compiled function runs its Python body instead, so
transforms compose: ``grad(grad(f))``, a compiled function called inside another.
"""

from __future__ import annotations

import functools
import importlib
import inspect as _inspect
import pickle
import threading
from typing import Any, Callable, Sequence

import numpy as np

from . import config, state
from .autodiff import function_class, run_backward
from .ir import format_graph
from .passes import FAST_MATH_PIPELINE
from .pytree import flatten, unflatten
from .runtime import Specialization
from .tensor import Tensor, as_tensor, full_like_of
from .trace import leaf_spec, param_names, trace


class CompiledFunction:
    """``fn`` compiled to C, one specialization per argument signature.

    ``fast_math=True`` optimizes the graph with ``FAST_MATH_PIPELINE`` (value-changing
    rewrites such as log(exp(x)) -> x, see ``passes.fast_math``); the C compiler flags are
    the same either way (IEEE arithmetic, no -ffast-math).
    """

    def __init__(self, fn: Callable, static_argnums: Sequence[int] = (),
                 static_argnames: Sequence[str] = (), name: str | None = None,
                 fast_math: bool = False):
        if isinstance(fn, CompiledFunction):
            static_argnums = tuple(static_argnums) or fn.static_argnums
            static_argnames = tuple(static_argnames) or fn.static_argnames
            fast_math = fast_math or fn.fast_math
            fn = fn.fn
        if not callable(fn):
            raise TypeError(f"symgrad.compile expects a function, got {type(fn).__name__}")
        self.fn = fn
        self.static_argnums = tuple(static_argnums) if not isinstance(static_argnums, int) \
            else (static_argnums,)
        self.static_argnames = (static_argnames,) if isinstance(static_argnames, str) \
            else tuple(static_argnames)
        self.name = name or getattr(fn, "__name__", "fn")
        self.fast_math = bool(fast_math)
        self._specs: dict = {}
        self._fast: dict = {}     # (type, shape, dtype) per positional arg -> Specialization
        self._last = None
        self._last_spec = None
        self._names_cache: dict = {}
        # Threads that miss on one signature at once: one traces and builds, the others wait
        # for its result (per signature, so different signatures still build in parallel).
        self._lock = threading.Lock()
        self._key_locks: dict = {}
        # How to make ``fn`` again in another process (see ``__reduce__``): ("compile", fn) or
        # ("value_and_grad" | "grad", the user's function, argnums, has_aux).
        self._recipe: tuple = ("compile", fn)
        functools.update_wrapper(self, fn)

    # -------------------------------------------------------------- signatures
    def _split(self, args: tuple, kwargs: dict):
        """Separate static from dynamic arguments; returns (key parts, leaves, rebuild)."""
        static_pos = {i if i >= 0 else len(args) + i for i in self.static_argnums}
        for i in static_pos:
            if i >= len(args):
                raise TypeError(f"{self.name}: static_argnums names argument {i}, but only "
                                f"{len(args)} positional arguments were passed")
        dyn_args = [a for i, a in enumerate(args) if i not in static_pos]
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        statics = tuple((i, args[i]) for i in sorted(static_pos)) + \
            tuple(sorted((k, v) for k, v in kwargs.items() if k in self.static_argnames))
        try:
            hash(statics)
        except TypeError:
            raise TypeError(f"{self.name}: static arguments must be hashable; got "
                            f"{statics!r}") from None
        names = self._names_cache.get(len(args))
        if names is None:
            names = self._names_cache[len(args)] = param_names(self.fn, len(args))
        dyn_names = [n for i, n in enumerate(names) if i not in static_pos]
        paths: list = []
        leaves, tree = _flatten_args(dyn_args, dyn_kwargs, lambda: dyn_names, paths)

        def leaf_name(p: str) -> str:
            # "[0][2]['w']" -> the parameter name + the rest of the path
            if p.startswith("[0]["):
                pos, rest = p[4:].split("]", 1)
                return dyn_names[int(pos)] + rest
            if p.startswith("[1]["):
                key, rest = p[4:].split("]", 1)
                return key.strip("'\"") + rest
            return p

        def rebuild(new_leaves):
            (d_args, d_kwargs) = unflatten(tree, new_leaves)
            it = iter(d_args)
            full = [args[i] if i in static_pos else next(it) for i in range(len(args))]
            kw = dict(kwargs)
            kw.update(d_kwargs)
            return full, kw
        return statics, tree, leaves, [leaf_name(p) for p in paths], rebuild

    def specialize(self, *args: Any, **kwargs: Any) -> tuple[Specialization, list]:
        """The specialization for these arguments (traced and built on a miss)."""
        statics, tree, leaves, names, rebuild = self._split(args, kwargs)
        try:
            specs = [leaf_spec(v, n) for v, n in zip(leaves, names)]
        except TypeError:
            _check_binds(self.fn, args, kwargs, self.name)   # a call fn cannot take says so
            raise
        key = (tree, statics, tuple((s.shape, s.dtype, s.python) for s in specs))
        spec = self._specs.get(key)
        if spec is None:
            with self._lock:
                key_lock = self._key_locks.setdefault(key, threading.RLock())
            try:
                with key_lock:
                    spec = self._specs.get(key)   # another thread may have built it meanwhile
                    if spec is None:
                        config.debug(1, "%s %s: %s", "recompile" if self._specs else
                                     "compile", self.name, _why(self._last, key, names))
                        traced = trace(self.fn, specs, rebuild, self.name)
                        spec = Specialization(traced, self.name, passes=FAST_MATH_PIPELINE
                                              if self.fast_math else None)
                        self._specs[key] = spec
            finally:   # built (later callers find it in _specs) or failed: the lock is done
                with self._lock:
                    self._key_locks.pop(key, None)
        self._last = key
        self._last_spec = spec
        self._last_names = names
        return spec, leaves

    # -------------------------------------------------------------- calling
    def __call__(self, *args: Any, **kwargs: Any):
        """Run the compiled C for these arguments (tracing and building it on a new signature).

        ``out=outs`` writes the results into existing arrays and returns ``outs`` itself:
        ``outs`` has exactly the structure of the result (e.g. ``(value, (gw, gb))``), each
        leaf a writeable, aligned, C-contiguous ndarray of the output's exact shape and dtype
        (a 0-d output needs a 0-d array), none sharing memory with another or with an input
        array. Anything else raises TypeError/ValueError naming the leaf (``out[1][0]``);
        ``out=None`` allocates, as without it. If ``fn`` itself has a parameter named ``out``
        (or lists it in ``static_argnames``), ``out=`` is passed to ``fn`` as any other argument.
        """
        if not kwargs:
            # Fast path: positional NumPy arrays and Python numbers only, seen before. (The
            # key is ``_fast_key(args)``, written out here: this is the hot path.)
            spec = self._fast.get(tuple([(a.shape, a.dtype) if type(a) is np.ndarray
                                         else type(a) for a in args]))
            if spec is not None:
                self._last_spec = spec
                return spec.call(args)
        elif "out" in kwargs and self._out_is_ours():
            out = kwargs.pop("out")
            if out is None:       # NumPy's convention: out=None allocates the results
                return self(*args, **kwargs)
            if not kwargs:        # the same fast path, writing into ``out``
                spec = self._fast.get(_fast_key(args))
                if spec is not None:
                    self._last_spec = spec
                    return spec.call_into(args, out)
            return self._call_into(args, kwargs, out)
        leaves, _ = _flatten_args(args, kwargs, lambda: param_names(self.fn, len(args)))
        if any(isinstance(v, Tensor) and (v.is_traced or v.requires_grad) for v in leaves):
            return self.fn(*args, **kwargs)   # inside a trace or an eager autograd graph
        spec, values = self._prepare(args, kwargs)
        return spec.call(values)

    def _prepare(self, args: tuple, kwargs: dict) -> tuple[Specialization, list]:
        """The specialization and the leaf values to call it with; an all-positional call
        with arrays and numbers also registers its signature for the fast path."""
        spec, leaves = self.specialize(*args, **kwargs)
        if not kwargs and not self.static_argnums and all(
                type(a) is np.ndarray or type(a) in (float, int, bool) for a in args):
            self._fast[_fast_key(args)] = spec
        return spec, [v._value if isinstance(v, Tensor) else v for v in leaves]

    # Whether ``out=`` is symgrad's (decided at the first call that passes it): only when the
    # function has no parameter of that name and does not declare it static.
    _out_keyword: bool | None = None

    def _out_is_ours(self) -> bool:
        ours = self._out_keyword
        if ours is None:
            ours = self._out_keyword = ("out" not in self.static_argnames and
                                        not _has_keyword_parameter(self.fn, "out"))
        return ours

    def _call_into(self, args: tuple, kwargs: dict, out):
        leaves, _ = _flatten_args(args, kwargs, lambda: param_names(self.fn, len(args)))
        if any(isinstance(v, Tensor) and (v.is_traced or v.requires_grad) for v in leaves):
            raise TypeError(f"{self.name}: out= needs NumPy results; it cannot be used when "
                            f"the function is called on tensors that are traced or require "
                            f"grad")
        spec, values = self._prepare(args, kwargs)
        return spec.call_into(values, out)

    @property
    def c_source(self) -> str:
        """The C text of the most recently used specialization."""
        if self._last_spec is None:
            raise RuntimeError(f"{self.name} has not been called yet: call it (or use "
                               f"symgrad.inspect(f, *args)) to trace a specialization")
        return self._last_spec.c_source

    def __repr__(self) -> str:
        return f"<symgrad.CompiledFunction {self.name} ({len(self._specs)} specializations)>"

    # -------------------------------------------------------------- pickling
    def __reduce__(self):
        """Pickle by value: each specialization as its C text, cache key and signature (the
        other process loads the module from the disk cache or rebuilds it from the text,
        without tracing), plus the Python function for new signatures: by reference when it
        can be imported by name; otherwise (a lambda, a local function) it is left out and
        only the signatures compiled before pickling can be called."""
        kind, fn, *rest = self._recipe
        return (_restore, (kind, _function_ref(fn), tuple(rest), self.static_argnums,
                           self.static_argnames, self.name, self.fast_math,
                           tuple(self._specs.items())))


class _ByName:
    """A function found again by its module and qualified name: the one a compiled function
    decorates, which that name now denotes (``@sg.compile def f``)."""

    def __init__(self, module: str, qualname: str):
        self.module, self.qualname = module, qualname

    def resolve(self) -> Callable:
        obj = _named(self.module, self.qualname)
        return obj._recipe[1] if isinstance(obj, CompiledFunction) else obj


def _named(module: str, qualname: str) -> Any:
    """The object ``module.qualname`` names (importing the module)."""
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _function_ref(fn: Callable) -> Any:
    """What to pickle for ``fn``: ``fn`` itself if pickle can save it by reference, a
    ``_ByName`` if its name now denotes a compiled function wrapping it, else None."""
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", "")
    if module and "<" not in qualname:
        try:
            obj = _named(module, qualname)
        except (ImportError, AttributeError):
            obj = None
        if obj is fn:
            return fn
        if isinstance(obj, CompiledFunction) and obj._recipe[1] is fn:
            return _ByName(module, qualname)
    try:
        pickle.dumps(fn)
        return fn
    except Exception:   # noqa: BLE001  (any reason: the function stays behind)
        return None


def _restore(kind: str, fn: Any, rest: tuple, static_argnums, static_argnames, name: str,
             fast_math: bool, specs: tuple) -> CompiledFunction:
    """Unpickle a ``CompiledFunction`` (see ``CompiledFunction.__reduce__``)."""
    if isinstance(fn, _ByName):
        fn = fn.resolve()
    if fn is None:
        signatures = "; ".join(_describe_key(k) for k, _ in specs) or "none"

        def fn(*args, **kwargs):
            raise TypeError(f"{name} was unpickled without its Python function (a lambda or "
                            f"a local function cannot be pickled), so it cannot compile a new "
                            f"signature; the signatures compiled before pickling were: "
                            f"{signatures}")
        fn.__name__ = fn.__qualname__ = name
    if kind == "compile":
        cf = CompiledFunction(fn, static_argnums, static_argnames, name=name,
                              fast_math=fast_math)
    else:
        argnums, has_aux = rest
        transform = value_and_grad if kind == "value_and_grad" else grad
        if not isinstance(fn, CompiledFunction):   # else a transform, unpickled itself
            fn = CompiledFunction(fn, static_argnums, static_argnames, fast_math=fast_math)
        cf = transform(fn, argnums, has_aux)
        cf.name = name
    cf._specs.update(specs)
    return cf


def _describe_key(key) -> str:
    _, statics, leaves = key
    args = ", ".join(f"{dt.name}{list(shape)}" for shape, dt, _ in leaves)
    return f"({args})" + (f" static {statics!r}" if statics else "")


def _fast_key(args: tuple) -> tuple:
    """The fast-path signature of positional arguments: (shape, dtype) of each ndarray, the
    type of anything else."""
    return tuple([(a.shape, a.dtype) if type(a) is np.ndarray else type(a) for a in args])


def _flatten_args(args, kwargs: dict, names: Callable[[], list], paths: list | None = None):
    """``flatten((args, kwargs))``; if a dict's keys cannot be sorted, the error names the
    argument holding it (``names()`` gives the positional ones' names), not its path."""
    try:
        return flatten((tuple(args), kwargs), "", paths)
    except TypeError:
        for n, a in [*zip(names(), args), *kwargs.items()]:
            flatten(a, n)
        raise


def _check_binds(fn: Callable, args: tuple, kwargs: dict, name: str) -> None:
    """Raise the TypeError Python would for calling ``fn`` with these arguments (too many or
    too few, an unknown keyword), if they do not fit its parameters."""
    try:
        sig = _inspect.signature(fn)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{name}: {e}") from None


def _has_keyword_parameter(fn: Callable, name: str) -> bool:
    """Whether ``fn`` (or what it wraps) declares a parameter ``name`` passable by keyword."""
    try:
        param = _inspect.signature(fn).parameters.get(name)
    except (TypeError, ValueError):
        return False
    return param is not None and param.kind in (param.POSITIONAL_OR_KEYWORD,
                                                 param.KEYWORD_ONLY)


def _why(last, key, names) -> str:
    if last is None:
        return "first call"
    (t0, s0, a0), (t1, s1, a1) = last, key
    if t0 != t1:
        return f"argument structure {t0.describe()} -> {t1.describe()}"
    if s0 != s1:
        return f"static arguments {s0!r} -> {s1!r}"
    for name, x, y in zip(names, a0, a1):
        if x != y:
            what = "shape" if x[0] != y[0] else "dtype" if x[1] != y[1] else "kind"
            fmt = {"shape": lambda s: s[0], "dtype": lambda s: s[1].name,
                   "kind": lambda s: s[2]}[what]
            return f"arg {name} {what} {fmt(x)} -> {fmt(y)}"
    return "new signature"


def compile(fn: Callable | None = None, *, static_argnums: Sequence[int] = (),  # noqa: A001
            static_argnames: Sequence[str] = (), fast_math: bool = False):
    """Decorator: trace ``fn`` at its first call per signature and run it as compiled C.

    ``fast_math=True`` allows value-changing graph rewrites (``passes.fast_math``: results
    may differ in the last bits and at the edges of the domain); it does not change the C
    compiler flags, which stay IEEE."""
    if fn is None:
        return lambda f: CompiledFunction(f, static_argnums, static_argnames,
                                          fast_math=fast_math)
    return CompiledFunction(fn, static_argnums, static_argnames, fast_math=fast_math)


# ------------------------------------------------------------------ gradient transforms

_Alias = function_class("AliasBackward0")


def _differentiable_leaf(t: Any, where: str) -> Tensor:
    """A tensor to differentiate with respect to, sharing ``t``'s value or node.

    If ``t`` already requires grad (an outer transform differentiates through this one), the
    new tensor is an alias whose backward passes the cotangent on to ``t``; else a fresh leaf.
    """
    t = as_tensor(t) if not isinstance(t, Tensor) else t
    if not t.dtype.is_floating:
        widths = " (integer arrays of any width trace as int64)" if t.dtype.category == 1 \
            else ""
        raise TypeError(f"grad requires floating point inputs: argument {where} must be "
                        f"float32 or float64 to be differentiated, got {t.dtype.name}{widths}; "
                        f"cast it to a float dtype or leave it out of argnums")
    if t.requires_grad:
        out = Tensor(t._value, t._node)
        out._requires_grad = True
        out.grad_fn = _Alias(lambda g, o, ins: (g,), {}, (t,), (t._value, t._node), False,
                             ((t._grad_edge(), 0),), ((t.shape, t.dtype),), None)
        return out
    out = Tensor(t._value, t._node)
    out._requires_grad = True
    return out


def _value_and_grad_body(fn: Callable, argnums, has_aux: bool, name: str):
    single = isinstance(argnums, int)
    nums = (argnums,) if single else tuple(argnums)

    def body(*args, **kwargs):
        args = list(args)
        for i in nums:
            if i >= len(args):
                raise TypeError(f"{name}: argnums={argnums!r} but only {len(args)} positional "
                                f"arguments were passed")
        diff_leaves, trees = [], []
        names = param_names(fn, len(args))
        for i in nums:
            paths: list = []
            leaves, tree = flatten(args[i], names[i], paths)
            leaves = [_differentiable_leaf(v, f"{p} (argnums={argnums!r})")
                      for v, p in zip(leaves, paths)]
            args[i] = unflatten(tree, leaves)
            diff_leaves.append(leaves)
            trees.append(tree)
        with state.enable_grad():
            out = fn(*args, **kwargs)
        aux = None
        if has_aux:
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError(f"{name}: has_aux=True requires the function to return a pair "
                                f"(output, aux)")
            out, aux = out
        out = as_tensor(out)
        if out.ndim != 0 or not out.dtype.is_floating:
            raise TypeError(f"grad of {name} requires a real scalar output (a 0-d float "
                            f"tensor), got shape {tuple(out.shape)} and dtype {out.dtype.name}; "
                            f"reduce it (e.g. .sum()) or use out.backward(gradient)")
        trace_ = state.current_trace()
        if trace_ is not None and trace_.forward_outputs is None:
            trace_.forward_outputs = [out.node]
        flat = [t for group in diff_leaves for t in group]
        if out.requires_grad:
            seed = full_like_of(out, 1.0)
            grads = run_backward([(out, seed)], retain_graph=True, create_graph=True,
                                 inputs=flat)
        else:
            grads = [None] * len(flat)
        grads = [g if g is not None else _zeros(t) for g, t in zip(grads, flat)]
        grouped, k = [], 0
        for leaves, tree in zip(diff_leaves, trees):
            grouped.append(unflatten(tree, grads[k:k + len(leaves)]))
            k += len(leaves)
        g = grouped[0] if single else tuple(grouped)
        value = (out, aux) if has_aux else out
        return value, g
    return body


def _zeros(t: Tensor) -> Tensor:
    """The gradient of an output that does not depend on ``t``."""
    return full_like_of(t, 0.0)


def _recipe_source(fn: Callable) -> Callable:
    """What a gradient transform of ``fn`` is made from again after pickling: the user's
    function, or ``fn`` itself when it is already a transform (``grad(grad(f))``)."""
    if isinstance(fn, CompiledFunction):
        return fn.fn if fn._recipe[0] == "compile" else fn
    return fn


def value_and_grad(fn: Callable, argnums: int | Sequence[int] = 0,
                   has_aux: bool = False, fast_math: bool = False) -> CompiledFunction:
    """A compiled function returning ``(fn(*args), d fn / d args[argnums])``.

    ``fast_math`` as in ``compile`` (graph rewrites only; the C stays IEEE)."""
    inner = fn.fn if isinstance(fn, CompiledFunction) else fn
    name = getattr(inner, "__name__", "fn")
    body = _value_and_grad_body(inner, argnums, has_aux, name)
    functools.update_wrapper(body, inner)
    body.__name__ = f"value_and_grad_{name}"
    statics = (fn.static_argnums, fn.static_argnames) if isinstance(fn, CompiledFunction) \
        else ((), ())
    fast_math = fast_math or (isinstance(fn, CompiledFunction) and fn.fast_math)
    cf = CompiledFunction(body, *statics, name=f"value_and_grad_{name}", fast_math=fast_math)
    cf._recipe = ("value_and_grad", _recipe_source(fn), argnums, has_aux)
    return cf


def grad(fn: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False,
         fast_math: bool = False) -> CompiledFunction:
    """A compiled function returning ``d fn / d args[argnums]`` (and aux with ``has_aux``).

    ``fast_math`` as in ``compile`` (graph rewrites only; the C stays IEEE)."""
    inner = fn.fn if isinstance(fn, CompiledFunction) else fn
    name = getattr(inner, "__name__", "fn")
    vg = _value_and_grad_body(inner, argnums, has_aux, name)

    def body(*args, **kwargs):
        value, g = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    functools.update_wrapper(body, inner)
    body.__name__ = f"grad_{name}"
    statics = (fn.static_argnums, fn.static_argnames) if isinstance(fn, CompiledFunction) \
        else ((), ())
    fast_math = fast_math or (isinstance(fn, CompiledFunction) and fn.fast_math)
    cf = CompiledFunction(body, *statics, name=f"grad_{name}", fast_math=fast_math)
    cf._recipe = ("grad", _recipe_source(fn), argnums, has_aux)
    return cf


# ------------------------------------------------------------------ inspection

class Inspection:
    """What a compiled function becomes for some arguments, stage by stage."""

    def __init__(self, spec: Specialization):
        if spec.graph is None:
            raise RuntimeError(f"{spec.name}: this specialization was unpickled from its C "
                               f"alone; its IR is not kept. Inspect the original function "
                               f"(symgrad.inspect(f, *args)) in the process that traced it")
        self.spec = spec
        traced = spec.traced
        self.traced_ir = format_graph(traced.forward or traced.graph)
        self.adjoint_ir = format_graph(traced.graph) if traced.forward is not None else None
        self.passes = list(spec.stages)
        self.optimized_ir = format_graph(spec.graph)
        self.c_source = spec.c_source
        self.node_counts = (len(traced.graph.nodes()), len(spec.graph.nodes()))

    def __str__(self) -> str:
        parts = [("traced IR", self.traced_ir)]
        if self.adjoint_ir is not None:
            parts.append(("adjoint IR (value and gradients)", self.adjoint_ir))
        parts += self.passes
        parts.append((f"optimized IR ({self.node_counts[0]} -> {self.node_counts[1]} nodes)",
                      self.optimized_ir))
        parts.append(("C", self.c_source))
        return "\n\n".join(f"===== {title} =====\n{text}" for title, text in parts)

    __repr__ = __str__


def inspect(fn: Callable, *args: Any, print_: bool = True, **kwargs: Any) -> Inspection:
    """Trace, optimize and generate C for ``fn`` at these arguments, without running it;
    print every stage (traced IR, adjoint IR, IR after each pass that changed it, C)."""
    cf = fn if isinstance(fn, CompiledFunction) else CompiledFunction(fn)
    spec, _ = cf.specialize(*args, **kwargs)
    report = Inspection(spec)
    if print_:
        print(report)
    return report
