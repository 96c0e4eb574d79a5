# Special functions and rounding as scientific-Python code uses them: erf and the exact GELU,
# lgamma for log-factorials, atan2 for angles, floor/ceil/round/trunc, remainder vs fmod,
# % and // on tensors, and gradients of a few of them.
import math

import torch
import torch.nn.functional as F

x = torch.linspace(-3, 3, 7)
print(torch.erf(x), torch.erfc(x))
print(torch.special.erfinv(torch.tensor([0.0, 0.5, -0.9])))
gelu = 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
print(gelu, torch.allclose(gelu, F.gelu(x), atol=1e-6))

n = torch.arange(1.0, 8.0)
print(torch.lgamma(n + 1), torch.lgamma(n + 1).exp().round())
print(math.lgamma(8.0), torch.lgamma(torch.tensor(8.0)).item(), torch.digamma(torch.tensor([1.0, 2.0])))
log_binom = torch.lgamma(torch.tensor(11.0)) - torch.lgamma(torch.tensor(4.0)) - torch.lgamma(torch.tensor(8.0))
print(f"C(10, 3) = {log_binom.exp().item():.1f}")

pts = torch.tensor([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [1.0, 1.0], [-1.0, -1.0]])
angles = torch.atan2(pts[:, 1], pts[:, 0])
print(angles, torch.rad2deg(angles))

v = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7])
print(torch.floor(v), torch.ceil(v), torch.round(v), torch.trunc(v), torch.frac(v))
print(torch.round(torch.tensor([3.14159, 2.71828]), decimals=2), v.sign())
a = torch.tensor([-7.0, -3.0, 3.0, 7.0])
print(torch.remainder(a, 3), torch.fmod(a, 3), a % 3, a // 3, torch.div(a, 2, rounding_mode="floor"))
i = torch.tensor([-7, -3, 3, 7])
print(i % 3, i // 2, torch.div(i, 2, rounding_mode="trunc"), (i % 2 == 0).tolist())
print(torch.special.expit(torch.tensor([0.0, 2.0])), torch.logit(torch.tensor([0.25, 0.5])))
print(torch.xlogy(torch.tensor([0.0, 2.0]), torch.tensor([0.0, 3.0])), torch.special.sinc(torch.tensor([0.0, 0.5])))
print(torch.hypot(torch.tensor([3.0]), torch.tensor([4.0])), torch.clamp(v, -1, 1), torch.sqrt(torch.tensor(2.0)))

t = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
(torch.erf(t).sum() + torch.atan2(t, torch.ones(3)).sum() + torch.lgamma(t.abs() + 1).sum()).backward()
print(t.grad)
t.grad = None
(torch.floor(t) + torch.remainder(t, 1.0) * 2).sum().backward()
print(t.grad)
