"""``symgrad.compile``: a Python function compiled to C, one specialization per signature.

Layer: api, the top. Input: Python functions and call arguments. Output: ``CompiledFunction``
objects that trace once per signature (shapes, dtypes, structure, static values) through the
pipeline, keep one ``runtime.Specialization`` per signature, and run the compiled C with NumPy
arrays in and out. Called with tensors that are being traced or that require grad, a compiled
function runs its Python body instead, so transforms compose: ``grad(grad(f))``, a compiled
function called inside another.
"""

from __future__ import annotations

import functools
import threading
from typing import Any
from collections.abc import Callable, Sequence

import numpy as np

from .. import config
from ..frontend.core.tensor import Tensor
from ..frontend.core import grad_mode, sources
from ..passes import FAST_MATH_PIPELINE
from ..pytree import flatten, unflatten
from ..runtime import Paths, Specialization
from ..runtime.captured import Stale
from ..tracing import Traced, leaf_spec, param_names, trace
from . import pickling, warm
from .dynamic import generic_spec, options as dynamic_options, remembered_spec
from .reuse import Reuse, autograd_through, reads_captured
from .state import captured_of
from .signature import (check_binds, describe_key, fast_key, fast_path_key, flatten_args,
                        has_keyword_parameter, rebuilder, signature_key, static_parameters,
                        static_types, tree_key, why)


# How many compile traces run (any thread): a compiled function called inside one runs its
# Python body, so that the enclosing trace captures what it reads.
_CAPTURING = sources.CAPTURING


