"""``ParameterDict``: a dict of parameters registered under their keys, as torch's.

Layer: front end (torch.nn mirror). Input: a mapping (a plain dict is taken in sorted key
order, an ``OrderedDict`` or ``ParameterDict`` in its own), or an iterable of (key, value)
pairs; values that are tensors become Parameters, other values are kept as attributes.
Output: a module whose parameters and ``state_dict`` keys are the dict's keys, with torch's
dict methods, messages and repr (``Parameter containing: [torch.FloatTensor of size 2x3]``).
It must not compute anything.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ...frontend.core.tensor import Tensor
from ..parameter import Parameter
from .module import Module, typename


class ParameterDict(Module):
    """A dict of parameters (insertion order; a plain dict's items sorted by key)."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _attr(key: Any) -> str:
        if not isinstance(key, str):
            raise TypeError(f"Index given to ParameterDict cannot be used as a key as it is not "
                            f"a string (type is '{type(key).__name__}'). Open an issue on "
                            f"github if you need non-string keys.")
        return key

    def __getitem__(self, key: str) -> Any:
        return getattr(self, self._attr(key))

    def __setitem__(self, key: str, value: Any) -> None:
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, self._attr(key), value)

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same parameters."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default: Any = None) -> Any:
        """The value under ``key``, inserting ``default`` first if it is absent."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        """Remove every item."""
        for k in list(self._keys):
            del self[k]

    def pop(self, key: str) -> Any:
        """Remove and return the value under ``key``."""
        v = self[key]
        del self[key]
        return v

    def popitem(self) -> tuple[str, Any]:
        """Remove and return the last inserted (key, value) pair."""
        k = next(reversed(self._keys))
        return k, self.pop(k)

    def get(self, key: str, default: Any = None) -> Any:
        """The value under ``key``, or ``default``."""
        return self[key] if key in self else default

    def fromkeys(self, keys: Iterable[str], default: Any = None) -> ParameterDict:
        """A new ParameterDict with ``keys``, each holding ``default``."""
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        """The keys, in order."""
        return self._keys.keys()

    def items(self):
        """(key, value) pairs, in order."""
        return ((k, self[k]) for k in self._keys)

    def values(self):
        """The values, in order."""
        return (self[k] for k in self._keys)

    def update(self, parameters: Any) -> None:
        """Add or overwrite the (key, value) pairs of a mapping or an iterable of pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of "
                            "key/value pairs, but got " + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = [self._pair(j, p) for j, p in enumerate(parameters)]
        for key, value in pairs:
            self[key] = value

    @staticmethod
    def _pair(j: int, p: Any) -> tuple:
        if not isinstance(p, Iterable):
            raise TypeError(f"ParameterDict update sequence element #{j} should be Iterable; "
                            f"is{type(p).__name__}")
        p = tuple(p)
        if len(p) != 2:
            raise ValueError(f"ParameterDict update sequence element #{j} has length {len(p)}; "
                             f"2 is required")
        return p

    def extra_repr(self) -> str:
        lines = []
        for k, p in self.items():
            if isinstance(p, Tensor):
                kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
                size = "x".join(str(s) for s in p.shape)
                lines.append(f"  ({k}): {kind} containing: [{typename(p)} of size {size}]")
            else:
                lines.append(f"  ({k}): Object of type: {type(p).__name__}")
        return "\n".join(lines)

    def __call__(self, input: Any) -> Any:  # noqa: A002
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other: ParameterDict) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self
