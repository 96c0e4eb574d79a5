"""``Module``: the base of every torch.nn layer, with torch's registration, traversal and repr.

Layer: front end (torch.nn mirror). Input: a subclass's ``__init__`` assigning Parameters,
submodules and tensors (buffers, ``register_buffer``) as attributes, and its ``forward``.
Output: the module: ``__call__`` runs ``forward`` (and forward pre/post hooks if any), and
``parameters()``, ``named_modules()``, ``train()``/``eval()``, ``zero_grad()``, ``apply()`` and
``repr`` behave as torch's, keys and messages included. The state (``state_dict``,
``load_state_dict``, ``to``/``float``/``double``) is in ``state.py``. Calling a module adds one
Python call when it has no hooks. It must not compute with tensors itself (forward does).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Iterator

from ...frontend.core.hooks import RemovableHandle
from ...frontend.core.tensor import Tensor
from ..parameter import Buffer, Parameter
from .state import StateMixin


def typename(obj: Any) -> str:
    """How torch names a value's type in messages: ``torch.FloatTensor``, ``int``..."""
    if isinstance(obj, Tensor):
        return obj.type()
    cls = type(obj)
    module = cls.__module__
    return cls.__qualname__ if module in ("builtins", None) else f"{module}.{cls.__qualname__}"


def _addindent(text: str, spaces: int) -> str:
    """Indent every line of ``text`` but the first (blank lines stay empty), as torch does."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    rest = [" " * spaces + line if line.strip() else "" for line in lines[1:]]
    return "\n".join([lines[0]] + rest)


def _changed(d: dict) -> None:
    version = d.get("_sg_version")
    if version is not None:
        version[0] += 1


class Registry(dict):
    """A module's dict of parameters, buffers, submodules or hooks: a dict that counts its
    changes in its module's version (``Module._sg_version``)."""

    __slots__ = ("version",)
    symgrad_registry = True

    def __init__(self, version: list, *args) -> None:
        super().__init__(*args)
        self.version = version

    def _bump(self) -> None:
        self.version[0] += 1

    def __setitem__(self, key, value) -> None:
        self._bump()
        super().__setitem__(key, value)

    def __delitem__(self, key) -> None:
        self._bump()
        super().__delitem__(key)

    def pop(self, *args):
        self._bump()
        return super().pop(*args)

    def popitem(self):
        self._bump()
        return super().popitem()

    def clear(self) -> None:
        self._bump()
        super().clear()

    def update(self, *args, **kwargs) -> None:
        self._bump()
        super().update(*args, **kwargs)

    def setdefault(self, key, default=None):
        self._bump()
        return super().setdefault(key, default)

    def __ior__(self, other):
        self._bump()
        return super().__ior__(other)

    def __reduce__(self):
        return (Registry, (self.version, dict(self)))


