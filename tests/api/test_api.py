"""compile / grad / value_and_grad at the API boundary: signatures, structures, static
arguments, bad input, determinism of the C, the template loader and the on-disk cache."""

import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg
import symgrad.nn.functional as F

REPO = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ signatures

def test_python_scalars_are_runtime_inputs_not_constants():
    @sg.compile
    def scale(x, s):
        return x * s

    x = np.arange(3.0)
    np.testing.assert_array_equal(scale(x, 2.0), x * 2.0)
    np.testing.assert_array_equal(scale(x, 3.5), x * 3.5)
    assert len(scale.specializations) == 1            # one specialization served both calls
    assert "3.5" not in scale.c_source and "2.0" not in scale.c_source


def test_new_signature_retraces_and_logs_why(caplog):
    @sg.compile(dynamic=False)      # (by default the second size compiles shape-generic)
    def f(x):
        return (x * x).sum()

    with caplog.at_level(logging.DEBUG, logger="symgrad"):
        f(np.ones(3))
        f(np.ones(4))
        f(np.ones(4, np.float32))
    msgs = [r.getMessage() for r in caplog.records if "compile f" in r.getMessage()]
    assert msgs[0].endswith("first call")
    assert "arg x shape (3,) -> (4,)" in msgs[1]
    assert "arg x dtype float64 -> float32" in msgs[2]
    assert len(f.specializations) == 3
    assert f(np.ones(4, np.float32)).dtype == np.float32


def test_static_args_select_python_control_flow():
    def power(x, n):
        out = x
        for _ in range(n - 1):
            out = out * x
        return out

    f = sg.compile(power, static_argnums=(1,))
    x = np.array([1.5, -2.0])
    np.testing.assert_allclose(f(x, 3), x**3)
    np.testing.assert_allclose(f(x, 4), x**4)
    g = sg.compile(lambda x, *, mode: x + 1 if mode == "inc" else x - 1, static_argnames="mode")
    np.testing.assert_array_equal(g(x, mode="inc"), x + 1)
    np.testing.assert_array_equal(g(x, mode="dec"), x - 1)


def test_shape_dependent_control_flow_works():
    @sg.compile
    def f(x):
        return x.sum() if x.ndim == 1 else x.sum(1)

    assert f(np.ones(3)) == 3.0
    np.testing.assert_array_equal(f(np.ones((2, 3))), [3.0, 3.0])


def test_nested_structures_in_and_out():
    @sg.compile
    def f(params, batch):
        w, b = params["w"], params["b"]
        z = batch[0] @ w + b
        return {"loss": ((z - batch[1]) ** 2).mean(), "parts": (z, [b * 2])}

    rng = np.random.default_rng(0)
    params = {"w": rng.standard_normal((3, 2)), "b": rng.standard_normal(2)}
    batch = [rng.standard_normal((4, 3)), rng.standard_normal((4, 2))]
    out = f(params, batch)
    z = batch[0] @ params["w"] + params["b"]
    assert set(out) == {"loss", "parts"} and isinstance(out["parts"], tuple)
    np.testing.assert_allclose(out["loss"], np.mean((z - batch[1]) ** 2))
    np.testing.assert_allclose(out["parts"][0], z)
    np.testing.assert_allclose(out["parts"][1][0], params["b"] * 2)

    grads = sg.grad(lambda p, bt: f(p, bt)["loss"])(params, batch)
    gz = 2 * (z - batch[1]) / z.size
    np.testing.assert_allclose(grads["w"], batch[0].T @ gz)
    np.testing.assert_allclose(grads["b"], gz.sum(0))


def test_grad_argnums_and_has_aux():
    def f(a, b):
        return (a * b).sum(), a + b

    a, b = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    (ga, gb), aux = sg.grad(f, argnums=(0, 1), has_aux=True)(a, b)
    np.testing.assert_array_equal(ga, b)
    np.testing.assert_array_equal(gb, a)
    np.testing.assert_array_equal(aux, a + b)
    (val, aux2), g1 = sg.value_and_grad(f, argnums=1, has_aux=True)(a, b)
    assert val == 1.0 and np.array_equal(g1, a) and np.array_equal(aux2, a + b)


