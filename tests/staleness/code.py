"""The code kinds: pairs whose programs differ in code (the function's body, a literal in it,
a helper in another module, a class's method) and the loaders of code that has no stable
file (``python -c``, ``python -``, ``spec_from_file_location`` + ``exec_module`` without
``sys.modules``, ``exec`` into a namespace).

Variant B changes one op on a path from ``x`` (``grammar.mutate``) or one literal. Without an
``ext`` program, mode (b) runs A and B as two checkouts of one program (the same module names
at two paths); mode (c) edits the files in place.
"""

from __future__ import annotations

import random

from . import grammar
from .pair import Pair, Shape, choose_shape, main, output_form, value
from .values import EXT, EXT_VALUE


def bodies(rng: random.Random, shape: Shape, how: str = "") -> tuple:
    """(A's expression, B's expression, what differs): one op mutated (``how="op"``), or one
    literal (``"literal"``), or either."""
    how = how or rng.choice(["op", "literal"])
    if how == "literal":
        t = grammar.sensitive(grammar.tree(rng, 3, True, shape.matrix))
        a = value(rng)
        b = value(rng, a)
        return grammar.render(t, repr(a)), grammar.render(t, repr(b)), "a literal"
    t, tb = grammar.mutate(rng, grammar.tree(rng, 3, False, shape.matrix))
    return grammar.render(t), grammar.render(tb), "an op"


def _function(rng: random.Random, shape: Shape, name: str = "f_@T@") -> tuple:
    """The sources of the function under test in variants A and B, and what differs."""
    form = output_form(rng, shape)
    ea, eb, what = bodies(rng, shape)
    return (f"def {name}(x):\n    return {form.format(ea)}\n",
            f"def {name}(x):\n    return {form.format(eb)}\n", what)


def code(rng: random.Random, tag: str, kind: str = "code") -> Pair:
    """The function's body (``kind="constant"``: only a literal in it) differs."""
    shape = choose_shape(rng)
    form = output_form(rng, shape)
    ea, eb, what = bodies(rng, shape, "literal" if kind == "constant" else "op")
    src = {v: f"def f_@T@(x):\n    return {form.format(e)}\n" for v, e in (("A", ea),
                                                                          ("B", eb))}
    doc = f"staleness pair @T@: {kind}: {shape.entry}, {what} changed"
    lit = {v: {"sf_@T@.py": main(doc, f"{src[v]}\n\nF_@T@ = {shape.wrap('f_@T@')}\n", shape)}
           for v in "AB"}
    how = rng.choice(["reload", "__code__"])
    change, undo = (f"write(files[{v!r}])\nimportlib.reload(mod)" if how == "reload" else
                    f"ns = {{}}\nexec(compile({src[v]!r}, mod.__file__, 'exec'), mod.__dict__, "
                    "ns)\nmod.f_@T@.__code__ = ns['f_@T@'].__code__" for v in "BA")
    return Pair(kind, tag, "", lit, f"{shape.entry}, {what} changed; in process by {how}",
                change=change, undo=undo)


def constant(rng: random.Random, tag: str) -> Pair:
    return code(rng, tag, "constant")


# How the function reaches the helper: (module-level imports, the function's definition
# with {} its result, the call's source, whether the main module must be reloaded too).
HELPER_REACH = {
    "module": ("import sfh_@T@ as helper_@T@\n", "def f_@T@(x):\n    return {}\n",
               "helper_@T@.g(x)", False),
    "from": ("from sfh_@T@ import g as g_@T@\n", "def f_@T@(x):\n    return {}\n",
             "g_@T@(x)", True),
    "local import": ("", "def f_@T@(x):\n    import sfh_@T@ as helper\n    return {}\n",
                     "helper.g(x)", False),
    "local from-import": ("", "def f_@T@(x):\n    from sfh_@T@ import g\n    return {}\n",
                          "g(x)", False),
    "closure": ("import sfh_@T@ as helper_@T@\n",
                "def make_@T@(g):\n    def f_@T@(x):\n        return {}\n    return f_@T@\n"
                "\n\nf_@T@ = make_@T@(helper_@T@.g)\n", "g(x)", True),
}


