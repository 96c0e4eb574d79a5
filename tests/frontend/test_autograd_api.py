"""torch.autograd's surface: custom Functions, autograd.grad/backward, tensor hooks,
gradcheck. Gradients are checked against central differences (float64) or hand-derived NumPy
formulas; the ``*_like_torch`` tests run the same code under torch and compare."""

import numpy as np
import pytest

import symgrad as sg
from references import central_differences


def legendre3(T):
    """The tutorial's custom Function: P3(x) = (5x^3 - 3x)/2, backward written with ops."""

    class LegendrePolynomial3(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return 0.5 * (5 * x ** 3 - 3 * x)

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 1.5 * (5 * x ** 2 - 1)

    return LegendrePolynomial3


def sincos(T):
    """A Function with two outputs and a non-tensor argument."""

    class SinCos(T.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.save_for_backward(x)
            ctx.scale = scale
            return T.sin(x) * scale, T.cos(x) * scale

        @staticmethod
        def backward(ctx, gs, gc):
            x, = ctx.saved_tensors
            return ctx.scale * (gs * T.cos(x) - gc * T.sin(x)), None

    return SinCos


X0 = np.array([0.3, -1.2, 2.0, 0.7])
P3 = legendre3(sg)


def p3_numpy(x):
    return 0.5 * (5 * x ** 3 - 3 * x), 1.5 * (5 * x ** 2 - 1), 15 * x


def test_custom_function_value_gradient_and_second_derivative():
    x = sg.tensor(X0, requires_grad=True)
    y = P3.apply(x)
    value, d1, d2 = p3_numpy(X0)
    np.testing.assert_allclose(y.detach().numpy(), value)
    assert type(y.grad_fn).__name__ == "LegendrePolynomial3Backward"
    assert y.grad_fn.next_functions[0][0].name() == "AccumulateGrad"
    (g,) = sg.autograd.grad(y.sum(), x, create_graph=True)
    np.testing.assert_allclose(g.detach().numpy(), d1)
    np.testing.assert_allclose(g.detach().numpy(),
                               central_differences(lambda t: P3.apply(t).sum(), X0), rtol=1e-7)
    g.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), d2)


def test_custom_function_inside_compile_matches_finite_differences():
    f = sg.grad(lambda x: (P3.apply(sg.tanh(x)) ** 2).sum())
    want = central_differences(lambda t: (P3.apply(sg.tanh(t)) ** 2).sum(), X0)
    np.testing.assert_allclose(f(X0), want, rtol=1e-7)

    @sg.compile
    def step(x):
        x.requires_grad_()
        P3.apply(x).sum().backward()
        return x.grad

    np.testing.assert_allclose(step(X0), p3_numpy(X0)[1])


def test_two_outputs_a_constant_argument_and_an_unused_output():
    SinCos = sincos(sg)
    x = sg.tensor(X0, requires_grad=True)
    s, c = SinCos.apply(x, 2.0)
    assert s.grad_fn is c.grad_fn
    (s * s + 3 * c).sum().backward()
    want = 2 * (2 * np.sin(X0) * 2 * np.cos(X0) - 3 * np.sin(X0))
    np.testing.assert_allclose(x.grad.numpy(), want)
    x.grad = None
    s, _ = SinCos.apply(x, 2.0)          # the other output's gradient is materialized as zeros
    s.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(X0))


