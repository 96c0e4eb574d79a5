"""The table of dependency kinds: what differs between a pair's programs, and how each mode
changes it (or why the mode makes no sense for the kind).

Modes: (a) one process: A, the in-process change, B; (b) two fresh processes sharing a cache
directory, process 1 runs A, process 2 runs B, no program file edited (the value comes from
the runner's table, the environment or a data file; code kinds run two checkouts: the same
module names at two paths); (c) process 1 runs A from files, the files are edited in place
to B, process 2 runs B.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from . import code, context, values
from .pair import Pair

@dataclasses.dataclass(frozen=True)
class Kind:
    name: str
    short: str                  # the prefix of its pairs' tags
    make: Callable              # (random.Random, tag) -> Pair
    how: dict                   # mode -> how the mode changes the dependency, or "n/a: why"
    xfail: str | None = None

    @property
    def modes(self) -> tuple:
        return tuple(m for m in "abc" if not self.how[m].startswith("n/a"))


VALUE_B = "the same program at one path; the value from the runner's table"
EDIT = "the literal edited in the file"
CHECKOUTS = "two checkouts: A and B at two paths, the same module names"
NOT_IN_A_FILE = "n/a: the dependency is not in a program file (mode (b) changes it)"
NO_FILE = "n/a: a __main__ program without a file has nothing to edit"
ONE_MAIN = ("n/a: one __main__ program per process (a redefinition in a process is the exec "
            "kind's mode (a))")

# How a global scalar and a captured array change, in each mode (plain and under transforms).
GLOBAL = {"a": "the global rebound, or its list/dict item, namespace or object attribute set",
          "b": VALUE_B, "c": EDIT}
ARRAY = {"a": "the array (tensor) in a global, dict, object, closure or default changed in "
              "place, item by item, or rebound",
         "b": VALUE_B, "c": EDIT}

KINDS = [
    Kind("code", "code", code.code, {
        "a": "importlib.reload of the rewritten module, or f.__code__ replaced",
        "b": CHECKOUTS, "c": "the function's body edited"}),
    Kind("constant", "cst", code.constant, {
        "a": "importlib.reload of the rewritten module, or f.__code__ replaced",
        "b": CHECKOUTS, "c": EDIT}),
    Kind("default", "dflt", values.default, {
        "a": "f.__defaults__ / __kwdefaults__ set", "b": VALUE_B, "c": EDIT}),
    Kind("closure", "clo", values.closure, {
        "a": "a nonlocal assignment, or the cell's contents set", "b": VALUE_B, "c": EDIT}),
    Kind("global", "glob", values.global_scalar, GLOBAL),
    Kind("array-op", "arop", values.array_op, ARRAY),
    Kind("transform-global", "tglob", values.transform_global, GLOBAL),
    Kind("transform-array", "tarop", values.transform_array, ARRAY),
    Kind("array-numpy", "arnp", values.array_numpy, {
        "a": "the array in a global, dict, object, closure or default changed in place, "
             "item by item, or rebound",
        "b": VALUE_B, "c": EDIT}),
    Kind("array-mixed", "armx", values.array_mixed, {
        "a": "n/a: NumPy code on an array that symgrad also reads (x * W + np.sum(W)) is "
             "not seen in one process: a documented limitation (README, What a compiled "
             "function captures)",
        "b": VALUE_B, "c": EDIT}),
    Kind("helper", "help", code.helper, {
        "a": "the helper's file rewritten and importlib.reload-ed (the helper imported at "
             "module level or inside the function, or held in a closure)",
        "b": CHECKOUTS, "c": "the helper module's file edited"}),
    Kind("method", "meth", code.method, {
        "a": "the class attribute set to B's function", "b": CHECKOUTS,
        "c": "the method's body edited"}),
    Kind("partial", "part", values.partial, {
        "a": "a new functools.partial bound", "b": VALUE_B, "c": EDIT}),
    Kind("module-attr", "mattr", values.module_attr, {
        "a": "cfgmodule.ALPHA set (the module reached as a global, through a closure or a "
             "default, or imported inside the function)",
        "b": "the config module reads the runner's table",
        "c": "the config module's file edited"}),
    Kind("param", "prm", context.param, {
        "a": "optimizer steps taken", "b": "the number of steps from the runner's table",
        "c": "the number of steps edited"}),
    Kind("env", "env", context.env, {
        "a": "os.environ set (or the variable removed)",
        "b": "each process started with its variant's environment", "c": NOT_IN_A_FILE}),
    Kind("file", "file", context.file, {
        "a": "the data file rewritten in place, or replaced",
        "b": "the data file rewritten between the processes",
        "c": "n/a: the file is data, not program (mode (b) rewrites it on disk)"}),
    Kind("dtype", "dt", context.dtype, {
        "a": "sg.set_default_dtype called", "b": VALUE_B, "c": EDIT}),
    Kind("static", "stat", context.static, {
        "a": "the same compiled object called with B's static value", "b": VALUE_B,
        "c": EDIT}),
    Kind("size", "size", context.size, {
        "a": "the same compiled object called at B's sizes", "b": VALUE_B, "c": EDIT}),
    Kind("main-c", "mainc", code.main_c, {"a": ONE_MAIN, "b": "python -c A, python -c B",
                                          "c": NO_FILE}),
    Kind("main-stdin", "mains", code.main_stdin, {"a": ONE_MAIN,
                                                  "b": "python - < A, python - < B",
                                                  "c": NO_FILE}),
    Kind("spec", "spec", code.spec, {
        "a": "the plugin's file rewritten and loaded again", "b": CHECKOUTS,
        "c": "the plugin's file edited"}),
    Kind("exec", "exec", code.exec_source, {
        "a": "B's source exec'd into the same namespace", "b": VALUE_B,
        "c": "the source string edited in the file"}),
]
BY_NAME = {k.name: k for k in KINDS}


def generate(kind: Kind, seed, index: int) -> Pair:
    """Pair number ``index`` of ``kind`` in the campaign of ``seed`` (the same every time)."""
    key = f"{seed}:{kind.name}:{index}"
    pair = kind.make(random.Random(key), f"{kind.short}{index}")
    return dataclasses.replace(pair, seed=key, modes=kind.modes)


def control(seed) -> Pair:
    """A pair whose mode (a) change does nothing: the harness must call its B result stale
    (the check that the comparison can fail)."""
    pair = generate(BY_NAME["global"], f"control:{seed}", 0)
    return dataclasses.replace(pair, kind="control", tag="ctl0", change="pass", undo="pass",
                               modes=("a",))