def helper(rng: random.Random, tag: str) -> Pair:
    """A helper in another module of the program is edited (and, in a process, reloaded),
    reached as a global, imported inside the function, or through a closure."""
    shape = choose_shape(rng)
    reach = rng.choice(sorted(HELPER_REACH))
    imports, fn, call, main_too = HELPER_REACH[reach]
    t = grammar.sensitive(grammar.tree(rng, 2, True, shape.matrix))
    form = output_form(rng, shape)
    text = main(f"staleness pair @T@: helper: {shape.entry}, {call} ({reach})",
                f"{fn.format(form.format(grammar.render(t, call)))}\n\n"
                f"F_@T@ = {shape.wrap('f_@T@')}\n", shape, imports)
    ga, gb, what = bodies(rng, shape)
    helper_text = ('"""A helper of pair @T@."""\nimport symgrad as sg\n\n\n'
                   'def g(x):\n    return {}\n')
    lit = {v: {"sf_@T@.py": text, "sfh_@T@.py": helper_text.format(g)}
           for v, g in (("A", ga), ("B", gb))}
    change = 'write(files["B"])\nimportlib.reload(sys.modules["sfh_@T@"])'
    if main_too:     # (the main module holds the old function: reloaded too)
        change += "\nimportlib.reload(mod)"
    return Pair("helper", tag, "", lit, f"{shape.entry}, {call} ({reach}), {what} "
                f"changed in the helper", change=change, undo=change.replace('"B"', '"A"'))


METHODS = {"method": ("", "self, x"), "staticmethod": ("    @staticmethod\n", "x"),
           "classmethod": ("    @classmethod\n", "cls, x")}


def method(rng: random.Random, tag: str) -> Pair:
    """A method of the program's class is changed (in a process: the class attribute is
    set to B's function)."""
    shape = choose_shape(rng)
    flavour = rng.choice(sorted(METHODS))
    deco, sig = METHODS[flavour]
    form = output_form(rng, shape)
    ea, eb, what = bodies(rng, shape)
    bound = rng.random() < 0.5      # the entry wraps obj.apply (else f calls it)
    tail = (f"F_@T@ = {shape.wrap('obj_@T@.apply')}\n" if bound else
            f"def f_@T@(x):\n    return obj_@T@.apply(x)\n\n\nF_@T@ = {shape.wrap('f_@T@')}\n")

    def text(e: str) -> str:
        return main(f"staleness pair @T@: method: {shape.entry}, {flavour}",
                    f"class M_@T@:\n{deco}    def apply({sig}):\n"
                    f"        return {form.format(e)}\n\n\nobj_@T@ = M_@T@()\n\n\n{tail}", shape)
    wrapper = flavour if deco else ""

    def switch(e: str) -> str:
        src = f"def apply({sig}):\n    return {form.format(e)}\n"
        step = (f"ns = {{}}\nexec(compile({src!r}, mod.__file__, 'exec'), mod.__dict__, ns)\n"
                f"mod.M_@T@.apply = {wrapper}(ns['apply'])")
        if bound:   # (the compiled object holds the old bound method: made again, as B's is)
            step += "\nmod.F_@T@ = " + shape.wrap("mod.obj_@T@.apply")
        return step
    return Pair("method", tag, "", {"A": {"sf_@T@.py": text(ea)}, "B": {"sf_@T@.py": text(eb)}},
                f"{shape.entry}, {flavour} {'wrapped bound' if bound else 'called'}, {what} "
                f"changed", change=switch(eb), undo=switch(ea))


