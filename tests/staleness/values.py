"""The value kinds: pairs whose programs differ in the value of one thing the compiled
function reads (a default, a closure cell, a global, an array's contents, a partial's
argument, a module attribute, parameters after an optimizer step, the default dtype, a static
argument).

Each generator takes a seeded ``random.Random`` and the pair's tag and returns a ``Pair``
(``pair.py``): the program as written with each value (``lit``), the program taking the
value from the runner's table (``ext``, mode (b)), and the in-process change (mode (a)).
"""

from __future__ import annotations

import random

from .pair import ENTRIES, TRANSFORMS, Pair, Shape, choose_shape, expression, main, output, value

# The program reads its value from the runner's table (mode (b): one program, two values).
EXT = 'import sfvalues\n_V_@T@ = sfvalues.V["@T@"]\n'
EXT_VALUE = '_V_@T@["v"]'


def value_pair(kind: str, tag: str, shape: Shape, body, a, b, change: str, summary: str,
               imports: str = "", run: str = "", undo: bool = True) -> Pair:
    """A pair whose main module is ``body(source of the value)``; ``change`` (with ``{b}``
    for the new value) goes from A to B in a running process (and back, with ``undo``)."""
    doc = f"staleness pair @T@: {kind}: {summary}"

    def text(src: str, extra: str = "") -> str:
        return main(doc, body(src), shape, imports + extra, run)
    lit = {"A": {"sf_@T@.py": text(repr(a))}, "B": {"sf_@T@.py": text(repr(b))}}
    return Pair(kind, tag, "", lit, summary, ext={"sf_@T@.py": text(EXT_VALUE, EXT)},
                values={"A": {"v": a}, "B": {"v": b}}, change=change.replace("{b}", repr(b)),
                undo=change.replace("{b}", repr(a)) if undo else None)


def default(rng: random.Random, tag: str) -> Pair:
    shape = choose_shape(rng)
    a = value(rng)
    b = value(rng, a)
    kwonly = rng.random() < 0.4
    out = output(rng, shape, expression(rng, shape, "d"))
    sig = "x, *, d=" if kwonly else "x, d="

    def body(src: str) -> str:
        return f"def f_@T@({sig}{src}):\n    return {out}\n\n\nF_@T@ = {shape.wrap('f_@T@')}\n"
    change = ("mod.f_@T@.__kwdefaults__ = {'d': {b}}" if kwonly
              else "mod.f_@T@.__defaults__ = ({b},)")
    return value_pair("default", tag, shape, body, a, b, change,
                      f"{shape.entry}, {'keyword-only ' if kwonly else ''}default d")


def closure(rng: random.Random, tag: str) -> Pair:
    shape = choose_shape(rng)
    a = value(rng)
    b = value(rng, a)
    out = output(rng, shape, expression(rng, shape, "d"))

    def body(src: str) -> str:
        return (f"def make_@T@(d):\n    def f_@T@(x):\n        return {out}\n\n"
                f"    def set_@T@(v):\n        nonlocal d\n        d = v\n"
                f"    return f_@T@, set_@T@\n\n\nf_@T@, set_@T@ = make_@T@({src})\n"
                f"F_@T@ = {shape.wrap('f_@T@')}\n")
    how = rng.choice(["nonlocal", "cell"])
    change = ("mod.set_@T@({b})" if how == "nonlocal"
              else "mod.f_@T@.__closure__[0].cell_contents = {b}")
    return value_pair("closure", tag, shape, body, a, b, change,
                      f"{shape.entry}, closure cell changed by {how}")