def test_gradient_of_unused_argument_is_zero():
    g = sg.grad(lambda x, y: (x * 2).sum(), argnums=(0, 1))(np.ones(2), np.ones(3))
    np.testing.assert_array_equal(g[1], np.zeros(3))


# ------------------------------------------------------------------ bad input

@sg.compile
def _affine(x, w):
    return x @ w


BAD_INPUTS = [
    # (description, args, expected exception, message fragment)
    ("inner dims differ", (np.ones((2, 3)), np.ones((4, 2))), RuntimeError,
     r"cannot be multiplied \(2x3 and 4x2\)"),
    ("complex and real dtypes", (np.ones((2, 3), complex), np.ones((3, 2))), RuntimeError,
     r"expected m1 and m2 to have the same dtype, but got: c10::complex<double> != double"),
    ("object array", (np.array([None, 1]), np.ones((2, 2))), TypeError,
     r"argument x: unsupported dtype object"),
    ("not an array", ("abc", np.ones((3, 2))), TypeError,
     r"argument x: expected a NumPy array, a symgrad tensor or a Python number, got str"),
    ("too few arguments", (np.ones((2, 3)),), TypeError, r"missing 1 required positional"),
    ("too many arguments", (np.ones((2, 3)), np.ones((3, 2)), np.ones(1)), TypeError,
     r"positional arguments? but 3 were given"),
]


@pytest.mark.parametrize("desc,args,exc,match", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_inputs_raise_clear_errors(desc, args, exc, match):
    with pytest.raises(exc, match=match):
        _affine(*args)


def test_unknown_keyword_argument():
    with pytest.raises(TypeError, match="unexpected keyword argument 'z'"):
        _affine(np.ones((2, 3)), np.ones((3, 2)), z=np.ones(1))


@pytest.mark.parametrize("make", [
    lambda a: a[:, ::2],                                   # strided
    lambda a: a[::-1],                                     # reversed strides
    lambda a: np.broadcast_to(a[:1], a.shape),             # zero stride
    lambda a: np.asfortranarray(a),                        # column-major
    lambda a: (lambda r: (r.setflags(write=False), r)[1])(a.copy()),  # read-only
    lambda a: np.frombuffer(b"\0" + a.tobytes(), dtype=a.dtype, offset=1).reshape(a.shape),
], ids=["strided", "reversed", "broadcast", "fortran", "readonly", "misaligned"])
def test_non_contiguous_and_odd_layouts_give_correct_results(make):
    f = sg.compile(lambda x: (x * 2).sum(0))
    base = np.arange(24.0).reshape(4, 6)
    arr = make(base)
    np.testing.assert_array_equal(f(arr), (np.asarray(arr) * 2).sum(0))


def test_lossless_casts_are_accepted():
    f = sg.compile(lambda x, i: x * 2 + i)
    out = f(np.ones(3, np.float16), np.arange(3, dtype=np.int32))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [2.0, 3.0, 4.0])


def test_nan_and_inf_propagate_like_numpy():
    f = sg.compile(lambda x: (sg.exp(x) * 0 + x.sqrt(), sg.max(x)))
    x = np.array([np.nan, np.inf, -1.0, 4.0])
    with np.errstate(all="ignore"):
        ref = np.exp(x) * 0 + np.sqrt(x)
    a, m = f(x)
    np.testing.assert_array_equal(a, ref)
    assert np.isnan(m)                     # max propagates NaN, as torch.max does
    z = sg.compile(lambda x: x - x)(np.array([-0.0, 0.0]))
    np.testing.assert_array_equal(np.signbit(z), [False, False])


def test_size_zero_arrays():
    f = sg.compile(lambda x: (x * 2, x.sum(), x.sum(0)))
    a, s, s0 = f(np.ones((0, 3)))
    assert a.shape == (0, 3) and s == 0.0
    np.testing.assert_array_equal(s0, np.zeros(3))


def test_index_out_of_range_is_an_error_not_a_crash():
    f = sg.compile(lambda x, t: F.cross_entropy(x, t))
    with pytest.raises(IndexError, match="out of range"):
        f(np.ones((2, 3)), np.array([0, 3]))
    with pytest.raises(IndexError, match="out of range"):
        f(np.ones((2, 3)), np.array([-1, 0]))
    np.testing.assert_allclose(f(np.zeros((2, 3)), np.array([0, 2])), np.log(3.0))


