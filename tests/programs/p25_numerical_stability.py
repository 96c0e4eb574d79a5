# "Dive into Deep Learning", numerical stability: the sigmoid's vanishing gradient, a product of
# random matrices that explodes, and the stable forms of log-sum-exp and log-softmax.
import torch
import torch.nn.functional as F

x = torch.arange(-8.0, 8.0, 1.0, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(y.detach())
print(x.grad)
print(f"max grad {x.grad.max().item():.4f} at x = {x[x.grad.argmax()].item()}")

torch.manual_seed(0)
M = torch.normal(0, 1, size=(4, 4))
print("a single matrix\n", M)
for i in range(25):
    M = torch.mm(M, torch.normal(0, 1, size=(4, 4)))
print("after multiplying 25 matrices\n", M)
print(M.abs().max() > 1e6, torch.isfinite(M).all())

z = torch.tensor([1000.0, 1001.0, 1002.0])
print(torch.exp(z) / torch.exp(z).sum())
print(torch.softmax(z, dim=0), torch.logsumexp(z, dim=0))
print((z - z.max()).exp().sum().log() + z.max())
print(torch.log(torch.softmax(z, 0)), F.log_softmax(z, dim=0))
small = torch.tensor([-1000.0, 0.0, 30.0])
print(F.softplus(small), torch.log1p(torch.exp(small)))
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float32).max, torch.finfo(torch.float16).max)
print(torch.tensor(1e-8) + 1 == 1, torch.tensor(1e-8, dtype=torch.float64) + 1 == 1)
print(torch.isnan(torch.tensor([0.0]) / 0), torch.isinf(torch.tensor([1.0]) / 0))
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5])))
