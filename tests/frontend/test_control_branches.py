"""Python ``if`` on a traced value inside ``scan``/``fori_loop``/``while_loop`` bodies and
``cond`` branches (lowered to ``symgrad.cond``): compiled against the eager run of the same
Python (which decides each step on its values), gradients against central differences in
float64; what cannot be lowered (a Python ``while``, ``float(t)``, two sides of different
types, too many paths) raises naming the line. And the error messages of this area: a
``fori_loop``'s carry as the user wrote it, ``vmap`` of a Python ``if``, a ``None`` argument,
the guard-limit warning's line."""

import warnings

import numpy as np
import pytest

import symgrad as sg
from tests.references import central_differences

RNG = np.random.default_rng(5)


def piecewise_scan(x, w):
    """if/elif/else, ``and``, a conditional expression: each step takes its own path."""
    def body(c, xi):
        if xi > 0.5 and c < 3.0:
            c = c + xi * w
        elif xi < -0.5:
            c = c * 0.5 - xi
        else:
            c = c + sg.sin(xi)
        y = c * 2 if c > 1 else -c
        return c, y
    return sg.scan(body, w * 0.0, x)


def check(fn, *args, tol=1e-13):
    """``fn`` compiled equals ``fn`` run eagerly (Python decides each step)."""
    got = sg.compile(fn)(*args)
    want = fn(*[sg.tensor(a) for a in args])
    for g, w in zip(np.atleast_1d(got) if not isinstance(got, tuple) else got,
                    np.atleast_1d(want) if not isinstance(want, tuple) else want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=tol, atol=tol)
    return got


def test_if_in_a_scan_body_takes_each_steps_own_path():
    x = np.array([0.9, -0.7, 0.1, 1.5, 2.0, -2.0, 0.6])
    for w in (0.7, 1.3, -0.4):
        check(piecewise_scan, x, np.float64(w))


def test_gradients_through_the_lowered_branches():
    x = np.array([0.9, -0.7, 0.1, 1.5, 2.0, -2.0, 0.6])

    def loss(w):
        c, ys = piecewise_scan(sg.tensor(x), w)
        return c * c + (ys * ys).sum()
    w0 = np.array(0.7)
    np.testing.assert_allclose(sg.grad(loss)(w0), central_differences(loss, w0), rtol=1e-7)
    second = sg.grad(lambda w: sg.grad(loss)(w))(w0)
    fd = (float(sg.grad(loss)(w0 + 1e-5)) - float(sg.grad(loss)(w0 - 1e-5))) / 2e-5
    assert float(second) == pytest.approx(fd, rel=1e-5)


def test_if_in_fori_and_while_bodies_and_cond_functions():
    x = RNG.normal(size=6)

    def fori(x):
        def body(i, c):
            if x[i] > 0:                         # an index that is a body input
                c = c + x[i] ** 2
            if not c > 2.0:
                c = c * 1.1
            return c
        return sg.fori_loop(0, 6, body, x[0] * 0 + 0.5)

    def while_(x):
        def body(c):
            k, v = c
            if v.sum() > 0:
                v = v - 0.7
            else:
                v = v * 2 + 0.3
            return k + 1, v
        def test(c):
            if c[0] < 3:                         # a Python if in the condition function
                return True
            return c[0] < 8
        return sg.while_loop(test, body, (0, x))[1]

    def branch(x):
        def yes(a):
            return a * 2 if a.sum() > 1 else a - 1
        return sg.cond(x.sum() > -10, yes, lambda a: a, (x,))
    for fn in (fori, while_, branch):
        check(fn, x)


def test_nested_ifs_repeated_predicates_and_in_place_updates():
    def f(x):
        def body(c, xi):
            acc = c.clone()
            if xi > 0:
                if xi > 1:
                    acc += xi                    # in place, then the other side reruns
                else:
                    acc -= xi
            if xi > 0:                           # the same predicate: the same outcome
                acc = acc * 1.5
            return acc, acc.sum()
        return sg.scan(body, sg.zeros(2, dtype=x.dtype), x)
    check(f, np.array([0.5, 2.0, -1.0, 1.2]))