class CompiledFunction(Reuse):
    """``fn`` compiled to C, one specialization per argument signature.

    ``fast_math=True`` optimizes the graph with ``FAST_MATH_PIPELINE`` (value-changing
    rewrites such as log(exp(x)) -> x, see ``passes.fast_math``); the C compiler flags are
    the same either way (IEEE arithmetic, no -ffast-math).
    """

    symgrad_compiled = True     # (how api.fingerprint tells one, without importing this)

    def __init__(self, fn: Callable, static_argnums: Sequence[int] = (),
                 static_argnames: Sequence[str] = (), name: str | None = None,
                 fast_math: bool = False, traceable: Callable | None = None,
                 guards: bool | None = None, max_paths: int | None = None,
                 on_guard_limit: str | None = None, dynamic: bool | None = None,
                 dynamic_dims: dict | None = None):
        if isinstance(fn, CompiledFunction):
            if dynamic is None and not dynamic_dims:
                dynamic, dynamic_dims = fn.dynamic, fn.dynamic_dims
            static_argnums = tuple(static_argnums) or fn.static_argnums
            static_argnames = tuple(static_argnames) or fn.static_argnames
            fast_math = fast_math or fn.fast_math
            traceable = traceable or fn.traceable
            guards = fn.guards if guards is None else guards
            max_paths = fn.max_paths if max_paths is None else max_paths
            on_guard_limit = on_guard_limit or fn.on_guard_limit
            fn = fn.fn
        guards = True if guards is None else guards
        max_paths = 8 if max_paths is None else max_paths
        on_guard_limit = on_guard_limit or "eager"
        if on_guard_limit not in ("eager", "raise"):
            raise ValueError(f"on_guard_limit must be 'eager' or 'raise', got "
                             f"{on_guard_limit!r}")
        # Python control flow on traced values: decided on the call's values and guarded
        # (one specialization per path, runtime.paths), unless ``guards`` is False.
        self.guards, self.max_paths = bool(guards), int(max_paths)
        self.on_guard_limit = on_guard_limit
        if not callable(fn):
            raise TypeError(f"symgrad.compile expects a function, got {type(fn).__name__}")
        # (first: an attribute of fn's __dict__ that update_wrapper copies must not replace
        # one of ours)
        functools.update_wrapper(self, fn)
        self.fn = fn
        # ``fn`` as traced: returning (result, forward outputs or None); a gradient
        # transform's body returns the function's own output as the forward (for inspect).
        self.traceable = traceable or _plain(fn)
        self.static_argnums = tuple(static_argnums) if not isinstance(static_argnums, int) \
            else (static_argnums,)
        self.static_argnames = (static_argnames,) if isinstance(static_argnames, str) \
            else tuple(static_argnames)
        self.name = name or getattr(fn, "__name__", type(fn).__name__)   # (a module: its class)
        self.fast_math = bool(fast_math)
        # Shape-generic compilation (api.dynamic): the options, the modules per pattern of
        # static sizes, and the patterns that turned out not to be generic.
        self.dynamic, self.dynamic_dims = dynamic_options(dynamic, dynamic_dims)
        self._statics = None       # (static positions, static keywords): signature.py
        self._reuse_init()         # the tables of compiled code, per captured state (reuse.py)
        self._last = None
        self._last_spec = None
        self._names_cache: dict = {}
        self._lock = threading.Lock()    # (a change of the captured state: api.reuse)
        # How to make ``fn`` again in another process (see ``__reduce__``): (None, fn), or
        # (the transform, the function it was made from, argnums, has_aux): the transforms
        # (api.gradients, api.derivatives) set it.
        self.recipe: tuple = (None, fn)

    def options(self) -> dict:
        """The options it was compiled with, as keyword arguments of ``compile``: what a
        transform of it (``grad``, ``vmap``, ``jacrev``...) compiles with too."""
        return dict(static_argnums=self.static_argnums, static_argnames=self.static_argnames,
                    fast_math=self.fast_math, guards=self.guards, max_paths=self.max_paths,
                    on_guard_limit=self.on_guard_limit, dynamic=self.dynamic,
                    dynamic_dims=dict(self.dynamic_dims) or None)

    # -------------------------------------------------------------- signatures
    def split_arguments(self, args: tuple, kwargs: dict):
        """Separate static from dynamic arguments; returns (key parts, leaves, rebuild)."""
        if self._statics is None:
            self._statics = static_parameters(self.fn, self.static_argnums,
                                              self.static_argnames)
        positions, keywords = self._statics
        static_pos = {i if i >= 0 else len(args) + i for i in positions}
        static_pos = {i for i in static_pos if 0 <= i < len(args)}
        dyn_args = [a for i, a in enumerate(args) if i not in static_pos]
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in keywords}
        statics = tuple((i, args[i]) for i in sorted(static_pos)) + \
            tuple(sorted((k, v) for k, v in kwargs.items() if k in keywords))
        try:
            hash(statics)
        except TypeError:
            raise TypeError(f"{self.name}: static arguments must be hashable; got "
                            f"{statics!r}") from None
        statics += ((None, static_types(statics)),) if statics else ()
        names = self._names_cache.get(len(args))
        if names is None:
            names = self._names_cache[len(args)] = param_names(self.fn, len(args))
        dyn_names = [n for i, n in enumerate(names) if i not in static_pos]
        paths: list = []
        leaves, tree = flatten_args(dyn_args, dyn_kwargs, lambda: dyn_names, paths)

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
        """The specialization for these arguments (traced and built on a miss), and the flat
        argument leaves to call it with."""
        self.captured_state()
        statics, tree, leaves, names, rebuild = self.split_arguments(args, kwargs)
        specs = self._specs_of(leaves, names, args, kwargs)
        key = signature_key(tree, statics, specs)
        spec = self.signatures.specs.get(key)
        if spec is None:
            spec = self._build(key, specs, names, rebuild, leaves)
        self._last = key
        self._last_spec = spec
        return spec, leaves

    def _specs_of(self, leaves: list, names: list, args: tuple, kwargs: dict) -> list:
        try:
            return [leaf_spec(v, n) for v, n in zip(leaves, names)]
        except TypeError:
            check_binds(self.fn, args, kwargs, self.name)   # a call fn cannot take says so
            raise

    def pretrace_key(self, *args: Any, **kwargs: Any) -> str:
        """The key a compiled signature of these arguments is stored under for warm starts in
        other processes (``api.fingerprint``); raises ``fingerprint.Unknown`` when a
        dependency cannot be fingerprinted."""
        statics, tree, leaves, names, _ = self.split_arguments(args, kwargs)
        key = signature_key(tree, statics, self._specs_of(leaves, names, args, kwargs))
        return warm.signature_key(self.captured_state().walk, key, names)

    def _build(self, key, specs: list, names: list, rebuild, leaves: list):
        """Trace and build a new signature: once, however many threads ask at the same time
        (per signature, so different signatures still build in parallel). A trace that took
        decisions on traced values makes the signature's ``Paths`` (its first path).

        The tables are read and filled as they are when used: a trace can change the captured
        state it reads (a list it appends to), and ``self.signatures`` is then that state's."""
        with self.signatures.building(key):
            spec = self.signatures.specs.get(key)   # another thread may have built it
            if spec is None:
                spec = generic_spec(self, key, specs, names, rebuild)
            if spec is None:
                config.debug(1, "%s %s: %s", "recompile" if self.signatures.specs else
                             "compile", self.name, why(self._last, key, names))
                spec = self._lookup_or_compile(key, specs, names, rebuild, leaves)
            if spec is not self.signatures.specs.get(key):
                if spec.outcomes:
                    paths = Paths(self.name, key, self.max_paths, self.on_guard_limit)
                    paths.owner, paths.in_specs = self, specs
                    paths.add(spec)
                    spec = paths
                self.signatures.specs[key] = spec
            return spec

    def _lookup_or_compile(self, key, specs: list, names: list, rebuild, leaves: list):
        """The signature's module: an earlier process's warm-start record of it, else bound
        from the shape-generic module an earlier process made for signatures like it, else
        compiled now (and recorded)."""
        from .. import pipeline   # (the compiler's stages: only when compiling)

        def compile():
            spec = remembered_spec(self, key, specs, names, rebuild)
            return spec if spec is not None else self._compile(specs, rebuild, leaves)
        return pipeline.compile_or_load(warm.key_of(self, key, names),
                                        functools.partial(warm.load, self), compile,
                                        functools.partial(warm.record, self))

    def _compile(self, specs: list, rebuild, leaves: list) -> Specialization:
        compiled = self._pipeline(specs, rebuild, leaves)
        return Specialization.of(compiled, captured_of(compiled.traced, self._state, self.name))

    def _pipeline(self, specs: list, rebuild, leaves: list, build: bool = True,
                  capture: bool = True):
        from .. import pipeline   # the compiler (passes, codegen, build): only when compiling
        return pipeline.compile_function(
            self.traceable, specs, rebuild, self.name, forward=True, build=build,
            passes=FAST_MATH_PIPELINE if self.fast_math else None,
            values=[_value(v) for v in leaves] if self.guards else None,
            reachable=self.captured_state().reachable if capture else None, capture=capture)

    def compiled_for(self, *args: Any, capture: bool = True, **kwargs: Any):
        """The pipeline's record (``pipeline.Compiled``: graphs, loop IR, C) of the signature
        of these arguments, traced afresh (Python control flow decided on their values), not
        built. ``capture=False``: captured tensors and arrays are constants of their current
        values (a standalone export's snapshot)."""
        _, _, leaves, names, rebuild = self.split_arguments(args, kwargs)
        return self._pipeline(self._specs_of(leaves, names, args, kwargs), rebuild, leaves,
                              build=False, capture=capture)

    def trace_path(self, key, leaves: list) -> Specialization:
        """A new path of signature ``key``: the function traced on these argument values
        (``runtime.Paths`` asks, when a call's values take a path not traced yet)."""
        paths = self.signatures.specs[key]
        return self._compile(paths.in_specs, rebuilder(key), leaves)

    def run_eagerly(self, key, leaves: list, out=None):
        """The function run eagerly on these argument values, with NumPy results (a
        signature's paths beyond its limit run this way)."""
        args, kwargs = rebuilder(key)([Tensor(np.array(v), None) if not isinstance(
            v, (bool, int, float)) else v for v in leaves])
        with grad_mode.enable_grad():
            result, _ = self.traceable(*args, **kwargs)
        values, tree = flatten(result)
        values = [v.detach().numpy().copy() if isinstance(v, Tensor) else np.asarray(v)
                  for v in values]
        if out is None:
            return unflatten(tree, values)
        for target, v in zip(flatten(out)[0], values):
            target[...] = v
        return out

    def trace(self, *args: Any, **kwargs: Any) -> Traced:
        """The traced graph of the function for these arguments (no optimization, no C)."""
        _, _, leaves, names, rebuild = self.split_arguments(args, kwargs)
        return trace(self.traceable, self._specs_of(leaves, names, args, kwargs), rebuild,
                     self.name, forward=True, reachable=self.captured_state().reachable)

    @property
    def shape_generic(self) -> list[str]:
        """The shape-generic modules compiled so far (``api.dynamic``), described: argument
        shapes with their size symbols, and the size guards each holds under."""
        return [g.describe() for found in self.signatures.generic.values() for g in found]

    @property
    def specializations(self) -> dict:
        """The signatures compiled so far: description -> ``Specialization``."""
        return {describe_key(k): s for k, s in self.signatures.specs.items()}

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
            # Fast path: positional NumPy arrays and Python numbers only, seen before, no
            # compile trace running, the captured state as compiled for.
            spec = self._fast.get(fast_key(args))
            leaves = args
            if spec is None and self._fast:     # containers of arrays: one walk (tree_key)
                spec, leaves = self._fast_tree(args)
            if spec is not None and not _CAPTURING[0] and self._holds():
                self._last_spec = spec
                try:
                    return spec.call(leaves)
                except Stale as e:
                    return self._reuse_failed(e, spec, args, kwargs)
        elif "out" in kwargs and self._out_is_ours():
            out = kwargs.pop("out")
            if out is None:       # NumPy's convention: out=None allocates the results
                return self(*args, **kwargs)
            return self._call_into(args, kwargs, out)
        if self._runs_python(args, kwargs):
            return self.fn(*args, **kwargs)
        spec, values = self._prepare(args, kwargs)
        if autograd_through(spec) and any(isinstance(a, Tensor) for a in flatten(
                (args, kwargs))[0]):
            return self.fn(*args, **kwargs)   # torch: a grad_fn through the parameters
        try:
            return spec.call(values)
        except Stale as e:
            return self._reuse_failed(e, spec, args, kwargs)

    def _fast_tree(self, args: tuple) -> tuple:
        """(fast path's specialization or None, leaves) of arguments holding containers."""
        found = tree_key(args)
        return (None, args) if found is None else (self._fast.get(found[0]), found[1])

    def _runs_python(self, args: tuple, kwargs: dict) -> bool:
        """Whether this call runs the Python body instead of the C: inside a compile trace
        (which then captures what the body reads), or on tensors that are traced or require
        grad (an eager autograd graph)."""
        if _CAPTURING[0] and sources.current() is not None:
            return True
        leaves, _ = flatten_args(args, kwargs, lambda: param_names(self.fn, len(args)))
        return any(isinstance(v, Tensor) and (v.is_traced or v.requires_grad) for v in leaves)

    def _prepare(self, args: tuple, kwargs: dict) -> tuple[Specialization, list]:
        """The specialization and the leaf values to call it with; an all-positional call
        with arrays and numbers also registers its signature for the fast path."""
        spec, leaves = self.specialize(*args, **kwargs)
        if not kwargs and not self._statics[0]:
            key = fast_path_key(args)
            if key is not None:
                self.signatures.fast[key] = spec
        return spec, [np.asarray(v) if isinstance(v, Tensor) else v for v in leaves]

    # Whether ``out=`` is symgrad's (decided at the first call that passes it): only when the
    # function has no parameter of that name and does not declare it static.
    _out_keyword: bool | None = None

    def _out_is_ours(self) -> bool:
        ours = self._out_keyword
        if ours is None:
            ours = self._out_keyword = ("out" not in self.static_argnames and
                                        not has_keyword_parameter(self.fn, "out"))
        return ours

    def _call_into(self, args: tuple, kwargs: dict, out):
        if not kwargs:        # the fast path, writing into ``out``
            spec, leaves = self._fast.get(fast_key(args)), args
            if spec is None and self._fast:
                spec, leaves = self._fast_tree(args)
            if spec is not None and not _CAPTURING[0] and self._holds():
                self._last_spec = spec
                try:
                    return spec.call_into(leaves, out)
                except Stale as e:
                    return self._reuse_failed(e, spec, args, {"out": out})
        if self._runs_python(args, kwargs):
            raise TypeError(f"{self.name}: out= needs NumPy results; it cannot be used when "
                            f"the function is called on tensors that are traced or require "
                            f"grad, or inside a compiled function")
        spec, values = self._prepare(args, kwargs)
        try:
            return spec.call_into(values, out)
        except Stale as e:
            return self._reuse_failed(e, spec, args, {**kwargs, "out": out})

    @property
    def last_specialization(self) -> Specialization | None:
        """The specialization of the most recent call (None before the first)."""
        return self._last_spec

    @property
    def c_source(self) -> str:
        """The C text of the most recently used specialization."""
        if self._last_spec is None:
            raise RuntimeError(f"{self.name} has not been called yet: call it (or use "
                               f"symgrad.inspect(f, *args)) to trace a specialization")
        return self._last_spec.c_source

    # -------------------------------------------------------------- beyond Python
    def export_c(self, directory, *args: Any, name: str | None = None, dtype_policy=None,
                 portable: bool = True, blas: str = "none", threads: bool = True):
        """Write standalone C for the signature of ``args``: ``name.c``, ``name.h``, a
        ``Makefile`` and ``test_name.c`` (see ``api.export.export_c``)."""
        from .export import export_c
        return export_c(self, directory, args, name=name, dtype_policy=dtype_policy,
                        portable=portable, blas=blas, threads=threads)

    def c_function(self, *args: Any, name: str | None = None):
        """A C function pointer (cffi) to this function for the signature of ``args``, with
        its signature (see ``api.export.c_function``)."""
        from .export import c_function
        return c_function(self, args, name=name)

    def low_level_callable(self, *args: Any, kind: str = "quad"):
        """A ``scipy.LowLevelCallable`` of this function for SciPy's ``kind`` of callback
        ("quad": ``double f(int n, double *xx, void *user_data)``; "generic_filter"), for
        the signature of ``args`` (see ``api.export.low_level_callable``)."""
        from .export import low_level_callable
        return low_level_callable(self, args, kind=kind)

    def __repr__(self) -> str:
        return f"<symgrad.CompiledFunction {self.name} ({len(self.signatures)} specializations)>"

    # -------------------------------------------------------------- pickling
    def __reduce__(self):
        """Pickle by value: each specialization as its C text, cache key and signature (the
        other process loads the module from the disk cache or rebuilds it from the text,
        without tracing), plus the Python function for new signatures: by reference when it
        can be imported by name; otherwise (a lambda, a local function) it is left out and
        only the signatures compiled before pickling can be called."""
        maker, fn, *rest = self.recipe
        # (a specialization that reads captured state stays behind: its objects are this
        # process's; the other process traces that signature, or loads it from its cache)
        specs = tuple((k, s) for k, s in self.signatures.specs.items()
                      if not reads_captured(s))
        return (_restore, (maker, pickling.function_ref(fn), tuple(rest), self.static_argnums,
                           self.static_argnames, self.name, self.fast_math, specs))


