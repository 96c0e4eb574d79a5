"""Shape-generic compilation: which dimensions vary, and one compile for all their sizes.

Layer: api. Input: a ``CompiledFunction``'s options (``dynamic``, ``dynamic_dims``), the
signature of a call that missed, and its ``SignatureCache`` (the signatures compiled before,
the shape-generic modules). Output: a ``Specialization`` bound from a shape-generic module
(``runtime.Generic``), or None: compile this signature on its own.

Which dimensions: ``dynamic=True`` marks every dimension of every array argument;
``dynamic_dims={"x": (0,), "y": 0}`` the listed ones (keys are parameter names, or leaf names
such as ``"params['w']"``); otherwise (``dynamic=None``, the default) a call whose signature
differs from one compiled before only in the sizes of some dimensions marks those (the second
size seen makes them dynamic: torch.compile's automatic dynamic shapes); ``dynamic=False``
never does. Marked dimensions of equal size in the call share one size symbol (a batch
dimension of ``x`` and ``y``); a later call where they differ does not fit and is compiled on
its own.

How: the function is traced at two sets of unusual sizes (``HINTS``) with the marked sizes as
``dims.Dim`` symbols, and both compiles must make the same code (``pipeline.compile_generic``);
anything that depends on a size's value (a Python loop over ``range(x.shape[0])``, data-
dependent control flow, an op the generic path does not cover yet) makes it fall back to a
compile of this signature, said at debug level. A shape-generic module is kept per pattern of
static sizes and dtypes; each new size binds it (no trace, no compile).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from .. import config
from ..dims import Dim, NotGeneric
from ..runtime import Specialization
from ..runtime.generic import Generic
from . import warm
from .state import captured_of

# The sizes the two generic traces run at: far from the sizes people write (a size that
# equals a static one would decide a comparison by accident), and unlike each other in
# parity, residues and bit length, so that code depending on a size's value in a way no
# Python hook sees (int.__int__(n) % 2, range(n)) differs between the two and is caught (not
# the decimal length: 4 digits at both).
HINTS = ((1009, 1013, 1019, 1021, 1031, 1033, 1039, 1049, 1051, 1061, 1063, 1069),
         (2310, 2520, 2730, 2940, 3150, 3360, 3570, 3780, 3990, 4200, 4410, 4620))


def options(dynamic, dynamic_dims) -> tuple:
    """Validate ``compile``'s ``dynamic`` and ``dynamic_dims``: (dynamic, {name: axes})."""
    if not (dynamic is None or dynamic is True or dynamic is False):
        raise TypeError(f"dynamic must be True, False or None, got {dynamic!r}")
    if dynamic_dims is not None and not isinstance(dynamic_dims, dict):
        raise TypeError(f"dynamic_dims must be a dict of argument name -> axis or axes, got "
                        f"{type(dynamic_dims).__name__}")
    marks = {}
    for name, axes in (dynamic_dims or {}).items():
        axes = (axes,) if isinstance(axes, int) else tuple(axes)
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in axes):
            raise TypeError(f"dynamic_dims[{name!r}] must be an axis or a tuple of axes, "
                            f"got {axes!r}")
        marks[str(name)] = axes
    if marks and dynamic is False:
        raise ValueError("dynamic=False contradicts dynamic_dims")
    return dynamic, marks


def marked(cf, key, specs: list, names: list) -> tuple[set, list]:
    """The (leaf, axis) pairs of this signature to compile shape-generic, and the shapes of
    the calls seen so far that bear on which of them share a size (see ``variants``)."""
    shapes = [s.shape for s in specs]
    if cf.dynamic is True:   # every dim, less those a trace found compared with a constant
        return {(i, a) for i, s in enumerate(specs) for a in range(len(s.shape))
                if (i, a) not in cf.signatures.fixed_dims}, [shapes]
    if cf.dynamic_dims:
        return _named(cf, specs, names), [shapes]
    if cf.dynamic is False:
        return set(), []
    diff, old = _changed(cf, key)
    return diff, [old, shapes]


def _named(cf, specs: list, names: list) -> set:
    found, out = set(), set()
    for i, (spec, name) in enumerate(zip(specs, names)):
        for key, axes in cf.dynamic_dims.items():
            if name == key or name.startswith(key + "[") or name.startswith(key + "."):
                found.add(key)
                for a in axes:
                    if not -len(spec.shape) <= a < len(spec.shape):
                        raise ValueError(f"{cf.name}: dynamic_dims[{key!r}] names axis {a}, "
                                         f"but argument {name} has shape {spec.shape}")
                    out.add((i, a % len(spec.shape)))
    missing = set(cf.dynamic_dims) - found
    if missing:
        raise ValueError(f"{cf.name}: dynamic_dims names {sorted(missing)}, which are not "
                         f"array arguments (the arguments are {names})")
    return out


