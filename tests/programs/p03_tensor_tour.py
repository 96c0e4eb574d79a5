# A tour of tensor operations, the way the tensor tutorials show them.
import torch

t = torch.arange(12.0).reshape(3, 4)
print(t)
print(t.shape, t.size(1), t.dtype, t.ndim, t.numel())
print(t[0], t[:, 1], t[..., -1], t[1:, ::2])
print(t[[0, 2]], t[t > 6], t[torch.tensor([2, 0]), torch.tensor([1, 3])])
t[:, 1] = 0
t[t > 9] = -1
print(t)
print(torch.cat([t, t], dim=1).shape, torch.stack((t, t)).shape)
print(t.T, t.t().contiguous().view(-1))
print(t.sum(), t.sum(dim=0), t.mean(1, keepdim=True), t.max(), t.max(dim=1))
print(t.argmax(), t.argmax(dim=0), t.min(1).indices)
print(torch.where(t > 3, t, torch.zeros_like(t)))
print(t.flip(0), t.roll(1, 1), torch.tril(t), t.diagonal())
print(torch.einsum("ij,kj->ik", t, t))
print(t.sort(dim=1, descending=True).values, t.topk(2, dim=1).indices)
print(t.chunk(2, dim=1)[1], t.split([1, 2], dim=0)[1])
print(t.unsqueeze(0).shape, t.flatten(), t.reshape(2, -1).shape)
print(torch.eye(3), torch.linspace(0, 1, 5), torch.full((2, 2), 7))
print(t.float().dtype, t.long(), t.to(torch.float64).dtype, t.bool().any(), t.all())
n = t.numpy()
print(type(n).__name__, n.dtype, torch.from_numpy(n).shape)
print(torch.gather(t, 1, torch.tensor([[0], [1], [2]])), t.index_select(0, torch.tensor([2, 2])))
print(t.masked_fill(t < 0, 100.0), torch.scatter_add(torch.zeros(3, 4), 1,
                                                     torch.tensor([[0, 0], [1, 2], [3, 3]]),
                                                     torch.ones(3, 2)))
