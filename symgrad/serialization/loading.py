"""``load``: an object read back from a checkpoint ``torch.save`` (or ``symgrad.save``) wrote.

Layer: front end (the torch.serialization mirror). Input: a path or a binary file-like holding
torch's zip format (torch >= 1.6), ``map_location`` (None, a device or its name, a dict of
location names, or a function of (storage, location)), ``weights_only`` (torch 2.13's
default: True) and ``mmap``. Output: the saved object with symgrad tensors (Parameters stay
Parameters, ``requires_grad`` leaves stay so). Storages are read once each (``data/<key>``),
byte-swapped if the file's byte order is not this machine's, and placed where
``map_location`` says: symgrad computes on the CPU, so another device raises torch's error.
With ``weights_only`` the pickle is read by ``unpickler`` (torch's allowed globals and the
user's), and a refusal is torch's ``UnpicklingError`` message; otherwise by Python's
unpickler, with torch's names mapped to symgrad's objects.
"""

from __future__ import annotations

import io
import os
import pickle
import re
import warnings
from typing import Any

from .. import dtypes
from ..devices import device
from . import allowlist, names, unpickler
from . import storages as S
from .archive import ArchiveReader, is_path, seekable

UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
    "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
    "`False` will likely succeed, but it can result in arbitrary code execution. Do it only "
    "if you got the file from a trusted source.")