def _changed(cf, key) -> tuple[set, list]:
    """Dims whose size differs from a signature compiled before that matches in all else,
    and that signature's shapes."""
    tree, statics, leaves = key
    for old in list(cf.signatures.specs):
        if old[0] != tree or old[1] != statics or len(old[2]) != len(leaves):
            continue
        if any(len(a[0]) != len(b[0]) or a[1:] != b[1:] for a, b in zip(old[2], leaves)):
            continue
        diff = {(i, d) for i, (a, b) in enumerate(zip(old[2], leaves))
                for d, (x, y) in enumerate(zip(a[0], b[0])) if x != y}
        if diff:
            return diff, [a[0] for a in old[2]]
    return set(), []


def pattern(key, marks: set) -> tuple:
    """The key of the shape-generic modules that may serve signature ``key``."""
    tree, statics, leaves = key
    return (tree, statics, tuple((tuple(None if (i, d) in marks else n
                                        for d, n in enumerate(shape)), dt, py)
                                 for i, (shape, dt, py) in enumerate(leaves)), "generic")


def variants(specs: list, names: list, marks: set, seen: list) -> list:
    """The specs at each set of ``HINTS``. Marked dims that had equal sizes in every call
    ``seen`` (a list of the arguments' shapes per call) share a size symbol (a batch
    dimension of ``x`` and ``y``), named after the first argument dim that has it
    (``x_size0``); a later call where they differ does not fit that module."""
    number = _size_numbers(marks, seen)
    symbols: list = []                  # per size number: the first dim's name
    for i, a in sorted(marks):
        if number[i, a] == len(symbols):
            base = _identifier(names[i]) + f"_size{a}"
            name, k = base, 1
            while name in symbols:
                name, k = f"{base}_{k}", k + 1
            symbols.append(name)
    if len(symbols) > len(HINTS[0]):
        raise NotGeneric(f"more than {len(HINTS[0])} distinct dynamic sizes")
    out = []
    for hints in HINTS:
        value = [Dim.symbol(name, hint) for name, hint in zip(symbols, hints)]
        out.append([replace(s, shape=tuple(value[number[i, a]] if (i, a) in marks else n
                                           for a, n in enumerate(s.shape)))
                    for i, s in enumerate(specs)])
    return out


def _size_numbers(marks: set, seen: list) -> dict:
    """(leaf, axis) -> the number of its size symbol: marked dims whose sizes were equal in
    every call ``seen`` share one, numbered in the order of the dims."""
    classes: dict = {}
    return {(i, a): classes.setdefault(tuple(s[i][a] for s in seen), len(classes))
            for i, a in sorted(marks)}


# Shape-generic modules per pattern at most: a call whose sizes split a shared size symbol
# compiles another, with the symbols split as every call seen so far requires.
MAX_MODULES = 3


def generic_spec(cf, key, specs: list, names: list, rebuild,
                 remembered: tuple | None = None) -> Specialization | None:
    """A specialization for this call from a shape-generic module (compiled now if none of
    this pattern fits yet), or None to compile the signature on its own.
    ``remembered``: the (marks, seen) an earlier process's automatic switch stored
    (``remembered_spec``)."""
    marks, seen = remembered or marked(cf, key, specs, names)
    if not marks:
        return None
    pkey = pattern(key, marks)
    shapes = [s.shape for s in specs]
    split = False
    for generic in cf.signatures.generic.get(pkey, ()):
        values, why_not = generic.sizes_of(shapes)
        if values is not None:
            config.debug(1, "%s: bound %s to the shape-generic module (no compile)", cf.name,
                         ", ".join(f"{n}{list(s)}" for n, s in zip(names, shapes)))
            return cf.signatures.bind(key, generic, values)
        split |= why_not == "shared"
        seen = generic.seen + [shapes]
    found = cf.signatures.generic.get(pkey, [])
    if pkey in cf.signatures.not_generic or (found and not split) or len(found) >= MAX_MODULES:
        # (a size that fails a module's guards would fail another's: it compiles on its own)
        return None
    if cf.dynamic is None:
        config.debug(1, "%s: %s changed size: compiling shape-generic (dynamic=False turns "
                     "this off)", cf.name, ", ".join(f"{names[i]}.shape[{a}]"
                                                    for i, a in sorted(marks)))
    generic = _load_or_compile(cf, key, specs, names, marks, seen, rebuild)
    if generic is not None and cf.dynamic is None and remembered is None:
        from .. import pipeline
        pipeline.remember(warm.marks_key(cf, _ranks(key), names),
                          (tuple(sorted(marks)), generic.seen))
    if generic is None:
        cf.signatures.not_generic.add(pkey)
        if cf.dynamic is True and cf.signatures.fixed_dims & marks:   # (fixed since: again)
            return generic_spec(cf, key, specs, names, rebuild)
        return None
    cf.signatures.add_generic(pkey, generic)
    values, _ = generic.sizes_of(shapes)
    return None if values is None else cf.signatures.bind(key, generic, values)


