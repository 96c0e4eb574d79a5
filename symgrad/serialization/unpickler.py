"""The weights-only unpickler: a pickle reader that builds tensors, containers and numbers
and nothing else, as ``torch.load(weights_only=True)`` does.

Layer: front end (the torch.serialization mirror). Input: a protocol-2 pickle (an archive's
``data.pkl``) and the function that loads a storage from its persistent id. Output: the
object it describes. It runs the opcodes itself (the ones torch's own weights-only unpickler
runs; any other is an ``UnpicklingError``) and keeps torch's rules: a GLOBAL must be one of
torch's allowed names (``names.WEIGHTS_ONLY``) or one the user marked safe
(``allowlist``), never from ``sys``/``os``; REDUCE calls only those; NEWOBJ builds only
``Parameter`` and marked classes; BUILD sets state only on an ``OrderedDict`` or a marked
class; APPEND goes to lists, SETITEM to dicts; a persistent id names a storage. Every refusal
is a ``pickle.UnpicklingError`` with torch's message.
"""

from __future__ import annotations

import _compat_pickle
import pickle
import warnings
from collections import Counter, OrderedDict
from collections.abc import Callable
from struct import unpack
from typing import Any

from ..frontend.core.tensor import Tensor
from ..nn.parameter import Parameter
from . import allowlist, names

UnpicklingError = pickle.UnpicklingError
_BLOCKED_MODULES = ("sys", "os", "posix", "nt")


def compat_name(module: str, name: str) -> tuple[str, str]:
    """Python 2's module and class names as Python 3's (a protocol-2 pickle may hold them)."""
    if (module, name) in _compat_pickle.NAME_MAPPING:
        return _compat_pickle.NAME_MAPPING[(module, name)]
    return _compat_pickle.IMPORT_MAPPING.get(module, module), name