class Module(StateMixin):
    """Base class of neural-network modules (``torch.nn.Module``)."""

    training: bool
    dump_patches = False
    symgrad_module = True   # (api.fingerprint walks a module's attributes: its state)
    call_super_init = False

    def __init__(self, *args, **kwargs) -> None:
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected argument; "
                            f"Module.__init__() takes no arguments")
        setattr_ = object.__setattr__
        # How many times this module's attributes and registries changed (api.fingerprint
        # guards a module by this one number: its parameters' values are inputs of compiled
        # code, what else it holds is in the code).
        version = [0]
        setattr_(self, "_sg_version", version)
        setattr_(self, "training", True)
        setattr_(self, "_parameters", Registry(version))
        setattr_(self, "_buffers", Registry(version))
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_modules", Registry(version))
        setattr_(self, "_forward_pre_hooks", Registry(version))
        setattr_(self, "_forward_hooks", Registry(version))

    def forward(self, *input: Any) -> Any:  # noqa: A002
        """The computation; every subclass defines it."""
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  f'"forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._forward_pre_hooks or self._forward_hooks:
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    def _call_with_hooks(self, args: tuple, kwargs: dict) -> Any:
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        out = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            result = hook(self, args, out)
            if result is not None:
                out = result
        return out

    def register_forward_pre_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, args)`` runs before forward; a non-None result replaces the args."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook: Callable) -> RemovableHandle:
        """``hook(module, args, output)`` runs after forward; a non-None result replaces it."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    # ------------------------------------------------------------ attributes
    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            found = d.get(store)
            if found is not None and name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        _changed(d)
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                f"(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if d.get("_modules") is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
            d["_modules"][name] = value
        else:
            self._set_other(name, value)

    def _set_other(self, name: str, value: Any) -> None:
        """Assign a value that is not a Parameter or a Module: to a registered submodule or
        buffer slot (None, or a tensor for a buffer), else as a plain attribute."""
        d = self.__dict__
        modules, buffers = d.get("_modules"), d.get("_buffers")
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                f"(torch.nn.Module or None expected)")
            modules[name] = None
        elif isinstance(value, Buffer):       # nn.Buffer: registered, persistent as it says
            self.register_buffer(name, value, value.persistent)
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                f"(torch.Tensor or None expected)")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str) -> None:
        """Drop ``name`` from every place it may be registered (before registering anew)."""
        self.__dict__.pop(name, None)
        for store in ("_parameters", "_buffers", "_modules"):
            self.__dict__[store].pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __delattr__(self, name: str) -> None:
        _changed(self.__dict__)
        for store in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(store, ()):
                del self.__dict__[store][name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def _check_name(self, kind: str, name: Any, store: str) -> None:
        if store not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in self.__dict__[store]:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter (or a None slot for one) under ``name``."""
        self._check_name("parameter", name, "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            f"(torch.nn.Parameter or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                             f"parameters must be created explicitly. To express '{name}' as a "
                             f"function of another Tensor, compute the value in the forward() "
                             f"method.")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a tensor that is state but not a parameter (running statistics); a persistent
        buffer is part of the state_dict."""
        self._check_name("buffer", name, "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            f"(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under ``name`` (reachable as an attribute)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name("module", name, "_modules")
        self._modules[name] = module

    register_module = add_module

    def get_submodule(self, target: str) -> Module:
        """The submodule at the dotted path ``target`` ('' is this module)."""
        mod = self
        for item in target.split(".") if target else ():
            if not hasattr(mod, item):
                raise AttributeError(f"{mod._get_name()} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at the dotted path ``target``."""
        path, _, name = target.rpartition(".")
        mod = self.get_submodule(path)
        if not hasattr(mod, name):
            raise AttributeError(f"{mod._get_name()} has no attribute `{name}`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    # ------------------------------------------------------------ traversal
    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """(dotted name, module) for this module and every descendant, each once."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                sub = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        """This module and its descendants."""
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """(name, module) for each direct child, each once."""
        seen = set()
        for name, m in self._modules.items():
            if m is not None and m not in seen:
                seen.add(m)
                yield name, m

    def children(self) -> Iterator[Module]:
        """The direct children."""
        for _, m in self.named_children():
            yield m

    def _named_members(self, store: str, prefix: str, recurse: bool,
                       remove_duplicate: bool) -> Iterator[tuple[str, Tensor]]:
        seen: set = set()
        mods = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for mod_prefix, mod in mods:
            for name, value in mod.__dict__[store].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                seen.add(id(value))
                yield mod_prefix + ("." if mod_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """(dotted name, parameter) pairs, torch's order (this module's, then each child's)."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters (what an optimizer takes)."""
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """(dotted name, buffer) pairs, persistent or not."""
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The buffers."""
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    # ------------------------------------------------------------ modes and gradients
    def train(self, mode: bool = True) -> Module:
        """Set training mode (dropout drops, batch norm uses batch statistics), recursively."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self) -> Module:
        """Set evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` of every parameter."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Drop (or zero, with ``set_to_none=False``) every parameter's ``.grad``."""
        for p in self.parameters():
            g = p._grad
            if g is None:
                continue
            if set_to_none:
                p._grad = None
            else:
                if g.grad_fn is not None:
                    g.detach_()
                else:
                    g.requires_grad_(False)
                g.zero_()

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """Call ``fn`` on every descendant (children first), then on this module."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """torch's in-place ``Module.compile()``: accepted, and the module keeps running as
        it is (eagerly: torch's eager numbers). Compile functions with ``symgrad.compile``."""

    # ------------------------------------------------------------ printing
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The arguments shown in this module's repr (subclasses override it)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _addindent(repr(m), 2)
                       for name, m in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self) -> list:
        names = set(dir(type(self))) | set(self.__dict__)
        for store in ("_parameters", "_buffers", "_modules"):
            names |= set(self.__dict__[store])
        return sorted(n for n in names if not n[0].isdigit())
