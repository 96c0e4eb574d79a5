# The autograd mechanics notes on in-place correctness checks: version counters, and the errors
# torch raises for in-place changes, leaves, backward twice and numpy() on a graph tensor.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
print(b._version)
b.mul_(2)
print(b._version)
try:
    b.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(":")[0])

c = a * 2
c.add_(1)
c.sum().backward()
print(a.grad)

try:
    a.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    a.add_(1)
print(a, a._version)

loss = (a * a).sum()
loss.backward()
try:
    loss.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])

try:
    a.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
print(a.detach().numpy())

try:
    torch.ones(3).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (a * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
d = a.detach()
d[0] = 100.0
print(a, d._version)
