"""The walk of a compiled function's captured state: what its trace can read besides its
arguments, as a digest, as guards, and as the arrays and tensors it reaches.

Layer: api. Input: a ``CompiledFunction``. Output: a ``Walk``:

- ``digest``: a hash of everything the traced graph can depend on, the same in every process
  for the same program and state (the warm-start key is made from it, ``warm.signature_key``);
- ``guards``: what must stay as it is for that digest to hold, as cheap checks on the objects
  walked (``api.state`` compiles them into one function, run before each call reuses code);
- ``reachable``: the arrays and tensors reached, by id, with their paths: the trace captures
  them as inputs (``frontend.core.capture``), and a process finds them again by path;
- ``opaque``: what could not be fingerprinted (then there is no warm-start key: a new process
  traces; in this process the object's identity is guarded).

What is walked, from the compiled function's traceable:

- a Python function: its code (bytecode, constants, names, nested code, file and lines), its
  defaults, its closure cells, and the globals its code names (a helper is a global: its code
  is walked too). Library code (a module installed with Python or in site-packages, symgrad,
  NumPy) is keyed by module name, version and the content of its file; code with no file, not
  in ``sys.modules`` or made by ``exec`` is user code, walked as above;
- values: numbers, strings, containers, NumPy arrays (read-only ones by content, others by
  shape and dtype: they are inputs), tensors (inputs), dtypes, functools.partial, classes,
  modules (a module of the program: the attributes the code names), instances of the
  program's classes, ``nn.Module``s (every attribute: parameters and buffers are inputs),
  other compiled functions (options and function), symgrad's IR graphs (their content);
- the environment: symgrad, Python and NumPy versions, the default dtype (and, in the
  warm-start key, whether the C may use glibc's vector math).

Guards check bindings by identity (a global rebound to an equal value only re-walks) and the
contents of mutable containers item by item; what a trace reads from the outside world
(environment variables, files, random generators) is seen while tracing (``frontend.core.capture``).
"""

from __future__ import annotations

import argparse
import array
import collections
import enum
import functools
import hashlib
import importlib
import os
import sys
import types

import numpy as np

from .. import dtypes
from ..config import PACKAGE_DIR
from ..frontend.core.tensor import Tensor
from ..ir import Graph, structure
from ..version import __version__
from .codeinfo import absolute_module, loads_and_imports, names_read
from .library import impure, library, library_class, symgrad_source

# A walk visits at most this many objects: beyond, its guards would not cover what the
# function reads, so the walk is incomplete (``Walk.complete``): no key, and no reuse.
MAX_OBJECTS = 100_000


class Unknown(Exception):
    """A dependency that cannot be fingerprinted; the message says which."""


class Guard:
    """One check that a walked binding holds: ``kind`` (see ``api.state``), the object that
    holds it, the key, the expected object or snapshot, and what it is, for messages."""

    __slots__ = ("kind", "holder", "key", "expected", "what")

    def __init__(self, kind: str, holder, key, expected, what: str) -> None:
        self.kind, self.holder, self.key, self.expected, self.what = \
            kind, holder, key, expected, what


