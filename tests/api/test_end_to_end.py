"""The two examples of the project brief, end to end, against independent NumPy formulas."""

import numpy as np

import symgrad as sg
import symgrad.nn.functional as F


def test_torch_style_backward_inside_compiled_function():
    @sg.compile
    def f(x):
        x.requires_grad_()
        out = (3 * (x + 2) ** 2).mean()
        out.backward()
        return out, x.grad

    out, g = f(np.ones((2, 2), np.float32))
    # d/dx mean(3 (x+2)^2) = 6 (x+2) / 4 = 4.5 at x = 1; value 3 * 9 = 27
    assert out.shape == () and out.dtype == np.float32 and out == 27.0
    np.testing.assert_array_equal(g, np.full((2, 2), 4.5, np.float32))


def _bce_logits_reference(w, b, x, y):
    z = (x @ w + b).astype(np.float64)
    loss = np.mean(np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z))))
    g = (1 / (1 + np.exp(-z)) - y) / z.size
    return loss, x.T.astype(np.float64) @ g, g.sum(0)


def test_logistic_regression_value_and_grad_loop(rng):
    @sg.compile
    def loss(w, b, x, y):
        z = sg.matmul(x, w) + b
        return F.binary_cross_entropy_with_logits(z, y)

    x = np.ones((1, 5), np.float32)
    y = np.zeros((1, 3), np.float32)
    w = rng.standard_normal((5, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    v = loss(w, b, x, y)
    assert isinstance(v, np.ndarray) and v.shape == () and v.dtype == np.float32
    np.testing.assert_allclose(v, _bce_logits_reference(w, b, x, y)[0], rtol=1e-6)

    step = sg.value_and_grad(loss, argnums=(0, 1))
    for _ in range(50):
        val, (dw, db) = step(w, b, x, y)
        ref_val, ref_dw, ref_db = _bce_logits_reference(w, b, x, y)
        np.testing.assert_allclose(val, ref_val, rtol=1e-5)
        np.testing.assert_allclose(dw, ref_dw, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(db, ref_db, rtol=1e-5, atol=1e-7)
        w -= 0.1 * dw
        b -= 0.1 * db
    assert "int sg_value_and_grad_loss(" in step.c_source
    report = sg.inspect(step, w, b, x, y, print_=False)
    assert "matmul" in report.traced_ir and "sigmoid" in report.adjoint_ir
    assert report.c_source == step.c_source


def test_second_derivative_of_scalar_function():
    f = lambda x: sg.sin(x) * x ** 3  # noqa: E731
    d2 = sg.grad(sg.grad(f))
    for x in (0.3, 0.7, -1.9):
        exact = -np.sin(x) * x**3 + 6 * x**2 * np.cos(x) + 6 * x * np.sin(x)
        np.testing.assert_allclose(d2(x), exact, rtol=1e-12)


def test_long_fused_chain_does_not_hit_the_recursion_limit():
    # 3000 chained scalar updates fuse into one expression far deeper than Python's recursion
    # limit; lowering must not recurse per node.
    def f(x):
        for _ in range(3000):
            x = x * 0.999 + 0.001
        return x

    x = np.array(2.0)
    expected = 2.0
    for _ in range(3000):
        expected = expected * 0.999 + 0.001
    np.testing.assert_allclose(sg.compile(f)(x), expected, rtol=1e-12)


def test_split_program_matches_unsplit(monkeypatch):
    """Large programs are emitted as several C functions ("parts"); force tiny parts on a
    gradient with reductions, broadcasting and matmuls and compare with the unsplit build."""
    from symgrad.codegen.c import split as parts

    def loss(w, x, t):
        h = sg.tanh(x @ w)
        return F.cross_entropy(h, t) + (h * h).sum(1).mean() * w.abs().max()

    rng = np.random.default_rng(3)
    args = (rng.standard_normal((5, 4)), rng.standard_normal((6, 5)), np.array([0, 3, 1, 2, 0, 1]))
    whole = sg.value_and_grad(loss)(*args)
    monkeypatch.setattr(parts, "PART_WEIGHT", 3)
    monkeypatch.setattr(parts, "HOT_ELEMENTS", 0)    # every loop is hot: unit 0
    f = sg.value_and_grad(loss)
    split = f(*args)
    assert f.c_source.count("\n/* part ") > 10
    # the loops' parts stay in unit 0 (static); the scalar-only ones go to another unit
    assert f.c_source.count("static __attribute__((noinline)) int sg_value_and_grad_loss_part") > 10
    assert "#if !defined(SG_TU) || SG_TU == 1\n" in f.c_source
    np.testing.assert_allclose(split[0], whole[0], rtol=1e-12)
    np.testing.assert_allclose(split[1], whole[1], rtol=1e-12)


def test_only_parts_with_large_loops_stay_in_unit_0(monkeypatch):
    """Loops of at most HOT_ELEMENTS elements compile at -O1 in the parallel units with the
    scalar statements; a part with a larger loop stays in unit 0, at -O3."""
    from symgrad.codegen.c import split as parts

    def loss(small, big):
        return (sg.tanh(small) * small).sum() + (sg.sin(big) * big).sum()

    rng = np.random.default_rng(4)
    small, big = rng.standard_normal(8), rng.standard_normal(1000)
    monkeypatch.setattr(parts, "PART_WEIGHT", 3)
    f = sg.value_and_grad(loss, argnums=(0, 1))
    value, (g_small, g_big) = f(small, big)
    text = f.c_source
    blocks = text.split("#if !defined(SG_TU) || SG_TU == ")[1:]
    unit_0 = "".join(b for b in blocks if b.startswith("0\n"))
    others = "".join(b for b in blocks if not b.startswith("0\n"))
    # the sum over 1000 elements runs in blocks of 256 (pairwise), the one over 8 as it is
    assert "b0 < 4;" in unit_0 and "i0 < 8;" not in unit_0
    assert "i0 < 8;" in others and "b0 < 4;" not in others
    assert "#if !defined(SG_TU) || SG_TU == 1\n" in text
    np.testing.assert_allclose(value, np.sum(np.tanh(small) * small) + np.sum(np.sin(big) * big),
                               rtol=1e-12)
    np.testing.assert_allclose(g_small, np.tanh(small) + small * (1 - np.tanh(small) ** 2),
                               rtol=1e-12)
    np.testing.assert_allclose(g_big, np.sin(big) + big * np.cos(big), rtol=1e-12)


# ------------------------------------------------------------------ translation units

def _pendulum(steps):
    """An unrolled RK4 of a damped pendulum (benchmarks/problems/ode.py, fewer steps): a
    program of function-scope scalar statements only, with a 4-vector input."""
    def ode(p):
        th, om, k, c = p[0], p[1], p[2], p[3]
        h = 0.01
        for _ in range(steps):
            k1t, k1o = om, -k * sg.sin(th) - c * om
            t2, o2 = th + h / 2 * k1t, om + h / 2 * k1o
            k2t, k2o = o2, -k * sg.sin(t2) - c * o2
            t3, o3 = th + h / 2 * k2t, om + h / 2 * k2o
            k3t, k3o = o3, -k * sg.sin(t3) - c * o3
            t4, o4 = th + h * k3t, om + h * k3o
            k4t, k4o = o4, -k * sg.sin(t4) - c * o4
            th = th + h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t)
            om = om + h / 6 * (k1o + 2 * k2o + 2 * k3o + k4o)
        return th * th + om * om
    return ode


P0 = np.array([1.0, 0.5, 9.81, 0.3])


def _force_units(monkeypatch):
    """Small parts, one unit per two parts' weight: the 12-step pendulum gets 4 scalar units
    (printed step by step: not outlined, tests/lower/test_outline.py)."""
    from symgrad.codegen.c import split as parts
    from symgrad.lower import outline
    monkeypatch.setattr(outline, "MIN_KERNELS", 10 ** 9)
    monkeypatch.setattr(parts, "PART_WEIGHT", 40)
    monkeypatch.setattr(parts, "UNIT_PARTS", 2)


def test_scalar_parts_compile_as_parallel_units_and_match_unsplit(monkeypatch):
    import json

    from symgrad.codegen.c import split as parts
    from symgrad.ir import interpret

    monkeypatch.setattr(parts, "PART_WEIGHT", 10**6)     # one function
    whole_f = sg.value_and_grad(_pendulum(12))
    whole = whole_f(P0)
    assert "SG_TU" not in whole_f.c_source
    assert whole_f.last_specialization.source.units == ("main",)

    _force_units(monkeypatch)
    f = sg.value_and_grad(_pendulum(12))
    split = f(P0)
    spec = f.last_specialization
    text, units = spec.source.text, spec.source.units
    assert units == ("main",) + ("cold",) * 4
    for k in range(5):
        assert f"#if !defined(SG_TU) || SG_TU == {k}\n" in text
    assert text.count("#if !defined(SG_TU)") == text.count("/* part ") + 1
    assert text.count("#endif") == text.count("#if !defined(SG_TU)") + 1   # and math.h's guard
    assert text.count("#ifndef SG_MATH_DECLARED") == 1
    # the build compiled one object per unit, unit k with -DSG_TU=k, scalar units at -O1
    meta = json.loads((spec.module.path / "meta.json").read_text())
    cmds = meta["commands"]
    assert sorted(cmds) == ["kernel", "kernel1", "kernel2", "kernel3", "kernel4", "link"]
    assert "-DSG_TU=0" in cmds["kernel"] and "-O1" not in cmds["kernel"]
    for k in range(1, 5):
        cmd = cmds[f"kernel{k}"]
        assert f"-DSG_TU={k}" in cmd and cmd[-1] == f"kernel{k}.o"
        assert cmd.index("-O1") > cmd.index("-O3")   # the last -O wins
    assert [a for a in cmds["link"] if a.endswith(".o")] == \
        [f"kernel{k}.o" for k in range(5)]
    assert not list(spec.module.path.glob("*.o"))
    np.testing.assert_array_equal(split[0], whole[0])
    np.testing.assert_array_equal(split[1], whole[1])
    want = interpret(spec.compiled.traced.graph, [P0])
    np.testing.assert_allclose(split[0], want[0], rtol=1e-12)
    np.testing.assert_allclose(split[1], want[1], rtol=1e-12)


def _call_shared_object(so_path, spec, p):
    """Call the entry point of a kernel built by hand (ctypes): (value, gradient)."""
    import ctypes
    lib = ctypes.CDLL(str(so_path))
    fn = getattr(lib, spec.source.entry)
    fn.restype = ctypes.c_int
    p = np.ascontiguousarray(p, dtype=np.float64)
    outs = [np.zeros(b.size) for b in spec.compiled.program.outputs]
    consts = [np.ascontiguousarray(v, dtype=np.float64) for _, v in spec.compiled.program.consts]
    work = np.zeros(max(spec.source.workspace_bytes, 1), dtype=np.uint8)
    ptrs = [a.ctypes.data_as(ctypes.c_void_p) for a in [p, *consts, *outs, work]]
    assert fn(*ptrs, ctypes.c_int(1)) == 0
    return outs


STRICT_C = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fopenmp-simd", "-fPIC",
            "-O1"]


def test_unit_split_c_compiles_whole_and_by_unit_with_warnings_as_errors(monkeypatch, tmp_path):
    """The text is still one C file a user can copy: without -DSG_TU it compiles whole; with
    -DSG_TU=k each unit compiles alone (no unused static, no missing prototype) and the
    objects link. Both give the compiled function's results."""
    import shutil
    import subprocess
    cc = shutil.which("gcc") or shutil.which("cc")
    _force_units(monkeypatch)
    f = sg.value_and_grad(_pendulum(12))
    value, grad = f(P0)
    spec = f.last_specialization
    src = tmp_path / "kernel.c"
    src.write_text(spec.source.text)
    subprocess.run([cc, *STRICT_C, "-shared", str(src), "-o", str(tmp_path / "whole.so"),
                    "-lm"], check=True)
    objects = []
    for k in range(len(spec.source.units)):
        obj = tmp_path / f"kernel{k}.o"
        subprocess.run([cc, *STRICT_C, f"-DSG_TU={k}", "-c", str(src), "-o", str(obj)],
                       check=True)
        objects.append(str(obj))
    subprocess.run([cc, "-shared", *objects, "-o", str(tmp_path / "units.so"), "-lm"],
                   check=True)
    for so in ("whole.so", "units.so"):
        out = _call_shared_object(tmp_path / so, spec, P0)
        np.testing.assert_array_equal(out[0].reshape(()), value)
        np.testing.assert_array_equal(out[1], grad)


def test_unit_split_c_is_deterministic(monkeypatch):
    """Same graph, same bytes: twice in one process, and in fresh interpreters with other
    string-hash seeds."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    _force_units(monkeypatch)
    texts = set()
    for _ in range(2):
        f = sg.value_and_grad(_pendulum(12))
        f(P0)
        texts.add(f.c_source)
    assert len(texts) == 1 and "SG_TU == 4" in next(iter(texts))
    repo = Path(__file__).resolve().parents[2]
    code = (
        "import sys, numpy as np, symgrad as sg\n"
        "from symgrad.codegen.c import split as parts\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from test_end_to_end import _pendulum, P0\n"
        "from symgrad.lower import outline\n"
        "parts.PART_WEIGHT, parts.UNIT_PARTS, outline.MIN_KERNELS = 40, 2, 10 ** 9\n"
        "print(sg.inspect(sg.value_and_grad(_pendulum(12)), P0, print_=False).c_source)\n"
    )
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(repo))
        out = subprocess.run([sys.executable, "-c", code, str(repo / "tests" / "api")], env=env,
                             capture_output=True, text=True, check=True).stdout
        texts.add(out[:-1])    # print's newline
    assert len(texts) == 1
