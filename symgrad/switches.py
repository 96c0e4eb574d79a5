"""torch's process-wide switches that symgrad keeps and reports but does not need: determinism,
the deterministic debug mode, interop threads, ``warn_always``.

Layer: front end (the torch API surface; imports nothing of symgrad). Input: what scripts set
for reproducibility or speed (``torch.use_deterministic_algorithms(True)``). Output: the
settings, read back as torch reads them (the debug mode and the flags follow each other as in
torch), with torch's errors for invalid values. They change nothing: symgrad's results are
deterministic already (a float sum is split into the same chunks whatever the thread count),
and its threads are ``set_num_threads``'s business.
"""

from __future__ import annotations

__all__ = ["use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode",
           "get_deterministic_debug_mode", "set_num_interop_threads", "get_num_interop_threads",
           "set_warn_always", "is_warn_always_enabled"]

_state = {"deterministic": False, "warn_only": False, "interop": 1, "warn_always": False}
_MODES = {"default": 0, "warn": 1, "error": 2}


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    if not isinstance(mode, bool):
        raise TypeError(f"_set_deterministic_algorithms(): argument 'mode' (position 1) must "
                        f"be bool, not {type(mode).__name__}")
    _state["deterministic"], _state["warn_only"] = mode, bool(mode and warn_only)


def are_deterministic_algorithms_enabled() -> bool:
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    return _state["warn_only"]


def set_deterministic_debug_mode(debug_mode: int | str) -> None:
    if not isinstance(debug_mode, (int, str)):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if isinstance(debug_mode, str):
        if debug_mode not in _MODES:
            raise RuntimeError(f"invalid value of debug_mode, expected one of `default`, "
                               f"`warn`, `error`, but got {debug_mode}")
        debug_mode = _MODES[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got "
                           f"{debug_mode}")
    use_deterministic_algorithms(debug_mode > 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode() -> int:
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2


def set_num_interop_threads(num: int) -> None:
    if not isinstance(num, int) or num <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    _state["interop"] = num


def get_num_interop_threads() -> int:
    return _state["interop"]


def set_warn_always(b: bool) -> None:
    _state["warn_always"] = bool(b)


def is_warn_always_enabled() -> bool:
    return _state["warn_always"]
