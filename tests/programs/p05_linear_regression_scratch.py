# "Dive into Deep Learning", linear regression from scratch: synthetic data, minibatches,
# a squared loss, and minibatch SGD written by hand.
import torch

true_w = torch.tensor([2.0, -3.4])
true_b = 4.2
n = 1000
features = torch.stack([torch.sin(torch.arange(n) * 0.37), torch.cos(torch.arange(n) * 0.11)], 1)
labels = torch.matmul(features, true_w) + true_b
labels += 0.01 * torch.sin(torch.arange(n) * 1.7)
labels = labels.reshape((-1, 1))


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    for i in range(0, num_examples, batch_size):
        batch = torch.tensor(list(range(i, min(i + batch_size, num_examples))))
        yield features[batch], labels[batch]


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


w = torch.zeros((2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr, num_epochs, batch_size = 0.03, 3, 10
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = squared_loss(linreg(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = squared_loss(linreg(features, w, b), labels)
        print(f"epoch {epoch + 1}, loss {float(train_l.mean()):f}")
print(f"error in estimating w: {true_w - w.reshape(true_w.shape)}")
print(f"error in estimating b: {true_b - b}")
