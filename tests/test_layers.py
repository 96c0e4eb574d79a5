"""The architecture, checked: the package's layers import only downward, without cycles, and
its modules and functions stay small enough to hold in one's head.

Every import statement of ``symgrad/`` counts, at module level or inside a function (a lazy
import for import time is still a dependency), ``TYPE_CHECKING`` ones included. The layers, bottom
to top (a module may import its own layer and those below; a package's ``__init__`` re-exports
its own modules):
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "symgrad"

LAYERS = [
    ("base", {"symgrad.config", "symgrad.dtypes", "symgrad.errors", "symgrad.pytree",
              "symgrad.gcpause", "symgrad.version", "symgrad.devices", "symgrad.size",
              "symgrad.dims"}),
    ("ops", {"symgrad.ops"}),                 # the op registry: one definition per primitive
    ("ir", {"symgrad.ir"}),                   # graph, text, verifier, NumPy interpreter
    ("frontend", {"symgrad.frontend", "symgrad.nn", "symgrad.autograd", "symgrad.optim",
                  "symgrad.cuda", "symgrad.backends", "symgrad.linalg",
                  "symgrad.special", "symgrad.utils", "symgrad.lax"}),
    # tensors, eager autograd, the torch API (torch.nn, torch.autograd, torch.optim mirrors)
    ("transforms", {"symgrad.transforms",     # vmap, jvp, vjp, Jacobians on tensors
                    "symgrad.autograd.functional"}),   # torch.autograd.functional, on them
    ("trace", {"symgrad.tracing"}),           # Python function -> graph
    ("passes", {"symgrad.passes"}),           # graph -> graph
    ("lower", {"symgrad.lower"}),             # graph -> loop IR
    ("codegen", {"symgrad.codegen"}),         # loop IR -> C source object
    ("build", {"symgrad.build"}),             # C source object -> loaded module (and cache)
    ("pipeline", {"symgrad.pipeline"}),       # the stages, in order
    ("runtime", {"symgrad.runtime"}),         # the call path of a compiled signature
    ("api", {"symgrad.api"}),                 # compile, grad, inspect
    ("package", {"symgrad", "symgrad.__main__", "symgrad.func", "symgrad.sparse",
                 "symgrad.dask"}),
    # public re-exports (``symgrad.func``: torch.func's names), the command line
]

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
MAX_COMPLEXITY = 12
# A function may be longer or more branched if it says why, in a comment on its def line or
# in the lines just after it: "# why not split: ..." (e.g. a hot path kept in one frame).
WAIVER = "# why not split:"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def layer_of(module: str) -> int:
    """The layer of the longest prefix that names ``module`` or a package holding it."""
    found = None
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or (prefix != "symgrad" and module.startswith(prefix + ".")):
                if found is None or len(prefix) > len(found[1]):
                    found = (rank, prefix)
    if found is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in {__file__}")
    return found[0]


def imports_of(module: str) -> set[str]:
    """The symgrad modules ``module`` imports (resolved to modules of the package)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            # ``from pkg import mod`` imports the module; ``from pkg import name``, pkg itself
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                       for a in node.names]
        for t in targets:
            while t and t not in MODULES:
                t = t.rsplit(".", 1)[0] if "." in t else ""
            if t and t != module:
                found.add(t)
    return found


GRAPH = {m: imports_of(m) for m in MODULES}


def test_every_module_has_a_layer():
    for module in MODULES:
        layer_of(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_downward(module):
    me = layer_of(module)
    for target in sorted(GRAPH[module]):
        if module.endswith(".__init__") or MODULES[module].name == "__init__.py":
            if target.startswith(module + "."):
                continue   # a package re-exports its own modules
        there = layer_of(target)
        assert there <= me, (f"{module} ({LAYERS[me][0]}) imports {target} "
                             f"({LAYERS[there][0]}), a layer above it")


def test_no_import_cycles():
    state: dict[str, int] = {}

    def visit(m: str, stack: list) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(GRAPH[m]):
            if n.startswith(m + "."):
                continue   # a package's __init__ importing its modules is not a cycle
            if state.get(n) == 1:
                cycle = stack[stack.index(n):] + [n]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n, stack)
        stack.pop()
        state[m] = 2

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for m in sorted(MODULES):
        if m not in state:
            visit(m, [])


def test_the_checker_finds_an_upward_import(tmp_path):
    """Control: the walker sees a function-level upward import."""
    fake = tmp_path / "symgrad" / "ops"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("def f():\n    from ..api import compile\n")
    tree = ast.parse((fake / "bad.py").read_text())
    froms = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert froms and froms[0].level == 2 and froms[0].module == "api"
    assert layer_of("symgrad.api") > layer_of("symgrad.ops.bad")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module):
    lines = MODULES[module].read_text().count("\n")
    if module == "symgrad.codegen.optable":
        return   # generated data (make optable), not code
    assert lines <= MAX_MODULE_LINES, f"{module} has {lines} lines: split it by concept"


def complexity(fn: ast.AST) -> int:
    """McCabe's cyclomatic complexity, as the ``mccabe`` tool counts branches: 1 + each
    if/elif, loop and except clause; a nested function counts on its own."""
    n, stack = 1, list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler)):
            n += 1
        stack.extend(ast.iter_child_nodes(node))
    return n


def functions():
    for module, path in MODULES.items():
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield module, node, lines


def test_complexity_counter():
    fn = ast.parse("def f(a, b):\n    if a and b:\n        return [x for x in a if x]\n"
                   "    elif b:\n        pass\n    while a:\n        try:\n            a -= 1\n"
                   "        except ValueError:\n            pass\n"
                   "    def g():\n        if a: pass\n    return 0\n").body[0]
    assert complexity(fn) == 1 + 2 + 1 + 1   # if, elif, while, except (not g's if)


def test_functions_stay_small_or_say_why():
    offenders = []
    for module, fn, lines in functions():
        length = fn.end_lineno - fn.lineno + 1
        cc = complexity(fn)
        if length <= MAX_FUNCTION_LINES and cc <= MAX_COMPLEXITY:
            continue
        head = "\n".join(lines[fn.lineno - 1:fn.lineno + 8])
        if WAIVER not in head:
            offenders.append(f"{module}.{fn.name} (line {fn.lineno}): {length} lines, "
                             f"complexity {cc}")
    assert not offenders, "split these, or say why not:\n" + "\n".join(offenders)


def test_import_symgrad_loads_no_compiler():
    """Importing symgrad (and running eager code) loads neither SymPy nor the compiler's
    stages: they load at the first compile."""
    code = ("import sys, symgrad as sg\n"
            "x = sg.tensor([1.0, 2.0], requires_grad=True)\n"
            "(sg.sin(x) * x).sum().backward()\n"
            "heavy = [m for m in ('sympy', 'jinja2', 'cffi', 'symgrad.pipeline',"
            " 'symgrad.codegen.module', 'symgrad.build.compiler') if m in sys.modules]\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True)
