"""torch's autograd rules and errors, table-driven, eagerly AND at trace time.

Each case is a function of a module ``T`` (symgrad) run twice: eagerly on symgrad tensors, and
inside ``@symgrad.compile`` where its inputs are traced. Expected values are derived by hand in
each case's comment. Optional cross-checks run the same case against torch (skipped without it).
"""

import re
import warnings

import numpy as np
import pytest

import symgrad as sg

# ------------------------------------------------------------------ cases: (x) -> outputs
# Each takes x = [1., 2., 3.] (float32) and returns tensors to compare.


def accumulate_across_backward_calls(T, x):
    # d/dx sum(x*x) = 2x, twice -> 4x = [4, 8, 12]
    x.requires_grad_()
    (x * x).sum().backward()
    (x * x).sum().backward()
    return x.grad


def retain_graph_allows_second_backward(T, x):
    # y = x*x saves x; backward twice with retain_graph: 2 * 2x
    x.requires_grad_()
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    return x.grad


def vector_jacobian_product(T, x):
    # y = x**2, v = [1, .1, .01]: x.grad = 2 x v = [2, .4, .06]
    x.requires_grad_()
    y = x ** 2
    y.backward(T.tensor([1.0, 0.1, 0.01]))
    return x.grad


def retain_grad_on_non_leaf(T, x):
    # z = 3y, y = x + 1; out = z.sum(): y.grad = 3, x.grad = 3
    x.requires_grad_()
    y = x + 1
    y.retain_grad()
    (3 * y).sum().backward()
    return y.grad, x.grad


def no_grad_cuts_the_graph(T, x):
    # inside no_grad, y = 2x is a constant: d/dx (x * y) = y = 2x = [2, 4, 6]
    x.requires_grad_()
    with T.no_grad():
        y = x * 2
    (x * y).sum().backward()
    return x.grad


def detach_cuts_the_graph(T, x):
    # d/dx (x * x.detach()) = x.detach() = x
    x.requires_grad_()
    (x * x.detach()).sum().backward()
    return x.grad


def enable_grad_inside_no_grad(T, x):
    # enable_grad re-enables recording: d/dx sum(x^3) = 3x^2 = [3, 12, 27]
    x.requires_grad_()
    with T.no_grad():
        with T.enable_grad():
            y = (x ** 3).sum()
    y.backward()
    return x.grad


def set_grad_enabled_false(T, x):
    # set_grad_enabled(False): y is a constant 4x; sum(x * y) -> grad y = [4, 8, 12]
    x.requires_grad_()
    with T.set_grad_enabled(False):
        y = x * 4
    (x * y).sum().backward()
    return x.grad


def data_is_detached(T, x):
    # .data is cut from the graph: d/dx (x * x.data) = x
    x.requires_grad_()
    (x * x.data).sum().backward()
    return x.grad


def requires_grad_propagates(T, x):
    # only the path through w counts: d/dw sum(w * x) = x (x does not require grad)
    w = T.ones(3)
    w.requires_grad_()
    (w * x).sum().backward()
    return w.grad


def sgd_update_under_no_grad(T, x):
    # one step of w -= 0.5 * d/dw sum((w - x)^2) from w = 0: grad = -2x -> w = x; then zero_
    w = T.zeros(3)
    w.requires_grad_()
    ((w - x) ** 2).sum().backward()
    with T.no_grad():
        w -= 0.5 * w.grad
        w.grad.zero_()
    return w.detach(), w.grad


def in_place_on_non_leaf_is_recorded(T, x):
    # y = 2x; y.mul_(x) -> y = 2x^2; d/dx sum = 4x = [4, 8, 12]
    x.requires_grad_()
    y = x * 2
    y.mul_(x)
    y.sum().backward()
    return y.detach(), x.grad


CASES = [accumulate_across_backward_calls, retain_graph_allows_second_backward,
         vector_jacobian_product, retain_grad_on_non_leaf, no_grad_cuts_the_graph,
         detach_cuts_the_graph, enable_grad_inside_no_grad, set_grad_enabled_false,
         data_is_detached, requires_grad_propagates, sgd_update_under_no_grad,
         in_place_on_non_leaf_is_recorded]

EXPECTED = {
    "accumulate_across_backward_calls": [[4, 8, 12]],
    "retain_graph_allows_second_backward": [[4, 8, 12]],
    "vector_jacobian_product": [[2, 0.4, 0.06]],
    "retain_grad_on_non_leaf": [[3, 3, 3], [3, 3, 3]],
    "no_grad_cuts_the_graph": [[2, 4, 6]],
    "detach_cuts_the_graph": [[1, 2, 3]],
    "enable_grad_inside_no_grad": [[3, 12, 27]],
    "set_grad_enabled_false": [[4, 8, 12]],
    "data_is_detached": [[1, 2, 3]],
    "requires_grad_propagates": [[1, 2, 3]],
    "sgd_update_under_no_grad": [[1, 2, 3], [0, 0, 0]],
    "in_place_on_non_leaf_is_recorded": [[2, 8, 18], [4, 8, 12]],
}
X = np.array([1.0, 2.0, 3.0], np.float32)


