"""symgrad.jit: the torch.jit names model code still uses (TorchScript is deprecated in torch).

Layer: front end (the torch API surface; imports nothing of symgrad). ``is_scripting()`` and
``is_tracing()`` are False (code runs as Python); ``ignore``, ``unused``, ``export`` and
``interface`` return what they decorate. ``script(obj)`` and ``trace(func, inputs)`` warn as
torch does (a ``DeprecationWarning``) and return the function or module itself: it runs as
Python, with the numbers torch's eager code gives (TorchScript's own are the same); what only a
ScriptModule has (``.save``, ``.graph``, ``.code``) is missing, and ``torch.jit.save``/``load``
raise a ``RuntimeError`` that says so.
"""

from __future__ import annotations

import warnings

_DEPRECATED = "`torch.jit.{}` is deprecated. Please switch to `torch.compile` or `torch.export`."


def is_scripting() -> bool:
    return False


def is_tracing() -> bool:
    return False


def ignore(drop=False, **kwargs):
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def interface(obj):
    return obj


def script(obj, optimize=None, _frames_up: int = 0, _rcb=None, example_inputs=None):
    warnings.warn(_DEPRECATED.format("script"), DeprecationWarning, stacklevel=2)
    return obj


def trace(func, example_inputs=None, *args, **kwargs):
    warnings.warn(_DEPRECATED.format("trace"), DeprecationWarning, stacklevel=2)
    return func


def _no_script_modules(*args, **kwargs):
    raise RuntimeError("symgrad has no TorchScript: torch.jit.script and trace return the "
                       "Python function or module itself, which cannot be saved or loaded as "
                       "a ScriptModule. Save the state_dict instead.")


save = load = _no_script_modules
