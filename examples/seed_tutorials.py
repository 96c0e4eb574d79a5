"""The classic PyTorch autograd tutorials, run with symgrad: eagerly, then compiled to C.

    python examples/seed_tutorials.py

The first half is torch code with ``import symgrad as torch`` at the top, and prints what the
tutorials print (object addresses and random numbers aside). The second half runs the same
computations inside ``@symgrad.compile`` functions: ``requires_grad_()``, ``backward()`` and
``.grad`` work while tracing, and the compiled C returns the gradients as NumPy arrays.
"""

import numpy as np

import symgrad as sg
import symgrad as torch
import symgrad.nn.functional as F


def section(title: str) -> None:
    print(f"\n# ---- {title}")


def eager() -> None:
    torch.manual_seed(0)

    section("a leaf that requires grad, and what is computed from it")
    x = torch.ones(2, 2, requires_grad=True)
    print(x)
    y = x + 2
    print(y)
    print(y.grad_fn)
    z = y * y * 3
    z.retain_grad()                 # keep the gradient of this intermediate too
    out = z.mean()
    print(z, out)

    section("requires_grad_() on an existing tensor")
    a = torch.randn(2, 2)
    a = ((a * 3) / (a - 1))
    print(a.requires_grad)
    a.requires_grad_(True)
    print(a.requires_grad)
    b = (a * a).sum()
    print(b.grad_fn)
    b.backward()
    print("a.grad == 2 * a:", bool(a.grad.eq(2 * a.detach()).all()))

    section("d(out)/dz and d(out)/dx")
    out.backward()
    print(z.grad)
    print(x.grad)

    section("no_grad and detach")
    print(x.requires_grad)
    print((x ** 2).requires_grad)
    with torch.no_grad():
        print((x ** 2).requires_grad)
    d = x.detach()
    print(d.requires_grad)
    print(x.eq(d).all())

    section("a vector-Jacobian product: backward(gradient)")
    # x is chosen so the loop runs as in the tutorial (random x works the same way)
    x = torch.tensor(np.array([761.4349, -1168.1293, 353.6544], np.float32) / 512,
                     requires_grad=True)
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    print(y)
    gradients = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
    y.backward(gradients)
    print(x.grad)

    section("retain_graph: backward twice through the same graph")
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    y.backward(torch.ones(2, 2), retain_graph=True)
    print(x.grad)
    z = y * y
    print(z)
    gradient = torch.randn(2, 2)
    y.backward(gradient)
    print("x.grad == 1 + gradient:", bool(x.grad.eq(1 + gradient).all()))

    section("parameters and a loss")
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    print(f"Gradient function for z = {z.grad_fn}")
    print(f"Gradient function for loss = {loss.grad_fn}")
    loss.backward()
    print(w.grad)
    print(b.grad)
    with torch.no_grad():
        z = torch.matmul(x, w) + b
    print(z.requires_grad)
    print((torch.matmul(x, w) + b).detach().requires_grad)


# ---------------------------------------------------------------- the same, compiled

@sg.compile
def graph_tutorial(x):
    x.requires_grad_()
    y = x + 2
    z = y * y * 3
    z.retain_grad()
    out = z.mean()
    out.backward()
    return out, z.grad, x.grad


@sg.compile
def doubled(x, gradients):
    # The tutorial's data-dependent loop, verbatim: each call's values decide the number of
    # doublings; the compiled C checks the same decisions (one trace per trip count).
    x.requires_grad_()
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    y.backward(gradients)
    return y, x.grad


@sg.compile
def retain_graph_tutorial(x, gradient):
    x.requires_grad_()
    y = x + 2
    y.backward(sg.ones(2, 2), retain_graph=True)
    first = x.grad * 1
    y.backward(gradient)            # accumulates into x.grad
    return first, x.grad


@sg.compile
def loss_tutorial(x, y, w, b):
    w.requires_grad_()
    b.requires_grad_()
    z = sg.matmul(x, w) + b
    loss = F.binary_cross_entropy_with_logits(z, y)
    loss.backward()
    with sg.no_grad():
        tracked = (sg.matmul(x, w) + b).requires_grad
    return loss, w.grad, b.grad, tracked


def compiled() -> None:
    section("compiled: mean(3 (x + 2)^2) and its gradients")
    out, zg, xg = graph_tutorial(np.ones((2, 2), np.float32))
    print(torch.tensor(out))
    print(torch.tensor(zg))
    print(torch.tensor(xg))

    section("compiled: backward(gradient) through the data-dependent while loop")
    x = np.array([761.4349, -1168.1293, 353.6544], np.float32) / 512
    y, xg = doubled(x, np.array([0.1, 1.0, 0.0001], np.float32))
    print(torch.tensor(y))
    print(torch.tensor(xg))
    y, xg = doubled(x * 100, np.array([0.1, 1.0, 0.0001], np.float32))   # fewer doublings
    print(torch.tensor(xg))

    section("compiled: retain_graph, then a second backward")
    gradient = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)
    first, xg = retain_graph_tutorial(np.ones((2, 2), np.float32), gradient)
    print(torch.tensor(first))
    print(torch.tensor(xg))

    section("compiled: parameters and a loss")
    # b is chosen so that the gradients are the ones the tutorial printed
    w = np.zeros((5, 3), np.float32)
    p = 3 * np.array([0.1952, 0.1672, 0.3291])
    b = np.log(p / (1 - p)).astype(np.float32)
    loss, wg, bg, tracked = loss_tutorial(np.ones(5, np.float32), np.zeros(3, np.float32), w, b)
    print(torch.tensor(loss))
    print(torch.tensor(wg))
    print(torch.tensor(bg))
    print(bool(tracked))


if __name__ == "__main__":
    eager()
    compiled()
