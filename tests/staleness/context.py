"""The context kinds: pairs whose programs differ in the state around the compiled function
(a module's parameters after an optimizer step, the default dtype, a static argument, the
argument's size as a hashed or formatted number) or in what it reads from the outside world
while traced (an environment variable, a file).

Generators as in ``values.py``.
"""

from __future__ import annotations

import random

from . import grammar
from .pair import Pair, Shape, choose_shape, expression, main, output, value
from .values import value_pair


def param(rng: random.Random, tag: str) -> Pair:
    """``sg.compile(model)`` (or a function of it), called under ``no_grad`` on NumPy input,
    after 0-3 steps of ``optim.SGD``."""
    n_in, n_out, batch = rng.randint(2, 4), rng.randint(1, 3), rng.randint(2, 4)
    a = rng.randint(0, 1)
    b = a + rng.randint(1, 2)
    layers = rng.choice([f"sg.nn.Linear({n_in}, {n_out})",
                         f"sg.nn.Sequential(sg.nn.Linear({n_in}, 3), sg.nn.Tanh(), "
                         f"sg.nn.Linear(3, {n_out}))"])
    data = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(batch * n_in)]
    rng_seed, lr = rng.randint(0, 10 ** 6), round(rng.uniform(0.05, 0.3), 3)
    whole = rng.random() < 0.5
    if whole:
        fn = "F_@T@ = sg.compile(model_@T@)\n"
    else:
        expr = grammar.render(grammar.tree(rng, 2, False, True), x="h") + " + 0.5 * h"
        fn = (f"def f_@T@(x):\n    h = model_@T@(x)\n    return {expr}\n\n\n"
              "F_@T@ = sg.compile(f_@T@)\n")

    def body(src: str) -> str:
        return (f"sg.manual_seed({rng_seed})\nmodel_@T@ = {layers}\n"
                f"opt_@T@ = sg.optim.SGD(model_@T@.parameters(), lr={lr})\n"
                f"DATA_@T@ = np.array({data!r}, dtype=np.float32).reshape({batch}, {n_in})\n"
                "\n\ndef step_@T@(k):\n    for _ in range(k):\n"
                "        loss = ((model_@T@(sg.tensor(DATA_@T@)) - 0.5) ** 2).mean()\n"
                "        opt_@T@.zero_grad()\n        loss.backward()\n        opt_@T@.step()\n"
                f"\n\nstep_@T@({src})\n\n\n{fn}")
    values = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(batch * n_in)]
    shape = Shape("compile", (batch, n_in), (batch, n_in), values, "float32")
    run = "    with sg.no_grad():\n        return F_@T@(X_@T@)\n"
    return value_pair("param", tag, shape, body, a, b, f"mod.step_@T@({b - a})",
                      f"{'sg.compile(model)' if whole else 'f(model(x))'}, SGD steps",
                      run=run, undo=False)     # (a step cannot be taken back)


# A number that is 1.0 in float32 and 2.0 in float64 (2**24 + 1 rounds to 2**24 in float32).
AMPLIFIERS = ("(sg.full((), 16777216.0) + 1.0) - 16777215.0",
              "sg.ones(()) * 16777217.0 - 16777215.0", "sg.tensor(16777217.0) - 16777215.0")


def dtype(rng: random.Random, tag: str) -> Pair:
    shape = choose_shape(rng)
    a, b = rng.sample(["float32", "float64"], 2)
    out = output(rng, shape, expression(rng, shape, "d"))
    amplifier = rng.choice(AMPLIFIERS)

    def body(src: str) -> str:
        return (f"sg.set_default_dtype(getattr(sg, {src}))\n\n\ndef f_@T@(x):\n"
                f"    d = {amplifier}\n    return {out}\n\n\nF_@T@ = {shape.wrap('f_@T@')}\n")
    return value_pair("dtype", tag, shape, body, a, b, "sg.set_default_dtype(getattr(sg, {b}))",
                      f"{shape.entry}, set_default_dtype({a} -> {b})")