def test_traced_value_in_python_control_flow_names_the_line_without_guards():
    @sg.compile(guards=False)
    def f(x):
        if x.sum() > 0:  # the offending line
            return x
        return -x

    with pytest.raises(sg.TracerValueError, match=r"test_api\.py:\d+ \(if x\.sum\(\) > 0"):
        f(np.ones(3))
    with pytest.raises(sg.TracerValueError, match="item"):
        sg.compile(lambda x: x.sum().item(), guards=False)(np.ones(2))


def test_grad_of_non_scalar_output_is_a_clear_error():
    with pytest.raises(TypeError, match=r"requires a real scalar output .* shape \(3,\)"):
        sg.grad(lambda x: x * 2)(np.ones(3))
    with pytest.raises(TypeError, match="grad requires floating point inputs"):
        sg.grad(lambda i: (i * 2.0).sum())(np.arange(3))


def test_no_compiler_is_a_clear_error(monkeypatch, tmp_path):
    from symgrad.build import cache
    from symgrad.build.c import compiler
    monkeypatch.setenv("SYMGRAD_CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_loaded", {})
    with pytest.raises(compiler.CompilerNotFoundError, match="install"):
        sg.compile(lambda x: x * 3.25 + 1)(np.ones(2))


# ------------------------------------------------------------------ generated C

def _c_of(fn_src: str, env: dict) -> str:
    code = textwrap.dedent(f"""
        import numpy as np, symgrad as sg, symgrad.nn.functional as F
        {fn_src}
        step = sg.value_and_grad(loss, argnums=(0, 1))
        rep = sg.inspect(step, np.ones((3, 2), np.float32), np.ones(2, np.float32),
                         np.ones((4, 3), np.float32), np.zeros((4, 2), np.float32), print_=False)
        print(rep.c_source)
    """)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout


def test_generated_c_is_deterministic_across_hash_seeds():
    src = ("def loss(w, b, x, y):\n"
           "            return F.binary_cross_entropy_with_logits(x @ w + b, y) + sg.tanh(w).sum()")
    texts = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(REPO))
        texts.add(_c_of(src, env))
    assert len(texts) == 1
    (text,) = texts
    includes = [line for line in text.splitlines() if line.startswith("#include")]
    assert includes and not any("Python.h" in line for line in includes)
    # each statement carries the user's line: the file is "<string>" for python -c
    assert "<string>:4" in text and "[sigmoid]" in text


def test_every_template_loads_through_the_package_loader():
    from symgrad.codegen.c.templates import environment
    env = environment()
    names = sorted(p.name for p in (REPO / "templates").glob("*.c.j2"))
    assert names == sorted(env.list_templates(filter_func=lambda n: n.endswith(".c.j2")))
    for name in names:
        env.get_template(name)


def test_generated_c_compiles_cleanly_with_warnings_as_errors(tmp_path):
    f = sg.value_and_grad(lambda w, x, t: F.cross_entropy(x @ w, t) + w.abs().max())
    rep = sg.inspect(f, np.ones((3, 4)), np.ones((5, 3)), np.array([0, 1, 2, 3, 0]),
                     print_=False)
    c = tmp_path / "k.c"
    c.write_text(rep.c_source)
    # -fopenmp-simd: the C marks loops `#pragma omp simd` (ignored, with a warning, without it)
    subprocess.run(["gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror",
                    "-fopenmp-simd", "-c", str(c), "-o", str(tmp_path / "k.o")], check=True)


def test_second_process_loads_from_disk_cache(tmp_path):
    script = textwrap.dedent("""
        import json, numpy as np, symgrad as sg
        from symgrad.build import cache
        f = sg.grad(lambda x: (sg.sin(x) * x).sum())
        out = f(np.linspace(0, 1, 5))
        print(json.dumps({"compiles": cache.stats["compiles"], "out": out.tolist()}))
    """)
    env = dict(os.environ, PYTHONPATH=str(REPO), SYMGRAD_CACHE_DIR=str(tmp_path / "cache"))
    runs = [json.loads(subprocess.run([sys.executable, "-c", script], env=env, check=True,
                                      capture_output=True, text=True).stdout)
            for _ in range(2)]
    assert runs[0]["compiles"] == 1 and runs[1]["compiles"] == 0
    x = np.linspace(0, 1, 5)
    np.testing.assert_allclose(runs[1]["out"], np.cos(x) * x + np.sin(x))


