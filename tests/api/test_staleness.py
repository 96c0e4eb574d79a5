"""Never a stale or borrowed result (api/fingerprint.py, api/state.py, frontend/core/capture.py,
runtime/captured.py, api/warm.py): every way a compiled function's result can depend on more
than its arguments, changed, gives the numbers a fresh trace gives.

Each case was found returning another program's or an earlier state's numbers. Cases that
need a fresh process run as subprocesses sharing a private cache directory. Oracles: NumPy
formulas written out by hand, and the function run eagerly.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import symgrad as sg


def _env(cache, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYMGRAD_")}
    env.update(SYMGRAD_CACHE_DIR=str(cache), **extra)
    return env


def _python(args: list, cache, stdin: str | None = None, **extra) -> dict:
    """Run ``python *args`` in a fresh process; the JSON it printed last."""
    done = subprocess.run([sys.executable, *args], input=stdin, capture_output=True,
                          text=True, env=_env(cache, **extra), timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------ code without a file

LOSS_A = "def loss(w, x):\n    return ((x @ w) ** 2).sum()\n"
LOSS_B = "def loss(w, x):\n    return sg.tanh(x @ w).sum()\n"
RUN = ("import json, numpy as np, symgrad as sg\n{}"
       "print(json.dumps(list(sg.grad(loss)(np.ones(3), np.ones((2, 3))))))\n")


def _grad_a():   # d/dw sum((x w)^2) = 2 x^T (x w); x w = 3 per row
    return [12.0, 12.0, 12.0]


def _grad_b():   # d/dw sum(tanh(x w)) = x^T (1 - tanh(x w)^2)
    return [2 * (1 - math.tanh(3.0) ** 2)] * 3


@pytest.mark.parametrize("how", ["-c", "stdin"])
def test_two_programs_without_a_file_do_not_share_results(tmp_path, how):
    for source, expected in ((LOSS_A, _grad_a()), (LOSS_B, _grad_b()), (LOSS_A, _grad_a())):
        program = RUN.format(source)
        got = _python(["-c", program] if how == "-c" else ["-"], tmp_path,
                      stdin=program if how == "stdin" else None)
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_a_function_redefined_by_exec_in_one_process(tmp_path, monkeypatch):
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(tmp_path))
    ns = {"sg": sg}
    exec("f = lambda x: (x ** 2.0).sum()", ns)
    np.testing.assert_allclose(sg.grad(ns["f"])(np.full(2, 3.0)), [6.0, 6.0])
    exec("f = lambda x: (x ** 3.0).sum()", ns)
    np.testing.assert_allclose(sg.grad(ns["f"])(np.full(2, 3.0)), [27.0, 27.0])
    for k in (1.5, 2.5, 3.5):       # d/dx sum(sin(k x) x) = k cos(k x) x + sin(k x)
        f = eval(f"lambda x: (sg.sin(x * {k}) * x).sum()", {"sg": sg})
        x = np.array([0.3, 0.7])
        np.testing.assert_allclose(sg.grad(f)(x), k * np.cos(k * x) * x + np.sin(k * x),
                                   rtol=1e-12)


def test_lambdas_of_a_module_loaded_without_sys_modules(tmp_path, monkeypatch):
    monkeypatch.setenv("SYMGRAD_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "plugin.py").write_text(textwrap.dedent("""
        import symgrad as sg
        FUNCTIONS = [lambda x: sg.exp(x), lambda x: sg.sinh(x), lambda x: x ** 3,
                     lambda x: x ** 2]
    """))
    spec = importlib.util.spec_from_file_location("plugin", tmp_path / "plugin.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)            # (not in sys.modules: a plugin loader's way)
    second = [sg.grad(sg.grad(f))(1.0) for f in module.FUNCTIONS]
    np.testing.assert_allclose(second, [math.e, math.sinh(1.0), 6.0, 2.0], rtol=1e-12)


# ------------------------------------------------------------------ captured state

def test_a_global_scalar_is_guarded():
    scale = {"SCALE": 2.0}
    ns = {"sg": sg, **scale}
    exec("def f(x):\n    return (x * SCALE).sum()\n", ns)
    f = sg.compile(ns["f"])
    assert f(np.ones(3)) == 6.0
    ns["SCALE"] = 3.0
    assert f(np.ones(3)) == 9.0
    ns["SCALE"] = 2.0                 # back: the first code again, not a new compile
    assert f(np.ones(3)) == 6.0


W_GLOBAL = np.array([1.0, 2.0, 3.0])


def _uses_global_array(x):
    return (x * W_GLOBAL).sum()


def test_a_global_array_changed_in_place_is_read_at_each_call(builds):
    f = sg.compile(_uses_global_array)
    x = np.array([1.0, 1.0, 1.0])
    assert f(x) == 6.0
    W_GLOBAL[:] = [2.0, 0.0, 1.0]
    try:
        assert f(x) == 3.0
        assert builds[0] == 1             # an input, not a constant: no retrace
    finally:
        W_GLOBAL[:] = [1.0, 2.0, 3.0]


def test_a_closed_over_array_and_a_nonlocal():
    w = np.array([1.0, 2.0])
    k = 1.0

    def f(x):
        return (x * w).sum() * k

    def set_k(value):
        nonlocal k
        k = value
    g = sg.compile(f)
    x = np.ones(2)
    assert g(x) == 3.0
    w[0] = 5.0
    assert g(x) == 7.0
    set_k(2.0)
    assert g(x) == 14.0


def test_numpy_code_on_a_captured_array_retraces_when_it_changes():
    table = np.array([1.0, 2.0])

    def f(x):
        return x * float(np.sum(table))     # NumPy, at trace time: baked, and checked
    g = sg.compile(f)
    assert g(np.ones(1))[0] == 3.0
    table[1] = 10.0
    assert g(np.ones(1))[0] == 11.0


def test_a_redefined_helper_and_a_config_attribute():
    ns = {"sg": sg}
    exec(textwrap.dedent("""
        class Config:
            def __init__(self):
                self.alpha = 2.0
        cfg = Config()
        def helper(x):
            return x * 2.0
        def f(x):
            return (helper(x) * cfg.alpha).sum()
    """), ns)
    f = sg.compile(ns["f"])
    x = np.ones(2)
    assert f(x) == 8.0
    exec("def helper(x):\n    return x * 3.0\n", ns)
    assert f(x) == 12.0
    ns["cfg"].alpha = 0.5
    assert f(x) == 3.0


def test_a_read_only_array_is_a_constant_and_stays_one(builds):
    mask = np.triu(np.ones((3, 3)))
    mask.setflags(write=False)
    f = sg.compile(lambda x: (x * mask).sum())
    x = np.arange(9.0).reshape(3, 3)
    assert f(x) == (x * np.triu(np.ones((3, 3)))).sum()
    assert "cst" in f.c_source or f.last_specialization.artifact.captures == ()
    mask.setflags(write=True)            # made writeable again: traced again, as an input
    mask[0, 0] = 0.0
    assert f(x) == (x * mask).sum()


def test_torch_compile_of_a_module_sees_training_fill_and_load_state_dict():
    sg.manual_seed(0)
    model = sg.nn.Linear(3, 2)
    compiled = sg.compile(model)
    opt = sg.optim.SGD(model.parameters(), lr=0.1)
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)   # the weights'

    def by_hand():
        return x @ model.weight.detach().numpy().T + model.bias.detach().numpy()
    for _ in range(3):
        out = compiled(sg.tensor(x))             # grad mode, parameters require grad:
        assert out.grad_fn is not None           # autograd through the parameters
        loss = (out ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        with sg.no_grad():
            np.testing.assert_allclose(compiled(x), by_hand(), rtol=1e-6)
    with sg.no_grad():
        model.weight.fill_(0.0)
        np.testing.assert_allclose(compiled(x),
                                   np.broadcast_to(model.bias.detach().numpy(), (4, 2)))
        model.load_state_dict({"weight": sg.ones(2, 3), "bias": sg.zeros(2)})
        np.testing.assert_allclose(compiled(x), by_hand(), rtol=1e-6)
        model.weight.data = sg.ones(2, 3) * 2     # a new storage: read at the next call
        np.testing.assert_allclose(compiled(x), by_hand(), rtol=1e-6)
        model.eval()                              # a changed attribute: its own code
        np.testing.assert_allclose(compiled(x), by_hand(), rtol=1e-6)


def test_a_captured_parameter_read_as_a_number_is_checked():
    p = sg.nn.Parameter(sg.tensor([2.0]))

    def f(x):
        return x * p.item()
    g = sg.compile(f)
    with sg.no_grad():
        assert g(np.ones(1))[0] == 2.0
        p.fill_(5.0)
        assert g(np.ones(1))[0] == 5.0


HISTORY = textwrap.dedent("""
    import json, sys, numpy as np, symgrad as sg
    SCALE = float(sys.argv[1])
    W = np.array([1.0, 2.0, 3.0])
    @sg.compile
    def f(x):
        return (x * W * SCALE).sum()
    out = [float(f(np.ones(3)))]
    for scale, w in zip(sys.argv[2::2], sys.argv[3::2]):   # a long-running process
        SCALE, W[0] = float(scale), float(w)
        out.append(float(f(np.ones(3))))
    print(json.dumps(out))
