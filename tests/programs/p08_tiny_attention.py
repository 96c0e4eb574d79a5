# One head of causal self-attention, as the transformer-from-scratch notebooks write it:
# scores with einsum, a triangular mask, softmax, and the gradient of a loss.
import torch

T, C = 5, 4
x = torch.sin(torch.arange(T * C, dtype=torch.float32).reshape(T, C) * 0.7)
Wq = (torch.cos(torch.arange(C * C, dtype=torch.float32).reshape(C, C)) * 0.5).requires_grad_()
Wk = (torch.sin(torch.arange(C * C, dtype=torch.float32).reshape(C, C)) * 0.5).requires_grad_()
Wv = torch.eye(C, requires_grad=True)

q, k, v = x @ Wq, x @ Wk, x @ Wv
scores = torch.einsum("tc,sc->ts", q, k) / C ** 0.5
mask = torch.tril(torch.ones(T, T)) == 0
scores = scores.masked_fill(mask, float("-inf"))
att = torch.softmax(scores, dim=-1)
out = att @ v
print(att)
loss = (out ** 2).mean()
loss.backward()
print(f"loss {loss.item():.6f}")
print(Wq.grad)
print(Wv.grad.norm(), Wk.grad.abs().max())