def test_needs_input_grad_mark_non_differentiable_and_materialize():
    seen = {}

    class ArgmaxAndSquare(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            seen["needs"] = ctx.needs_input_grad
            ctx.set_materialize_grads(False)
            idx = x.argmax()
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(x)
            return x * x * w, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            seen["g_idx"] = g_idx
            x, = ctx.saved_tensors
            return 2 * x * g, None

    x = sg.tensor(X0, requires_grad=True)
    w = sg.tensor(1.0)
    y, idx = ArgmaxAndSquare.apply(x, w)
    assert seen["needs"] == (True, False)
    assert not idx.requires_grad and idx.item() == 2
    y.sum().backward()
    assert seen["g_idx"] is None
    np.testing.assert_allclose(x.grad.numpy(), 2 * X0)


def test_mark_dirty_in_place_forward():
    class AddOneInPlace(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 3

    a = sg.tensor(X0, requires_grad=True)
    b = a * 2
    out = AddOneInPlace.apply(b)
    assert out is b and type(b.grad_fn).__name__ == "AddOneInPlaceBackward"
    out.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.full(4, 6.0))
    np.testing.assert_allclose(b.detach().numpy(), 2 * X0 + 1)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        AddOneInPlace.apply(sg.tensor(X0, requires_grad=True))


def test_new_style_setup_context():
    class Cube(sg.autograd.Function):
        @staticmethod
        def forward(x):
            return x ** 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output)

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * 3 * y / x

    x = sg.tensor(X0, requires_grad=True)
    Cube.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3 * X0 ** 2)


