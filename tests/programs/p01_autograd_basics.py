# The autograd tutorial's first steps: a leaf that requires grad, ops that record, backward.
import torch

x = torch.ones(2, 2, requires_grad=True)
print(x)
y = x + 2
print(y)
print(type(y.grad_fn).__name__, y.is_leaf, x.is_leaf)
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad)

a = torch.tensor([[2.0, 1.0], [0.5, 3.0]])
a = (a * 3) / (a - 1)
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(type(b.grad_fn).__name__)

with torch.no_grad():
    print((x ** 2).requires_grad)
print(x.detach().requires_grad, x.detach().eq(x.data).all())
print(f"{out:.4f}", f"{out.item():.2f}", out.shape, x.shape, x.dtype, x.device)