def test_vmap_of_a_compiled_scan_with_a_python_if():
    xs = RNG.normal(size=(3, 5))
    per = sg.vmap(lambda x: piecewise_scan(x, x[0] * 0 + 0.7)[0])(xs)
    want = [piecewise_scan(sg.tensor(x), sg.tensor(0.7, dtype=sg.float64))[0].item()
            for x in xs]
    np.testing.assert_allclose(per, want, rtol=1e-13)


def test_a_condition_the_same_at_every_step_is_a_guard_of_the_call():
    """A value read from outside the body (an argument here) is decided as the function's
    own Python control flow is: on the call's values, checked by the C before it runs (a
    call whose values go the other way traces that path)."""
    from symgrad import tracing

    def f(x, w):
        def body(c, xi):
            if w.sum() > 0:
                c = c + xi * w.sum()
            else:
                c = c - xi
            return c, None
        return sg.scan(body, x[0] * 0, x)[0]
    cf = sg.compile(f)
    x = np.array([1.0, 2.0, 3.0])
    before = tracing.stats["traces"]
    for w in ([1.0, 0.5], [-1.0, -1.0], [2.0, 2.0]):
        w = np.array(w)
        assert float(cf(x, w)) == f(sg.tensor(x), sg.tensor(w)).item()
    assert tracing.stats["traces"] - before == 2          # one path per outcome


def test_a_decision_on_an_outer_loops_value_inside_an_inner_body():
    def g(x):
        def outer(c, xi):
            def inner(i, d):
                if c > 1:                        # the outer step's carry: a cond out there
                    return d + xi
                return d - 1
            return sg.fori_loop(0, 2, inner, c), None
        return sg.scan(outer, x[0], x)[0]
    for x in ([3.0, 1.0, 2.0], [0.5, 1.0, 4.0]):
        check(g, np.array(x))
    x0 = np.array([3.0, 1.0, 2.0])
    np.testing.assert_allclose(sg.grad(g)(x0), central_differences(g, x0), atol=1e-8)


def test_jacobians_and_vmap_of_python_control_flow_on_unmapped_values():
    """jacfwd and hessian map over tangents: the point they are taken at is the same for
    every tangent, so a Python if on it is decided (guarded) as in the function itself."""
    def f(x):
        if x.sum() > 0:
            return (x ** 2).sum()
        return (x ** 3).sum()
    for sign in (1.0, -1.0):
        x = np.array([1.0, 2.0, 0.5]) * sign
        want = 2 * x if sign > 0 else 3 * x ** 2
        np.testing.assert_allclose(sg.jacfwd(f)(x), want, rtol=1e-14)
        np.testing.assert_allclose(sg.hessian(f)(x), np.diag(2 * np.ones(3) if sign > 0
                                                             else 6 * x), rtol=1e-14)
    scaled = sg.vmap(lambda v, s: v * 2 if s.sum() > 0 else v, in_axes=(0, None))
    xs = RNG.normal(size=(3, 2))
    np.testing.assert_array_equal(scaled(xs, np.ones(2)), xs * 2)
    np.testing.assert_array_equal(scaled(xs, -np.ones(2)), xs)


def test_what_cannot_be_lowered_names_the_line():
    def python_while(x):
        def body(c):
            while c < 10:
                c = c * 2
            return c + 1
        return sg.while_loop(lambda c: c < 100, body, x[0])
    with pytest.raises(sg.TracerValueError, match=r"test_control_branches.py:\d+ \(while c < "
                       r"10:\).*symgrad.while_loop"):
        sg.compile(python_while)(np.ones(2))

    def to_float(x):
        return sg.scan(lambda c, xi: (c + float(xi), None), x[0] * 0, x)[0]
    with pytest.raises(sg.TracerValueError, match=r"float\(xi\).*scan body.*symgrad.where"):
        sg.compile(to_float)(np.ones(2))

    def two_types(x):
        def body(c, xi):
            if xi > 0:
                c = (c + xi).float()
            return c, None
        return sg.scan(body, x[0] * 0, x)[0]
    with pytest.raises(TypeError, match=r"Python if at test_control_branches.py:\d+ \(if xi > "
                       r"0:\) inside the scan body.*float32\[\] in true_fn and float64\[\]"):
        sg.compile(two_types)(np.ones(2))

    def many(x):
        def body(c, xi):
            for k in range(8):
                if xi > k:
                    c = c + 1
            return c, None
        return sg.scan(body, x[0] * 0, x)[0]
    with pytest.raises(sg.TracerValueError, match="too many paths"):
        sg.compile(many)(np.ones(2))