def test_threads_calling_one_specialization_get_their_own_workspace():
    import threading
    f = sg.compile(lambda x: (sg.exp(x) * 2 + x.sum()).sum(0) * x.mean())
    xs = [np.random.default_rng(i).standard_normal((60, 70)) for i in range(6)]
    refs = [(np.exp(x) * 2 + x.sum()).sum(0) * x.mean() for x in xs]
    bad = []

    def work(i):
        for _ in range(100):
            if not np.allclose(f(xs[i]), refs[i], rtol=1e-12):
                bad.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(xs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not bad


def test_workspace_is_allocated_once_per_thread_even_on_the_fast_path():
    import threading
    f = sg.compile(lambda x: (x * 2).sum(0) * x.mean())
    x = np.ones((4, 5))
    f(x)                                  # the slow path, in this thread
    spec = f.last_specialization
    seen = []

    def work():                           # only the fast path in this thread
        for _ in range(20):
            f(x)
            seen.append(id(spec.workspace))

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert len(seen) == 20 and len(set(seen)) == 1


# ------------------------------------------------------------------ out= buffers

def _linear_loss(w, b, x):
    return ((x @ w + b) ** 2).mean()


def _out_problem():
    rng = np.random.default_rng(1)
    f = sg.value_and_grad(_linear_loss, argnums=(0, 1))
    args = (rng.standard_normal((3, 2)).astype(np.float32),
            rng.standard_normal(2).astype(np.float32),
            rng.standard_normal((4, 3)).astype(np.float32))
    return f, args


def _fresh_outs():
    return (np.empty((), np.float32),
            (np.empty((3, 2), np.float32), np.empty(2, np.float32)))


def test_out_buffers_receive_the_results_and_are_returned():
    f, args = _out_problem()
    val, (gw, gb) = f(*args)
    outs = _fresh_outs()
    leaves = [outs[0], *outs[1]]
    got = f(*args, out=outs)
    assert got is outs
    assert all(a is b for a, b in zip([got[0], *got[1]], leaves))
    np.testing.assert_array_equal(got[0], val)
    np.testing.assert_array_equal(got[1][0], gw)
    np.testing.assert_array_equal(got[1][1], gb)

    class Sub(np.ndarray):
        pass
    sub = (np.empty((), np.float32), (np.empty((3, 2), np.float32).view(Sub),
                                      np.empty(2, np.float32)))
    assert f(*args, out=sub)[1][0] is sub[1][0]      # an ndarray subclass is fine too
    np.testing.assert_array_equal(sub[1][0], gw)


def test_out_buffers_are_reused_across_a_training_loop():
    f, (w, b, x) = _out_problem()
    w, b = w.copy(), b.copy()
    outs = _fresh_outs()
    addresses = {a.ctypes.data for a in (outs[0], *outs[1])}
    for _ in range(5):
        want_val, (want_gw, want_gb) = f(w, b, x)
        val, (gw, gb) = f(w, b, x, out=outs)
        np.testing.assert_array_equal(val, want_val)
        np.testing.assert_array_equal(gw, want_gw)
        np.testing.assert_array_equal(gb, want_gb)
        w -= 0.1 * gw
        b -= 0.1 * gb
    assert {a.ctypes.data for a in (val, gw, gb)} == addresses
    assert len(f.specializations) == 1


def _replace(outs, path, value):
    val, (gw, gb) = outs
    return {"0": (value, (gw, gb)), "1.0": (val, (value, gb)),
            "1.1": (val, (gw, value))}[path]


def _readonly(a):
    a.setflags(write=False)
    return a


def _misaligned(shape):
    n = int(np.prod(shape))
    return np.frombuffer(bytearray(4 * n + 1), np.uint8)[1:].view(np.float32).reshape(shape)


OUT_ERRORS = [
    # (description, build outs from fresh ones, exception, message pattern)
    ("list for tuple", lambda o: (o[0], list(o[1])), TypeError,
     r"out\[1\]: expected a tuple \(\*, \*\), got a list"),
    ("missing leaf", lambda o: (o[0], (o[1][0],)), TypeError,
     r"out\[1\]: expected a tuple \(\*, \*\), got a tuple \(\*,\)"),
    ("flat", lambda o: (o[0], *o[1]), TypeError,
     r"out must have the structure of the result, a tuple \(\*, \(\*, \*\)\)"),
    ("not an ndarray", lambda o: _replace(o, "0", np.float32(0)), TypeError,
     (r"out\[0\] must be a NumPy ndarray: expected an ndarray of shape \(\) and dtype float32, "
      r"got numpy\.float32")),
    ("list leaf", lambda o: _replace(o, "1.1", [0.0, 0.0]), TypeError,
     (r"out\[1\]\[1\] must be a NumPy ndarray: expected an ndarray of shape \(2,\) and dtype "
      r"float32, got list")),
    ("wrong shape", lambda o: _replace(o, "1.0", np.empty((2, 3), np.float32)), ValueError,
     (r"out\[1\]\[0\] has the wrong shape: expected an ndarray of shape \(3, 2\) and dtype "
      r"float32, got shape \(2, 3\) and dtype float32")),
    ("0-d needs 0-d", lambda o: _replace(o, "0", np.empty(1, np.float32)), ValueError,
     r"out\[0\] has the wrong shape: expected an ndarray of shape \(\) .* got shape \(1,\)"),
    ("wrong dtype", lambda o: _replace(o, "1.1", np.empty(2)), TypeError,
     (r"out\[1\]\[1\] has the wrong dtype: expected an ndarray of shape \(2,\) and dtype "
      r"float32, got shape \(2,\) and dtype float64")),
    ("not contiguous", lambda o: _replace(o, "1.0", np.empty((2, 3), np.float32).T),
     ValueError, r"out\[1\]\[0\] is not C-contiguous .*shape \(3, 2\) .*got shape \(3, 2\)"),
    ("strided", lambda o: _replace(o, "1.1", np.empty(4, np.float32)[::2]), ValueError,
     r"out\[1\]\[1\] is not C-contiguous"),
    ("read-only", lambda o: _replace(o, "1.0", _readonly(np.empty((3, 2), np.float32))),
     ValueError, (r"out\[1\]\[0\] is read-only: expected an ndarray of shape \(3, 2\) .*got "
                  r"shape \(3, 2\) and dtype float32")),
    ("misaligned", lambda o: _replace(o, "1.0", _misaligned((3, 2))), ValueError,
     r"out\[1\]\[0\] is not aligned for float32: expected an ndarray of shape \(3, 2\)"),
]


@pytest.mark.parametrize("desc,make,exc,match", OUT_ERRORS, ids=[e[0] for e in OUT_ERRORS])
def test_bad_out_buffers_raise_naming_the_output(desc, make, exc, match):
    f, args = _out_problem()
    with pytest.raises(exc, match=match):
        f(*args, out=make(_fresh_outs()))
    with pytest.raises(exc, match=match):          # the fast path (signature seen) too
        f(*args, out=make(_fresh_outs()))


def test_out_buffers_must_not_share_memory():
    f, (w, b, x) = _out_problem()
    f(w, b, x)
    buf = np.empty(8, np.float32)
    val = np.empty((), np.float32)
    with pytest.raises(ValueError, match=r"out\[1\]\[0\] and out\[1\]\[1\] share memory"):
        f(w, b, x, out=(val, (buf[:6].reshape(3, 2), buf[5:7])))
    with pytest.raises(ValueError, match=r"out\[0\] and out\[1\]\[1\] share memory"):
        f(w, b, x, out=(buf[1:2].reshape(()), (np.empty((3, 2), np.float32), buf[:2])))
    # adjacent, not overlapping: fine
    got = f(w, b, x, out=(val, (buf[:6].reshape(3, 2), buf[6:8])))
    np.testing.assert_array_equal(got[1][1], f(w, b, x)[1][1])


def test_out_buffer_overlapping_an_input_raises():
    f, (w, b, x) = _out_problem()
    f(w, b, x)
    val = np.empty((), np.float32)
    gw = np.empty((3, 2), np.float32)
    with pytest.raises(ValueError, match=r"out\[1\]\[1\] \(shape \(2,\), dtype float32\) shares "
                                         r"memory with argument b \(shape \(2,\)"):
        f(w, b, x, out=(val, (gw, b)))                # in-place update of b: refused
    with pytest.raises(ValueError, match=r"out\[1\]\[0\] .*shares memory with argument w"):
        f(w, b, x, out=(val, (w, np.empty(2, np.float32))))
    big = np.zeros(20, np.float32)
    xs = np.arange(12, dtype=np.float32)
    with pytest.raises(ValueError, match=r"out\[0\] .*shares memory with argument x"):
        f(w, b, xs.reshape(4, 3), out=(xs[5:6].reshape(()), (gw, np.empty(2, np.float32))))
    # an input symgrad copies (strided) is checked against the outputs as the caller's array
    strided = big[:12].reshape(3, 4)[:, :2]           # (3, 2): elements 0 1, 4 5, 8 9
    with pytest.raises(ValueError, match=r"out\[1\]\[1\] .*shares memory with argument w \("
                                         r"shape \(3, 2\), dtype float32\)"):
        f(strided, b, x, out=(val, (gw, big[5:7])))
    got = f(strided, b, x, out=(val, (gw, big[6:8])))  # interleaved but disjoint: fine
    np.testing.assert_array_equal(got[1][1], f(np.ascontiguousarray(strided), b, x)[1][1])


def test_out_with_many_outputs_checks_overlap_by_sorting():
    from symgrad.runtime import outputs
    n = 12                                            # 13 outputs: 78 pairs > the pairwise cap
    f = sg.value_and_grad(lambda *ps: sum((p * float(i + 1)).sum() for i, p in enumerate(ps)),
                          argnums=tuple(range(n)))
    ps = [np.ones(3) * i for i in range(n)]
    assert 13 * 12 // 2 > outputs.MAX_PAIRWISE_OVERLAP_CHECKS
    val, gs = f(*ps)
    outs = (np.empty(()), tuple(np.empty(3) for _ in range(n)))
    got = f(*ps, out=outs)
    assert got is outs and got[0] == val
    for g, want in zip(got[1], gs):
        np.testing.assert_array_equal(g, want)
    buf = np.empty(3 * n + 1)
    shared = (np.empty(()), tuple(buf[3 * i:3 * i + 3] for i in range(n - 1)) + (buf[1:4],))
    with pytest.raises(ValueError, match=r"out\[1\]\[0\] and out\[1\]\[11\] share memory"):
        f(*ps, out=shared)
    with pytest.raises(ValueError, match=r"out\[1\]\[4\] .*shares memory with argument arg7"):
        f(*ps, out=(np.empty(()), tuple(ps[7] if i == 4 else np.empty(3) for i in range(n))))


def test_out_with_dict_and_namedtuple_results():
    from collections import namedtuple
    Pair = namedtuple("Pair", "lo hi")

    @sg.compile
    def f(x):
        return {"sum": x.sum(), "parts": Pair(x * 2, x - 1)}

    x = np.arange(3.0)
    outs = {"parts": Pair(np.empty(3), np.empty(3)), "sum": np.empty(())}
    got = f(x, out=outs)
    assert got is outs and got["sum"] == 3.0
    np.testing.assert_array_equal(got["parts"].hi, x - 1)
    with pytest.raises(ValueError, match=r"out\['parts'\]\.lo has the wrong shape"):
        f(x, out={"parts": Pair(np.empty(2), np.empty(3)), "sum": np.empty(())})
    with pytest.raises(TypeError, match=r"out\['parts'\]: expected a Pair \(\*, \*\), got a "
                                        r"tuple"):
        f(x, out={"parts": (np.empty(3), np.empty(3)), "sum": np.empty(())})


def test_out_on_a_single_output_and_through_the_slow_path():
    f = sg.compile(lambda x, s: x * s)
    x, o = np.arange(4.0), np.empty(4)
    assert f(x, s=3.0, out=o) is o                   # keyword arguments: the slow path
    np.testing.assert_array_equal(o, x * 3.0)
    assert f(x, 2.0, out=o) is o
    np.testing.assert_array_equal(o, x * 2.0)
    with pytest.raises(TypeError, match=r"out must be a NumPy ndarray: expected an ndarray of "
                                        r"shape \(4,\) and dtype float64, got tuple"):
        f(x, 2.0, out=(o,))
    np.testing.assert_array_equal(f(x, 2.0, out=None), x * 2.0)   # None: allocate


def test_function_with_its_own_out_parameter_gets_out():
    @sg.compile
    def f(x, out=1.0):
        return x * out

    x = np.arange(3.0)
    np.testing.assert_array_equal(f(x, out=4.0), x * 4.0)

    @sg.compile
    def g(x, *, out):
        return x + out

    np.testing.assert_array_equal(g(x, out=np.ones(3)), x + 1)
    h = sg.compile(lambda x, **kw: x * kw["out"], static_argnames="out")
    np.testing.assert_array_equal(h(x, out=2.0), x * 2.0)
    vg = sg.value_and_grad(lambda x, out: (x * out).sum())
    val, gx = vg(x, out=np.full(3, 2.0))              # the wrapped function's signature counts
    assert val == 6.0 and np.array_equal(gx, np.full(3, 2.0))


def test_out_inside_a_trace_is_an_error():
    inner = sg.compile(lambda x: x * 2)

    @sg.compile
    def outer(x):
        return inner(x, out=np.empty(3))

    with pytest.raises(TypeError, match="out= needs NumPy results"):
        outer(np.ones(3))


def test_run_takes_a_flat_out_list_and_checks_input_shapes():
    f, args = _out_problem()
    spec, leaves = f.specialize(*args)
    flat = spec.run(leaves)
    outs = [np.empty((), np.float32), np.empty((3, 2), np.float32), np.empty(2, np.float32)]
    assert spec.run(leaves, outs) is outs
    for a, b in zip(outs, flat):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match="a list of the 3 flat outputs, got a list of 2"):
        spec.run(leaves, outs[:2])
    with pytest.raises(ValueError, match=r"out\[2\] has the wrong shape"):
        spec.run(leaves, outs[:2] + [np.empty(3, np.float32)])
    with pytest.raises(ValueError, match=r"argument w has shape \(2, 2\), expected \(3, 2\)"):
        spec.run([np.ones((2, 2), np.float32), *leaves[1:]])