def test_custom_function_errors():
    class WrongCount(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    x = sg.tensor(X0, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"WrongCountBackward returned an incorrect number "
                                           r"of gradients \(expected 2, got 1\)"):
        WrongCount.apply(x, x).sum().backward()

    class WrongShape(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return sg.ones(3)

    with pytest.raises(RuntimeError, match=r"got \[3\] but expected shape compatible with "
                                           r"\[4\]"):
        WrongShape.apply(x).backward()

    y = P3.apply(x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()
    x2 = x.detach().clone().requires_grad_()
    h = x2 * 1
    z = P3.apply(h)
    h.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_once_differentiable_refuses_double_backward():
    class Square(sg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @sg.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 2 * x * g

    x = sg.tensor(X0, requires_grad=True)
    (g,) = sg.autograd.grad(Square.apply(x).sum(), x)
    np.testing.assert_allclose(g.numpy(), 2 * X0)
    (g,) = sg.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    assert not g.requires_grad     # as in torch: the cotangent fed in does not require grad
    v = sg.ones(4, requires_grad=True)
    (g,) = sg.autograd.grad(Square.apply(x), x, v, create_graph=True)
    with pytest.raises(RuntimeError, match="once_differentiable"):
        g.sum().backward()


# ---------------------------------------------------------------- autograd.grad / backward

def test_grad_follows_paths_through_other_inputs_and_does_not_accumulate():
    x = sg.tensor(1.5, requires_grad=True)
    y = x * 2
    z = y * y * 3
    gx, gy = sg.autograd.grad(z, [x, y], retain_graph=True)
    assert gx.item() == pytest.approx(6 * 3.0 * 2)     # dz/dx = 6 y * 2, y = 3
    assert gy.item() == pytest.approx(6 * 3.0)
    assert x.grad is None
    w = sg.tensor(2.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="appears to not have been used"):
        sg.autograd.grad(z, [x, w], retain_graph=True)
    gx, gw = sg.autograd.grad(z, [x, w], allow_unused=True, retain_graph=True)
    assert gw is None
    gx, gw = sg.autograd.grad(z, [x, w], materialize_grads=True)
    assert gw.item() == 0.0
    with pytest.raises(RuntimeError, match="does not require grad"):
        sg.autograd.grad(x * 2, sg.tensor(1.0))
    with pytest.raises(RuntimeError, match="only for scalar outputs"):
        sg.autograd.grad(sg.stack([x, x]) * 2, x)


def test_grad_with_grad_outputs_and_several_outputs():
    x = sg.tensor(X0, requires_grad=True)
    v = np.array([1.0, -2.0, 0.5, 3.0])
    (g,) = sg.autograd.grad([x * x, sg.sin(x)], x, [sg.tensor(v), sg.ones(4)])
    np.testing.assert_allclose(g.numpy(), 2 * X0 * v + np.cos(X0))


def test_backward_inputs_accumulates_only_there():
    a = sg.tensor(2.0, requires_grad=True)
    b = sg.tensor(3.0, requires_grad=True)
    h = a * b
    (h * h).backward(inputs=[a], retain_graph=True)
    assert a.grad.item() == pytest.approx(2 * 6 * 3) and b.grad is None
    sg.autograd.backward([h * h], inputs=[h, b])
    assert h.grad.item() == pytest.approx(12) and b.grad.item() == pytest.approx(2 * 6 * 2)


# ---------------------------------------------------------------- hooks

def test_tensor_hooks_on_leaves_and_intermediates():
    x = sg.tensor(X0, requires_grad=True)
    seen = []
    h1 = x.register_hook(lambda g: g * 2)
    x.register_hook(lambda g: seen.append(g.numpy().copy()))
    y = x * x
    y.retain_grad()
    y.register_hook(lambda g: g + 1)
    y.sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), np.full(4, 2.0))   # retain_grad sees the hook's
    np.testing.assert_allclose(seen[0], 2 * 2 * X0 * 2)            # earlier hooks first
    np.testing.assert_allclose(x.grad.numpy(), 2 * 2 * X0 * 2)
    h1.remove()
    x.grad = None
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * X0)
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        sg.ones(2).register_hook(lambda g: g)


def test_post_accumulate_grad_hook_sees_the_updated_grad():
    w = sg.tensor(X0, requires_grad=True)
    got = []
    w.register_post_accumulate_grad_hook(lambda p: got.append(p.grad.numpy().copy()))
    (w * 3).sum().backward()
    (w * 3).sum().backward()
    np.testing.assert_allclose(got[1], np.full(4, 6.0))
    with pytest.raises(RuntimeError, match="non-leaf"):
        (w * 2).register_post_accumulate_grad_hook(lambda p: None)


# ---------------------------------------------------------------- gradcheck

def test_gradcheck_passes_right_rules_and_catches_wrong_ones():
    x = sg.tensor(X0, requires_grad=True)
    y = sg.tensor(X0[::-1].copy(), requires_grad=True)
    assert sg.autograd.gradcheck(lambda a, b: (P3.apply(a) * sg.tanh(b), a.sum()), (x, y))
    assert sg.autograd.gradgradcheck(lambda a: P3.apply(a) * a, (x,))

    class Wrong(sg.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            a, = ctx.saved_tensors
            return g * a            # should be 2 a

    with pytest.raises(sg.autograd.GradcheckError,
                       match="Jacobian mismatch for output 0 with respect to input 0"):
        sg.autograd.gradcheck(Wrong.apply, (x,))
    assert sg.autograd.gradcheck(Wrong.apply, (x,), raise_exception=False) is False
    with pytest.raises(ValueError, match="at least one input tensor to require gradient"):
        sg.autograd.gradcheck(Wrong.apply, (sg.tensor(X0),))


def test_variable_is_the_legacy_tensor_wrapper():
    v = sg.autograd.Variable(sg.tensor([1.0, 2.0]), requires_grad=True)
    assert v.requires_grad and v.is_leaf and isinstance(v, sg.autograd.Variable)


# ---------------------------------------------------------------- torch cross-checks

def _program(T):
    """The same calls, under torch or symgrad; returns everything to compare."""
    x = T.tensor([0.3, -1.2, 2.0, 0.7], dtype=T.float64, requires_grad=True)
    s, c = sincos(T).apply(x, 1.5)
    y = legendre3(T).apply(s * c)
    (g,) = T.autograd.grad(y.sum(), x, create_graph=True)
    hooked = []
    x.register_hook(lambda grad: hooked.append(grad.detach().clone()))
    (g * g).sum().backward()
    return {"y": y, "g": g, "x.grad": x.grad, "hooked": hooked[0],
            "names": (type(y.grad_fn).__name__, type(s.grad_fn).__name__,
                      type(g.grad_fn).__name__)}


def test_custom_functions_grad_and_hooks_like_torch():
    torch = pytest.importorskip("torch")
    want, got = _program(torch), _program(sg)
    assert got["names"] == want["names"]
    for k in ("y", "g", "x.grad", "hooked"):
        np.testing.assert_allclose(got[k].detach().numpy(), want[k].detach().numpy(),
                                   rtol=1e-12, err_msg=k)


@pytest.mark.parametrize("reduce, name", [(lambda t: t.sum(), "SumBackward0"),
                                          (lambda t: t.sum(1), "SumBackward1"),
                                          (lambda t: t.amax(0), "AmaxBackward0")])
def test_a_reduction_is_one_backward_node(reduce, name):
    x = sg.tensor(X0.reshape(2, 2), requires_grad=True)
    s = reduce(sg.sin(x))
    assert s.grad_fn.name() == name
    assert [f.name() for f, _ in s.grad_fn.next_functions] == ["SinBackward0"]


def test_grad_with_respect_to_outputs_of_a_multi_output_node():
    """``autograd.grad`` to tensors that are outputs of one node with several (``split``'s,
    a loop's): each gets its own output's cotangent, as in torch; hand-derived: d/da (2a + 3b)
    = 2, d/db = 3."""
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    a, b = x.split(1)
    ga, gb = sg.autograd.grad((a * 2 + b * 3).sum(), [a, b])
    assert ga.tolist() == [2.0] and gb.tolist() == [3.0]
    # a loop of no steps returns its carry: its norm's gradient, compiled (found by the fuzzer)
    f = sg.value_and_grad(lambda x: sg.fori_loop(0, 0, lambda i, c: c * 2, x).norm())
    value, grad = f(np.array([3.0, 4.0]))
    assert value == 5.0 and np.allclose(grad, [0.6, 0.8])


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("on_view", [False, True])
def test_a_hook_runs_once_through_a_composite_backward(compiled, on_view):
    # unfold's backward (AsStridedBackward0) re-runs a backward through its own steps; that
    # inner pass returns y's cotangent to the outer one, which alone runs y's hook (a hook run
    # by both multiplied the gradient by 9). d/dx sum(sin(x)^2), hooked by 3: 3 sin(2x).
    x0 = np.array([0.3, -0.4, 0.8])
    calls = []

    def hooked(g):
        calls.append(1)
        return g * 3.0

    def grad_of(x):
        x = x.requires_grad_()
        y = sg.sin(x)
        windows = y.unfold(0, 1, 1)
        (windows if on_view else y).register_hook(hooked)
        (windows ** 2).sum().backward()
        return x.grad

    got = sg.compile(grad_of)(x0) if compiled else grad_of(sg.tensor(x0)).numpy()
    np.testing.assert_allclose(got, 3 * np.sin(2 * x0), rtol=1e-14)
    assert len(calls) == 1


@pytest.mark.parametrize("compiled", [False, True])
def test_a_product_with_a_number_does_not_keep_the_tensor_for_its_backward(compiled):
    # torch's self * 2 saves no self (d/dself reads only the 2): writing into y afterwards is
    # fine. d/dx sum(y), y = cos(x) with y[1] = 2 y[0]: -3 sin(x0), 0, -sin(x2), -sin(x3).
    x0 = np.array([0.3, -1.2, 0.7, 2.0])

    def grad_of(x):
        x = x.requires_grad_()
        y = sg.cos(x)
        y[1] = y[0] * 2
        y.sum().backward()
        return x.grad

    got = sg.compile(grad_of)(x0) if compiled else grad_of(sg.tensor(x0)).numpy()
    want = -np.sin(x0) * np.array([3.0, 0.0, 1.0, 1.0])
    np.testing.assert_allclose(got, want, rtol=1e-14, atol=1e-15)


def test_a_product_whose_other_factor_needs_the_tensor_still_checks_it():
    y = sg.tensor(np.array([0.3, -1.2]))       # needs no gradient itself
    z = sg.tensor(np.array([1.5, 2.5]), requires_grad=True)
    p = y * z                 # d/dz reads y: a later in-place change to y must raise
    y.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        p.sum().backward()


F = sg.nn.functional
_AUX = {   # an op whose backward reads a tensor it takes no gradient for: (op, that tensor)
    "soft_margin_loss target": (lambda x, t: F.soft_margin_loss(x, t),
                                np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])),
    "binary_cross_entropy weight": (
        lambda x, t: F.binary_cross_entropy(sg.sigmoid(x), sg.full_like(x, 0.3), weight=t),
        np.array([1.0, 2.0, 3.0])),
    "batch_norm running_var": (
        lambda x, t: F.batch_norm(x, t * 0.0, t, training=False).sum(),
        np.array([1.0, 2.0, 3.0])),
    "binary_cross_entropy_with_logits pos_weight": (
        lambda x, t: F.binary_cross_entropy_with_logits(x, sg.full_like(x, 0.3), pos_weight=t),
        np.array([1.0, 2.0, 3.0])),
}


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("case", sorted(_AUX))
def test_changing_a_tensor_a_backward_reads_raises_as_torch_does(case, compiled):
    # The rule reads it from its closure, not as an input: changed in place before the
    # backward, it gave a wrong gradient silently; torch saves it and raises.
    op, aux = _AUX[case]
    x0 = np.array([[0.3, -0.2, 0.5], [0.7, 0.2, -0.4]])

    def run(x, t):
        x = x.requires_grad_()
        loss = op(x, t)
        t.mul_(-1.5)
        loss.backward()
        return x.grad

    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        if compiled:
            sg.compile(run)(x0, aux)
        else:
            run(sg.tensor(x0), sg.tensor(aux))