class Walk:
    """One walk of a compiled function's captured state (see the module docstring)."""

    def __init__(self) -> None:
        self._h = hashlib.blake2b(digest_size=32)
        self.guards: list = []
        self.reachable: dict = {}       # id -> (array or tensor, path)
        self.opaque: list = []          # why there is no warm-start key
        self.opaque_ids: list = []      # ids of the opaque objects (kept alive by guards)
        self.complete = True            # False: the guards do not cover everything
        self._names: list = []          # the names of the user code being walked (a stack)
        self._seen: dict = {}           # id -> position, of the objects walked
        self.keep: list = []            # (the objects of _seen, so their ids stay theirs)
        self._guarded: set = set()

    @property
    def digest(self) -> str:
        return self._h.hexdigest()

    def put(self, *parts) -> None:
        for part in parts:
            data = part if isinstance(part, bytes) else str(part).encode()
            self._h.update(len(data).to_bytes(8, "little") + data)

    # ------------------------------------------------------------ bindings
    def guard(self, kind: str, holder, key, expected, what: str) -> None:
        mark = (kind, id(holder), key)
        if mark not in self._guarded:
            self._guarded.add(mark)
            self.guards.append(Guard(kind, holder, key, expected, what))

    def item(self, holder, key, path: tuple, what: str, step: str = "global") -> None:
        """``holder[key]`` (a namespace dict, an object's ``__dict__``), guarded and walked;
        ``step`` names the kind of step in paths ("global", "attr", "member")."""
        value = holder[key]
        self.guard("item", holder, key, value, what)
        self.value(value, path + (f"{step}:{key}",), what)

    def attr(self, holder, name: str, path: tuple, what: str) -> None:
        value = getattr(holder, name)
        self.guard("attr", holder, name, value, what)
        self.value(value, path + (f"attr:{name}",), what)

    # ------------------------------------------------------------ values
    def value(self, obj, path: tuple, what: str) -> None:
        """Feed ``obj``'s fingerprint (see the module docstring)."""
        kind = type(obj)
        if obj is None or kind in (bool, int, float, complex, str):
            self.put(kind.__name__, repr(obj))
        elif kind is bytes:
            self.put("bytes", obj)
        elif kind is tuple:
            self.put("tuple", len(obj))
            for k, item in enumerate(obj):
                self.value(item, path + (f"[{k}]",), what)
        elif isinstance(obj, np.generic):
            self.put("np", obj.dtype.str, obj.tobytes())
        else:
            self._object(obj, path, what)

    def _object(self, obj, path: tuple, what: str) -> None:
        position = self._seen.get(id(obj))
        if position is not None:        # met before (a shared helper, a cycle)
            self.put("again", position)
            return
        if len(self._seen) >= MAX_OBJECTS:
            raise Unknown(f"more than {MAX_OBJECTS} objects reached from {what}")
        self._seen[id(obj)] = len(self._seen)
        self.keep.append(obj)
        for kinds, handler in _HANDLERS:
            if isinstance(obj, kinds):
                handler(self, obj, path, what)
                return
        if getattr(type(obj), "symgrad_compiled", False):    # a CompiledFunction
            self.put("compiled", obj.fast_math, obj.guards, obj.static_argnums,
                     obj.static_argnames, obj.dynamic, sorted(obj.dynamic_dims.items()))
            self.value(obj.traceable, path + ("traceable",), what)
            return
        if _is_instance_of_program(obj):
            self._instance(obj, path, what)
            return
        kind = f"{type(obj).__module__}.{type(obj).__qualname__}".removeprefix("builtins.")
        self._opaque(obj, f"{what} (a {kind} object)")

    def _pure(self, module_name: str, what: str) -> None:
        if impure(module_name):
            self.opaque.append(f"{what} reads {module_name} (the clock or a random source)")

    def _opaque(self, obj, why: str) -> None:
        self.put("opaque", type(obj).__module__, type(obj).__qualname__)
        self.opaque.append(why)
        self.opaque_ids.append(id(obj))

    # ------------------------------------------------------------ kinds
    def _list(self, obj, path: tuple, what: str) -> None:
        """A list (or a deque): its items in order, each object by identity."""
        self.put(type(obj).__qualname__, len(obj))
        self.guard("list", obj, None, tuple(obj), what)
        for k, item in enumerate(obj):
            self.value(item, path + (f"[{k}]",), what)
        self._attributes(obj, path, what)

    def _buffer(self, obj, path: tuple, what: str) -> None:
        """A mutable buffer of numbers (bytearray, array.array): its bytes."""
        data = bytes(obj)
        self.put(type(obj).__qualname__, getattr(obj, "typecode", ""), data)
        self.guard("bytes", obj, None, data, what)

    def _attributes(self, obj, path: tuple, what: str) -> None:
        """The attributes of a container of the program's own subclass (``class Cfg(dict)``
        with ``cfg.alpha = ...``)."""
        space = getattr(obj, "__dict__", None)
        if space is None:
            return
        self.value(type(obj), path + ("type",), what)
        self.guard("keys", space, None, frozenset(space), what)
        for name in sorted(space):
            self.put(name)
            self.item(space, name, path, f"{what}.{name}", "attr")

    def _dict(self, obj: dict, path: tuple, what: str) -> None:
        self.put(type(obj).__qualname__, len(obj))
        if not getattr(type(obj), "symgrad_registry", False):   # (else its module's version)
            self.guard("dict", obj, None, dict(obj), what)
        for key in obj:                 # (in order: code that iterates it sees the order)
            self.value(key, path, what)
            self.value(obj[key], path + (f"item:{key!r}",), f"{what}[{key!r}]")
        self._attributes(obj, path, what)

    def _set(self, obj, path: tuple, what: str) -> None:
        # In iteration order: code that iterates a set sees it (for strings, it depends on
        # the process's hash seed: another seed is another key)
        self.put(type(obj).__qualname__, len(obj))
        if not isinstance(obj, frozenset):
            self.guard("set", obj, None, tuple(obj), what)
        for item in obj:
            self.value(item, path, what)

    def _array(self, a: np.ndarray, path: tuple, what: str) -> None:
        if a.dtype.hasobject:         # (a container of Python objects, item by item)
            self.put("object array", a.shape)
            self.guard("objects", a, None, (a.shape, tuple(a.ravel())), what)
            for k, item in enumerate(a.ravel()):
                self.value(item, path + (f"[{k}]",), what)
            return
        if _immutable(a):      # read-only all the way down: a constant, checked to stay so
            self.put("constant array", a.dtype.str, a.shape,
                     hashlib.blake2b(np.ascontiguousarray(a).tobytes(), digest_size=32).digest())
            self.guard("readonly", a, None, None, what)
            return
        self.put("array", a.dtype.str, a.shape)     # an input: its values are read per call
        self.reachable.setdefault(id(a), (a, path))

    def _tensor(self, t: Tensor, path: tuple, what: str) -> None:
        if t.is_traced:
            self._opaque(t, f"{what}: a traced tensor")
            return
        self.put("tensor", t.dtype.name, tuple(t.shape))
        self.reachable.setdefault(id(t), (t, path))

    def _function(self, fn: types.FunctionType, path: tuple, what: str) -> None:
        self.put("function", qualname(fn))
        module = fn.__module__ or ""
        key = library(module, fn.__code__.co_filename)
        if key is not None:
            self.put(*key)
            self._pure(module, what)
        else:       # (the modules its closure, defaults and globals reach: by these names)
            self._names.append(sorted(names_read(fn.__code__)))
            code = fn.__code__
            self.attr(fn, "__code__", path, f"the code of {qualname(fn)}")
            if code.co_argcount or fn.__defaults__:     # (else defaults cannot matter)
                self.attr(fn, "__defaults__", path, f"the defaults of {qualname(fn)}")
            if code.co_kwonlyargcount or fn.__kwdefaults__:
                self.attr(fn, "__kwdefaults__", path, f"the defaults of {qualname(fn)}")
        # Closure cells: a library's hold the user's functions (symgrad's transforms, a
        # decorator); symgrad's own never change, a user's can (``nonlocal``).
        own = fn.__code__.co_filename.startswith(PACKAGE_DIR)
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            label = f"closure variable {name!r} of {qualname(fn)}"
            try:
                contents = cell.cell_contents
            except ValueError:           # an empty cell
                self.put("empty cell")
                continue
            if not own:
                self.guard("cell", cell, None, contents, label)
            self.value(contents, path + (f"{'own' if own else 'cell'}:{name}",), label)
        if key is None:
            self._globals(fn, path)
            self._names.pop()

    def _code(self, code: types.CodeType, path: tuple, what: str) -> None:
        self.put("code", code.co_code, code.co_names, code.co_varnames, code.co_freevars,
                 code.co_cellvars, code.co_argcount, code.co_kwonlyargcount, code.co_flags,
                 code.co_filename, code.co_firstlineno, code.co_linetable)
        for const in code.co_consts:
            self.value(const, path, what)

    def _globals(self, fn: types.FunctionType, path: tuple) -> None:
        """The globals ``fn``'s code names (and the strings it holds: ``globals()["X"]``),
        guarded; a global it loads that does not exist yet (a builtin) is guarded absent."""
        code = fn.__code__
        names = self._names[-1]
        namespace = fn.__globals__
        for name in names:
            if name not in namespace:
                continue                     # a builtin, or an attribute name
            what = f"global {name!r} of {qualname(fn)}"
            self.put("global", name)
            self.item(namespace, name, path, what)
        loads, imports = loads_and_imports(code)
        for name in sorted(loads - namespace.keys()):
            self.guard("absent", namespace, name, None, f"global {name!r} of "
                                                         f"{qualname(fn)} (now a builtin)")
        for name in sorted(imports):       # (``import m`` inside the function)
            self._imported(absolute_module(name, namespace), path, qualname(fn))

    def _imported(self, name: str | None, path: tuple, where: str) -> None:
        """A module the code imports when it runs: the one ``sys.modules`` holds (a new
        import, or ``importlib.reload``, fails a guard). One not imported yet is imported
        now, as the trace would (else its code, and what it imports, would not be in the
        key); one that cannot be is opaque (an import in a branch the trace may not take)."""
        what = f"module {name} imported by {where}"
        if name is None:
            return
        if name not in sys.modules:
            try:
                importlib.import_module(name)
            except Exception:   # noqa: BLE001  (whatever importing it raises)
                self.guard("absent", sys.modules, name, None, what)
                self.opaque.append(f"{what} (it cannot be imported now)")
                return
        self.put("import", name)
        self.item(sys.modules, name, path, what, "import")

    def _module(self, m: types.ModuleType, path: tuple, what: str) -> None:
        """A module: the program's, or a library's other than symgrad's and NumPy's (whose
        attributes are their API), by the attributes the code reaching it names
        (``pkg.config.LR``, ``sys.argv``); a library by name, version and file."""
        key = library(m.__name__)
        self.put("module", m.__name__, *(key or ()))
        if key is not None:
            self._pure(m.__name__, what)
            if m.__name__.split(".")[0] in ("symgrad", "numpy"):
                return
        space = vars(m)
        for attr in self._names[-1] if self._names else ():
            if attr in space and not attr.startswith("__") and \
                    (key is None or space[attr] is not os.environ):   # (env: frontend.capture)
                self.put(attr)
                self.item(space, attr, path, f"{m.__name__}.{attr}", "module")

    def _class(self, cls: type, path: tuple, what: str) -> None:
        self.put("class", qualname(cls))
        key = library_class(cls)
        if key is not None:
            self.put(*key)
            return
        for base in cls.__bases__:
            self.value(base, path + ("base",), what)
        space = cls.__dict__            # (a live view of the class's namespace)
        self.guard("keys", space, None, frozenset(space), f"the attributes of {qualname(cls)}")
        for name in sorted(space):
            member = space[name]
            if isinstance(member, _DESCRIPTORS) or name.startswith("__") and not callable(
                    member) and name not in ("__slots__",):
                continue        # (slots, dataclass and abc bookkeeping: not the code's data)
            self.put(name)
            self.item(space, name, path, f"{qualname(cls)}.{name}", "member")

    def _instance(self, obj, path: tuple, what: str) -> None:
        """An object of the program's classes (or an nn.Module, a SimpleNamespace): its
        class, and each of its attributes."""
        self.value(type(obj), path + ("type",), what)
        space = getattr(obj, "__dict__", None)
        version = None if space is None else space.get("_sg_version")
        if version is not None:    # an nn.Module: every change of it counts in its version
            self.guard("version", version, None, version[0], what)
        else:
            self.guard("type", obj, None, type(obj), what)
            if space is not None:  # (an attribute added later may hide its class's)
                self.guard("keys", space, None, frozenset(space), what)
        if space is not None:
            for name in sorted(space):
                if name in ("_sg_version", "_non_persistent_buffers_set") or \
                        name in _METADATA:
                    continue    # (the version itself; which buffers state_dict saves; a
                    #             wrapper's metadata, such as functools.wraps copies)
                self.put(name)
                if version is None:
                    self.item(space, name, path, f"{what}.{name}", "attr")
                else:
                    self.value(space[name], path + (f"attr:{name}",), f"{what}.{name}")
        for name in _slots(type(obj)):
            if hasattr(obj, name):
                self.put(name)
                self.attr(obj, name, path, f"{what}.{name}")

    def _method(self, m: types.MethodType, path: tuple, what: str) -> None:
        self.put("method")
        self.value(m.__self__, path + ("self",), what)
        self.value(m.__func__, path + ("func",), what)

    def _builtin(self, f, path: tuple, what: str) -> None:
        owner = getattr(f, "__self__", None)
        module = getattr(f, "__module__", None) or getattr(owner, "__name__", None)
        self.put("builtin", module, getattr(f, "__qualname__", f.__name__))
        if isinstance(module, str):
            self._pure(module, what)
        if owner is not None and not isinstance(owner, (types.ModuleType, type)):
            self.value(owner, path + ("self",), what)     # a bound builtin: its object

    def _partial(self, p: functools.partial, path: tuple, what: str) -> None:
        self.put("partial")
        self.value(p.func, path + ("func",), what)
        self.value(p.args, path + ("args",), what)
        self.value(p.keywords, path + ("keywords",), what)

    def _wrapped(self, obj, path: tuple, what: str) -> None:
        """A wrapper whose behaviour is its function's (staticmethod, classmethod, an
        lru_cache, a property)."""
        self.put("wrapper", type(obj).__qualname__)
        for name in ("__func__", "__wrapped__", "fget", "fset", "func"):
            inner = getattr(obj, name, None)
            if inner is not None:
                self.value(inner, path + (f"attr:{name}",), what)


