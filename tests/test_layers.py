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
              "symgrad.dims", "symgrad.formats"}),
    ("ops", {"symgrad.ops"}),                 # the op registry: one definition per primitive
    ("ir", {"symgrad.ir"}),                   # graph, text, verifier, NumPy interpreter
    ("frontend", {"symgrad.frontend", "symgrad.nn", "symgrad.autograd", "symgrad.optim",
                  "symgrad.cuda", "symgrad.backends", "symgrad.linalg",
                  "symgrad.special", "symgrad.utils", "symgrad.lax",
                  "symgrad.distributions", "symgrad.serialization",
                  # torch's script-level modules: devices, amp, testing, stand-ins
                  "symgrad.accelerator", "symgrad.amp", "symgrad.cpu", "symgrad.mps",
                  "symgrad.distributed", "symgrad.hub", "symgrad.onnx", "symgrad.random",
                  "symgrad.testing", "symgrad.compiler", "symgrad.jit", "symgrad.switches",
                  "symgrad.fft"}),
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
    if module == "symgrad.codegen.c.optable":
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
            " 'symgrad.codegen.c.module', 'symgrad.build.c.compiler', 'symgrad.lower.lowering')"
            " if m in sys.modules]\n"
            "assert not heavy, heavy\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- seams

def _private_names_by_layer() -> dict[str, set[int]]:
    """Private attribute name -> the layers whose classes define it (``self._x = ...``, a
    private class attribute or method)."""
    own: dict[str, set[int]] = {}
    for module, path in MODULES.items():
        for name in _own_private_names(ast.parse(path.read_text())):
            own.setdefault(name, set()).add(layer_of(module))
    return own


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_reaches() -> list[str]:
    """``obj._x`` where ``_x`` is private to classes of other layers only (``self._x`` and
    ``cls._x`` are a class's own business)."""
    own = _private_names_by_layer()
    found = []
    for module, path in MODULES.items():
        layer = layer_of(module)
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            layers = own.get(node.attr)
            if layers and layer not in layers:
                found.append(f"{module}:{node.lineno} reads .{node.attr} (private to "
                             f"{', '.join(LAYERS[x][0] for x in sorted(layers))})")
    return found


def test_no_private_attribute_reaches_across_layers():
    """A layer reads another's objects through their public names (Tensor.concrete,
    .requires_grad, .version_cell...), never their private attributes."""
    found = private_reaches()
    assert not found, "use a public accessor:\n" + "\n".join(found)


def import_time_fillings() -> list[str]:
    """Module-level statements that put entries into a table another module owns (a name
    imported from a symgrad module): ``TABLE[k] = v``, ``TABLE.update(...)``..."""
    found = []
    mutators = {"update", "setdefault", "append", "extend", "add", "__setitem__"}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text())
        imported = {alias.asname or alias.name for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and (node.level or (
                        node.module or "").startswith("symgrad"))
                    for alias in node.names}
        for stmt in tree.body:      # module level only: what runs when it is imported
            for node in ast.walk(stmt):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                    break
                target = None
                if isinstance(node, ast.Assign):
                    target = next((t.value for t in node.targets
                                   if isinstance(t, ast.Subscript)), None)
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr in mutators:
                    target = node.func.value
                if isinstance(target, ast.Name) and target.id in imported:
                    found.append(f"{module}:{node.lineno} fills {target.id}")
    return found


def test_no_rule_table_is_filled_at_import():
    """Every rule of an op is found from its definition (ops.registry.rule); no module fills
    another's table when it is imported (an upward call that no import shows)."""
    found = import_time_fillings()
    assert not found, "declare the rule where the op is defined:\n" + "\n".join(found)


def test_the_seam_checkers_find_what_they_look_for(tmp_path, monkeypatch):
    """Control: a private reach across layers and an import-time filling are found."""
    bad = tmp_path / "bad.py"
    bad.write_text("from symgrad.frontend.control.apply import TABLE\nTABLE['x'] = 1\n"
                   "TABLE.update(y=2)\n\ndef f(t):\n    return t._requires_grad\n")
    monkeypatch.setitem(MODULES, "symgrad.api.bad", bad)
    assert {x.split(" ")[1] for x in import_time_fillings() if "api.bad" in x} == {"fills"}
    assert len([x for x in import_time_fillings() if "api.bad" in x]) == 2
    assert any("api.bad:6 reads ._requires_grad" in x for x in private_reaches())


def test_late_bound_rules_resolve_to_modules_above_the_ops():
    from symgrad.ops import OPS
    from symgrad.ops.registry import rule
    for name, op in OPS.items():
        for transform, where in op.tensor_rules:
            assert callable(rule(name, transform)), (name, transform, where)
            assert layer_of(where.split(":")[0]) > layer_of("symgrad.ops"), where


# ---------------------------------------------------------------- the backend boundary

# The C backend: its text (codegen.c), its build and loader (build.c). The API's C export
# (api.export: export_c, c_function's cffi function pointer) is the C backend's public face.
C_BACKEND = ("symgrad.codegen.c", "symgrad.build.c")
C_EXPORT = "symgrad.api.export"


def _in(module: str, packages) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def backend_leaks(modules: dict | None = None) -> list[str]:
    """Outside the C backend: an import of cffi, or a reach into a loaded module's ``ffi`` or
    ``lib`` (the runtime and the pipeline talk to ``codegen.backend.Module``)."""
    found = []
    for module, path in (modules or MODULES).items():
        if _in(module, C_BACKEND):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n.split(".")[0] in ("cffi", "_cffi_backend") for n in names):
                found.append(f"{module}:{node.lineno} imports cffi")
            if isinstance(node, ast.Attribute) and node.attr in ("ffi", "lib") and \
                    module != C_EXPORT:
                found.append(f"{module}:{node.lineno} reaches .{node.attr}")
    return found


