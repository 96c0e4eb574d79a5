"""Devices, as torch names them: everything symgrad computes runs on the CPU.

Layer: base (imports nothing of symgrad). Input: what programs pass as ``device=``: None,
``"cpu"``, ``"cpu:0"``, ``torch.device("cpu")``, or an accelerator's name. Output: the
``device`` type (``symgrad.device``), ``check`` (the one place that accepts the CPU and refuses
accelerators with torch's own message), and the default device. Programs written for a GPU
usually pick ``"cuda" if torch.cuda.is_available() else "cpu"``: here that is always the CPU.
"""

from __future__ import annotations

_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
          "privateuseone")


class device:  # noqa: N801  (torch's name)
    """``torch.device``: a device type and an optional index (``device("cuda:1")``)."""

    __slots__ = ("type", "index")

    def __init__(self, type: str | device, index: int | None = None):  # noqa: A002
        if isinstance(type, device):
            type, index = type.type, type.index if index is None else index
        if not isinstance(type, str):
            raise TypeError(f"device(): expected a string such as 'cpu', got "
                            f"{type.__class__.__name__}")
        name, _, number = type.partition(":")
        if name not in _TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of "
                               f"device string: {type}")
        if number:
            if index is not None or not number.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(number)
        object.__setattr__(self, "type", name)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name, value):
        raise AttributeError("device objects are immutable")

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            try:
                other = device(other)
            except RuntimeError:
                return False
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


CPU = device("cpu")
_default = CPU


def check(where) -> device:
    """The device ``where`` names, if symgrad can compute there (the CPU); accelerators raise
    torch's error for a build without them."""
    if where is None:
        return _default
    if isinstance(where, int) and not isinstance(where, bool):
        where = device("cuda", where)   # torch reads a bare int as an accelerator index
    d = where if isinstance(where, device) else device(where)
    if d.type != "cpu":
        if d.type == "cuda":
            raise AssertionError("Torch not compiled with CUDA enabled")
        raise RuntimeError(f"symgrad computes on the CPU only; device '{d}' is not available "
                           f"(use device='cpu')")
    return CPU


def set_default_device(where) -> None:
    """``torch.set_default_device``: only the CPU (or None) can be the default here."""
    global _default
    _default = check(where) if where is not None else CPU


def get_default_device() -> device:
    return _default