# Library classes whose whole state is their attributes (walked as the program's objects).
_ATTRIBUTE_BAGS = frozenset({types.SimpleNamespace, argparse.Namespace, collections.UserDict,
                             collections.UserList, collections.UserString,
                             collections.ChainMap})
# Attributes that describe an object rather than hold its state (functools.wraps copies
# them onto wrappers; inspect reads __signature__).
_METADATA = frozenset({"__signature__", "__doc__", "__name__", "__qualname__",
                       "__module__", "__annotations__", "__text_signature__"})
# Class members that are the class's machinery, not values its code reads.
_DESCRIPTORS = (types.MemberDescriptorType, types.GetSetDescriptorType,
                types.WrapperDescriptorType, types.MethodDescriptorType)


def _slots(cls: type) -> list:
    found = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        found += [slots] if isinstance(slots, str) else [s for s in slots
                                                         if s not in ("__dict__", "__weakref__")]
    return found


def _immutable(a: np.ndarray) -> bool:
    """Whether no one can change ``a``'s values: it and every array its memory belongs to are
    read-only, ending in one that owns its memory (or in bytes)."""
    while isinstance(a, np.ndarray):
        if a.flags.writeable:
            return False
        a = a.base
    return a is None or isinstance(a, bytes)


def _is_instance_of_program(obj) -> bool:
    """An object whose state the walk can read: the program's, an nn.Module, a namespace."""
    cls = type(obj)
    if cls in _ATTRIBUTE_BAGS or getattr(cls, "symgrad_module", False):
        return True
    return library_class(cls) is None and (hasattr(obj, "__dict__") or _slots(cls))