def _as_list(out):
    return list(out) if isinstance(out, tuple) else [out]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_rule_eager(case):
    outs = _as_list(case(sg, sg.tensor(X)))
    for got, want in zip(outs, EXPECTED[case.__name__], strict=True):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_rule_at_trace_time(case):
    compiled = sg.compile(lambda x: case(sg, x))
    outs = _as_list(compiled(X))
    for got, want in zip(outs, EXPECTED[case.__name__], strict=True):
        assert isinstance(got, np.ndarray)
        np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=[c.__name__ for c in CASES])
def test_rule_matches_torch(case):
    torch = pytest.importorskip("torch")
    outs = _as_list(case(torch, torch.tensor(X)))
    for got, want in zip(outs, EXPECTED[case.__name__], strict=True):
        np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-6)


# ------------------------------------------------------------------ errors: (x) -> raises

def second_backward_without_retain(T, x):
    x.requires_grad_()
    y = (x * x).sum()
    y.backward()
    y.backward()


def backward_on_non_scalar(T, x):
    x.requires_grad_()
    (x * 2).backward()


def backward_without_grad(T, x):
    (x * 2).sum().backward()


def gradient_of_wrong_shape(T, x):
    x.requires_grad_()
    (x * 2).backward(T.ones(2))


def requires_grad_false_on_non_leaf(T, x):
    x.requires_grad_()
    (x * 2).requires_grad_(False)


def integer_tensor_requires_grad(T, x):
    T.tensor([1, 2, 3]).requires_grad_()


def in_place_on_leaf_requiring_grad(T, x):
    x.requires_grad_()
    x.add_(1)


def saved_tensor_modified_in_place(T, x):
    x.requires_grad_()
    y = x * 2
    z = (y * y).sum()
    y.add_(1)
    z.backward()


def in_place_result_does_not_fit(T, x):
    i = T.tensor([1, 2, 3])
    i.add_(0.5)


ERRORS = [
    (second_backward_without_retain, RuntimeError, "backward through the graph a second time"),
    (backward_on_non_scalar, RuntimeError, "grad can be implicitly created only for scalar"),
    (backward_without_grad, RuntimeError, "does not require grad and does not have a grad_fn"),
    (gradient_of_wrong_shape, RuntimeError, "Mismatch in shape"),
    (requires_grad_false_on_non_leaf, RuntimeError, "only change requires_grad flags of leaf"),
    (integer_tensor_requires_grad, RuntimeError, "only Tensors of floating point"),
    (in_place_on_leaf_requiring_grad, RuntimeError, "leaf Variable that requires grad"),
    (saved_tensor_modified_in_place, RuntimeError, "modified by an inplace operation"),
    (in_place_result_does_not_fit, RuntimeError, "can't be cast to the desired output type"),
]


@pytest.mark.parametrize("case,exc,match", ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_error_eager(case, exc, match):
    with pytest.raises(exc, match=re.escape(match)):
        case(sg, sg.tensor(X))


@pytest.mark.parametrize("case,exc,match", ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_error_at_trace_time(case, exc, match):
    with pytest.raises(exc, match=re.escape(match)):
        sg.compile(lambda x: case(sg, x) or x)(X)


@pytest.mark.parametrize("case,exc,match", ERRORS, ids=[e[0].__name__ for e in ERRORS])
def test_error_matches_torch(case, exc, match):
    torch = pytest.importorskip("torch")
    with pytest.raises(exc):
        case(torch, torch.tensor(X))


# ------------------------------------------------------------------ flags and attributes

def test_flags_and_attributes_eager():
    x = sg.ones(2, 2, requires_grad=True)
    assert x.is_leaf and x.grad_fn is None and x.grad is None
    y = x + 2
    assert y.requires_grad and not y.is_leaf and type(y.grad_fn).__name__ == "AddBackward0"
    (fn, _), = [e for e in y.grad_fn.next_functions if e[0] is not None]
    assert type(fn).__name__ == "AccumulateGrad" and fn.variable is x
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert y.grad is None
    assert any("not a leaf Tensor" in str(w.message) for w in caught)
    d = x.detach()
    assert not d.requires_grad and d.is_leaf
    d.add_(1)                                     # shares data with x, like torch
    np.testing.assert_array_equal(x.detach().numpy(), np.full((2, 2), 2.0))
    assert y.dtype is sg.float32 and y.shape == (2, 2) and y.size() == (2, 2)
    assert y.ndim == 2 and y.size(1) == 2
    assert (x * 1).sum().item() == 8.0
    assert x.tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert np.asarray(x.detach()).shape == (2, 2)
    assert (x.clone().grad_fn is not None) and type(x.clone().grad_fn).__name__ == "CloneBackward0"


def test_grad_mode_is_per_thread_and_decorates():
    import threading
    seen = {}

    @sg.no_grad()
    def inside():
        return sg.is_grad_enabled()

    def other():
        seen["other"] = sg.is_grad_enabled()

    with sg.no_grad():
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert not sg.is_grad_enabled()
    assert seen["other"] is True and sg.is_grad_enabled() and inside() is False
    sg.set_grad_enabled(False)
    try:
        assert not sg.is_grad_enabled()
    finally:
        sg.set_grad_enabled(True)