_DOCS_MESSAGE = (
    "\n\nCheck the documentation of torch.load to learn more about types accepted by default "
    "with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
_CUDA_ERROR = (
    "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
    "False. If you are running on a CPU-only machine, please use torch.load with "
    "map_location=torch.device('cpu') to map your storages to the CPU.")


def weights_only_message(message: str) -> str:
    """torch's text around a weights-only refusal: what to do about it."""
    if re.search(r"GLOBAL (\S+) was not an allowed global by default.", message):
        return ("Weights only load failed. This file can still be loaded, to do so you have "
                "two options, \033[1mdo those steps only if you trust the source of the "
                f"checkpoint\033[0m. \n\t(1) {UNSAFE_MESSAGE}\n\t(2) Alternatively, to load "
                "with `weights_only=True` please check the recommended steps in the following "
                "error message.\n\tWeightsUnpickler error: " + message + _DOCS_MESSAGE)
    text = f"Weights only load failed. {UNSAFE_MESSAGE}\n"
    if not re.search(r"whose module (\S+) is blocked", message):
        text += ("Please file an issue with the following so that we can make "
                 "`weights_only=True` compatible with your use case: WeightsUnpickler error: ")
    return text + "\n\n" + message + _DOCS_MESSAGE


def default_restore_location(storage: S.Storage, location: str) -> S.Storage:
    """A storage at ``location``: the CPU is where it already is; symgrad has no other."""
    if location == "cpu":
        return storage
    if location == "cuda" or re.match("cuda(:|[0-9]+)", location):
        raise RuntimeError(_CUDA_ERROR)
    raise RuntimeError("don't know how to restore data location of "
                       f"torch.storage.UntypedStorage (tagged with {location})")


def _restore_location(map_location: Any):
    if map_location is None:
        return default_restore_location
    if isinstance(map_location, dict):
        return lambda s, loc: default_restore_location(s, map_location.get(loc, loc))
    if isinstance(map_location, (str, bytes, device)):
        where = map_location.decode() if isinstance(map_location, bytes) else str(map_location)
        return lambda s, loc: default_restore_location(s, where)

    def restore(storage: S.Storage, location: str) -> S.Storage:
        result = map_location(storage, location)
        if result is None:
            return default_restore_location(storage, location)
        if not isinstance(result, S.Storage):
            raise TypeError(f"map_location should return a storage or None, got "
                            f"{type(result).__name__}")
        return result
    return restore


class StorageLoader:
    """``persistent_load``: a storage from its persistent id ``("storage", type, key,
    location, numel)``, each read once."""

    def __init__(self, reader: ArchiveReader, map_location: Any) -> None:
        self.reader, self.restore = reader, _restore_location(map_location)
        self.loaded: dict[str, S.Storage] = {}

    def __call__(self, pid: Any) -> S.Storage:
        if not isinstance(pid, tuple) or len(pid) != 5:
            raise RuntimeError(f"unknown persistent id {pid!r}: expected (\"storage\", type, "
                               "key, location, numel)")
        kind, storage_type, key, location, numel = (_text(p) for p in pid)
        if kind != "storage" or not isinstance(storage_type, S.StorageType):
            raise RuntimeError(f"Unknown typename for persistent_load, expected 'storage' but "
                               f"got '{kind}'")
        if key not in self.loaded:
            dtype = dtypes.uint8 if storage_type is S.UNTYPED else storage_type.dtype
            array = self.reader.read_storage(f"data/{key}", dtype.np, int(numel))
            self.loaded[key] = self.restore(S.Storage(array, dtype), location)
        return self.loaded[key]


def _text(value: Any) -> Any:
    return value.decode("ascii") if isinstance(value, bytes) else value


def _full_unpickler(pickle_module: Any):
    class Unpickler(pickle_module.Unpickler):
        """Python's unpickler, torch's names mapped to symgrad's objects."""

        def find_class(self, module: str, name: str) -> Any:
            found = names.resolve(f"{module}.{name}")
            return found if found is not None else super().find_class(module, name)
    return Unpickler


def _load(reader: ArchiveReader, map_location: Any, pickle_module: Any,
          pickle_load_args: dict) -> Any:
    data = io.BytesIO(reader.read_record("data.pkl"))
    loader = StorageLoader(reader, map_location)
    if pickle_module is None:
        return unpickler.load(data, loader, pickle_load_args.get("encoding", "bytes"))
    reading = _full_unpickler(pickle_module)(data, **pickle_load_args)
    reading.persistent_load = loader
    return reading.load()


def _weights_only(weights_only: bool | None, pickle_module: Any) -> bool:
    """torch's choice: the argument, else True (False with a pickle module of one's own);
    TORCH_FORCE_WEIGHTS_ONLY_LOAD / TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD override it."""
    unset = weights_only is None
    if unset:
        weights_only = pickle_module is None
    yes = ("1", "y", "yes", "true")
    force = os.getenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in yes
    force_not = os.getenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() in yes
    if force and force_not:
        raise RuntimeError("Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD` or "
                           "`TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD` should be set, but both were set.")
    if force:
        return True
    if force_not and unset:
        warnings.warn("Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since "
                      "the`weights_only` argument was not explicitly passed to `torch.load`, "
                      "forcing weights_only=False.", UserWarning, stacklevel=3)
        return False
    return bool(weights_only)


def _open(f: Any, mmap: bool) -> ArchiveReader:
    if mmap and not is_path(f):
        raise ValueError("f must be a file path in order to use the mmap argument")
    if not is_path(f) and not seekable(f):
        f = io.BytesIO(f.read())     # (torch asks for a seekable file; a stream is read whole)
    opened = open(os.fspath(f), "rb") if is_path(f) else f
    try:
        start = opened.tell()
        magic = opened.read(4)
        opened.seek(start)
    finally:
        if opened is not f:
            opened.close()
    if magic != b"PK\x03\x04":
        if not magic:
            raise EOFError("Ran out of input")
        raise RuntimeError("symgrad.load reads the zip format torch.save has written since "
                           "torch 1.6; this file is not one (torch's legacy format, or not a "
                           "torch file)")
    return ArchiveReader(f, mmap)


def load(f, map_location: Any = None, pickle_module: Any = None, *,
         weights_only: bool | None = None, mmap: bool | None = None,
         **pickle_load_args: Any) -> Any:
    """``torch.load``: the object saved in ``f`` (a path or a binary file-like), its tensors
    symgrad's. ``weights_only=True`` (the default) builds tensors, containers and numbers
    only, and the globals marked safe (``add_safe_globals``)."""
    weights_only = _weights_only(weights_only, pickle_module)
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is "
                           "specified")
    if pickle_load_args and weights_only:
        warnings.warn("pickle_load_args only works if `weights_only=False`.", stacklevel=2)
    pickle_load_args.setdefault("encoding", "utf-8")
    with _open(f, bool(mmap)) as reader:
        if reader.has_record("constants.pkl"):
            if weights_only:
                raise RuntimeError("Cannot use ``weights_only=True`` with TorchScript archives "
                                   "passed to ``torch.load``. " + UNSAFE_MESSAGE)
            raise RuntimeError("symgrad.load cannot load a TorchScript archive (torch.jit.save)")
        if not weights_only:
            return _load(reader, map_location, pickle_module or pickle, pickle_load_args)
        try:
            return _load(reader, map_location, None, {"encoding": pickle_load_args["encoding"]})
        except pickle.UnpicklingError as e:
            raise pickle.UnpicklingError(weights_only_message(str(e))) from None


def get_unsafe_globals_in_checkpoint(f: Any) -> list[str]:
    """The globals of ``f``'s pickle that ``load(weights_only=True)`` would refuse (neither
    torch's allowed names nor marked safe), without loading anything."""
    import pickletools   # (here only: not loaded with symgrad)
    with _open(f, False) as reader:
        data = reader.read_record("data.pkl")
    allowed = set(names.WEIGHTS_ONLY) | set(allowlist.user_allowed())
    found = set()
    for op, arg, _ in pickletools.genops(data):
        if op.name == "GLOBAL":
            module, name = unpickler.compat_name(*arg.split(" ", 1))
            found.add(f"{module}.{name}")
    return sorted(found - allowed)