def test_a_user_except_does_not_swallow_the_lowering():
    def f(x):
        def body(c, xi):
            try:
                if xi > 0:
                    c = c + xi
            except Exception:                    # noqa: BLE001
                c = c * 0
            return c, None
        return sg.scan(body, x[0] * 0, x)[0]
    check(f, np.array([1.0, -2.0, 3.0]))


# ---------------------------------------------------------------- error messages

def test_fori_loop_errors_speak_of_its_val():
    def reshaped(x):
        return sg.fori_loop(0, 3, lambda i, c: (c[0] + x[i], c[1].reshape(1)), (x[0], x[1]))
    with pytest.raises(TypeError, match=r"^fori_loop body_fun: val\[1\] enters the body as "
                       r"float64\[\] and leaves it as float64\[1\]"):
        sg.compile(reshaped)(np.ones(3))

    def dropped(x):
        return sg.fori_loop(0, 3, lambda i, c: (c[0] + x[i],), (x[0], x[1]))
    with pytest.raises(TypeError, match=r"^fori_loop body_fun: val has the structure \(\*, \*\) "
                       r"on entry and \(\*,\) on return"):
        sg.compile(dropped)(np.ones(3))

    def traced_bound(x, n):
        return sg.fori_loop(0, n, lambda i, c: c.reshape(1), x[0])
    with pytest.raises(TypeError, match=r"^fori_loop body_fun: val enters the body as "
                       r"float64\[\] and leaves it as float64\[1\]"):
        sg.compile(traced_bound)(np.ones(3), 2)
    with pytest.raises(TypeError, match=r"^scan body: carry\[1\] enters"):
        sg.compile(lambda x: sg.scan(lambda c, _: ((c[0], c[1].reshape(1)), None),
                                     (x[0], x[1]), length=2))(np.ones(3))


def test_vmap_of_a_python_if_speaks_of_vmap_and_torch_where():
    f = sg.compile(lambda x: sg.vmap(lambda v: v * 2 if v.sum() > 0 else v)(x))
    with pytest.raises(RuntimeError, match=r"^vmap: It looks like you're attempting to use a "
                       r"Tensor in some data-dependent control flow at test_control_branches"
                       r".py:\d+ .*torch.where") as info:
        f(np.ones((2, 3)))
    assert isinstance(info.value, sg.TracerValueError) and "scan" not in str(info.value)
    with pytest.raises(RuntimeError, match=r"calling .item\(\) on a Tensor"):
        sg.vmap(lambda v: v * v.sum().item())(np.ones((2, 3)))


def test_torch_vmap_says_the_same():
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError, match="It looks like you're attempting to use a Tensor "
                                           "in some data-dependent control flow"):
        torch.func.vmap(lambda v: v * 2 if v.sum() > 0 else v)(torch.ones(2, 3))


def test_a_none_argument_is_named_in_the_error():
    def f(x, y):
        return x + y
    with pytest.raises(TypeError, match=r"^argument 'y' of f is None; pass an array or a "
                                        r"number .*got None"):
        sg.compile(f)(np.ones(2), None)


def test_the_guard_limit_warning_points_at_the_users_call():
    @sg.compile(max_paths=2)
    def f(x):
        if x.sum() > 0:
            return x * 2
        if x.sum() > -5:
            return x * 3
        return x * 4
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for v in (1.0, -1.0, -10.0):
            f(np.full(2, v))                     # the third path: the warning's line
    (w,) = [w for w in caught if "paths" in str(w.message)]
    assert w.filename == __file__
