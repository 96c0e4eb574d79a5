# The autograd mechanics notes: torch.autograd.grad with create_graph for a gradient penalty,
# allow_unused, and gradients of gradients.
import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([1.5, 0.25, -0.75], requires_grad=True)
unused = torch.ones(2, requires_grad=True)
out = (torch.tanh(x * w) ** 2).sum()
(gx,) = torch.autograd.grad(out, x, create_graph=True)
print(gx)
penalty = (gx.norm() - 1) ** 2
penalty.backward()
print(w.grad, x.grad)
g_w, g_u = torch.autograd.grad((x * w).sum(), [w, unused], allow_unused=True)
print(g_w, g_u)
y = x ** 3
(dy,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(d2y,) = torch.autograd.grad(dy.sum(), x)
print(dy, d2y)
