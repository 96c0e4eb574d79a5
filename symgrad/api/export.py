"""Compiled functions beyond Python: standalone C files, C function pointers, SciPy callbacks.

Layer: api. Input: a ``CompiledFunction`` (or a transform of one) and example arguments, which
fix the signature. Output:

- ``export_c``: a directory a user builds with nothing but a C compiler (``codegen.c.export``
  writes the texts: ``name.c``, ``name.h``, ``test_name.c``, ``Makefile``);
- ``c_function``: the same C built into this process, as a cffi function pointer plus its C
  signature, for C code that takes a callback;
- ``low_level_callable``: a ``scipy.LowLevelCallable`` in the shape of SciPy's callback APIs
  (``quad``'s ``double f(int n, double *xx, void *user_data)``, ``generic_filter``'s).

The C is generated for a standalone ``Target``: the entry point's constants become static
arrays of the file, the public function takes the inputs, the outputs, a caller-owned work array
and a thread count, and allocates nothing. A function whose reverse pass needs a growing tape
(a differentiated ``while_loop``) is refused, with the reason.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..codegen.c import export as texts
from ..codegen.c.csource import BuildNeeds, CSource, Target
from ..dtypes import from_name
from ..ir.control import bodies, is_control
from ..pytree import flatten
from ..runtime.outputs import leaf_paths

# Names a parameter of the public function cannot take (C keywords, the fixed parameters).
_RESERVED = {"auto", "break", "case", "char", "const", "continue", "default", "do", "double",
             "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
             "register", "restrict", "return", "short", "signed", "sizeof", "static",
             "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
             "work", "nthreads", "result", "n", "xx", "user_data", "buffer", "filter_size",
             "return_value"}


@dataclass(frozen=True)
class Export:
    """What ``export_c`` wrote: ``directory`` holds ``files`` (name -> path)."""

    directory: Path
    name: str
    files: dict
    signature: str       # the public function's C declaration
    work_size: int       # bytes of its work array


def export_c(f, directory, args: tuple, *, name: str | None = None, dtype_policy=None,
             portable: bool = True, blas: str = "none", threads: bool = True) -> Export:
    """Write ``name.c``, ``name.h``, ``Makefile`` and ``test_name.c`` into ``directory``
    (created if needed; these four files are overwritten).

    ``args`` fix the signature and are the test's inputs; ``dtype_policy`` ("float32" or
    "float64") converts their floating arrays first. ``portable=True``: default flags without
    ``-march=native`` and no glibc vector math; ``False``: symgrad's own flags (then the test
    compares bit for bit with ``-DSG_TEST_EXACT``). ``blas="none"`` keeps every matmul a plain
    C loop; ``"cblas"`` calls the standard ``cblas_?gemm`` (``?gemv``, ``?trmm``) for large ones (a
    Makefile links ``$(BLAS)``, default ``-lopenblas``). ``threads``: large loops run on the
    caller's ``nthreads`` when built with OpenMP (``make OPENMP=-fopenmp``); False leaves
    OpenMP out of the file. Tensors and arrays the function reads besides its arguments (an
    ``nn.Module``'s parameters, a global array) are exported with their current values, as
    constants of the C: an export is a snapshot."""
    from .. import pipeline
    from ..build.c.compiler import DEFAULT_OPT_FLAGS, VECTOR_MATH_FLAGS
    if blas not in ("none", "cblas"):
        raise ValueError(f"export_c: blas must be 'none' or 'cblas', got {blas!r}")
    args = _with_policy(args, dtype_policy)
    target = Target(vector_math=not portable and pipeline.target().vector_math, blas=blas,
                    standalone=True, threads=bool(threads))
    face, inputs = _interface(f, args, name, target)
    expected = _expected(f, args, face)
    needs = face.source.needs
    if portable:
        cflags = ["-O3", "-fno-math-errno", "-ffp-contract=off"]
    else:
        cflags = [flag for flag in DEFAULT_OPT_FLAGS if flag != "-fPIC"] + ["-DSG_OPENMP_SIMD"]
        cflags += list(VECTOR_MATH_FLAGS) if needs.vector_math else []
    ldlibs = "-lmvec -lm" if needs.vector_math else "-lm"
    files = {
        f"{face.name}.c": texts.module_text(face),
        f"{face.name}.h": texts.header_text(face, target.threads),
        f"test_{face.name}.c": texts.test_text(face, inputs, expected),
        "Makefile": texts.makefile_text(face.name, " ".join(cflags), ldlibs, needs.blas,
                                        target.threads),
    }
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for filename, text in files.items():
        paths[filename] = out / filename
        paths[filename].write_text(text)
    return Export(out, face.name, paths, face.declaration, face.work_size)


@dataclass(frozen=True)
class CFunction:
    """A compiled signature as a C function in this process.

    ``pointer`` is a cffi function pointer of C type ``signature`` (``int name(inputs...,
    outputs..., void *work, int nthreads)``; see ``export_c``'s header for the conventions);
    ``address`` the same as an integer, for ctypes, Numba or C code. Calling the object itself
    checks and passes NumPy arrays (a convenience: the pointer is the point)."""

    name: str
    signature: str
    pointer: Any
    work_size: int
    inputs: tuple        # codegen.c.export.Port per input
    outputs: tuple       # ... per output
    ffi: Any
    module: Any          # the loaded module (kept alive with the pointer)

    @property
    def address(self) -> int:
        return int(self.ffi.cast("uintptr_t", self.pointer))

    def __call__(self, *arrays, nthreads: int = 1) -> list:
        """Run it on NumPy arrays of exactly the signature's shapes and dtypes; the outputs."""
        if len(arrays) != len(self.inputs):
            raise TypeError(f"{self.name} takes {len(self.inputs)} arrays, got {len(arrays)}")
        fb = self.ffi.from_buffer
        ptrs = [fb(f"{p.ctype}[]", _checked(self.name, p, a)) for p, a in zip(self.inputs,
                                                                              arrays)]
        outs = [np.empty(p.shape, dtype=_np_dtype(p)) for p in self.outputs]
        work = np.empty(self.work_size, dtype=np.uint8)
        status = self.pointer(*ptrs, *(fb(f"{p.ctype}[]", o) for p, o in zip(self.outputs,
                                                                                 outs)),
                              fb("unsigned char[]", work), int(nthreads))
        if status:
            raise RuntimeError(f"{self.name} returned status {status}")
        return outs


def c_function(f, args: tuple, *, name: str | None = None) -> CFunction:
    """``f`` for the signature of ``args`` as a C function built into this process."""
    face, _ = _interface(f, args, name, _in_process_target())
    module = _build(face, texts.module_text(face, include_header=False),
                    f"size_t {face.name}_work_size(void);\n{face.declaration}")
    pointer = module.function_pointer(face.name)
    return CFunction(face.name, face.declaration, pointer, face.work_size,
                     tuple(face.inputs), tuple(face.outputs), module.ffi, module)


def low_level_callable(f, args: tuple, *, kind: str = "quad"):
    """``f`` as a ``scipy.LowLevelCallable`` of SciPy's ``kind`` of callback: "quad"
    (``double (int n, double *xx, void *user_data)``: ``quad``, ``dblquad``, ``tplquad``,
    ``nquad``; ``xx`` holds ``f``'s float64 arguments flattened, and ``f`` returns one float64;
    the callable returns NaN when ``n`` is not their total size) or "generic_filter"
    (``scipy.ndimage.generic_filter``: ``f`` takes the window's values as one float64 array and
    returns one float64). The work array is the callable's ``user_data``, allocated here: do
    not call one callable from several threads at once."""
    try:
        import scipy
    except ImportError:
        raise ImportError("low_level_callable makes a scipy.LowLevelCallable: "
                          "`pip install scipy`") from None
    if kind not in texts.CALLBACKS:
        raise ValueError(f"low_level_callable: kind must be one of "
                         f"{', '.join(map(repr, texts.CALLBACKS))}, got {kind!r}")
    face, _ = _interface(f, args, None, _in_process_target())
    _check_callback(face, kind)
    adapter = f"{face.name}_{kind}"
    text = texts.module_text(face, include_header=False) + \
        texts.callback_text(face, kind, adapter)
    module = _build(face, text, texts.CALLBACKS[kind].format(name=adapter) + ";")
    work = module.ffi.new("unsigned char[]", face.work_size)
    return scipy.LowLevelCallable(module.function_pointer(adapter), work)


# ------------------------------------------------------------------------------- helpers

def _in_process_target() -> Target:
    from .. import pipeline
    return replace(pipeline.target(), blas="scipy", standalone=True)


def _build(face: texts.Interface, text: str, cdef: str):
    from .. import pipeline
    needs = face.source.needs
    # (SG_SIMD marks loops only under OpenMP or SG_OPENMP_SIMD: symgrad's build has
    # -fopenmp-simd, and these loops call the vector math the text declares)
    source = CSource(text, face.name, cdef, face.source.workspace_bytes,
                     needs=BuildNeeds(needs.openmp, needs.vector_math, needs.blas),
                     errors=face.source.errors, defines=("SG_OPENMP_SIMD",))
    return pipeline.load(source, face.name)


def _interface(f, args: tuple, name: str | None, target: Target):
    """(the ``codegen.c.export.Interface`` of ``f`` at ``args``, the input arrays)."""
    from .. import pipeline
    name = _check_name(name) if name is not None else _default_name(f.name)
    compiled = f.compiled_for(*args, capture=False)   # (captured values: constants)
    _refuse_while_tapes(compiled.graph, f.name)
    traced = compiled.traced
    source = pipeline.retarget(compiled, target)
    used = set(_RESERVED)
    inputs = []
    for spec in traced.in_specs:
        inputs.append(texts.Port(_param(spec.name, used), spec.dtype.ctype, tuple(spec.shape),
                                 spec.dtype.name, f"argument {spec.name}"))
    outputs = []
    for j, (buf, node, path) in enumerate(zip(compiled.outputs, compiled.graph.values,
                                              leaf_paths(traced.out_tree))):
        outputs.append(texts.Port(_param(f"out{j}", used), buf.dtype.ctype, tuple(node.shape),
                                  buf.dtype.name, f"result {path}"))
    consts = [(b.dtype, np.ascontiguousarray(v, dtype=b.dtype.np)) for b, v in compiled.consts]
    guards = tuple((outcome, f"{loc}: {loc.text}" if loc else "?")
                   for outcome, loc in traced.guards)
    signature = ", ".join(f"{p.param}: {p.dtype}{list(p.shape)}" for p in inputs)
    face = texts.Interface(name, f"{f.name}({signature})", source, inputs, outputs, consts,
                           guards)
    _, _, leaves, _, _ = f.split_arguments(args, {})
    arrays = [np.asarray(v.detach().numpy() if hasattr(v, "detach") else v,
                         dtype=_np_dtype(p)).reshape(p.shape) for v, p in zip(leaves, inputs)]
    return face, arrays


def _while_tape(graph) -> tuple | None:
    """(the first ``while_grad`` node of ``graph`` or of a graph its nodes hold, its Loc)."""
    stack, seen = [graph], set()
    while stack:
        g = stack.pop()
        for node in g.nodes():
            if node.op == "while_grad":
                return node, g.locs.get(node)
            if is_control(node):
                stack.extend(b for b in bodies(node) if id(b) not in seen)
                seen.update(id(b) for b in bodies(node))
    return None


def _refuse_while_tapes(graph, name: str) -> None:
    """Standalone C allocates nothing: the reverse pass of a ``while_loop`` (a tape of one
    entry per step of a trip count known only when it runs) is refused, saying what to
    write instead."""
    found = _while_tape(graph)
    if found is None:
        return
    loc = found[1]
    where = f" (at {loc.file}:{loc.line}: {loc.text})" if loc is not None else ""
    raise NotImplementedError(
        f"{name}: standalone C allocates nothing, but this function differentiates a "
        f"while_loop (or a fori_loop with a traced trip count){where}, whose reverse pass "
        f"keeps one tape entry per step of a trip count known only when the loop runs (it "
        f"grows with malloc). Give the loop a bound instead: symgrad.scan(lambda c, _: "
        f"(symgrad.where(cond(c), body(c), c), None), init, length=max_steps)[0] (a scan's "
        f"reverse pass needs a fixed amount of memory, and the steps after cond fails leave "
        f"the carry as it is), or call the function from Python, where the tape grows as "
        f"needed")


def _expected(f, args: tuple, face: texts.Interface) -> list:
    """The outputs symgrad computes in this process for ``args``, one array per port."""
    leaves, _ = flatten(f(*args))
    return [np.asarray(v, dtype=_np_dtype(p)).reshape(p.shape)
            for v, p in zip(leaves, face.outputs)]


def _with_policy(args: tuple, policy) -> tuple:
    if policy is None:
        return args
    if policy not in ("float32", "float64"):
        raise ValueError(f"dtype_policy must be None, 'float32' or 'float64', got {policy!r}")

    def convert(v):
        if isinstance(v, (float, np.floating)):
            return np.dtype(policy).type(v)
        return v.astype(policy) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v
    return tuple(_flatten_map(convert, a) for a in args)


def _flatten_map(fn, tree):
    """``fn`` applied to each leaf of ``tree`` (tuples, lists, dicts)."""
    from ..pytree import unflatten
    leaves, structure = flatten(tree)
    return unflatten(structure, [fn(v) for v in leaves])


def _check_name(name: str) -> str:
    if not (name.isidentifier() and name.isascii()) or keyword.iskeyword(name) or \
            name in _RESERVED:
        raise ValueError(f"export name {name!r} is not usable as a C function name: pass "
                         f"name='...' (letters, digits and _, not starting with a digit)")
    return name


def _default_name(name: str) -> str:
    """A C function name made from a Python one (``<lambda>`` -> ``lambda_fn``)."""
    from ..codegen.c.text import c_identifier
    base = c_identifier(name).strip("_") or "fn"
    return base if not (keyword.iskeyword(base) or base in _RESERVED) else f"{base}_fn"


def _param(name: str, used: set) -> str:
    """A C parameter name for ``name`` (``params['w']`` -> ``params_w``), not yet in ``used``."""
    from ..codegen.c.text import c_identifier
    base = c_identifier(name).strip("_") or "arg"
    base = base if base not in _RESERVED else f"{base}_"
    param, k = base, 1
    while param in used:
        param, k = f"{base}_{k}", k + 1
    used.add(param)
    return param


def _np_dtype(p: texts.Port) -> np.dtype:
    return from_name(p.dtype).np


def _checked(name: str, p: texts.Port, a) -> np.ndarray:
    if not isinstance(a, np.ndarray) or a.shape != p.shape or a.dtype != _np_dtype(p):
        got = f"{a.dtype}{list(a.shape)}" if isinstance(a, np.ndarray) else type(a).__name__
        raise TypeError(f"{name}: {p.what} must be a {p.dtype} array of shape "
                        f"{list(p.shape)}, got {got}")
    return np.ascontiguousarray(a)


def _check_callback(face: texts.Interface, kind: str) -> None:
    where = f"low_level_callable(kind={kind!r})"
    if any(p.dtype != "float64" for p in face.inputs):
        raise TypeError(f"{where}: every argument must be float64 (SciPy passes doubles), "
                        f"got " + ", ".join(f"{p.what}: {p.dtype}" for p in face.inputs))
    if len(face.outputs) != 1 or face.outputs[0].size != 1 or \
            face.outputs[0].dtype != "float64":
        raise TypeError(f"{where}: the function must return one float64 scalar, it returns "
                        + ", ".join(f"{p.dtype}{list(p.shape)}" for p in face.outputs))
    if kind == "generic_filter" and len(face.inputs) != 1:
        raise TypeError(f"{where}: the function must take one array (the window's values), "
                        f"it takes {len(face.inputs)}")