""")


def test_a_long_running_process_and_a_fresh_one_agree(tmp_path):
    (tmp_path / "history.py").write_text(HISTORY)
    prog = str(tmp_path / "history.py")
    long_run = _python([prog, "2.0", "3.0", "5.0", "4.0", "1.0"], tmp_path / "cache")
    fresh = [_python([prog, "2.0"], tmp_path / "cache")[0],
             _python([prog, "3.0"], tmp_path / "cache")[0]]
    assert long_run == [12.0, 3.0 * 10.0, 4.0 * 6.0]
    assert fresh == [12.0, 18.0]


# ------------------------------------------------------------------ the outside world

def test_an_environment_variable_read_while_tracing(tmp_path):
    program = ("import json, os, numpy as np, symgrad as sg\n"
               "f = sg.compile(lambda x: x * float(os.environ['ALPHA']))\n"
               "print(json.dumps(list(f(np.ones(2)))))\n")
    assert _python(["-c", program], tmp_path, ALPHA="2.0") == [2.0, 2.0]
    assert _python(["-c", program], tmp_path, ALPHA="3.0") == [3.0, 3.0]


def test_an_environment_variable_changed_in_process(monkeypatch):
    monkeypatch.setenv("SG_TEST_ALPHA", "2.0")
    f = sg.compile(lambda x: x * float(os.getenv("SG_TEST_ALPHA")))
    assert f(np.ones(1))[0] == 2.0
    monkeypatch.setenv("SG_TEST_ALPHA", "4.0")
    assert f(np.ones(1))[0] == 4.0


def test_a_file_read_while_tracing(tmp_path):
    data = tmp_path / "alpha.txt"
    data.write_text("2.0")
    f = sg.compile(lambda x: x * float(data.read_text()))
    assert f(np.ones(1))[0] == 2.0
    data.write_text("7.0 ")                    # (another size: its identity changed)
    assert f(np.ones(1))[0] == 7.0
    program = ("import json, pathlib, numpy as np, symgrad as sg\n"
               f"p = pathlib.Path({str(data)!r})\n"
               "f = sg.compile(lambda x: x * float(p.read_text()))\n"
               "print(json.dumps(list(f(np.ones(1)))))\n")
    assert _python(["-c", program], tmp_path / "cache") == [7.0]
    data.write_text("1.5")
    assert _python(["-c", program], tmp_path / "cache") == [1.5]


def test_random_numbers_drawn_while_tracing_are_not_stored(tmp_path):
    program = ("import json, random, sys, numpy as np, symgrad as sg\n"
               "random.seed(int(sys.argv[1]))\n"
               "def f(x):\n    return x * random.random()\n"
               "print(json.dumps([sg.compile(f)(np.ones(1))[0], random.random()]))\n")
    for seed in (1, 2, 1):
        import random
        random.seed(seed)
        expected = [random.random(), random.random()]
        assert _python(["-c", program, str(seed)], tmp_path) == expected


# ------------------------------------------------------------------ options

def test_an_inner_compile_s_options_survive_transforms(builds):
    def loss(w, x):
        return ((x @ w) ** 2).mean()
    f = sg.value_and_grad(sg.compile(loss, dynamic=True))
    w = np.array([1.0, -2.0])
    for n in (3, 5, 8):
        x = np.arange(2.0 * n).reshape(n, 2) / n
        value, grad = f(w, x)
        z = x @ w
        assert value == pytest.approx((z ** 2).mean(), rel=1e-13)
        np.testing.assert_allclose(grad, 2 * x.T @ z / n, rtol=1e-12)
    assert builds[0] == 1
    with pytest.raises(ValueError, match="static_argnums"):
        sg.jvp(sg.compile(lambda x, n: x * n, static_argnums=1), (np.ones(2), 2), (np.ones(2),))


def test_a_static_argument_passed_by_keyword():
    def power(x, n):
        return (x ** n).sum()
    f = sg.compile(power, static_argnums=1)
    x = np.array([2.0, 3.0])
    assert f(x, n=2) == 13.0
    assert f(x, n=3) == 35.0
    assert f(x, 2) == 13.0
    g = sg.compile(power, static_argnames="n")
    assert g(x, 3) == 35.0


def test_inspect_traces_a_signature_loaded_from_disk(tmp_path):
    program = ("import json, numpy as np, symgrad as sg\n"
               "def loss(x):\n    return (sg.sin(x) ** 2).sum()\n"
               "f = sg.grad(loss)\nx = np.ones(3)\nf(x)\n"
               "report = sg.inspect(f, x, print_=False)\n"
               "print(json.dumps(['sg_grad_loss' in report.c_source, "
               "len(report.traced_ir) > 0]))\n")
    for _ in range(2):             # the second run loads the signature from disk
        assert _python(["-c", program], tmp_path) == [True, True]


WARM_GENERIC = textwrap.dedent("""
    import json, sys, numpy as np, symgrad as sg
    from symgrad import pipeline
    builds = [0]
    real = pipeline._build
    def counting(*a, **k):
        builds[0] += 1
        return real(*a, **k)
    pipeline._build = counting
    def loss(x):
        return (x * x).mean()
    f = sg.compile(loss)
    out = [float(f(np.arange(float(n)))) for n in map(int, sys.argv[1:])]
    print(json.dumps([out, builds[0]]))