def test_only_the_c_backend_speaks_cffi():
    found = backend_leaks()
    assert not found, "ask the backend (codegen.backend.Module/Backend):\n" + "\n".join(found)


def test_build_runtime_and_pipeline_reach_the_c_backend_only_through_the_backend():
    """The build layer's own modules and everything above them import ``build.c`` or
    ``codegen.c`` only where the backend is chosen (``build.backends``), where its C text is
    the point (the C export), or for C-only data (the cffi export's flags)."""
    allowed = {"symgrad.build.backends", C_EXPORT}
    found = [f"{m} imports {t}" for m in sorted(MODULES) if not _in(m, C_BACKEND)
             and m not in allowed and layer_of(m) >= layer_of("symgrad.build")
             for t in sorted(GRAPH[m]) if _in(t, C_BACKEND)]
    assert not found, "\n".join(found)


def test_the_backend_checker_finds_a_leak(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import cffi\n\ndef f(module):\n    return module.ffi.cast('int', 0)\n")
    assert backend_leaks({"symgrad.runtime.bad": bad}) == [
        "symgrad.runtime.bad:1 imports cffi", "symgrad.runtime.bad:4 reaches .ffi"]


# The back half (lowering to the API): a private attribute is read only in the module whose
# classes define it. (``api.reuse`` is a part of ``CompiledFunction``: one class in two files.)
BACK_HALF = ("symgrad.lower", "symgrad.codegen", "symgrad.build", "symgrad.pipeline",
             "symgrad.runtime", "symgrad.api")
ONE_CLASS = {"symgrad.api.reuse": "symgrad.api.compiled"}


def private_reaches_between_modules() -> list[str]:
    own: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        for name in _own_private_names(ast.parse(path.read_text())):
            own.setdefault(name, set()).add(ONE_CLASS.get(module, module))
    found = []
    for module, path in MODULES.items():
        if not _in(module, BACK_HALF):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Attribute) and _private(node.attr)) or \
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            owners = own.get(node.attr, set())
            if owners and ONE_CLASS.get(module, module) not in owners:
                found.append(f"{module}:{node.lineno} reads .{node.attr} (private to "
                             f"{', '.join(sorted(owners))})")
    return found


def _own_private_names(tree: ast.AST) -> set[str]:
    """The private names a module's classes define: ``self._x = ...`` / ``cls._x = ...``, and
    a class body's methods and attributes."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.attr for target in targets for t in ast.walk(target)
                      if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                      and t.value.id in ("self", "cls")}
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, (ast.Assign, ast.AnnAssign)):
                    ts = item.targets if isinstance(item, ast.Assign) else [item.target]
                    names |= {t.id for t in ts if isinstance(t, ast.Name)}
    return {n for n in names if _private(n)}


def test_the_compile_path_reads_no_other_modules_private_state():
    """``api.dynamic`` and ``api.warm`` go through ``SignatureCache`` and public methods of
    ``CompiledFunction``; the runtime through ``Module``; and so on."""
    found = private_reaches_between_modules()
    assert not found, "use or add a public name:\n" + "\n".join(found)


def test_the_private_state_checker_finds_a_reach(tmp_path, monkeypatch):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(cf):\n    return cf._fast\n")
    monkeypatch.setitem(MODULES, "symgrad.api.bad", bad)
    assert [x for x in private_reaches_between_modules() if "api.bad" in x] == [
        "symgrad.api.bad:2 reads ._fast (private to symgrad.api.compiled)"]


# ---------------------------------------------------------------- how C text is written

def c_text_blocks(modules: dict | None = None) -> list[str]:
    """In code generation, blocks of text written in Python (a string or f-string literal of
    four lines or more that is not a docstring) and ``string.Template``: a block is a template in
    ``templates/`` (see ``codegen.c``'s docstring)."""
    found = []
    for module, path in (modules or MODULES).items():
        if not _in(module, ("symgrad.codegen",)):
            continue
        tree = ast.parse(path.read_text())
        docs = {id(node.body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                and ast.get_docstring(node) is not None}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and "string" in (
                    [a.name for a in node.names] if isinstance(node, ast.Import)
                    else [node.module]):
                found.append(f"{module}:{node.lineno} imports string (Template)")
            if id(node) not in docs and _lines_of_text(node) >= 4:
                found.append(f"{module}:{node.lineno} writes a block of text in Python")
    return found


def _lines_of_text(node) -> int:
    """How many lines a string or f-string literal holds (1 + its newlines)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return 1 + node.value.count("\n")
    if isinstance(node, ast.JoinedStr):
        return 1 + sum(v.value.count("\n") for v in node.values if isinstance(v, ast.Constant))
    return 0


def test_c_text_is_written_one_way():
    found = c_text_blocks()
    assert not found, "move the block into a template in templates/:\n" + "\n".join(found)


def test_the_c_text_checker_finds_a_block(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('"""Doc\n\nstring."""\nfrom string import Template\n'
                   'X = """\\\nint f(void)\n{\n    return 0;\n}\n"""\n')
    assert c_text_blocks({"symgrad.codegen.c.bad": bad}) == [
        "symgrad.codegen.c.bad:4 imports string (Template)",
        "symgrad.codegen.c.bad:5 writes a block of text in Python"]