# How the function uses its static argument n: (values of n, lines before the result, the
# dependency's source).
STATIC_USES = {
    "number": ([1, 2, 3, 4, 0.5, 1.5], "", "n"),
    "loop": ([1, 2, 3], "    s = x\n    for _ in range(n):\n        s = sg.tanh(s) * 1.5\n",
             "s"),
    "op": (["sin", "cos", "tanh", "exp"], "", "getattr(sg, n)(x)"),
}


def static(rng: random.Random, tag: str) -> Pair:
    shape = choose_shape(rng, ("compile", "grad", "value_and_grad"))
    use = rng.choice(sorted(STATIC_USES))
    choices, pre, dep = STATIC_USES[use]
    a, b = rng.sample(choices, 2)
    out = output(rng, shape, expression(rng, shape, dep))
    option = rng.choice(["static_argnums=1", 'static_argnames="n"'])
    inner = f"sg.compile(f_@T@, {option})"
    wrapped = inner if shape.entry == "compile" else f"sg.{shape.entry}({inner})"
    keyword = rng.random() < 0.5
    run = f"    return F_@T@(X_@T@, {'n=' if keyword else ''}N_@T@)\n"

    def body(src: str) -> str:
        return (f"def f_@T@(x, n):\n{pre}    return {out}\n\n\nF_@T@ = {wrapped}\n"
                f"N_@T@ = {src}\n")
    return value_pair("static", tag, shape, body, a, b, "mod.N_@T@ = {b}",
                      f"{shape.entry}, static n ({use}) by {option}, passed "
                      f"{'by keyword' if keyword else 'by position'}", run=run)


def _size_use(rng: random.Random, sizes: list) -> str:
    """A number computed from ``x.shape[0]`` by hashing or formatting it. (Not ``"%d" % n``:
    Python formats an int subclass there without calling any of its methods, and what the
    two traced sizes cannot tell apart is a documented gap: README, Shape-generic code.)"""
    table = {n: round(rng.uniform(0.5, 2.0), 2) for n in rng.sample(sizes, len(sizes) - 1)}
    return rng.choice([f"{table!r}.get(x.shape[0], 0.75)",
                       'len(f"{x.shape[0]}")', "len(str(x.shape[0])) * 0.5",
                       "float(hash(x.shape[0]) % 7 + 1)", 'float(f"{x.shape[0]}.5") / 4',
                       '{True: 1.5, False: 0.5}[x.shape[0] in {3, 5}]'])


def size(rng: random.Random, tag: str) -> Pair:
    """A size used in a hash or a format, with the default automatic shape-generic mode: A
    calls two sizes (the second makes the size dynamic), B others."""
    entry = rng.choice(["compile", "grad", "value_and_grad"])
    shape = Shape(entry, (4,), (4,), [0.5, -0.25, 0.75, 0.1])
    sizes = rng.sample(range(3, 13), 4)
    a, b = sizes[:2], sizes[2:2 + rng.randint(1, 2)]
    use = _size_use(rng, sizes)
    out = output(rng, shape, expression(rng, shape, "d"))
    run = "    return [F_@T@(np.linspace(-0.9, 0.7, n)) for n in SIZES_@T@]\n"

    def body(src: str) -> str:
        return (f"SIZES_@T@ = {src}\n\n\ndef f_@T@(x):\n    d = {use}\n    return {out}\n"
                f"\n\nF_@T@ = {shape.wrap('f_@T@')}\n")
    return value_pair("size", tag, shape, body, a, b, "mod.SIZES_@T@ = {b}",
                      f"{entry}, d = {use}, sizes {a} then {b}", run=run)


# ------------------------------------------------------------------ the outside world
ENV_READS = ('float(os.environ["SF_ENV_@T@"])', 'float(os.getenv("SF_ENV_@T@", "0.75"))',
             'float(os.environ.get("SF_ENV_@T@", "0.75"))')