def _value(leaf):
    """A leaf's value for deciding Python control flow while tracing."""
    return leaf.detach().numpy() if isinstance(leaf, Tensor) and not leaf.is_traced else leaf


def _plain(fn: Callable) -> Callable:
    """``fn`` as traced: its result, and no forward outputs of its own."""
    @functools.wraps(fn)   # (its signature names the arguments in messages)
    def traceable(*args, **kwargs):
        return fn(*args, **kwargs), None
    return traceable


def _restore(maker, fn: Any, rest: tuple, static_argnums, static_argnames, name: str,
             fast_math: bool, specs: tuple) -> CompiledFunction:
    """Unpickle a ``CompiledFunction`` (see ``CompiledFunction.__reduce__``)."""
    fn = pickling.resolve(fn, name, "; ".join(describe_key(k) for k, _ in specs) or "none")
    if maker is None:
        cf = CompiledFunction(fn, static_argnums, static_argnames, name=name,
                              fast_math=fast_math)
    else:
        if not isinstance(fn, CompiledFunction):   # else a transform, unpickled itself
            fn = CompiledFunction(fn, static_argnums, static_argnames, fast_math=fast_math)
        cf = maker(fn, *rest)
        cf.name = name
    cf.signatures.specs.update(specs)
    for spec in specs:
        if isinstance(spec[1], Paths):
            spec[1].owner = cf
    return cf


