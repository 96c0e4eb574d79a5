"""The pre-trace key: everything a function's traced graph depends on, hashed without tracing.

Layer: api. Input: a ``CompiledFunction`` and one signature (its key and its leaves' names).
Output: a hex digest, or ``Unknown`` naming a dependency that cannot be fingerprinted (the
caller then traces, as without a key).

What goes in (a stale gradient is the worst failure here, so when in doubt the key changes or
there is no key):

- each Python function reached, starting from the compiled function's traceable: its code
  object (bytecode, constants, names, nested code, file and line table), its defaults, its
  closure cells' values and the globals its code names, recursively (a helper it calls is a
  global: its code is in the key too); symgrad's own functions by name and version, but their
  closure cells (which hold the user's function) recursively;
- values: numbers, strings, bytes, None, containers of them, NumPy arrays and eager tensors by
  dtype, shape and contents, dtypes, other compiled functions (their options and function),
  ``functools.partial``, classes and modules (a library by name and version; a module of the
  user's program by the attributes the code names);
- the signature (structure, static values, shapes, dtypes, leaf names) and the options;
- the environment: symgrad, Python and NumPy versions, the default dtype, whether the C may
  use glibc's vector math (it changes the generated C).

Anything else (an arbitrary object in a global the function reads, a bound method of one) is
``Unknown``: the function is traced, and the debug log says why.
"""

from __future__ import annotations

import functools
import hashlib
import sys
import sysconfig
import types

import numpy as np

from .. import dtypes
from ..frontend.tensor import Tensor
from ..version import __version__

# Where library code lives: a module from here is keyed by its name and version.
_LIBRARY_DIRS = tuple({sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib",
                                                         "platlib")})


class Unknown(Exception):
    """A dependency that cannot be fingerprinted; the message says which."""


def signature_key(cf, key: tuple, names: list) -> str:
    """The pre-trace key of ``cf`` for the signature ``key`` (``CompiledFunction.specialize``'s
    key) whose leaves are called ``names``. Raises ``Unknown``."""
    from ..build.toolchain import has_vector_math
    h = _Hasher()
    tree, statics, leaves = key
    h.feed(("symgrad", __version__, sys.version_info[:2], np.__version__,
            dtypes.get_default_dtype().name, has_vector_math()))
    h.feed(("options", cf.name, cf.fast_math, cf.guards, cf.max_paths, cf.static_argnums,
            cf.static_argnames))
    h.feed(("tree", tree.describe(), _tree_meta(tree)))
    h.feed(("statics", statics))
    h.feed(("leaves", tuple((shape, dt.name, py.__name__ if py else "") for shape, dt, py
                            in leaves), tuple(names)))
    h.feed(("function", cf.traceable))
    return h.hexdigest()


def _tree_meta(tree) -> tuple:
    """The parts of a TreeDef its description leaves out (namedtuple classes)."""
    meta = tree.meta if tree.kind != "namedtuple" else _qualname(tree.meta)
    return (meta if tree.kind == "dict" else str(meta), tuple(_tree_meta(c)
                                                               for c in tree.children))


def _qualname(obj) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', '?')}"


def _is_library(module_name: str) -> bool:
    if module_name.split(".")[0] in sys.builtin_module_names or \
            module_name.startswith(("symgrad.", "numpy.")) or module_name in ("symgrad",
                                                                           "numpy"):
        return True
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    return path is None or path.startswith(_LIBRARY_DIRS)


