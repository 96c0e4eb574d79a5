# The autograd mechanics notes on hooks: Tensor.register_hook to read and rewrite gradients of
# leaves and intermediates, removing a hook by its handle, and forward hooks on modules.
import torch
import torch.nn as nn

v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v.grad)
h.remove()
v.grad = None
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v.grad)

seen = []
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x * x
y.register_hook(lambda g: seen.append(g.clone()))
y.register_hook(lambda g: g.clamp(max=2.5))
z = (y * torch.tensor([1.0, 2.0, 3.0])).sum()
z.backward()
print(seen, x.grad)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
activations = {}


def save_output(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()
    return hook


handles = [model[0].register_forward_hook(save_output("fc1")),
           model[1].register_forward_hook(save_output("relu"))]
out = model(torch.randn(2, 4))
print(sorted(activations), activations["fc1"].shape)
print(torch.equal(activations["relu"], activations["fc1"].clamp(min=0)))
for handle in handles:
    handle.remove()
activations.clear()
model(torch.randn(1, 4))
print(len(activations))

grads = {}
for name, p in model.named_parameters():
    p.register_hook(lambda g, name=name: grads.__setitem__(name, g.norm().item()))
model(torch.randn(5, 4)).pow(2).mean().backward()
print({k: round(v, 4) for k, v in grads.items()})