def qualname(obj) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', '?')}"


def _enum(walk: Walk, e: enum.Enum, path: tuple, what: str) -> None:
    walk.value(type(e), path + ("type",), what)
    walk.put("enum", e.name)


# isinstance -> how to walk it (the order matters only where kinds overlap).
_HANDLERS = (   # (first: a namedtuple class's field accessor, ``Point.x``: its field's index)
    (type(collections.namedtuple("_Probe", "a").a),
     lambda w, g, p, what: w.put("namedtuple field", g.__reduce__()[1][0])),
    (types.FunctionType, Walk._function),
    (Tensor, Walk._tensor),
    (np.ndarray, Walk._array),
    ((list, collections.deque), Walk._list),
    ((bytearray, array.array), Walk._buffer),
    (dict, Walk._dict),
    ((frozenset, set), Walk._set),
    (dtypes.DType, lambda w, d, p, what: w.put("dtype", d.name)),
    (functools.partial, Walk._partial),
    ((staticmethod, classmethod, property, functools.cached_property,
      functools._lru_cache_wrapper), Walk._wrapped),
    ((types.BuiltinFunctionType, np.ufunc), Walk._builtin),
    (types.ModuleType, Walk._module),
    (type, Walk._class),
    (types.MethodType, Walk._method),
    (types.CodeType, Walk._code),
    (enum.Enum, _enum),
    (range, lambda w, r, p, what: w.put("range", r.start, r.stop, r.step)),
    (slice, lambda w, s, p, what: w.value((s.start, s.stop, s.step), p, what)),
    (np.dtype, lambda w, d, p, what: w.put("np.dtype", d.str)),
    (type(Ellipsis), lambda w, e, p, what: w.put("Ellipsis")),
    (Graph, lambda w, g, p, what: w.put("graph", *structure.content(g))),   # (api.sparse)
)


def walk(cf) -> Walk:
    """The walk of compiled function ``cf``'s captured state (options and environment
    included). An object too large to walk makes it opaque."""
    w = Walk()
    # symgrad's own code by its files, not just its version: an edited or upgraded symgrad
    # is another compiler (its warm-start records are not this one's)
    w.put("symgrad", __version__, symgrad_source(), sys.version_info[:2], np.__version__)
    w.put("options", cf.name, cf.fast_math, cf.guards, cf.max_paths, cf.static_argnums,
          cf.static_argnames)
    w.item(vars(dtypes), "DEFAULT_FLOAT", (), "the default dtype (set_default_dtype)")
    try:
        w.value(cf.traceable, ("fn",), cf.name)
    except (Unknown, RecursionError) as e:
        w.opaque.append(str(e) if isinstance(e, Unknown) else "too deep to walk")
        w.complete = False
    return w