# How a global holds the value: (binding, use, in-process change), {v} the value's source.
GLOBALS = {
    "float": ("D_@T@ = {v}", "D_@T@", "mod.D_@T@ = {b}"),
    "list": ("L_@T@ = [{v}, 0.5]", "L_@T@[0]", "mod.L_@T@[0] = {b}"),
    "dict": ('C_@T@ = {{"alpha": {v}}}', 'C_@T@["alpha"]', 'mod.C_@T@["alpha"] = {b}'),
    "tuple": ("P_@T@ = ({v}, 2)", "P_@T@[0]", "mod.P_@T@ = ({b}, 2)"),
    "namespace": ("import types\nNS_@T@ = types.SimpleNamespace(alpha={v})", "NS_@T@.alpha",
                  "mod.NS_@T@.alpha = {b}"),
    "object": ("class Cfg_@T@:\n    def __init__(self, alpha):\n        self.alpha = alpha\n\n\n"
               "cfg_@T@ = Cfg_@T@({v})", "cfg_@T@.alpha", "mod.cfg_@T@.alpha = {b}"),
    "bool": ("FLAG_@T@ = {v}", "(1.5 if FLAG_@T@ else 0.5)", "mod.FLAG_@T@ = {b}"),
    "int": ("K_@T@ = {v}", "(sum(range(K_@T@)) * 0.25 + 0.5)", "mod.K_@T@ = {b}"),
    "str": ("OP_@T@ = {v}", "getattr(sg, OP_@T@)(x)", "mod.OP_@T@ = {b}"),
}


def _global_values(rng: random.Random, holder: str) -> tuple:
    if holder == "bool":
        a = rng.random() < 0.5
        return a, not a
    if holder == "int":
        return tuple(rng.sample(range(1, 6), 2))
    if holder == "str":
        return tuple(rng.sample(["sin", "cos", "tanh", "exp"], 2))
    a = value(rng)
    return a, value(rng, a)


def global_scalar(rng: random.Random, tag: str, kind: str = "global",
                  entries: tuple = tuple(ENTRIES)) -> Pair:
    shape = choose_shape(rng, entries)
    holder = rng.choice(sorted(GLOBALS))
    a, b = _global_values(rng, holder)
    binding, use, change = GLOBALS[holder]
    out = output(rng, shape, expression(rng, shape, use))

    def body(src: str) -> str:
        return (binding.format(v=src) + f"\n\n\ndef f_@T@(x):\n    return {out}\n\n\n"
                f"F_@T@ = {shape.wrap('f_@T@')}\n")
    return value_pair(kind, tag, shape, body, a, b, change, f"{shape.entry}, global {holder}")


def _arrays(rng: random.Random, n: int) -> tuple:
    a = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(n)]
    b = list(a)
    for k in rng.sample(range(n), rng.randint(1, n)):      # one element, or more
        while abs(b[k] - a[k]) < 0.2:
            b[k] = round(rng.uniform(-1.0, 1.0), 3)
    return a, b


# Where the program keeps the array: (its binding, with {} the array's source; how the
# function reads it; how the change reaches it; how the change rebinds it, {} the new one).
HOLDERS = {
    "global": ("W_@T@ = {}", "W_@T@", "mod.W_@T@", "mod.W_@T@ = {}"),
    "dict": ('PARAMS_@T@ = {{"w": {}}}', 'PARAMS_@T@["w"]', 'mod.PARAMS_@T@["w"]',
             'mod.PARAMS_@T@["w"] = {}'),
    "object": ("class Holder_@T@:\n    pass\n\n\nH_@T@ = Holder_@T@()\nH_@T@.w = {}",
               "H_@T@.w", "mod.H_@T@.w", "mod.H_@T@.w = {}"),
    "closure": (None, "w", "mod.get_@T@()", "mod.set_@T@({})"),
    "default": (None, "w", "mod.f_@T@.__defaults__[0]", "mod.f_@T@.__defaults__ = ({},)"),
}
CLOSURE = ("def make_@T@(w):\n{}\n    def set_@T@(v):\n        nonlocal w\n        w = v\n\n"
           "    def get_@T@():\n        return w\n    return f_@T@, set_@T@, get_@T@\n\n\n"
           "f_@T@, set_@T@, get_@T@ = make_@T@({})\n")
ARRAY = "np.array({})"
TENSOR = "sg.tensor({}, dtype=sg.float64)"


