"""Standalone C export, C function pointers and SciPy callbacks (api/export.py).

The exported directories are built the way a user builds them (``make``, a plain ``cc``, strict
C99 flags) and their own test programs are run; the outputs they write are compared with the
in-process results (bit for bit when built with symgrad's own flags) and with NumPy formulas.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F

CC = shutil.which("cc") or shutil.which("gcc")
MAKE = shutil.which("make")
STRICT = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"]
pytestmark = pytest.mark.skipif(CC is None, reason="needs a C compiler")


def run(cmd, cwd, env=None, check=True) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=300)
    if check and done.returncode:
        raise AssertionError(f"{cmd} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done


def mlp(w1, b1, w2, x, y):
    h = sg.tanh(x @ w1 + b1)
    return ((h @ w2 - y) ** 2).mean()


def ode(u, p):
    for _ in range(5):
        u = u + 0.1 * sg.sin(p * u - u ** 3)
    return (u ** 2).sum() + sg.logsumexp(u, 0)


def mlp_args(rng):
    return (rng.normal(size=(30, 40)), rng.normal(size=40), rng.normal(size=(40, 3)),
            rng.normal(size=(64, 30)), rng.normal(size=(64, 3)))


def raw_outputs(directory, name, dtypes) -> list:
    """The outputs ``test_name out.bin`` wrote, split by the outputs' sizes."""
    data = (directory / "out.bin").read_bytes()
    out, at = [], 0
    for dt, size in dtypes:
        n = np.dtype(dt).itemsize * size
        out.append(np.frombuffer(data[at:at + n], dtype=dt))
        at += n
    assert at == len(data)
    return out


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_make_builds_the_directory_and_its_test_passes(tmp_path, rng):
    f = sg.value_and_grad(mlp, argnums=(0, 1, 2))
    args = mlp_args(rng)
    e = f.export_c(tmp_path, *args, name="mlp_grad")
    assert sorted(e.files) == ["Makefile", "mlp_grad.c", "mlp_grad.h", "test_mlp_grad.c"]
    done = run([MAKE, "check"], tmp_path)
    assert "PASSED" in done.stdout and (tmp_path / "mlp_grad.o").exists()
    # The outputs it computed, against symgrad's in this process and a NumPy formula.
    run(["./test_mlp_grad", "out.bin"], tmp_path)
    value, grads = f(*args)
    sizes = [(np.float64, 1)] + [(np.float64, a.size) for a in args[:3]]
    got = raw_outputs(tmp_path, "mlp_grad", sizes)
    np.testing.assert_allclose(got[0][0], value, rtol=1e-12)
    for g, want in zip(got[1:], grads):
        np.testing.assert_allclose(g.reshape(want.shape), want, rtol=1e-9, atol=1e-13)
    w1, b1, w2, x, y = args
    h = np.tanh(x @ w1 + b1)
    r = h @ w2 - y
    dw2 = h.T @ (2 * r / r.size)
    np.testing.assert_allclose(got[3].reshape(dw2.shape), dw2, rtol=1e-9, atol=1e-13)
    # The header documents the arguments and the work size; the function allocates nothing.
    header = (tmp_path / "mlp_grad.h").read_text()
    assert f"#define MLP_GRAD_WORK_SIZE {e.work_size}" in header
    assert "w1: double[30][40], float64, shape (30, 40): argument w1" in header
    assert "out1: double[30][40], float64, shape (30, 40): result out[1][0]" in header
    assert e.signature in header
    code = (tmp_path / "mlp_grad.c").read_text()
    assert set(re.findall(r'#include [<"](.*?)[>"]', code)) == {"math.h", "stdint.h",
                                                                "stddef.h", "mlp_grad.h"}
    assert not re.search(r"\b(malloc|calloc|free|scipy_\w+)\(", code)
    assert "#pragma" not in code      # pragmas go through macros: C99 with or without OpenMP


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_the_exported_test_fails_on_a_wrong_expected_value(tmp_path, rng):
    e = sg.grad(ode).export_c(tmp_path, rng.normal(size=50), rng.normal(size=50))
    test = tmp_path / f"test_{e.name}.c"
    text = test.read_text()
    wrong = re.sub(r"(expected0\[\d+\] = \{\n    )(-?0x[0-9a-f.]+p[-+]\d+)", r"\g<1>0x1.5p+9",
                   text, count=1)
    assert wrong != text
    test.write_text(wrong)
    done = run([MAKE, "check"], tmp_path, check=False)
    assert done.returncode != 0 and "MISMATCH" in done.stdout


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_bit_for_bit_with_symgrads_own_flags(tmp_path, rng):
    f = sg.value_and_grad(ode)
    args = (rng.normal(size=300), rng.normal(size=300))
    e = f.export_c(tmp_path, *args, portable=False)
    run([MAKE, "CPPFLAGS=-DSG_TEST_EXACT"], tmp_path)
    run([f"./test_{e.name}", "out.bin"], tmp_path)
    value, grad = f(*args)
    got = raw_outputs(tmp_path, e.name, [(np.float64, 1), (np.float64, 300)])
    assert got[0].view(np.uint64)[0] == np.float64(value).view(np.uint64)
    assert np.array_equal(got[1].view(np.uint64), grad.view(np.uint64))


