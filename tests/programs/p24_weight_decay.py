# "Dive into Deep Learning", weight decay: high-dimensional linear regression from 20 examples,
# an L2 penalty written by hand, then the concise version with SGD's weight_decay per group.
import torch
from torch import nn

torch.manual_seed(3)
n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


train_X, train_y = synthetic_data(true_w, true_b, n_train)
test_X, test_y = synthetic_data(true_w, true_b, n_test)


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w, b = init_params()
    net = lambda X: torch.matmul(X, w) + b
    loss = lambda y_hat, y: (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
    num_epochs, lr = 60, 0.003
    for epoch in range(num_epochs):
        for i in range(0, n_train, batch_size):
            X, y = train_X[i:i + batch_size], train_y[i:i + batch_size]
            l = loss(net(X), y) + lambd * l2_penalty(w)
            l.sum().backward()
            with torch.no_grad():
                for param in (w, b):
                    param -= lr * param.grad / batch_size
                    param.grad.zero_()
        if (epoch + 1) % 20 == 0:
            with torch.no_grad():
                test_l = loss(net(test_X), test_y).mean()
            print(f"lambda {lambd} epoch {epoch + 1} test loss {test_l.item():.4f}")
    print("L2 norm of w:", f"{torch.norm(w).item():.4f}")


train(lambd=0)
train(lambd=3)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction="none")
    trainer = torch.optim.SGD([{"params": net[0].weight, "weight_decay": wd},
                               {"params": net[0].bias}], lr=0.003)
    for epoch in range(60):
        for i in range(0, n_train, batch_size):
            trainer.zero_grad()
            l = loss(net(train_X[i:i + batch_size]), train_y[i:i + batch_size])
            l.mean().backward()
            trainer.step()
    print(f"wd {wd}: L2 norm of w {net[0].weight.norm().item():.4f}",
          [g["weight_decay"] for g in trainer.param_groups])


train_concise(0)
train_concise(3)