def _array_program(holder: str, make: str, lines: str, shape: Shape):
    """The main module's body as a function of the array's values' source: the array kept
    in ``holder``, made by ``make``; ``lines``, the function's body (indented once)."""
    def body(src: str) -> str:
        fn = f"def f_@T@(x):\n{lines}"
        wrap = f"F_@T@ = {shape.wrap('f_@T@')}\n"
        if holder == "closure":
            nested = "\n".join("    " + line if line else line for line in fn.splitlines())
            return CLOSURE.format(nested, make.format(src)) + wrap
        if holder == "default":
            return fn.replace("(x):", f"(x, w={make.format(src)}):", 1) + "\n\n" + wrap
        return f"{HOLDERS[holder][0].format(make.format(src))}\n\n\n{fn}\n\n{wrap}"
    return body


def _array_change(rng: random.Random, holder: str, make: str, a: list, b: list) -> tuple:
    """(how, the source of the in-process change from ``a`` to ``b``)."""
    target, rebind = HOLDERS[holder][2:]
    hows = ["in place", "rebound"] + ([] if make == TENSOR else ["one item"])
    how = rng.choice(hows)
    if how == "rebound":
        return how, rebind.format(make.format("{b}"))
    if make == TENSOR:
        return how, f"with sg.no_grad():\n    {target}.copy_({TENSOR.format('{b}')})"
    if how == "in place":
        return how, f"{target}[:] = {{b}}"
    return how, "\n".join(f"{target}[{k}] = {{b}}[{k}]" for k in range(len(a)) if a[k] != b[k])


def array_op(rng: random.Random, tag: str, kind: str = "array-op",
             entries: tuple = tuple(ENTRIES)) -> Pair:
    """An array (or tensor) from a global, a dict, an object, a closure or a default, used
    through symgrad's operators only."""
    shape = choose_shape(rng, entries)
    a, b = _arrays(rng, shape.n)
    make = TENSOR if rng.random() < 0.3 else ARRAY
    holder = rng.choice(sorted(HOLDERS))
    read = HOLDERS[holder][1]
    out = output(rng, shape, expression(rng, shape, read, through=True))
    how, change = _array_change(rng, holder, make, a, b)
    return value_pair(kind, tag, shape,
                      _array_program(holder, make, f"    return {out}\n", shape), a, b,
                      change, f"{shape.entry}, {'tensor' if make == TENSOR else 'array'} in "
                      f"a {holder}, changed {how}")


def transform_global(rng: random.Random, tag: str) -> Pair:
    """``global_scalar`` under a transform (jacrev, jacfwd, hessian, jvp, vjp, hvp)."""
    return global_scalar(rng, tag, "transform-global", tuple(TRANSFORMS))


def transform_array(rng: random.Random, tag: str) -> Pair:
    """``array_op`` under a transform (jacrev, jacfwd, hessian, jvp, vjp, hvp)."""
    return array_op(rng, tag, "transform-array", tuple(TRANSFORMS))


# NumPy code on the captured array (``W``), run while tracing: its result is a Python float
# or a private array, baked into the code.
NUMPY_READS = ("float(np.sum(W))", "float(np.tanh(W).mean())", "float(np.abs(W).sum())",
               "float(W @ W)", "np.cos(W)", "float(np.linalg.norm(W))")


def array_numpy(rng: random.Random, tag: str, both: bool = False) -> Pair:
    """An array from a global, a dict, an object, a closure or a default, read by NumPy code
    inside the function (``both``: also used through a symgrad op: ``array_mixed``)."""
    shape = choose_shape(rng)
    a, b = _arrays(rng, shape.n)
    holder = rng.choice(sorted(HOLDERS))
    w = HOLDERS[holder][1]
    read = rng.choice(NUMPY_READS)
    expr = expression(rng, shape, "d", through=read == "np.cos(W)")
    if both:
        expr = f"{expr} + 0.5 * (x * {w})"
    lines = f"    d = {read.replace('W', w)}\n    return {output(rng, shape, expr)}\n"
    how, change = _array_change(rng, holder, ARRAY, a, b)
    return value_pair("array-mixed" if both else "array-numpy", tag, shape,
                      _array_program(holder, ARRAY, lines, shape), a, b, change,
                      f"{shape.entry}, {read} of an array in a {holder}"
                      f"{' and x * W' if both else ''}, changed {how}")


