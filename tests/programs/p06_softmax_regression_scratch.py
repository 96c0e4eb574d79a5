# "Dive into Deep Learning", softmax regression from scratch: softmax by hand, cross-entropy by
# fancy indexing, accuracy, minibatch SGD; every other epoch printed with `epoch % 2`.
import torch

torch.manual_seed(7)
num_inputs, num_outputs, n = 8, 3, 240
centers = torch.randn(num_outputs, num_inputs) * 0.6
y_all = torch.arange(n) % num_outputs
X_all = centers[y_all] + torch.randn(n, num_inputs)

W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


X_prob = torch.normal(0, 1, (2, 5))
X_prob = softmax(X_prob)
print(X_prob, X_prob.sum(1))
y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y], cross_entropy(y_hat, y), accuracy(y_hat, y) / len(y))

batch_size, lr, num_epochs = 32, 0.1, 9
num_batches = (n + batch_size - 1) // batch_size
print("batches per epoch:", num_batches, "last batch:", n % batch_size)
for epoch in range(num_epochs):
    perm = torch.randperm(n)
    for i in range(num_batches):
        idx = perm[i * batch_size:(i + 1) * batch_size]
        l = cross_entropy(net(X_all[idx]), y_all[idx])
        l.sum().backward()
        sgd([W, b], lr, batch_size)
    if epoch % 2 == 0:
        with torch.no_grad():
            y_hat = net(X_all)
            train_l = cross_entropy(y_hat, y_all).mean()
            train_acc = accuracy(y_hat, y_all) / n
        print(f"epoch {epoch + 1}, loss {train_l:.4f}, train acc {train_acc:.3f}")
print(W.grad.abs().sum(), b)
