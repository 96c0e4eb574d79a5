# "Learning PyTorch with Examples", autograd version: fit y = sin(x) with a cubic polynomial,
# the weights as tensors that require grad, updated by hand under no_grad.
import math

import torch

dtype = torch.float
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

x = torch.linspace(-math.pi, math.pi, 2000, device=device, dtype=dtype)
y = torch.sin(x)

a = torch.full((), 0.1, device=device, dtype=dtype, requires_grad=True)
b = torch.full((), -0.2, device=device, dtype=dtype, requires_grad=True)
c = torch.full((), 0.05, device=device, dtype=dtype, requires_grad=True)
d = torch.full((), 0.01, device=device, dtype=dtype, requires_grad=True)

learning_rate = 1e-6
for t in range(1000):
    y_pred = a + b * x + c * x ** 2 + d * x ** 3
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None

print(f"Result: y = {a.item():.5f} + {b.item():.5f} x + {c.item():.5f} x^2 + {d.item():.5f} x^3")
