# "Dive into Deep Learning", gated recurrent units from scratch: reset and update gates, the
# candidate state, a loss through time; then the same weights inside nn.GRUCell.
import torch
from torch import nn

torch.manual_seed(4)
num_inputs, num_hiddens, T, batch = 3, 5, 6, 2


def three():
    return (torch.randn(num_inputs, num_hiddens) * 0.1,
            torch.randn(num_hiddens, num_hiddens) * 0.1,
            torch.zeros(num_hiddens))


W_xz, W_hz, b_z = three()
W_xr, W_hr, b_r = three()
W_xh, W_hh, b_h = three()
params = [W_xz, W_hz, b_z, W_xr, W_hr, b_r, W_xh, W_hh, b_h]
for p in params:
    p.requires_grad_(True)


def gru(inputs, H):
    outputs = []
    for X in inputs:
        Z = torch.sigmoid((X @ W_xz) + (H @ W_hz) + b_z)
        R = torch.sigmoid((X @ W_xr) + (H @ W_hr) + b_r)
        H_tilde = torch.tanh((X @ W_xh) + ((R * H) @ W_hh) + b_h)
        H = Z * H + (1 - Z) * H_tilde
        outputs.append(H)
    return torch.stack(outputs), H


inputs = torch.sin(torch.arange(T * batch * num_inputs, dtype=torch.float32)).reshape(T, batch, -1)
outputs, H = gru(inputs, torch.zeros(batch, num_hiddens))
print(outputs.shape, H)
loss = outputs.pow(2).mean()
loss.backward()
print(f"loss {loss.item():.6f}")
print(W_hz.grad.norm(), b_h.grad)

cell = nn.GRUCell(num_inputs, num_hiddens)
print(cell.weight_ih.shape, cell.weight_hh.shape)
with torch.no_grad():
    cell.weight_ih.copy_(torch.cat([W_xr.T, W_xz.T, W_xh.T]))
    cell.weight_hh.copy_(torch.cat([W_hr.T, W_hz.T, W_hh.T]))
    cell.bias_ih.zero_()
    cell.bias_hh.zero_()
h = torch.zeros(batch, num_hiddens)
for X in inputs:
    h = cell(X, h)
print(torch.allclose(h, H, atol=1e-6), h.grad_fn is not None)
