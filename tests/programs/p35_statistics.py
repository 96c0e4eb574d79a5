# Descriptive statistics as data-analysis notebooks compute them with torch: mean/var/std with
# and without Bessel's correction, z-scores, cumulative sums, sorting, top-k, medians, quantiles.
import torch

torch.manual_seed(123)
scores = torch.randn(6, 5) * 10 + 50
print(scores.round())
print(scores.mean(), scores.var(), scores.std(), scores.var(unbiased=False))
print(scores.mean(dim=0), scores.std(dim=1, keepdim=True).shape)
print(torch.var(scores, dim=1, correction=0), torch.std_mean(scores, dim=0))
z = (scores - scores.mean(0)) / scores.std(0)
print(z.mean(0).abs().max() < 1e-5, z.std(0))

sales = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
print(torch.cumsum(sales, dim=0), sales.cumprod(0))
running_mean = sales.cumsum(0) / torch.arange(1, len(sales) + 1)
print(running_mean)
print(sales.sort(), torch.argsort(sales, descending=True))
values, indices = torch.topk(sales, 3)
print(values, indices, sales.kthvalue(2))
print(sales.median(), torch.quantile(sales, torch.tensor([0.25, 0.5, 0.75])))
print(sales.max(), sales.argmin(), sales.unique(), torch.bincount(sales.long()))
print(torch.histc(sales, bins=4, min=0, max=10), sales.mode())

counts = torch.tensor([[2, 0, 5], [1, 3, 3]])
print(counts.sum(0), counts.float().mean(1), counts.prod(), counts.max(dim=1))
print((counts > 1).sum(), torch.count_nonzero(counts, dim=0), counts.dtype)
x = torch.linspace(0, 1, 6)
ycorr = 2 * x + 0.1 * torch.sin(10 * x)
print(torch.corrcoef(torch.stack([x, ycorr])), torch.cov(torch.stack([x, ycorr])))
w = torch.tensor([0.1, 0.2, 0.3, 0.4])
vals = torch.tensor([10.0, 20.0, 30.0, 40.0])
print((w * vals).sum() / w.sum(), torch.diff(vals), vals.clamp(15, 35))
print(torch.min(vals), torch.maximum(vals, torch.full_like(vals, 25.0)), vals.norm(p=1))