def _corpus(rng):
    """name -> (compiled function, arguments): kernels of every kind, several dtypes."""
    def kinds(x, i, s):
        picked = F.nll_loss(F.log_softmax(x, 1), i)          # gathers, reductions
        sorted_ = sg.sort(x, 1)[0][:, -1].sum()
        return picked + sorted_ * s + sg.cumsum(x, 1).amax() + (x[:, 1:3] * x[:, :2]).sum()

    def control(x):
        y = sg.lax.fori_loop(0, 3, lambda k, v: v * 0.9 + sg.sin(v), x)
        z = sg.lax.cond(x.sum() > 0, lambda v: v * 2, lambda v: -v, y)
        return (z ** 2).sum()

    def newton(x):          # a while loop: in symgrad's build its loop polls for Ctrl-C
        return sg.lax.while_loop(lambda v: (v * v - x).abs().sum() > 1e-12,
                                 lambda v: 0.5 * (v + x / v), x)

    def ints_and_bools(n, x):
        return sg.where(n > 2, x * n, -x), n.sum(), n > 0, x.argmax()

    def linalg(a, b):
        spd = a @ a.T + 4 * sg.eye(4, dtype=a.dtype)
        return sg.linalg.solve(spd, b).sum() + sg.linalg.cholesky(spd).diagonal().sum()

    def with_constant(x):
        return (x * sg.tensor(np.linspace(-1, 1, 12)).reshape(3, 4)).sum()

    def empty(x, y):
        return x.sum() + y.sum(), x * 2

    x34 = rng.normal(size=(3, 4))
    return {
        "kinds_vg": (sg.value_and_grad(kinds, argnums=(0, 2)),
                     (x34, np.array([0, 3, 1]), np.float64(0.5))),
        "kinds32": (sg.compile(kinds), (x34.astype(np.float32), np.array([0, 3, 1]),
                                        np.float32(0.5))),
        "control_grad": (sg.grad(control), (rng.normal(size=5),)),
        "newton_while": (sg.compile(newton), (np.abs(rng.normal(size=4)) + 0.5,)),
        "ints_and_bools": (sg.compile(ints_and_bools), (rng.integers(0, 5, (3, 4)), x34)),
        "linalg_vg": (sg.value_and_grad(linalg, argnums=(0, 1)),
                      (rng.normal(size=(4, 4)), rng.normal(size=4))),
        "constant_grad": (sg.grad(with_constant), (x34,)),
        "empty": (sg.compile(empty), (np.zeros((0, 3)), np.ones(2))),
        "big_threads": (sg.value_and_grad(lambda x: (sg.exp(x) * sg.tanh(x)).sum()),
                        (rng.normal(size=(512, 512)),)),
        "hessian": (sg.hessian(lambda x: (sg.exp(x) * x).sum() * x[0]), (rng.normal(size=5),)),
        "banded": (sg.hessian(lambda x: (100 * (x[1:] - x[:-1] ** 2) ** 2).sum()),
                   (rng.normal(size=80),)),
        "per_example": (sg.vmap(sg.grad(lambda w, x: sg.tanh(x @ w).sum()), in_axes=(None, 0)),
                        (rng.normal(size=3), rng.normal(size=(4, 2, 3)))),
    }


def test_a_corpus_compiles_as_strict_c99_and_passes_its_tests(tmp_path, rng):
    """Every kernel kind, exported portably, built by a plain cc with -std=c99 -Wall -Wextra
    -pedantic -Werror, passes its own test; the threaded one also with OpenMP, on 2 threads."""
    built = 0
    for name, (f, args) in _corpus(rng).items():
        d = tmp_path / name
        e = f.export_c(d, *args, name=name)
        run([CC, *STRICT, "-O1", f"{name}.c", f"test_{name}.c", "-o", "t", "-lm"], d)
        assert "PASSED" in run(["./t"], d).stdout
        built += 1
        if name == "banded":
            assert "(banded:" in e.files[f"{name}.c"].read_text()
        if name == "big_threads":
            assert "SG_PARALLEL(omp parallel for" in e.files[f"{name}.c"].read_text()
            run([CC, *STRICT, "-O1", "-fopenmp", f"{name}.c", f"test_{name}.c", "-o", "t2",
                 "-lm"], d)
            assert "PASSED" in run(["./t2"], d, env={"SG_TEST_THREADS": "2"}).stdout
    assert built == 12


