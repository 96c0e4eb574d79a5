"""A staleness pair: two programs that differ in exactly one dependency, and how each mode
runs them.

A ``Pair`` holds source text with the placeholder ``@T@``, replaced by an instance tag
(``k3p7b``: the pair's tag and the mode's letter) so that one process can hold many pairs and
several instances of one pair without any name in common: modules ``sf_@T@`` (the main one,
whose ``run_@T@()`` calls the compiled function on fixed inputs), ``sfh_@T@`` (a helper),
``sfcfg_@T@`` (a config module), ``sfp_@T@`` (a plugin), data files ``data_@T@.txt``,
environment variables ``SF_ENV_@T@``.

The variants: ``lit[v]`` is the program as written for variant ``v`` ("A" or "B"): the
reference runs and modes (a) and (c) use it. ``ext`` (value kinds) is one program for both
variants that takes the dependency's value from the runner's table (``import sfvalues``):
mode (b) runs it unchanged at one path in two processes, with ``values[v]``. Code kinds have
no ``ext``: mode (b) runs ``lit["A"]`` and ``lit["B"]`` as two checkouts of one program (the
same module names at two paths). ``env[v]`` and ``data[v]`` are the environment variables and
data files of each variant; ``change`` is mode (a)'s in-process step from A to B and
``undo`` the step back (source run by the runner, see ``runner.py``).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import random

from . import grammar

VARIANTS = ("A", "B")
MODES = ("a", "b", "c")
MODE_NAMES = {"a": "one process", "b": "two processes", "c": "edited on disk"}
# Entry points wrapping the function under test, as source (``{}``: the function).
ENTRIES = {"compile": "sg.compile({})", "grad": "sg.grad({})",
           "value_and_grad": "sg.value_and_grad({})", "vmap": "sg.vmap({})"}
# The transforms at a point and of a function (the transform-* kinds): each keeps compiled
# programs per function (api.derivatives), which must follow the dependencies too; vjp's
# pullback is called with ones shaped like the output.
TRANSFORMS = {
    "jacrev": "sg.jacrev({})", "jacfwd": "sg.jacfwd({})", "hessian": "sg.hessian({})",
    "jvp": "(lambda f: lambda x: sg.jvp(f, (x,), (np.ones_like(x),)))({})",
    "vjp": "(lambda f: lambda x: (lambda o: (o[0], o[1](np.ones(np.shape(o[0])))))"
           "(sg.vjp(f, x)))({})",
    "hvp": "(lambda f: lambda x: sg.hvp(f, (x,), (np.ones_like(x),)))({})"}
SCALAR = ("grad", "value_and_grad", "hessian", "hvp")   # entries of a scalar function
HEADER = "import numpy as np\nimport symgrad as sg\n"


@dataclasses.dataclass
class Pair:
    kind: str
    tag: str                     # unique in a campaign: module names derive from it
    seed: str                    # the generator's seed string (regenerates this pair)
    lit: dict                    # variant -> {relative path: text}
    summary: str = ""            # one line: the entry point and how the dependency is used
    ext: dict | None = None      # {relative path: text} for mode (b) of value kinds
    values: dict = dataclasses.field(default_factory=lambda: {"A": {}, "B": {}})
    env: dict = dataclasses.field(default_factory=lambda: {"A": {}, "B": {}})
    data: dict = dataclasses.field(default_factory=lambda: {"A": {}, "B": {}})
    change: str = ""             # mode (a): from A to B in the running process
    undo: str | None = None      # mode (a): from B back to A (None: no way back)
    modes: tuple = MODES
    loader: str = "module"       # "module", or "c" / "stdin": a __main__ program, no file

    def instance(self, mode: str) -> str:
        return f"{self.tag}{mode}"

    def describe(self, mode: str) -> str:
        """The pair as a reader needs it to reproduce a failure: A's program, the diff to B,
        the environment, data and in-process change."""
        inst = self.instance(mode)
        out = [f"--- pair {self.tag}: kind {self.kind}, mode ({mode}) {MODE_NAMES[mode]}, "
               f"seed {self.seed!r}: {sub(self.summary, inst)}"]
        files_b = self.ext if mode == "b" and self.ext is not None else self.lit["B"]
        files_a = self.ext if mode == "b" and self.ext is not None else self.lit["A"]
        for path, text in sorted(files_a.items()):
            out.append(f"# {sub(path, inst)} (variant A):\n{sub(text, inst)}")
        for path in sorted(set(files_a) | set(files_b)):
            diff = difflib.unified_diff(sub(files_a.get(path, ""), inst).splitlines(),
                                        sub(files_b.get(path, ""), inst).splitlines(),
                                        f"A/{sub(path, inst)}", f"B/{sub(path, inst)}",
                                        lineterm="")
            out.extend(diff)
        for what in ("values", "env", "data"):
            table = getattr(self, what)
            if table["A"] or table["B"]:
                out.append(f"# {what}: A {json.dumps(sub_tree(table['A'], inst))}  "
                           f"B {json.dumps(sub_tree(table['B'], inst))}")
        if mode == "a":
            out.append("# the in-process change from A to B (mod: the main module):\n"
                       + sub(self.change, inst))
            if self.undo is not None:
                out.append("# and back to A:\n" + sub(self.undo, inst))
        return "\n".join(out)


def sub(text: str, inst: str) -> str:
    return text.replace("@T@", inst)


def sub_tree(obj, inst: str):
    """``obj`` (JSON-like) with every ``@T@`` in its strings and keys replaced."""
    if isinstance(obj, str):
        return sub(obj, inst)
    if isinstance(obj, dict):
        return {sub_tree(k, inst): sub_tree(v, inst) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [sub_tree(v, inst) for v in obj]
    return obj


# ------------------------------------------------------------------ program pieces
@dataclasses.dataclass
class Shape:
    """The entry point and the argument: ``x`` of ``shape`` (``per``: one example's shape,
    what the function sees), its values as a literal."""
    entry: str
    shape: tuple
    per: tuple
    values: list
    dtype: str = "float64"

    @property
    def matrix(self) -> bool:
        return len(self.per) == 2

    @property
    def n(self) -> int:
        return self.per[-1]

    def x_source(self) -> str:
        return f"np.array({self.values!r}, dtype=np.{self.dtype}).reshape({self.shape!r})"

    def wrap(self, fn: str) -> str:
        return {**ENTRIES, **TRANSFORMS}[self.entry].format(fn)


def choose_shape(rng: random.Random, entries=tuple(ENTRIES)) -> Shape:
    entry = rng.choice(entries)
    n = rng.randint(2, 5)
    if entry == "vmap":
        per, shape = (n,), (rng.randint(2, 3), n)
    elif rng.random() < 0.2:
        per = shape = (rng.randint(2, 3), n)
    else:
        per = shape = (n,)
    size = 1
    for d in shape:
        size *= d
    values = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(size)]
    return Shape(entry, shape, per, values)


def output_form(rng: random.Random, shape: Shape) -> str:
    """The function's result as a template of its expression (``{}``): a scalar for the
    gradient entries, else the expression or a reduction of it."""
    if shape.entry in SCALAR:
        return "({})." + rng.choice(("sum", "mean")) + "()"
    return rng.choice(["{}", "({}).sum()"])


def output(rng: random.Random, shape: Shape, expr: str) -> str:
    return output_form(rng, shape).format(expr)


def expression(rng: random.Random, shape: Shape, dep: str, depth: int = 3,
               through: bool = False) -> str:
    """A random expression of ``x`` that uses the dependency ``dep`` (source) and changes
    with it; ``through``: every use of the dependency meets ``x`` first (an array)."""
    t = grammar.sensitive(grammar.tree(rng, depth, True, shape.matrix))
    if through:
        t = grammar.through_x(t, rng)
    return grammar.render(t, dep)


def value(rng: random.Random, other: float | None = None) -> float:
    """A dependency's value, in [0.5, 2], not ``other``."""
    while True:
        v = round(rng.uniform(0.5, 2.0), 3)
        if other is None or abs(v - other) > 0.05:
            return v


def main(doc: str, body: str, shape: Shape, imports: str = "", run: str = "") -> str:
    """The text of a main module: header, imports, the kind's ``body`` (defining ``F_@T@``),
    the argument ``X_@T@`` and ``run_@T@()``."""
    run = run or "    return F_@T@(X_@T@)\n"
    return (f'"""{doc}"""\n{HEADER}{imports}\n{body}\nX_@T@ = {shape.x_source()}\n\n\n'
            f"def run_@T@():\n{run}")
