# torch.nn's less common activations and losses in one small training loop: a PReLU/SELU/GLU
# network trained with a multi-class margin loss, a triplet loss and a Gaussian NLL head, and a
# randomized-leaky-ReLU layer that draws its slopes only in training.
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
X = torch.randn(32, 6)
y = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.act1 = nn.PReLU(16)
        self.fc2 = nn.Linear(16, 8)
        self.glu = nn.GLU()
        self.out = nn.Linear(4, 3)
        self.var = nn.Linear(4, 1)
        self.rrelu = nn.RReLU()

    def forward(self, x):
        h = self.act1(self.fc1(x))
        h = self.glu(F.selu(self.fc2(h)))
        return self.out(self.rrelu(h)), F.softplus(self.var(h)), h


net = Net()
print(net)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
margin_loss = nn.MultiMarginLoss(margin=0.5)
gauss = nn.GaussianNLLLoss()
triplet = nn.TripletMarginLoss(margin=0.3)
for step in range(30):
    opt.zero_grad()
    scores, var, h = net(X)
    loss = margin_loss(scores, y) + 0.1 * gauss(scores.max(1).values, y.float(), var[:, 0])
    loss = loss + triplet(h[:8], h[8:16], h[16:24])
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(f"step {step}: loss {loss.item():.5f}")
net.eval()
scores, _, h = net(X)
print("accuracy", (scores.argmax(1) == y).float().mean().item())
print(net.act1.weight[:4])
print(F.hardswish(X[:2]), F.mish(X[0]), F.logsigmoid(X[0, :3]))
print(F.softshrink(X[0], 0.5), F.hardshrink(X[0], 0.5), F.celu(X[0], 0.5))
print(F.soft_margin_loss(X[:, 0], torch.sign(X[:, 1])), F.hinge_embedding_loss(X[:, 0], torch.sign(X[:, 1])))
print(F.cosine_embedding_loss(X[:4], X[4:8], torch.tensor([1.0, -1, 1, -1])))
print(F.multilabel_soft_margin_loss(X[:4, :3], (X[:4, 3:] > 0).float()))
print(F.pairwise_distance(X[:3], X[3:6]), F.pdist(X[:4]))
print(F.poisson_nll_loss(X[:4, 0], X[:4, 1].abs()))
print(F.margin_ranking_loss(X[:5, 0], X[:5, 1], torch.tensor([1.0, -1, 1, 1, -1])))
print(F.multilabel_margin_loss(X[:2, :4], torch.tensor([[3, 0, -1, 1], [1, 2, 3, -1]])))
print(F.rrelu(X[0], training=True))
lp = torch.randn(12, 2, 5).log_softmax(2)
print(F.ctc_loss(lp, torch.tensor([[1, 2, 2], [3, 4, 0]]), torch.tensor([12, 10]), torch.tensor([3, 2])))
