# micrograd's demo notebook redone in torch: a 2-16-16-1 MLP on two interleaved half-moons,
# the max-margin (hinge) loss with L2 regularization, accuracy, and a decaying learning rate.
import math

import torch

n = 60
t = torch.linspace(0, math.pi, n // 2)
upper = torch.stack([torch.cos(t), torch.sin(t)], 1)
lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], 1)
X = torch.cat([upper, lower]) + 0.05 * torch.sin(torch.arange(n * 2.0)).reshape(n, 2)
y = torch.cat([torch.ones(n // 2), -torch.ones(n // 2)])
print(X.shape, y[:3], y[-3:])

torch.manual_seed(1337)
sizes = [2, 16, 16, 1]
params = []
for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
    W = torch.empty(fan_in, fan_out).uniform_(-1, 1).requires_grad_()
    b = torch.zeros(fan_out, requires_grad=True)
    params += [W, b]
print("number of parameters", sum(p.numel() for p in params))


def model(x):
    for i in range(0, len(params), 2):
        x = x @ params[i] + params[i + 1]
        if i < len(params) - 2:
            x = x.relu()
    return x.squeeze(1)


def loss_fn():
    scores = model(X)
    losses = (1 + -y * scores).relu()
    data_loss = losses.sum() * (1.0 / losses.numel())
    alpha = 1e-4
    reg_loss = alpha * sum((p * p).sum() for p in params)
    total_loss = data_loss + reg_loss
    accuracy = ((y > 0) == (scores > 0)).float().mean()
    return total_loss, accuracy


for k in range(60):
    total_loss, acc = loss_fn()
    for p in params:
        p.grad = None
    total_loss.backward()
    learning_rate = 1.0 - 0.9 * k / 100
    with torch.no_grad():
        for p in params:
            p -= learning_rate * p.grad
    if k % 10 == 0:
        print(f"step {k} loss {total_loss.item():.6f}, accuracy {acc.item() * 100:.1f}%")
total_loss, acc = loss_fn()
print(f"final loss {total_loss.item():.6f}, accuracy {acc.item() * 100:.1f}%")