def _unsupported_global(full: str) -> UnpicklingError:
    if full.startswith("builtins"):
        rest = full[len("builtins"):]
        full = rest[1:] if rest.startswith(".") else "builtins" + rest
    return UnpicklingError(
        f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{full}])` or the "
        f"`torch.serialization.safe_globals([{full}])` context manager to allowlist this "
        "global if you trust this class/function.")


def allowed_global(module: str, name: str) -> Any:
    """The object a GLOBAL names, if weights-only loading allows it; else torch's error."""
    full = f"{module}.{name}"
    if module in _BLOCKED_MODULES:
        raise UnpicklingError(f"Trying to load unsupported GLOBAL {full} whose module "
                              f"{module} is blocked.")
    if full in names.WEIGHTS_ONLY:
        return names.resolve(full, names.WEIGHTS_ONLY)
    user = allowlist.user_allowed()
    if full in user:
        return user[full]
    raise _unsupported_global(full)


def _user_allowed_object(obj: Any) -> bool:
    return any(obj is v for v in allowlist.user_allowed().values())


def _allowed(obj: Any) -> bool:
    return names.is_allowed_object(obj) or _user_allowed_object(obj)


class WeightsOnlyUnpickler:
    """Reads one pickle from ``file`` (``read``/``readline``); storages come from
    ``persistent_load(pid)``."""

    def __init__(self, file, persistent_load: Callable[[Any], Any],
                 encoding: str = "bytes") -> None:
        self.read, self.readline = file.read, file.readline
        self.persistent_load = persistent_load
        self.encoding = encoding
        self.memo: dict[int, Any] = {}
        self.stack: list[Any] = []
        self.metastack: list[list[Any]] = []
        self.proto = -1

    def load(self) -> Any:
        while True:
            key = self.read(1)
            if not key:
                raise EOFError
            if key[0] == pickle.STOP[0]:
                return self.stack.pop()
            handler = _DISPATCH.get(key[0])
            if handler is None:
                raise UnpicklingError(f"Unsupported operand {key[0]}")
            handler(self)

    def pop_mark(self) -> list[Any]:
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    # ------------------------------------------------------------ the risky opcodes
    def op_global(self) -> None:
        module = self.readline()[:-1].decode("utf-8")
        name = self.readline()[:-1].decode("utf-8")
        self.stack.append(allowed_global(*compat_name(module, name)))

    def op_newobj(self) -> None:
        args = self.stack.pop()
        cls = self.stack.pop()
        if cls is Parameter:
            self.stack.append(Parameter(*args))
        elif _allowed(cls) and isinstance(cls, type):
            self.stack.append(cls.__new__(cls, *args))
        else:
            raise UnpicklingError("Can only create new object for nn.Parameter or classes "
                                  f"allowlisted via `add_safe_globals` but got {cls}")

    def op_reduce(self) -> None:
        args = self.stack.pop()
        func = self.stack[-1]
        if not _allowed(func):
            message = f"Trying to call reduce for unrecognized function {func}"
            if hasattr(func, "__self__"):
                message += f" which belongs to {func.__self__}"
            raise UnpicklingError(message)
        self.stack[-1] = func(*args)

    def op_build(self) -> None:
        state = self.stack.pop()
        inst = self.stack[-1]
        if type(inst) is OrderedDict:
            inst.__dict__.update(state)
        elif isinstance(inst, Tensor):
            raise RuntimeError("symgrad cannot load a tensor's legacy state (a BUILD on a "
                               "tensor, from a file of torch < 1.0)")
        elif _allowed(type(inst)):
            _set_state(inst, state)
        else:
            raise UnpicklingError("Can only build Tensor, Parameter, OrderedDict or types "
                                  f"allowlisted via `add_safe_globals`, but got {type(inst)}")

    def op_persid(self) -> None:
        pid = self.stack.pop()
        if type(pid) is not tuple and type(pid) is not int:
            raise UnpicklingError(f"persistent_load id must be tuple or int, but got "
                                  f"{type(pid)}")
        if type(pid) is tuple and pid and _ascii(pid[0]) != "storage":
            raise UnpicklingError(f"Only persistent_load of storage is allowed, but got "
                                  f"{type(pid[0])}")
        self.stack.append(self.persistent_load(pid))

    # ------------------------------------------------------------ containers
    def op_append(self) -> None:
        item = self.stack.pop()
        _target(self.stack[-1], (list,), "append to lists").append(item)

    def op_appends(self) -> None:
        items = self.pop_mark()
        _target(self.stack[-1], (list,), "extend lists").extend(items)

    def op_setitem(self) -> None:
        value, key = self.stack.pop(), self.stack.pop()
        _dict_target(self.stack[-1], "SETITEM")[key] = value

    def op_setitems(self) -> None:
        items = self.pop_mark()
        target = _dict_target(self.stack[-1], "SETITEMS")
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    def op_mark(self) -> None:
        self.metastack.append(self.stack)
        self.stack = []

    def op_tuple(self) -> None:
        items = tuple(self.pop_mark())    # (before naming self.stack: it changes)
        self.stack.append(items)

    def op_tuple_n(self, n: int) -> None:
        items = tuple(self.stack[len(self.stack) - n:]) if n else ()
        del self.stack[len(self.stack) - n:]
        self.stack.append(items)

    # ------------------------------------------------------------ values
    def op_binunicode(self) -> None:
        size = unpack("<I", self.read(4))[0]
        self.stack.append(str(self.read(size), "utf-8", "surrogatepass"))

    def op_short_binstring(self) -> None:
        data = self.read(self.read(1)[0])
        self.stack.append(data if self.encoding == "bytes" else
                          data.decode(self.encoding, "strict"))

    def op_long1(self) -> None:
        data = self.read(self.read(1)[0])
        self.stack.append(int.from_bytes(data, "little", signed=True))

    def op_get(self, long: bool) -> None:
        self.stack.append(self.memo[unpack("<I", self.read(4))[0] if long else
                                    self.read(1)[0]])

    def op_put(self, long: bool) -> None:
        self.memo[unpack("<I", self.read(4))[0] if long else self.read(1)[0]] = self.stack[-1]

    def op_proto(self) -> None:
        self.proto = self.read(1)[0]
        if self.proto != 2:
            warnings.warn(
                f"Detected pickle protocol {self.proto} in the checkpoint, which was not the "
                "default pickle protocol used by `torch.load` (2). The weights_only Unpickler "
                "might not support all instructions implemented by this protocol, please file "
                "an issue for adding support if you encounter this.", stacklevel=3)

    def push_read(self, fmt: str, size: int) -> None:
        self.stack.append(unpack(fmt, self.read(size))[0])


def _ascii(value: Any) -> Any:
    return value.decode("ascii") if isinstance(value, bytes) else value


def _target(obj: Any, types: tuple, what: str) -> Any:
    if type(obj) not in types:
        raise UnpicklingError(f"Can only {what}, but got {type(obj)}")
    return obj


def _dict_target(obj: Any, opcode: str) -> Any:
    if type(obj) not in (dict, OrderedDict, Counter):
        raise UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, "
                              f"collections.Counter, but got {type(obj)}")
    return obj


def _set_state(inst: Any, state: Any) -> None:
    """BUILD on an instance of a class the user marked safe: pickle's own rules."""
    if hasattr(inst, "__setstate__"):
        inst.__setstate__(state)
        return
    slots = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
    if state:
        inst.__dict__.update(state)
    for k, v in (slots or {}).items():
        setattr(inst, k, v)


def _push(value: Any) -> Callable[[WeightsOnlyUnpickler], None]:
    return lambda u: u.stack.append(value() if callable(value) else value)


_P = pickle
_DISPATCH: dict[int, Callable[[WeightsOnlyUnpickler], None]] = {
    _P.GLOBAL[0]: WeightsOnlyUnpickler.op_global, _P.NEWOBJ[0]: WeightsOnlyUnpickler.op_newobj,
    _P.REDUCE[0]: WeightsOnlyUnpickler.op_reduce, _P.BUILD[0]: WeightsOnlyUnpickler.op_build,
    _P.BINPERSID[0]: WeightsOnlyUnpickler.op_persid,
    _P.APPEND[0]: WeightsOnlyUnpickler.op_append, _P.APPENDS[0]: WeightsOnlyUnpickler.op_appends,
    _P.SETITEM[0]: WeightsOnlyUnpickler.op_setitem,
    _P.SETITEMS[0]: WeightsOnlyUnpickler.op_setitems,
    _P.MARK[0]: WeightsOnlyUnpickler.op_mark, _P.TUPLE[0]: WeightsOnlyUnpickler.op_tuple,
    _P.TUPLE1[0]: lambda u: u.op_tuple_n(1), _P.TUPLE2[0]: lambda u: u.op_tuple_n(2),
    _P.TUPLE3[0]: lambda u: u.op_tuple_n(3), _P.EMPTY_TUPLE[0]: lambda u: u.op_tuple_n(0),
    _P.NONE[0]: _push(None), _P.NEWFALSE[0]: _push(False), _P.NEWTRUE[0]: _push(True),
    _P.EMPTY_LIST[0]: _push(list), _P.EMPTY_DICT[0]: _push(dict), _P.EMPTY_SET[0]: _push(set),
    _P.BININT[0]: lambda u: u.push_read("<i", 4), _P.BININT1[0]: lambda u: u.push_read("<B", 1),
    _P.BININT2[0]: lambda u: u.push_read("<H", 2), _P.BINFLOAT[0]: lambda u: u.push_read(">d", 8),
    _P.BINUNICODE[0]: WeightsOnlyUnpickler.op_binunicode,
    _P.SHORT_BINSTRING[0]: WeightsOnlyUnpickler.op_short_binstring,
    _P.LONG1[0]: WeightsOnlyUnpickler.op_long1,
    _P.BINGET[0]: lambda u: u.op_get(False), _P.LONG_BINGET[0]: lambda u: u.op_get(True),
    _P.BINPUT[0]: lambda u: u.op_put(False), _P.LONG_BINPUT[0]: lambda u: u.op_put(True),
    _P.PROTO[0]: WeightsOnlyUnpickler.op_proto,
}


def load(file, persistent_load: Callable[[Any], Any], encoding: str = "bytes") -> Any:
    """The object of the pickle in ``file``, read under the weights-only rules."""
    return WeightsOnlyUnpickler(file, persistent_load, encoding).load()
