# Optimizers and schedulers as training scripts combine them: a small regression fitted with
# RMSprop + OneCycleLR, Adagrad + MultiStepLR, L-BFGS (strong Wolfe line search, full batch)
# and SGD + ReduceLROnPlateau on a validation loss; each prints its losses and learning rates.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(96, 3)
true_w = torch.tensor([[1.5], [-2.0], [0.7]])
y = X @ true_w + 0.3 + 0.1 * torch.randn(96, 1)
X_train, y_train, X_val, y_val = X[:64], y[:64], X[64:], y[64:]


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))


loss_fn = nn.MSELoss()


def batches(epoch, size=16):
    g = torch.Generator().manual_seed(epoch)
    order = torch.randperm(64, generator=g)
    for i in range(0, 64, size):
        idx = order[i:i + size]
        yield X_train[idx], y_train[idx]


# 1. RMSprop with momentum, one cycle over 10 epochs of 4 batches
model = make_model()
optimizer = torch.optim.RMSprop(model.parameters(), lr=0.01, alpha=0.9, momentum=0.8)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.01, epochs=10,
                                                steps_per_epoch=4)
for epoch in range(10):
    for xb, yb in batches(epoch):
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        scheduler.step()
    if epoch % 3 == 0 or epoch == 9:
        group = optimizer.param_groups[0]
        print(f"rmsprop epoch {epoch}: loss {loss.item():.5f} lr {scheduler.get_last_lr()[0]:.6f}"
              f" momentum {group['momentum']:.4f}")
with torch.no_grad():
    print("rmsprop val", round(loss_fn(model(X_val), y_val).item(), 5))
print(sorted(optimizer.state_dict()["state"][0].keys()))

# 2. Adagrad with weight decay, the rate cut at epochs 4 and 8
model = make_model()
optimizer = torch.optim.Adagrad(model.parameters(), lr=0.2, lr_decay=0.01, weight_decay=1e-3,
                                initial_accumulator_value=0.1)
scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[4, 8], gamma=0.3)
for epoch in range(12):
    total = 0.0
    for xb, yb in batches(epoch):
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
    scheduler.step()
    print(f"adagrad epoch {epoch:2d}: mean loss {total / 4:.5f}, lr {scheduler.get_last_lr()}")
print("adagrad step", optimizer.state_dict()["state"][0]["step"])

# 3. L-BFGS on the whole training set: a linear model (least squares, convex)
torch.manual_seed(1)
model = nn.Linear(3, 1)
optimizer = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=10, history_size=5,
                              line_search_fn="strong_wolfe")


def closure():
    optimizer.zero_grad()
    loss = loss_fn(model(X_train), y_train)
    loss.backward()
    return loss


for i in range(3):
    loss = optimizer.step(closure)
    state = optimizer.state[optimizer.param_groups[0]["params"][0]]
    print(f"lbfgs step {i}: loss {loss.item():.6f} evals {state['func_evals']} "
          f"iters {state['n_iter']}")
with torch.no_grad():
    print(f"lbfgs train {loss_fn(model(X_train), y_train).item():.6f} "
          f"val {loss_fn(model(X_val), y_val).item():.6f}")
    print("weights", [round(w, 3) for w in model.weight.flatten().tolist()],
          round(model.bias.item(), 3))

# 4. SGD, the rate reduced when the validation loss stops improving
model = make_model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.5)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.5,
                                                       patience=1, threshold=0.05,
                                                       cooldown=1, min_lr=0.01)
for epoch in range(16):
    for xb, yb in batches(epoch):
        optimizer.zero_grad()
        loss_fn(model(xb), yb).backward()
        optimizer.step()
    with torch.no_grad():
        val = loss_fn(model(X_val), y_val)
    scheduler.step(val)
    print(f"plateau epoch {epoch:2d}: val {val.item():.5f} lr {scheduler.get_last_lr()[0]:.4f} "
          f"bad epochs {scheduler.num_bad_epochs}")
print("best", round(scheduler.best, 5))
