# A small classifier: nn.Module with Linear/ReLU, CrossEntropyLoss, Adam; accuracy printed.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(200, 4)
y = (X[:, 0] + 2 * X[:, 1] - X[:, 2] > 0).long() + (X[:, 3] > 1).long()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 16)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


net = Net()
print(net)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(60):
    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        with torch.no_grad():
            acc = (net(X).argmax(dim=1) == y).float().mean()
        print(f"epoch {epoch:2d} loss {loss.item():.4f} acc {acc.item():.3f}")
print(sum(p.numel() for p in net.parameters()), list(net.state_dict().keys()))