# Ops whose backward reads only their result (torch's derivatives.yaml saves ``result``, not
# ``self``), with the derivative written in the result r: changing the input in place after
# the op is allowed (torch runs it), changing the result is not, and a second backward
# through the freed graph raises.
_FROM_RESULT = {
    "exp": (lambda r: r), "exp2": (lambda r: r * np.log(2.0)), "expm1": (lambda r: r + 1.0),
    "sqrt": (lambda r: 0.5 / r), "tan": (lambda r: 1.0 + r * r), "tanh": (lambda r: 1.0 - r * r),
    "sigmoid": (lambda r: r * (1.0 - r)), "relu": (lambda r: (r > 0).astype(float)),
}


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("name", sorted(_FROM_RESULT))
def test_an_op_that_saves_only_its_result_lets_its_input_change(name, compiled):
    x0 = np.array([0.3, 0.7, 0.4 if name == "sqrt" else -0.4, 1.1])
    op = getattr(sg, name)

    def run(x):
        x = x.requires_grad_()
        y = x * 1.0
        r = op(y)
        y.mul_(2.0)              # the input changes; the result, which the rule reads, not
        r.sum().backward()
        return x.grad, r

    if compiled:
        grad, r = sg.compile(run)(x0)
    else:
        grad, r = (t.detach().numpy() for t in run(sg.tensor(x0)))
    numpy = {"relu": lambda v: np.maximum(v, 0.0), "sigmoid": lambda v: 1.0 / (1.0 + np.exp(-v))}
    want_r = (numpy[name] if name in numpy else getattr(np, name))(x0)
    np.testing.assert_allclose(r, want_r, rtol=1e-14)
    np.testing.assert_allclose(grad, _FROM_RESULT[name](want_r), rtol=1e-13)

    x = sg.tensor(x0, requires_grad=True)
    r = op(x * 1.0)
    r.mul_(2.0)                  # the result the rule reads changed: torch's error
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        r.sum().backward()
    r = op(x * 1.0)
    r.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        r.sum().backward()       # the saved result was freed