def test_guards_become_documented_statuses(tmp_path, rng):
    def branchy(x):
        if x.sum() > 0:     # a Python `if` on a value: guarded
            return (x * 2).sum()
        return (-x).sum()
    e = sg.compile(branchy).export_c(tmp_path, np.ones(3))
    header = e.files["branchy.h"].read_text()
    assert re.search(r"\* {3}\d+: the arguments took the other way at .*test_export\.py:\d+",
                     header)
    run([CC, *STRICT, "branchy.c", "test_branchy.c", "-o", "t", "-lm"], tmp_path)
    assert "PASSED" in run(["./t"], tmp_path).stdout


def test_dtype_policy_float32(tmp_path, rng):
    e = sg.grad(ode).export_c(tmp_path, rng.normal(size=20), rng.normal(size=20),
                              dtype_policy="float32")
    assert "const float *u" in e.signature and "float *out0" in e.signature
    run([CC, *STRICT, f"{e.name}.c", f"test_{e.name}.c", "-o", "t", "-lm"], tmp_path)
    assert "PASSED" in run(["./t"], tmp_path).stdout


def test_cblas_names(tmp_path, rng):
    """blas="cblas" calls the standard cblas_dgemm; linked here against a two-line CBLAS over
    the scipy-openblas32 wheel's prefixed one."""
    from symgrad.build.c.toolchain import openblas_flags
    f = sg.value_and_grad(mlp, argnums=(0, 1, 2))
    e = f.export_c(tmp_path, *mlp_args(rng), name="mlp_cblas", blas="cblas")
    code = e.files["mlp_cblas.c"].read_text()
    assert "cblas_dgemm(SG_ROW_MAJOR" in code and "scipy_" not in code
    (tmp_path / "shim.c").write_text(
        "void scipy_cblas_dgemm(int, int, int, int, int, int, double, const double *, int,\n"
        "    const double *, int, double, double *, int);\n"
        "void cblas_dgemm(int o, int ta, int tb, int m, int n, int k, double al,\n"
        "    const double *a, int lda, const double *b, int ldb, double be, double *c,\n"
        "    int ldc) { scipy_cblas_dgemm(o, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc); }\n")
    run([CC, *STRICT, "-O2", "mlp_cblas.c", "test_mlp_cblas.c", "shim.c", "-o", "t",
         *openblas_flags(), "-lm"], tmp_path)
    assert "PASSED" in run(["./t"], tmp_path).stdout


def test_export_refuses_what_it_cannot_do(tmp_path):
    def newton(x):
        return sg.lax.while_loop(lambda v: (v * v - x).abs().sum() > 1e-9,
                                 lambda v: 0.5 * (v + x / v), x).sum()
    with pytest.raises(NotImplementedError, match="allocates nothing.*while_loop"):
        sg.grad(newton).export_c(tmp_path, np.full(3, 2.0))
    f = sg.compile(lambda x: x * 2)
    with pytest.raises(ValueError, match="not usable as a C function name"):
        f.export_c(tmp_path, np.ones(2), name="2x")
    with pytest.raises(ValueError, match="blas must be 'none' or 'cblas'"):
        f.export_c(tmp_path, np.ones(2), name="twice", blas="scipy")
    with pytest.raises(ValueError, match="dtype_policy"):
        f.export_c(tmp_path, np.ones(2), name="twice", dtype_policy="float16")


def test_c_function_pointer(rng):
    f = sg.value_and_grad(ode)
    args = (rng.normal(size=40), rng.normal(size=40))
    cf = f.c_function(*args)
    assert cf.signature == ("int value_and_grad_ode(const double *u, const double *p, "
                            "double *out0, double *out1, void *work, int nthreads);")
    assert cf.address == int(cf.ffi.cast("uintptr_t", cf.pointer)) != 0
    value, grad = cf(*args)
    want_value, want_grad = f(*args)
    assert value == want_value and np.array_equal(grad, want_grad)
    # by hand, through the pointer: what C code that takes a callback does
    ffi = cf.ffi
    out0, out1, work = np.empty(()), np.empty(40), np.empty(cf.work_size, np.uint8)
    status = cf.pointer(ffi.from_buffer("double[]", args[0]),
                        ffi.from_buffer("double[]", args[1]), ffi.from_buffer("double[]", out0),
                        ffi.from_buffer("double[]", out1),
                        ffi.from_buffer("unsigned char[]", work), 1)
    assert status == 0 and np.array_equal(out1, want_grad)
    with pytest.raises(TypeError, match="argument p must be a float64 array of shape"):
        cf(args[0], args[1][:5])