def compile(fn: Callable | None = None, *, static_argnums: Sequence[int] = (),  # noqa: A001
            static_argnames: Sequence[str] = (), fast_math: bool = False,
            guards: bool | None = None, max_paths: int | None = None,
            on_guard_limit: str | None = None, dynamic: bool | None = None,
            dynamic_dims: dict | None = None):
    """Decorator: trace ``fn`` at its first call per signature and run it as compiled C.

    Shape-generic code (``api.dynamic``): ``dynamic=True`` compiles once for all sizes of
    every array argument's dimensions, ``dynamic_dims={"x": (0,)}`` for the listed ones; by
    default a second call that differs only in some dimensions' sizes makes those dynamic
    (``dynamic=False``: one compile per signature, always). A new size then binds the
    compiled module: no trace, no compile.

    ``fast_math=True`` allows value-changing graph rewrites (``passes.fast_math``: results
    may differ in the last bits and at the edges of the domain); it does not change the C
    compiler flags, which stay IEEE.

    Python control flow on traced values (``if t.sum() > 0:``, ``while y.norm() < 1000:``,
    ``t.item()`` compared) is decided on each call's values: the C checks the same decisions
    and each path the arguments take is traced once (at most ``max_paths`` per signature;
    beyond, ``on_guard_limit="eager"`` runs the function eagerly, ``"raise"`` raises).
    ``guards=False`` makes such uses errors instead (``TracerValueError``). Compiling a
    transform (``compile(value_and_grad(f), max_paths=16)``) sets these for it."""
    options = dict(fast_math=fast_math, guards=guards, max_paths=max_paths,
                   on_guard_limit=on_guard_limit, dynamic=dynamic, dynamic_dims=dynamic_dims)
    if fn is None:
        return lambda f: CompiledFunction(f, static_argnums, static_argnames, **options)
    return CompiledFunction(fn, static_argnums, static_argnames, **options)