def main_program(rng: random.Random, tag: str, loader: str) -> Pair:
    """A ``__main__`` program without a file (``python -c`` or ``python -``): only mode
    (b), many pairs' programs concatenated into one program per process."""
    shape = choose_shape(rng)
    src = _function(rng, shape)
    lit = {v: {"sf_@T@.py": main(f"staleness pair @T@: main {loader}: {shape.entry}",
                                 f"{s}\n\nF_@T@ = {shape.wrap('f_@T@')}\n", shape)}
           for v, s in zip("AB", src)}
    kind = "main-c" if loader == "c" else "main-stdin"
    return Pair(kind, tag, "", lit, f"{shape.entry}, {src[2]} changed", modes=("b",),
                loader=loader)


def main_c(rng: random.Random, tag: str) -> Pair:
    return main_program(rng, tag, "c")


def main_stdin(rng: random.Random, tag: str) -> Pair:
    return main_program(rng, tag, "stdin")


LOAD = '''import importlib.util
import os

_HERE_@T@ = os.path.dirname(os.path.abspath(__file__))


def load_@T@():
    spec = importlib.util.spec_from_file_location({name!r}, os.path.join(_HERE_@T@, "sfp_@T@.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)     # (not in sys.modules: a plugin loader's way)
    return module


PLUGIN_@T@ = load_@T@()
'''


def spec(rng: random.Random, tag: str) -> Pair:
    """A plugin loaded by ``spec_from_file_location`` + ``exec_module``, not in
    ``sys.modules``, under a name every such pair shares (or its own)."""
    shape = choose_shape(rng)
    shared = rng.random() < 0.6
    name = "plugin" if shared else "sfp_@T@"
    src = _function(rng, shape, "f")
    plugin = '"""A plugin of pair @T@."""\nimport numpy as np\nimport symgrad as sg\n\n\n{}' \
             f"\n\nF = {shape.wrap('f')}\n"
    text = main(f"staleness pair @T@: spec: {shape.entry}, module name {name}",
                LOAD.format(name=name), shape, run="    return PLUGIN_@T@.F(X_@T@)\n")
    lit = {v: {"sf_@T@.py": text, "sfp_@T@.py": plugin.format(s)} for v, s in zip("AB", src)}
    return Pair("spec", tag, "", lit, f"{shape.entry}, plugin module {name!r}, {src[2]} "
                f"changed", change='write(files["B"])\nmod.PLUGIN_@T@ = mod.load_@T@()',
                undo='write(files["A"])\nmod.PLUGIN_@T@ = mod.load_@T@()')


EXEC_NAMESPACES = ('{}', '{"__name__": "sfx"}', "globals()")


def exec_source(rng: random.Random, tag: str) -> Pair:
    """Source exec'd into a namespace (an empty dict, one named like every such pair's, or the
    module's globals); in a process, B's source is exec'd into the same namespace."""
    shape = choose_shape(rng)
    ns = rng.choice(EXEC_NAMESPACES)
    fa, fb, what = _function(rng, shape, "f")
    head = "import numpy as np\nimport symgrad as sg\n\n\n"
    srcs = {v: f"{head}{s}\n\nF = {shape.wrap('f')}\n" for v, s in (("A", fa), ("B", fb))}
    doc = f"staleness pair @T@: exec: {shape.entry}, into {ns}"
    run = '    return NS_@T@["F"](X_@T@)\n'

    def text(src: str, extra: str = "") -> str:
        return main(doc, f"SRC_@T@ = {src}\nNS_@T@ = {ns}\nexec(SRC_@T@, NS_@T@)\n", shape,
                    extra, run)
    lit = {v: {"sf_@T@.py": text(repr(srcs[v]))} for v in "AB"}
    return Pair("exec", tag, "", lit, f"{shape.entry}, exec into {ns}, {what} changed",
                ext={"sf_@T@.py": text(EXT_VALUE, EXT)},
                values={v: {"v": srcs[v]} for v in "AB"},
                change=f"exec({srcs['B']!r}, mod.NS_@T@)",
                undo=f"exec({srcs['A']!r}, mod.NS_@T@)")