""")


def test_a_new_process_binds_the_automatic_shape_generic_module(tmp_path):
    (tmp_path / "prog.py").write_text(WARM_GENERIC)
    prog = str(tmp_path / "prog.py")
    out, built = _python([prog, "4", "6"], tmp_path / "cache")   # static, then generic
    assert built == 2
    out, built = _python([prog, "9", "4"], tmp_path / "cache")   # both from disk
    assert built == 0
    np.testing.assert_allclose(out, [np.mean(np.arange(9.0) ** 2), np.mean(np.arange(4.0) ** 2)],
                               rtol=1e-14)


def test_a_detached_alias_of_a_parameter_whose_storage_was_replaced():
    # p.detach() inside the function shows p's *current* storage; after p.data = ..., the
    # old storage's id may be reused by a fresh array: neither may confuse the capture
    p = sg.nn.Parameter(sg.tensor([1.0, 2.0]))
    f = sg.compile(lambda x: (x * p.detach()).sum() + (x * sg.tensor([10.0, 20.0])).sum())
    x = np.ones(2)
    with sg.no_grad():
        assert f(x) == 33.0
        for k in range(3):
            p.data = sg.tensor([3.0 + k, 4.0])
            assert f(x) == 37.0 + k


def test_a_captured_array_read_as_values_while_tracing():
    w = np.array([1.0, 2.0, 3.0])
    g = sg.grad(lambda x: (x * float(sg.from_numpy(w).numpy().sum())).sum())
    np.testing.assert_allclose(g(np.ones(3)), [6.0] * 3)
    w[:] = 2.0
    np.testing.assert_allclose(g(np.ones(3)), [6.0] * 3)
    w[0] = 5.0
    np.testing.assert_allclose(g(np.ones(3)), [9.0] * 3)


def test_a_compiled_module_s_captures_are_named_like_its_state_dict():
    model = sg.nn.Sequential(sg.nn.Linear(3, 4), sg.nn.ReLU(), sg.nn.Linear(4, 1))
    f = sg.compile(model)
    with sg.no_grad():
        f(np.ones((2, 3), np.float32))
    names = [name for _, _, name in f.last_specialization.artifact.captures]
    assert names == [k for k in model.state_dict()]


# ------------------------------------------------------------------ found by a new user's trial

def _ns(source: str) -> dict:
    ns = {"sg": sg, "np": np}
    exec(textwrap.dedent(source), ns)
    return ns


def test_captured_values_rebound_to_new_objects_are_read(builds):
    ns = _ns("""
        W = np.array([1.0, 2.0])
        def f(x):
            return x * W
    """)
    f = sg.compile(ns["f"])
    x = np.ones(2)
    np.testing.assert_array_equal(f(x), [1.0, 2.0])
    ns["W"] = np.array([5.0, 6.0])              # another array of the same shape: rebound
    np.testing.assert_array_equal(f(x), [5.0, 6.0])
    ns["W"][:] = 7.0
    np.testing.assert_array_equal(f(x), [7.0, 7.0])
    assert builds[0] == 1                       # (the code reads whatever W now is)


def test_a_minibatch_rebound_at_each_step():
    rng = np.random.default_rng(0)
    X, w_true = rng.standard_normal((40, 3)), np.array([1.0, 2.0, 3.0])
    ns = _ns("""
        def loss(w):
            return ((sg.as_tensor(Xb) @ w - sg.as_tensor(yb)) ** 2).mean()
    """)
    g = sg.grad(ns["loss"])
    w = np.zeros(3)
    for step in range(4):
        Xb = X[step * 10:(step + 1) * 10]
        ns["Xb"], ns["yb"] = Xb, Xb @ w_true
        np.testing.assert_allclose(g(w), 2 * Xb.T @ (Xb @ w - Xb @ w_true) / 10, rtol=1e-12)
        w = w - 0.05 * g(w)


def test_a_parameter_or_a_layer_replaced():
    seq = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.ReLU(), sg.nn.Linear(2, 1))
    f = sg.compile(seq)
    x = np.array([[0.5, -1.0]], np.float32)
    with sg.no_grad():
        np.testing.assert_allclose(f(x), seq(sg.tensor(x)).numpy(), rtol=1e-6)
        seq[2] = sg.nn.Linear(2, 1)
        np.testing.assert_allclose(f(x), seq(sg.tensor(x)).numpy(), rtol=1e-6)
        seq[2].weight.fill_(1.0)
        np.testing.assert_allclose(f(x), seq(sg.tensor(x)).numpy(), rtol=1e-6)
        seq[0].weight = sg.nn.Parameter(sg.full((2, 2), 0.5))
        np.testing.assert_allclose(f(x), seq(sg.tensor(x)).numpy(), rtol=1e-6)
        seq.load_state_dict({k: v * 2 for k, v in seq.state_dict().items()}, assign=True)
        np.testing.assert_allclose(f(x), seq(sg.tensor(x)).numpy(), rtol=1e-6)


def test_the_order_of_a_dict_or_a_set():
    ns = _ns("""
        w = {"a": 1.0, "b": 2.0}
        S = {1, 9}
        def f(x):
            a, b = list(w.values())
            return x * (10 * a + b)
        def g(x):
            return x[list(S)]
    """)
    f, g = sg.compile(ns["f"]), sg.compile(ns["g"])
    assert f(np.ones(1))[0] == 12.0
    ns["w"].pop("a")
    ns["w"]["a"] = 1.0                    # the same items, another order
    assert f(np.ones(1))[0] == 21.0
    x = np.arange(10.0)
    np.testing.assert_array_equal(g(x), x[list(ns["S"])])
    ns["S"].clear()
    ns["S"].add(9)
    ns["S"].add(17)
    np.testing.assert_array_equal(g(np.arange(20.0)), np.arange(20.0)[list(ns["S"])])


def test_modules_reached_through_a_package_and_library_module_attributes(tmp_path,
                                                                           monkeypatch):
    pkg = tmp_path / "sgpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text("LR = 0.1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import sgpkg.config
    ns = _ns("""
        import sys
        import sgpkg.config
        def f(x):
            return x * sgpkg.config.LR * float(sys.argv[-1])
    """)
    monkeypatch.setattr(sys, "argv", ["prog", "2.0"])
    f = sg.compile(ns["f"])
    assert f(np.ones(1))[0] == pytest.approx(0.2)
    sgpkg.config.LR = 0.7
    assert f(np.ones(1))[0] == pytest.approx(1.4)
    sys.argv[-1] = "3.0"
    assert f(np.ones(1))[0] == pytest.approx(2.1)


def test_a_file_s_existence_size_and_the_working_directory(tmp_path, monkeypatch):
    flag, data = tmp_path / "flag", tmp_path / "data"
    data.write_text("1234")
    f = sg.compile(lambda x: x * (1.0 + os.path.exists(flag)) * os.path.getsize(data))
    assert f(np.ones(1))[0] == 4.0
    flag.write_text("")
    assert f(np.ones(1))[0] == 8.0
    data.write_text("12345678")
    assert f(np.ones(1))[0] == 16.0
    monkeypatch.chdir(tmp_path)
    g = sg.compile(lambda x: x * len(os.getcwd()))
    assert g(np.ones(1))[0] == len(str(tmp_path))
    (tmp_path / "deeper").mkdir()
    monkeypatch.chdir(tmp_path / "deeper")
    assert g(np.ones(1))[0] == len(str(tmp_path / "deeper"))


def test_mutable_containers_and_attribute_bags():
    import argparse
    import array
    import collections
    ns = _ns("""
        class Cfg(dict):
            pass
        cfg = Cfg(); cfg.alpha = 2.0
        def uses(args, q, raw, arr, user, chain, objs):
            def f(x):
                return x * (args.lr + cfg.alpha + q[0] + raw[0] + arr[0] + user["k"]
                            + chain["c"] + objs[0])
            return f
    """)
    args = argparse.Namespace(lr=0.0)
    q, raw, arr = collections.deque([0.0]), bytearray(b"\x00"), array.array("d", [0.0])
    user, chain = collections.UserDict(k=0.0), collections.ChainMap({"c": 0.0})
    objs = np.array([0.0], dtype=object)
    f = sg.compile(ns["uses"](args, q, raw, arr, user, chain, objs))
    assert f(np.ones(1))[0] == 2.0
    for change, total in ((lambda: setattr(args, "lr", 1.0), 3.0),
                          (lambda: setattr(ns["cfg"], "alpha", 3.0), 4.0),
                          (lambda: q.__setitem__(0, 1.0), 5.0),
                          (lambda: raw.__setitem__(0, 1), 6.0),
                          (lambda: arr.__setitem__(0, 1.0), 7.0),
                          (lambda: user.__setitem__("k", 1.0), 8.0),
                          (lambda: chain.maps[0].__setitem__("c", 1.0), 9.0),
                          (lambda: objs.__setitem__(0, 1.0), 10.0)):
        change()
        assert f(np.ones(1))[0] == total


def test_names_that_appear_after_the_trace():
    ns = _ns("""
        class Base:
            scale = 2.0
        class Sub(Base):
            pass
        obj, sub = Base(), Sub()
        SCALE = 2.0
        def f(x):
            return x * obj.scale * sub.scale * abs(-1.0) * globals()["SCALE"]
    """)
    f = sg.compile(ns["f"])
    assert f(np.ones(1))[0] == 8.0
    ns["obj"].scale = 5.0                       # an instance attribute hides the class's
    assert f(np.ones(1))[0] == 20.0
    ns["Sub"].scale = 7.0                       # the subclass overrides what it inherited
    assert f(np.ones(1))[0] == 70.0
    ns["abs"] = lambda v: -100.0                # a global now hides the builtin
    assert f(np.ones(1))[0] == -7000.0
    ns["SCALE"] = 3.0                           # read through globals()["SCALE"]
    assert f(np.ones(1))[0] == -10500.0


def test_a_captured_array_reshaped_in_place_traces_again():
    ns = _ns("""
        W = np.array([1.0, 2.0])
        def f(x):
            return x * W
    """)
    f = sg.compile(ns["f"])
    np.testing.assert_array_equal(f(np.ones(2)), [1.0, 2.0])
    ns["W"].shape = (2, 1)
    np.testing.assert_array_equal(f(np.ones(2)), [[1.0, 1.0], [2.0, 2.0]])


def test_a_config_module_reached_through_a_closure_a_default_or_an_import(tmp_path,
                                                                           monkeypatch):
    import importlib
    # Python's own cache of the edited file is not what is tested: a rewrite of the same size
    # in the same second would reload the old bytecode (tests/staleness/harness.py does this too)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    (tmp_path / "sgcfg.py").write_text("ALPHA = 2.0\n")
    (tmp_path / "sghelp.py").write_text("def g(x):\n    return x * 2.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import sgcfg
    ns = _ns("""
        def make(m):
            return lambda x: (x * m.ALPHA).sum()
        def with_default(x, cfg=None):
            return (x * cfg.ALPHA).sum()
        def imports(x):
            import sgcfg
            from sghelp import g
            return (g(x) * sgcfg.ALPHA).sum()
    """)
    ns["with_default"].__defaults__ = (sgcfg,)
    fs = [sg.compile(ns["make"](sgcfg)), sg.compile(ns["with_default"]),
          sg.compile(ns["imports"])]
    x = np.ones(2)
    assert [f(x) for f in fs] == [4.0, 4.0, 8.0]
    sgcfg.ALPHA = 3.0
    assert [f(x) for f in fs] == [6.0, 6.0, 12.0]
    (tmp_path / "sghelp.py").write_text("def g(x):\n    return x * 5.0\n")
    import sghelp
    importlib.reload(sghelp)
    assert fs[2](x) == 30.0


def test_a_static_argument_named_and_passed_by_position():
    f = sg.compile(lambda x, n: (x * n).sum(), static_argnames="n")
    x = np.ones(3)
    assert [f(x, 2), f(x, 2), f(x, 3), f(x, n=3)] == [6.0, 6.0, 9.0, 9.0]


class _KeywordSlots:
    __slots__ = ("lambda", "w")     # slot names Python allows that code cannot write as h.x


def test_a_slot_named_like_a_keyword_is_guarded():
    """The generated guard check reads such an attribute with getattr (``h.lambda`` would not
    compile), and a change of it is seen."""
    c = _KeywordSlots()
    setattr(c, "lambda", 2.0)
    c.w = 3.0
    cf = sg.compile(lambda x: x * getattr(c, "lambda") + c.w)
    np.testing.assert_array_equal(cf(np.ones(2)), [5.0, 5.0])
    setattr(c, "lambda", 5.0)
    np.testing.assert_array_equal(cf(np.ones(2)), [8.0, 8.0])


def test_the_warm_start_key_names_symgrads_own_code(monkeypatch):
    """An edited or upgraded symgrad (same version string, other files) does not load an
    earlier symgrad's warm-start records: its code is part of every key."""
    from symgrad.api import fingerprint

    def f(x):
        return (x * x).sum()
    x = np.ones(3)
    before = sg.compile(f).pretrace_key(x)
    assert sg.compile(f).pretrace_key(x) == before
    monkeypatch.setattr(fingerprint, "symgrad_source", lambda: "another symgrad")
    assert sg.compile(f).pretrace_key(x) != before


BAKED = np.random.default_rng(21).normal(size=(100, 100))   # 80 KB: a large snapshot


def _baked(x):
    return x * float(np.sum(BAKED))      # NumPy on a captured array: baked, checked each call


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copy_of_a_function_with_baked_values_sees_their_change(how):
    """A specialization that checks at each call an array whose values it baked in does not
    travel without those checks: deepcopy and pickle leave it behind (the copy traces), where
    they carried its C alone and the copy kept the old sum after the array changed."""
    import copy
    import pickle
    f = sg.compile(_baked)
    x = np.ones(3)
    np.testing.assert_allclose(f(x), x * BAKED.sum(), rtol=1e-12)
    g = copy.deepcopy(f) if how == "deepcopy" else pickle.loads(pickle.dumps(f))
    old = BAKED[0, 0]
    try:
        BAKED[0, 0] += 1.0
        np.testing.assert_allclose(g(x), x * BAKED.sum(), rtol=1e-12)
        np.testing.assert_allclose(f(x), x * BAKED.sum(), rtol=1e-12)
    finally:
        BAKED[0, 0] = old