def array_mixed(rng: random.Random, tag: str) -> Pair:
    """An array read both by NumPy code and through a symgrad op inside the function."""
    return array_numpy(rng, tag, both=True)


def partial(rng: random.Random, tag: str) -> Pair:
    shape = choose_shape(rng)
    a = value(rng)
    b = value(rng, a)
    out = output(rng, shape, expression(rng, shape, "d"))
    keyword = rng.random() < 0.5
    wrapped = rng.random() < 0.5        # the entry wraps the partial itself
    sig, bind = ("x, d", "d={}") if keyword else ("d, x", "{}")
    call = "F_@T@ = " + shape.wrap("P_@T@") if wrapped else (
        "def f_@T@(x):\n    return P_@T@(x)\n\n\nF_@T@ = " + shape.wrap("f_@T@"))

    def body(src: str) -> str:
        return (f"def h_@T@({sig}):\n    return {out}\n\n\n"
                f"P_@T@ = functools.partial(h_@T@, {bind.format(src)})\n\n\n{call}\n")
    change = f"mod.P_@T@ = functools.partial(mod.h_@T@, {bind.format('{b}')})"
    if wrapped:     # (the compiled object holds the old partial: made again, as B's is)
        change += "\nmod.F_@T@ = " + shape.wrap("mod.P_@T@")
    return value_pair("partial", tag, shape, body, a, b, change,
                      f"{shape.entry}, partial({'keyword' if keyword else 'positional'}) "
                      f"{'wrapped' if wrapped else 'called'}", imports="import functools\n")


# How the function reaches the config module: (the function's definition, {} its result;
# the attribute's source in it).
REACH = {
    "global": ("def f_@T@(x):\n    return {}\n", "cfgmodule.ALPHA"),
    "closure": ("def make_@T@(m):\n    def f_@T@(x):\n        return {}\n    return f_@T@"
                "\n\n\nf_@T@ = make_@T@(cfgmodule)\n", "m.ALPHA"),
    "default": ("def f_@T@(x, cfg=cfgmodule):\n    return {}\n", "cfg.ALPHA"),
    "local import": ("def f_@T@(x):\n    import sfcfg_@T@ as mine\n    return {}\n",
                     "mine.ALPHA"),
    "from-import inside": ("def f_@T@(x):\n    from sfcfg_@T@ import ALPHA\n    return {}\n",
                           "ALPHA"),
}


def module_attr(rng: random.Random, tag: str) -> Pair:
    """``cfgmodule.ALPHA``, an attribute of another module of the program, reached as a
    global, through a closure or a default, or imported inside the function."""
    shape = choose_shape(rng)
    a = value(rng)
    b = value(rng, a)
    reach = rng.choice(sorted(REACH))
    fn, use = REACH[reach]
    out = output(rng, shape, expression(rng, shape, use))
    text = main(f"staleness pair @T@: module-attr: {shape.entry}, reached by {reach}",
                f"{fn.format(out)}\n\nF_@T@ = {shape.wrap('f_@T@')}\n", shape,
                "import sfcfg_@T@ as cfgmodule\n")
    cfg = '"""The configuration of pair @T@."""\nBETA = 3\nALPHA = {}\n'
    lit = {v: {"sf_@T@.py": text, "sfcfg_@T@.py": cfg.format(repr(x))}
           for v, x in (("A", a), ("B", b))}
    ext = {"sf_@T@.py": text, "sfcfg_@T@.py": cfg.format(EXT_VALUE).replace(
        "BETA", EXT + "BETA")}
    return Pair("module-attr", tag, "", lit, f"{shape.entry}, cfgmodule.ALPHA reached by "
                f"{reach}", ext, values={"A": {"v": a}, "B": {"v": b}},
                change=f'sys.modules["sfcfg_@T@"].ALPHA = {b!r}',
                undo=f'sys.modules["sfcfg_@T@"].ALPHA = {a!r}')
