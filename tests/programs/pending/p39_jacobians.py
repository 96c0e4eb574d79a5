# The autograd tutorial's Jacobian products: rows of a Jacobian from backward() with one-hot
# vectors and retain_graph, the same from torch.autograd.functional.jacobian, and a Hessian.
import torch
from torch.autograd.functional import hessian, jacobian, vjp


def f(x):
    return torch.stack([x[0] * x[1], torch.sin(x[1]) + x[2] ** 2, torch.exp(x[0]) * x[2]])


x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
y = f(x)
rows = []
for i in range(3):
    v = torch.zeros(3)
    v[i] = 1.0
    y.backward(v, retain_graph=True)
    rows.append(x.grad.clone())
    x.grad.zero_()
J = torch.stack(rows)
print(J)
print(torch.allclose(J, jacobian(f, x.detach())))

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nCall after zeroing gradients\n{inp.grad}")

value, grad = vjp(f, x.detach(), torch.tensor([1.0, 0.0, 1.0]))
print(value, grad)


def energy(p):
    return (p ** 2).sum() * 0.5 + p[0] * p[1] ** 3


H = hessian(energy, torch.tensor([1.0, 2.0]))
print(H, H.shape)
jac_tuple = jacobian(lambda a, b: a * b + b, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(len(jac_tuple), jac_tuple[0], jac_tuple[1])
