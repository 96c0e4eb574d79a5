# Gradient accumulation as training scripts write it: micro-batches whose gradients add up in
# .grad until optimizer.step(), matching one big batch; zero_grad(set_to_none=True).
import torch
import torch.nn as nn

torch.manual_seed(5)
X = torch.randn(16, 6)
y = torch.randn(16, 1)
model = nn.Linear(6, 1)
loss_fn = nn.MSELoss()

loss_fn(model(X), y).backward()
full = [p.grad.clone() for p in model.parameters()]
model.zero_grad(set_to_none=True)
print(model.weight.grad)

accum_steps = 4
for i, (xb, yb) in enumerate(zip(X.chunk(accum_steps), y.chunk(accum_steps))):
    loss = loss_fn(model(xb), yb) / accum_steps
    loss.backward()
    print(i, f"{loss.item():.5f}", f"{model.bias.grad.item():.5f}")
print([torch.allclose(p.grad, g, atol=1e-6) for p, g in zip(model.parameters(), full)])

opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(8):
    xb, yb = X[step % 4 * 4:(step % 4 + 1) * 4], y[step % 4 * 4:(step % 4 + 1) * 4]
    (loss_fn(model(xb), yb) / 2).backward()
    if (step + 1) % 2 == 0:
        opt.step()
        opt.zero_grad()
        print(step, f"{loss_fn(model(X), y).item():.5f}", model.weight.grad)

w = torch.tensor(2.0, requires_grad=True)
for _ in range(3):
    (w * 3).backward()
print(w.grad)
w.grad.zero_()
print(w.grad, w.grad.requires_grad)
