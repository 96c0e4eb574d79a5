"""The Jinja2 environment of the C templates (``templates/*.c.j2``).

Layer: codegen. Templates hold layout only (StrictUndefined, trim_blocks, lstrip_blocks);
Python makes every decision. The installed package's templates are used, or the source tree's
(``directory()``). Compiled templates can be kept by a bytecode cache the caller gives
(the C backend's: ``build.c.templatecache``): compiling the
templates from source is ~50 ms of CPU in a fresh process's first compile.
"""

from __future__ import annotations

import functools
from pathlib import Path

import jinja2


@functools.cache
def directory() -> Path:
    """The directory of the templates this symgrad renders."""
    # the source tree's first: an editable install's finder maps ``symgrad.templates`` to the
    # tree it was installed from, which need not be the tree this symgrad was imported from
    path = Path(__file__).resolve().parents[3] / "templates"
    if not (path / "module.c.j2").is_file():
        import importlib.resources   # (only here: ~1 ms of a fresh process's first compile)
        path = Path(str(importlib.resources.files("symgrad.templates")))
    return path


@functools.lru_cache(maxsize=4)
def environment(bytecode_cache: jinja2.BytecodeCache | None = None, standalone: bool = False
                ) -> jinja2.Environment:
    """The template environment, with compiled templates kept by ``bytecode_cache``.
    Its ``pragma(line)`` prints an OpenMP pragma line: as is, or (``standalone``) through the
    macros a standalone text defines (``SG_PARALLEL``: threads, only under -fopenmp;
    ``SG_SIMD``: only under OpenMP or -DSG_OPENMP_SIMD), so that any C99 compiler takes it
    without an unknown-pragma warning."""
    return make_environment(directory(), bytecode_cache, standalone)


def make_environment(path: Path, bytecode_cache: jinja2.BytecodeCache | None = None,
                     standalone: bool = False) -> jinja2.Environment:
    """``environment``'s settings for the templates in ``path`` (a new environment)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(path)),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, autoescape=False,
                             bytecode_cache=bytecode_cache)
    env.globals["pragma"] = macro_pragma if standalone else str
    return env


def macro_pragma(line: str) -> str:
    """``#pragma omp parallel for ...`` -> ``SG_PARALLEL(omp parallel for ...)``; ``#pragma omp
    simd ...`` (and ``declare simd``) -> ``SG_SIMD(omp simd ...)``."""
    directive = line.removeprefix("#pragma ").strip()
    macro = "SG_PARALLEL" if directive.startswith("omp parallel") else "SG_SIMD"
    return f"{macro}({directive})"
