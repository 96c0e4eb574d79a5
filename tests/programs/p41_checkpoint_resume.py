# Saving and loading a general checkpoint, as the PyTorch recipe does: train a small model a
# few epochs with Adam, torch.save {epoch, model, optimizer, loss} into a temporary directory,
# build a fresh model and optimizer, torch.load the checkpoint into them and resume training.
# The resumed run continues the uninterrupted one exactly. Then a dict of tensors through a
# buffer, and a whole model, which the default torch.load (weights_only=True) refuses.
import io
import os
import pickle
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(64, 3)
y = torch.tanh(x @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.3 * torch.randn(64, 1))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def train(model, optimizer, epochs, start=0):
    loss_fn = nn.MSELoss()
    losses = []
    for epoch in range(start, start + epochs):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        print(f"epoch {epoch}: loss {loss.item():.6f}")
    return losses


model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
losses = train(model, optimizer, 5)

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "checkpoint.pt")
    torch.save({
        "epoch": 5,
        "model_state_dict": model.state_dict(),
        "optimizer_state_dict": optimizer.state_dict(),
        "loss": losses[-1],
    }, path)
    print("saved", os.listdir(tmp))

    torch.manual_seed(123)
    model2 = Net()
    optimizer2 = torch.optim.Adam(model2.parameters(), lr=0.01)
    print("fresh fc2:", model2.fc2.bias)

    checkpoint = torch.load(path)
    print(model2.load_state_dict(checkpoint["model_state_dict"]))
    optimizer2.load_state_dict(checkpoint["optimizer_state_dict"])
    epoch = checkpoint["epoch"]
    print("resuming at epoch", epoch, f"from loss {checkpoint['loss']:.6f}")
    print(type(checkpoint["model_state_dict"]).__name__,
          list(checkpoint["model_state_dict"].keys()))
    print(checkpoint["optimizer_state_dict"]["param_groups"])
    print("step", checkpoint["optimizer_state_dict"]["state"][0]["step"])
    print("exp_avg of fc2.bias", checkpoint["optimizer_state_dict"]["state"][3]["exp_avg"])
    model2.train()

    resumed = train(model2, optimizer2, 5, start=epoch)
    continued = train(model, optimizer, 5, start=epoch)
    print("resumed == uninterrupted:", resumed == continued)
    print(model2.fc2.weight)
    print(model2.fc2.bias)
    print(torch.equal(model.fc1.weight, model2.fc1.weight))

    # a dict of tensors through a buffer: dtypes, views and requires_grad come back
    buffer = io.BytesIO()
    w = model2.fc1.weight.detach()
    torch.save({"corner": w[:2, 1:], "w_t": w.t()[0], "steps": torch.tensor([10, 20]),
                "positive": model2.fc1.bias > 0, "half": w[0].half(),
                "leaf": torch.ones(2, requires_grad=True)}, buffer)
    buffer.seek(0)
    for name, value in torch.load(buffer, map_location="cpu", weights_only=True).items():
        print(name, value)

    # a whole model: torch.load refuses its class unless told weights_only=False
    whole_path = os.path.join(tmp, "model.pt")
    torch.save(model2, whole_path)
    try:
        torch.load(whole_path)
    except pickle.UnpicklingError as e:
        print(type(e).__name__, [line.strip() for line in str(e).splitlines()
                                 if "GLOBAL" in line][0][:90])
    whole = torch.load(whole_path, weights_only=False)
    whole.eval()
    with torch.no_grad():
        print(type(whole).__name__, whole(x[:3]))