# ------------------------------------------------------------------ pooled large outputs

def test_large_outputs_reuse_memory_once_dropped_and_never_while_held():
    # (exact IEEE arithmetic only, so NumPy gives the very same bits)
    f = sg.compile(lambda x: (x * x - 1, x * 2))
    x = np.linspace(-1, 1, 50_000)          # 400 KB per output: pooled
    a, b = f(x)
    assert type(a) is np.ndarray and a.flags.writeable and a.flags.c_contiguous
    addr = a.ctypes.data
    kept = a
    c, _ = f(x * 3)                         # `kept` is alive: a different block
    assert c.ctypes.data != addr
    addr_c = c.ctypes.data
    np.testing.assert_array_equal(kept, x * x - 1)     # not overwritten by the second call
    np.testing.assert_array_equal(c, (x * 3) * (x * 3) - 1)
    del a, kept, b, c
    d, _ = f(x)                             # a dropped block comes back
    assert d.ctypes.data in (addr, addr_c)
    np.testing.assert_array_equal(d, x * x - 1)


def test_pooled_outputs_survive_views_and_are_safe_across_threads():
    import threading
    f = sg.compile(lambda x: x * x + 1)
    x = np.linspace(-1, 1, 40_000)
    view = f(x)[::2]                        # only a view of the result is kept
    np.testing.assert_array_equal(view, (x * x + 1)[::2])
    f(x * 0)                                # must not write into the viewed block
    np.testing.assert_array_equal(view, (x * x + 1)[::2])
    errors = []

    def worker(k):
        for i in range(30):
            xs = x * (k + i)
            out = f(xs)
            if not np.array_equal(out, xs * xs + 1):
                errors.append((k, i))
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