def test_c_function_is_reentrant(rng):
    cf = sg.grad(ode).c_function(rng.normal(size=2000), rng.normal(size=2000))
    inputs = [(rng.normal(size=2000), rng.normal(size=2000)) for _ in range(4)]
    serial = [cf(*a)[0] for a in inputs]
    results = [None] * 4

    def work(k):
        for _ in range(20):
            results[k] = cf(*inputs[k])[0]
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, serial):
        assert np.array_equal(got, want)


def test_low_level_callable_quad():
    integrate = pytest.importorskip("scipy.integrate")

    @sg.compile
    def g(x, a, b):
        return sg.exp(-a * x * x) * sg.cos(b * x)
    llc = g.low_level_callable(0.0, 1.0, 1.0)
    a, b = 1.5, 2.0
    value, _ = integrate.quad(llc, -np.inf, np.inf, args=(a, b))
    # the Gaussian's Fourier transform: sqrt(pi/a) exp(-b^2 / 4a)
    assert value == pytest.approx(np.sqrt(np.pi / a) * np.exp(-b * b / (4 * a)), rel=1e-10)
    python, _ = integrate.quad(lambda x: float(g(x, a, b)), -np.inf, np.inf)
    assert value == python
    # nquad over a compiled gradient's component: d/da of the same integral
    dg = sg.grad(g, argnums=1)
    dvalue, _ = integrate.nquad(dg.low_level_callable(0.0, 1.0, 1.0), [[-np.inf, np.inf]],
                                args=(a, b))
    want = np.sqrt(np.pi) * np.exp(-b * b / (4 * a)) * (-0.5 * a ** -1.5 + b * b / 4 *
                                                         a ** -2.5)
    assert dvalue == pytest.approx(want, rel=1e-8)


def test_low_level_callable_generic_filter_and_errors(rng):
    ndimage = pytest.importorskip("scipy.ndimage")

    @sg.compile
    def rms(w):
        return ((w * w).mean()).sqrt()
    image = rng.normal(size=(20, 30))
    got = ndimage.generic_filter(image, rms.low_level_callable(np.zeros(9),
                                                               kind="generic_filter"), size=3)
    want = ndimage.generic_filter(image, lambda w: np.sqrt((w * w).mean()), size=3)
    np.testing.assert_allclose(got, want, rtol=1e-14)
    with pytest.raises(TypeError, match="must return one float64 scalar"):
        sg.compile(lambda x: x * 2).low_level_callable(np.zeros(3))
    with pytest.raises(TypeError, match="every argument must be float64"):
        sg.compile(lambda x: x.sum()).low_level_callable(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="kind must be one of"):
        rms.low_level_callable(np.zeros(9), kind="solve_ivp")


def test_the_example_runs(tmp_path):
    pytest.importorskip("scipy")
    import sys
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "examples" / "export_and_callbacks.py"
    done = run([sys.executable, str(example), str(tmp_path / "export")], tmp_path)
    assert "make check: PASSED" in done.stdout or "make is not installed" in done.stdout
    assert "through low_level_callable" in done.stdout and "3. c_function" in done.stdout


def test_the_two_loop_forms_of_a_product_give_the_same_bits(tmp_path, rng, monkeypatch):
    """Without BLAS a large product runs i, p, j (vectorized along rows), a small one i, j, p
    with an accumulator: each output is summed over p in the same order, so the same bits."""
    from symgrad.codegen.c import matmul as kernels
    x, w = rng.normal(size=(40, 70)), rng.normal(size=(70, 30))
    f = sg.compile(lambda x, w: sg.tanh(x @ w))
    outputs = {}
    for form in ("ipj", "ijp"):
        if form == "ijp":
            monkeypatch.setattr(kernels, "blas_worthy", lambda a, b: False)
        d = tmp_path / form
        e = f.export_c(d, x, w, name="prod")
        assert ("a_ip" in e.files["prod.c"].read_text()) == (form == "ipj")
        run([CC, "-std=c99", "-O3", "-ffp-contract=off", "prod.c", "test_prod.c", "-o", "t",
             "-lm"], d)
        run(["./t", "out.bin"], d)
        outputs[form] = (d / "out.bin").read_bytes()
    assert outputs["ipj"] == outputs["ijp"]
    got = np.frombuffer(outputs["ipj"], dtype=np.float64).reshape(40, 30)
    np.testing.assert_allclose(got, np.tanh(x @ w), rtol=1e-12, atol=1e-14)
