# "Dive into Deep Learning", convolutions: corr2d written by hand, learning an edge kernel with
# gradient descent, then a LeNet-style nn.Conv2d/max-pool network's shapes and a training step.
import torch
import torch.nn.functional as F
from torch import nn


def corr2d(X, K):
    h, w = K.shape
    Y = torch.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = (X[i:i + h, j:j + w] * K).sum()
    return Y


X = torch.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = torch.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))

X = torch.ones((6, 8))
X[:, 2:6] = 0
K = torch.tensor([[1.0, -1.0]])
Y = corr2d(X, K)
print(Y)

torch.manual_seed(0)
conv2d = nn.Conv2d(1, 1, kernel_size=(1, 2), bias=False)
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2
for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f"epoch {i + 1}, loss {l.sum():.3f}")
print(conv2d.weight.data.reshape((1, 2)))

net = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.MaxPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.rand(size=(4, 1, 28, 28), dtype=torch.float32)
h = X
for layer in net:
    h = layer(h)
    print(layer.__class__.__name__, "output shape: \t", h.shape)
y = torch.tensor([3, 1, 4, 1])
opt = torch.optim.SGD(net.parameters(), lr=0.9)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(net(X), y)
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.5f}", f"{net[0].weight.grad.norm().item():.6f}")
print(F.max_pool2d(torch.arange(16.0).reshape(1, 1, 4, 4), 2))
print(F.conv2d(torch.ones(1, 2, 3, 3), torch.ones(1, 2, 2, 2), stride=1, padding=1))
