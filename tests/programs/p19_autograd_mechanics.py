# The autograd tutorial and the autograd mechanics notes: requires_grad flags, grad_fn chains,
# retain_grad on a non-leaf, detach, no_grad / enable_grad / set_grad_enabled, retain_graph.
import torch

x = torch.ones(5)
y = torch.zeros(3)
w = torch.randn(5, 3, requires_grad=True, generator=torch.Generator().manual_seed(1))
b = torch.randn(3, requires_grad=True, generator=torch.Generator().manual_seed(2))
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {z.grad_fn}".split(" object")[0])
print(f"Gradient function for loss = {type(loss.grad_fn).__name__}")
loss.backward(retain_graph=True)
print(w.grad)
print(b.grad)
loss.backward()
print(b.grad)

z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z_det = (torch.matmul(x, w) + b).detach()
print(z_det.requires_grad, z_det.is_leaf, z_det.grad_fn)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = a * a
h.retain_grad()
s = h.sin().sum()
s.backward()
print(h.grad, a.grad, h.is_leaf, a.is_leaf)
print(type(s.grad_fn).__name__, [type(f).__name__ for f, _ in s.grad_fn.next_functions])

with torch.no_grad():
    with torch.enable_grad():
        q = a * 2
    r = a * 2
print(q.requires_grad, r.requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    r = a * 2
print(r.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((a * 2).requires_grad)
torch.set_grad_enabled(True)


@torch.no_grad()
def doubler(t):
    return t * 2


print(doubler(a).requires_grad, (a * 2).requires_grad)
frozen = torch.nn.Linear(3, 2)
for p in frozen.parameters():
    p.requires_grad = False
print([p.requires_grad for p in frozen.parameters()], frozen(a).requires_grad)