def remembered_spec(cf, key, specs: list, names: list,
                    rebuild) -> Specialization | None:
    """In a new process, the first call of a signature that an earlier process compiled
    shape-generic after its sizes changed (``dynamic=None``): bound from that module (from
    disk: no trace, no compile), or None."""
    if cf.dynamic is not None or cf.dynamic_dims:
        return None
    from .. import pipeline
    found = pipeline.recall(warm.marks_key(cf, _ranks(key), names))
    if not (isinstance(found, tuple) and len(found) == 2):
        return None
    marks, seen = found
    if not all(i < len(specs) and a < len(specs[i].shape) for i, a in marks):
        return None
    return generic_spec(cf, key, specs, names, rebuild, (set(marks), seen))


def _ranks(key) -> tuple:
    """A signature key with each shape replaced by its rank: what the automatic switch's
    record is stored under (any sizes)."""
    tree, statics, leaves = key
    return tree, statics, tuple(((len(shape),), dt, py) for shape, dt, py in leaves)


def _load_or_compile(cf, key, specs: list, names: list, marks: set, seen: list,
                     rebuild):
    """A shape-generic module an earlier process stored for this pattern (api.warm), else
    compiled now (and stored), else None (not shape-generic)."""
    from .. import pipeline
    return pipeline.compile_or_load(
        warm.key_of(cf, _symbolic_key(key, marks, seen), names),
        functools.partial(warm.load_generic, cf),
        lambda: _compile(cf, specs, names, marks, seen, rebuild),
        functools.partial(warm.record_generic, cf))


def _symbolic_key(key, marks: set, seen: list) -> tuple:
    """``key`` with each marked size replaced by its size symbol's number (what the module
    compiled for these calls depends on: which dims are dynamic, and which share a size)."""
    tree, statics, leaves = key
    number = _size_numbers(marks, seen)
    return (tree, statics, tuple((tuple(f"size{number[i, a]}" if (i, a) in marks else n
                                        for a, n in enumerate(shape)), dt, py)
                                 for i, (shape, dt, py) in enumerate(leaves)))


def _compile(cf, specs: list, names: list, marks: set, seen: list,
             rebuild) -> Generic | None:
    from .. import pipeline   # the compiler: only when compiling
    from ..runtime import Artifact
    from ..passes import FAST_MATH_PIPELINE
    try:
        compiled, guards = pipeline.compile_generic(
            cf.traceable, variants(specs, names, marks, seen), rebuild, cf.name,
            passes=FAST_MATH_PIPELINE if cf.fast_math else None,
            reachable=cf.captured_state().reachable)
    except NotGeneric as e:
        config.debug(1, "%s: not shape-generic (%s, at %s); compiling this signature",
                     cf.name, e, _where(e))
        _fix_compared(cf, specs, names, marks, seen, getattr(e, "guards", ()))
        return None
    except Exception as e:   # noqa: BLE001  (the signature's own compile reports user errors)
        if config.check_ir():
            raise
        config.debug(1, "%s: the shape-generic compile failed (%s: %s); compiling this "
                     "signature", cf.name, type(e).__name__, e)
        return None
    generic = Generic(Artifact.of(compiled), compiled.module, compiled, guards,
                      captured_of(compiled.traced, cf.captured_state(), cf.name))
    generic.seen = seen
    config.debug(1, "%s: compiled shape-generic: %s", cf.name, generic.describe())
    return generic


def _fix_compared(cf, specs: list, names: list, marks: set, seen: list,
                  guards) -> None:
    """``dynamic=True``: the dims whose size a failed trace compared with a constant (a
    feature size that must equal a weight's) are specialized, as torch does: the next
    attempt leaves them static."""
    if cf.dynamic is not True:
        return
    compared = {m[0] for g in guards if g.op in ("==", "!=") and len(g.terms) <= 2
                for m, c in g.terms if len(m) == 1 and c in (1, -1)
                and all(len(m2) == 0 for m2, _ in g.terms if m2 != m)}
    symbol_of = variants(specs, names, marks, seen)[0]
    fixed = {(i, a) for i, a in marks if symbol_of[i].shape[a].terms[0][0][0] in compared}
    if fixed:
        config.debug(1, "%s: %s compared with a fixed size: made static", cf.name,
                     ", ".join(f"{names[i]}.shape[{a}]" for i, a in sorted(fixed)))
        cf.signatures.fixed_dims |= fixed


def _identifier(name: str) -> str:
    """A leaf's name as the start of a size symbol's name: an identifier (ASCII letters,
    digits and single underscores, not first a digit), which a backend prints as it is."""
    ident = re.sub(r"[^A-Za-z0-9_]", "_", name)
    ident = ident if ident and not ident[0].isdigit() else f"f_{ident}"
    return re.sub("_+", "_", ident).strip("_")


def _where(e: Exception) -> str:
    """Where in symgrad a size was used concretely (``module.py:line`` of the frame that
    raised, below dims.py)."""
    tb, last = e.__traceback__, "?"
    while tb is not None:
        file = tb.tb_frame.f_code.co_filename
        if "symgrad" in file and not file.endswith("dims.py"):
            last = f"{file.rsplit('/', 1)[-1]}:{tb.tb_lineno}"
        tb = tb.tb_next
    return last
