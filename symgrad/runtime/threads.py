"""``symgrad.set_num_threads`` / ``get_num_threads``: how many threads compiled calls run on.

Layer: runtime. The count is a setting (``config.settings.num_threads``; 0: automatic); the
backend turns it into the argument each call passes (``Module.threads``: the C backend's
governor, ``build.c.threads``, runs on the CPUs other processes leave idle when automatic).
"""

from __future__ import annotations

from .. import config


def set_num_threads(n: int | str) -> None:
    """The threads a compiled call runs its large loops and its BLAS calls on: a positive
    int, or "auto" (the default unless ``SYMGRAD_NUM_THREADS`` is set): the CPUs other
    processes leave idle, sampled every 0.1 s. Results are the same for every count."""
    if n == "auto":
        config.settings.num_threads = 0
        return
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"set_num_threads expects a positive int or 'auto', got {n!r}")
    if config.settings.forked and n > 1:
        import warnings
        warnings.warn("symgrad: this process was forked; its compiled loops stay on one thread "
                      "(OpenMP's thread pool does not survive fork; use the 'spawn' start "
                      "method for threaded workers)", RuntimeWarning, stacklevel=2)
        return
    config.settings.num_threads = n


def get_num_threads() -> int:
    """The threads the next compiled call will run on."""
    from ..build.backends import default   # (the backend decides "auto")
    return default().threads()
