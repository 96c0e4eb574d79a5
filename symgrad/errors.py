"""The exceptions users catch, in one place at the bottom of the layers.

Base layer: imports nothing of symgrad. Each stage raises its own specific errors where they
arise (``build.c.compiler.BuildError``, ``build.cache.CacheDirError``, ``ir.VerificationError``);
the ones here are raised from several layers and exported as ``symgrad.ShapeError`` and
``symgrad.TracerValueError``.
"""

from __future__ import annotations


class ShapeError(RuntimeError, ValueError):
    """An op was given shapes it cannot combine; the message names both. A RuntimeError, as
    torch raises (and a ValueError, as symgrad raised before)."""


class TracerValueError(TypeError):
    """A traced tensor's value was needed as a Python value while tracing."""


class LinAlgError(RuntimeError):
    """A linear-algebra routine failed: a singular matrix where an inverse or a solution was
    asked for, a matrix that is not positive-definite for a Cholesky factorization. Exported
    as ``symgrad.linalg.LinAlgError`` (torch's ``torch.linalg.LinAlgError``, a RuntimeError)."""
