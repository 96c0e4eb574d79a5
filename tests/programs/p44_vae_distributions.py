# A tiny VAE on synthetic binary data with torch.distributions: a diagonal Normal posterior
# sampled by rsample, its KL divergence to a standard Normal prior, a Bernoulli likelihood,
# trained a few steps with Adam; then a Monte Carlo check of the KL and samples from the model.
import torch
import torch.nn as nn
from torch.distributions import Bernoulli, Categorical, Independent, Normal, kl_divergence

torch.manual_seed(0)
N, D, H, Z = 64, 8, 16, 2
prototypes = (torch.rand(4, D) > 0.5).float()
which = Categorical(probs=torch.tensor([0.4, 0.3, 0.2, 0.1])).sample((N,))
noise = Bernoulli(probs=torch.full((N, D), 0.05)).sample()
x = (prototypes[which] + noise) % 2
print("data", x.shape, x.mean().item(), torch.bincount(which, minlength=4).tolist())


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(D, H)
        self.mu = nn.Linear(H, Z)
        self.log_sigma = nn.Linear(H, Z)
        self.dec = nn.Sequential(nn.Linear(Z, H), nn.Tanh(), nn.Linear(H, D))

    def posterior(self, x):
        h = torch.tanh(self.enc(x))
        return Independent(Normal(self.mu(h), self.log_sigma(h).exp()), 1)

    def forward(self, x):
        q = self.posterior(x)
        z = q.rsample()
        return q, z, self.dec(z)


model = VAE()
prior = Independent(Normal(torch.zeros(Z), torch.ones(Z)), 1)
print(prior.batch_shape, prior.event_shape, prior)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(40):
    q, z, logits = model(x)
    likelihood = Independent(Bernoulli(logits=logits), 1)
    rec = likelihood.log_prob(x)
    kl = kl_divergence(q, prior)
    loss = (kl - rec).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f} rec {rec.mean().item():.4f} "
              f"kl {kl.mean().item():.4f}")

with torch.no_grad():
    q = model.posterior(x[:3])
    print(q.batch_shape, q.event_shape, q.mean, q.stddev)
    zs = q.sample((2000,))
    mc = (q.log_prob(zs) - prior.log_prob(zs)).mean(0)
    exact = kl_divergence(q, prior)
    print("kl exact", exact, "monte carlo", mc)
    print("entropy", q.entropy())
    z = prior.sample((3,))
    gen = Bernoulli(logits=model.dec(z))
    print("generated", gen.sample(), gen.mean)
print("grad of mu bias", model.mu.bias.grad)