class _Hasher:
    """Feeds a canonical, typed byte stream of objects into one BLAKE2b digest."""

    def __init__(self):
        self.digest = hashlib.blake2b(digest_size=32)
        self.active: dict = {}     # id -> position of the functions being fed (recursion)

    def hexdigest(self) -> str:
        return self.digest.hexdigest()

    def put(self, *parts) -> None:
        for part in parts:
            data = part if isinstance(part, bytes) else str(part).encode()
            self.digest.update(len(data).to_bytes(8, "little") + data)

    def feed(self, obj) -> None:
        """``obj``'s fingerprint (see the module docstring); raises ``Unknown``."""
        kind = type(obj)
        if obj is None or kind in (bool, int, float, complex, str):
            self.put(kind.__name__, repr(obj))
        elif kind is bytes:
            self.put("bytes", obj)
        elif kind in (tuple, list):
            self.put(kind.__name__, len(obj))
            for item in obj:
                self.feed(item)
        elif kind is dict:
            self.put("dict", len(obj))
            for k in sorted(obj, key=repr):
                self.feed(k)
                self.feed(obj[k])
        elif isinstance(obj, (np.ndarray, np.generic)):
            self._array(np.asarray(obj))
        else:
            self._object(obj)

    def _array(self, a: np.ndarray) -> None:
        if a.dtype.hasobject:
            raise Unknown("an array of Python objects")
        self.put("ndarray", a.dtype.str, a.shape,
                 hashlib.blake2b(np.ascontiguousarray(a).tobytes(), digest_size=32).digest())

    def _object(self, obj) -> None:
        for kinds, handler in _HANDLERS:
            if isinstance(obj, kinds):
                handler(self, obj)
                return
        if getattr(type(obj), "symgrad_compiled", False):    # a CompiledFunction
            self.put("compiled", obj.fast_math, obj.guards, obj.static_argnums,
                     obj.static_argnames)
            self.feed(obj.traceable)
            return
        raise Unknown(f"a {type(obj).__module__}.{type(obj).__qualname__} object")

    def _tensor(self, t: Tensor) -> None:
        if t.is_traced:
            raise Unknown("a traced tensor")
        self.put("tensor", t.requires_grad)
        self._array(t.detach().numpy())

    def _method(self, m: types.MethodType) -> None:
        if not isinstance(m.__self__, type):
            raise Unknown(f"a method bound to a {type(m.__self__).__qualname__} object")
        self.put("classmethod")
        self.feed((m.__self__, m.__func__))

    def _partial(self, p: functools.partial) -> None:
        self.put("partial")
        self.feed((p.func, p.args, p.keywords))

    def _set(self, items) -> None:
        self.put("set", len(items))
        for digest in sorted(_digest(item) for item in items):
            self.put(digest)

    def _class(self, cls: type) -> None:
        self.put("class", _qualname(cls))
        if _is_library(cls.__module__):
            return
        for name in sorted(vars(cls)):
            value = vars(cls)[name]
            if isinstance(value, (types.FunctionType, staticmethod, classmethod, property)):
                self.put(name)
                self.feed(getattr(value, "__func__", getattr(value, "fget", value)))

    def _function(self, fn: types.FunctionType) -> None:
        if id(fn) in self.active:           # recursion: where it was first met
            self.put("again", self.active[id(fn)])
            return
        self.active[id(fn)] = len(self.active)
        try:
            self.put("function", _qualname(fn))
            library = _is_library(fn.__module__ or "")
            if not library:
                self._code(fn.__code__)
                self.feed((fn.__defaults__, fn.__kwdefaults__))
            for cell in fn.__closure__ or ():
                try:
                    self.feed(cell.cell_contents)
                except ValueError:           # an empty cell
                    self.put("empty cell")
            if not library:
                self._globals(fn)
        finally:
            del self.active[id(fn)]

    def _code(self, code: types.CodeType) -> None:
        self.put("code", code.co_code, code.co_names, code.co_varnames, code.co_freevars,
                 code.co_cellvars, code.co_argcount, code.co_kwonlyargcount, code.co_flags,
                 code.co_filename, code.co_firstlineno, code.co_linetable)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                self._code(const)
            else:
                self.feed(const)

    def _globals(self, fn: types.FunctionType) -> None:
        names = sorted(_names(fn.__code__))
        namespace = fn.__globals__
        for name in names:
            if name not in namespace:
                continue                     # a builtin, or an attribute name
            value = namespace[name]
            self.put("global", name)
            try:
                if isinstance(value, types.ModuleType) and not _is_library(value.__name__):
                    self._user_module(value, names)
                else:
                    self.feed(value)
            except Unknown as e:
                raise Unknown(f"global {name!r} of {_qualname(fn)}: {e}") from None

    def _user_module(self, module: types.ModuleType, names: list) -> None:
        """A module of the user's program: the attributes the code could read from it."""
        self.put("user module", module.__name__)
        for attr in names:
            if hasattr(module, attr):
                self.put(attr)
                self.feed(getattr(module, attr))


# isinstance -> how to fingerprint it (the order matters only where kinds overlap).
_HANDLERS = (
    (types.FunctionType, _Hasher._function),
    (Tensor, _Hasher._tensor),
    (dtypes.DType, lambda h, d: h.put("dtype", d.name)),
    (functools.partial, _Hasher._partial),
    ((types.BuiltinFunctionType, np.ufunc),
     lambda h, f: h.put("builtin", getattr(f, "__module__", None), f.__name__)),
    (types.ModuleType, lambda h, m: h.put("module", m.__name__, getattr(m, "__version__", ""))),
    (type, _Hasher._class),
    (types.MethodType, _Hasher._method),
    ((frozenset, set), _Hasher._set),
    (range, lambda h, r: h.put("range", r.start, r.stop, r.step)),
    (np.dtype, lambda h, d: h.put("np.dtype", d.str)),
)


def _names(code: types.CodeType) -> set:
    """The names a code object and the code nested in it read (globals and attributes)."""
    found = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found |= _names(const)
    return found


def _digest(obj) -> str:
    h = _Hasher()
    h.feed(obj)
    return h.hexdigest()