def _text(v: float, fmt: str) -> str:
    return {"repr": repr(v), "fixed": f"{v:.4f}", "exp": f"{v:.3e}", "padded": f" {v} \n"}[fmt]


def env(rng: random.Random, tag: str) -> Pair:
    shape = choose_shape(rng)
    read = rng.choice(ENV_READS)
    a = value(rng)
    b = value(rng, a)
    fmt = rng.choice(["repr", "fixed", "exp", "padded"])
    texts = {"A": _text(a, fmt), "B": _text(b, fmt)}
    if "0.75" in read and rng.random() < 0.4:     # unset in one variant: the default is read
        texts[rng.choice("AB")] = None
    out = output(rng, shape, expression(rng, shape, "d"))
    text = main(f"staleness pair @T@: env: {shape.entry}, {read}",
                f"def f_@T@(x):\n    d = {read}\n    return {out}\n\n\n"
                f"F_@T@ = {shape.wrap('f_@T@')}\n", shape, "import os\n")
    name = "SF_ENV_@T@"
    change, undo = (f'os.environ.pop("{name}", None)' if texts[v] is None
                    else f'os.environ["{name}"] = {texts[v]!r}' for v in "BA")
    return Pair("env", tag, "", {"A": {"sf_@T@.py": text}, "B": {"sf_@T@.py": text}},
                f"{shape.entry}, {read}: {texts['A']!r} -> {texts['B']!r}",
                ext={"sf_@T@.py": text},
                env={v: ({} if texts[v] is None else {name: texts[v]}) for v in "AB"},
                change=change, undo=undo, modes=("a", "b"))


FILE_READS = {
    "open": ("", "float(open(PATH_@T@).read())"),
    "with": ("    with open(PATH_@T@) as fh:\n        d = float(fh.read())\n", None),
    "pathlib": ("", "float(pathlib.Path(PATH_@T@).read_text())"),
    "loadtxt": ("", "float(np.loadtxt(PATH_@T@))"),
    "fromfile": ("", 'float(np.fromfile(PATH_@T@, sep=" ")[0])'),
}
FILE_WRITES = {
    "rewrite": 'with open(mod.PATH_@T@, "w") as fh:\n    fh.write({b})',
    "replace": ('with open(mod.PATH_@T@ + ".new", "w") as fh:\n    fh.write({b})\n'
                'os.replace(mod.PATH_@T@ + ".new", mod.PATH_@T@)'),
}


def file(rng: random.Random, tag: str) -> Pair:
    shape = choose_shape(rng)
    how = rng.choice(sorted(FILE_READS))
    pre, read = FILE_READS[how]
    pre = pre or f"    d = {read}\n"
    a = value(rng)
    b = value(rng, a)
    fmt = rng.choice(["repr", "fixed", "exp", "padded"])   # (often the same length)
    texts = {"A": _text(a, fmt), "B": _text(b, fmt)}
    out = output(rng, shape, expression(rng, shape, "d"))
    text = main(f"staleness pair @T@: file: {shape.entry}, read by {how}",
                f"PATH_@T@ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "
                f'"data_@T@.txt")\n\n\ndef f_@T@(x):\n{pre}    return {out}\n\n\n'
                f"F_@T@ = {shape.wrap('f_@T@')}\n", shape, "import os\nimport pathlib\n")
    write = rng.choice(sorted(FILE_WRITES))
    return Pair("file", tag, "", {"A": {"sf_@T@.py": text}, "B": {"sf_@T@.py": text}},
                f"{shape.entry}, read by {how}, {texts['A']!r} -> {texts['B']!r} ({write})",
                ext={"sf_@T@.py": text},
                data={v: {"data_@T@.txt": texts[v]} for v in "AB"},
                change=FILE_WRITES[write].replace("{b}", repr(texts["B"])),
                undo=FILE_WRITES[write].replace("{b}", repr(texts["A"])), modes=("a", "b"))
