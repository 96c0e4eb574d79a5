# The autograd tutorial's vector-Jacobian product, with a data-dependent Python loop (eager).
import torch

x = torch.tensor([0.5, -1.25, 2.0], requires_grad=True)
y = x * 2
steps = 0
while y.data.norm() < 1000:
    y = y * 2
    steps += 1
print(y, steps)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
x.grad.zero_()
(x ** 3).sum().backward()
print(x.grad)
print(torch.allclose(x.grad, 3 * x.detach() ** 2))
