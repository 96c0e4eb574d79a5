# "Dive into Deep Learning", multilayer perceptron from scratch: parameters as nn.Parameter,
# relu by torch.max, CrossEntropyLoss(reduction='none'), torch.optim.SGD over a few epochs.
import torch
from torch import nn

torch.manual_seed(11)
num_inputs, num_outputs, num_hiddens = 20, 4, 32
n = 400
X = torch.randn(n, num_inputs)
true_W = torch.randn(num_inputs, num_outputs)
labels = (X @ true_W + 0.5 * torch.randn(n, num_outputs)).argmax(dim=1)

W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


print(relu(torch.tensor([-1.0, 0.0, 2.0])), W1.shape, type(W1).__name__, W1.is_leaf)
loss = nn.CrossEntropyLoss(reduction="none")
num_epochs, lr, batch_size = 10, 0.1, 25
updater = torch.optim.SGD(params, lr=lr)
for epoch in range(num_epochs):
    metric = [0.0, 0.0, 0]
    for i in range(0, n, batch_size):
        Xb, yb = X[i:i + batch_size], labels[i:i + batch_size]
        y_hat = net(Xb)
        l = loss(y_hat, yb)
        updater.zero_grad()
        l.mean().backward()
        updater.step()
        metric[0] += float(l.sum())
        metric[1] += float((y_hat.argmax(axis=1) == yb).sum())
        metric[2] += yb.numel()
    print(f"epoch {epoch + 1}: loss {metric[0] / metric[2]:.4f}, acc {metric[1] / metric[2]:.3f}")
with torch.no_grad():
    preds = net(X[:8]).argmax(axis=1)
print(preds, labels[:8], l.shape, l.grad_fn.name())
