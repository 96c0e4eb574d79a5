# Fit the amplitudes and phases of a few complex exponentials to a noisy signal, in the
# frequency domain: torch.fft.fft of the model and of the data, complex amplitudes built from
# real parameters (torch.polar, torch.complex), .abs() and .angle() to read them back, Adam on
# the real parameters. Then a look at the spectrum: peaks, fftfreq, fftshift, rfft/irfft.
import math

import torch

torch.manual_seed(0)
N = 64
t = torch.arange(N, dtype=torch.float32)
bins = torch.tensor([3.0, 7.0, 12.0])
true_amp = torch.tensor([1.0, 0.5, 0.8])
true_phase = torch.tensor([0.3, -1.2, 2.0])
basis = torch.exp(2j * math.pi * bins[:, None] * t[None, :] / N)      # (3, N) complex64


def synth(amp, phase):
    return (torch.polar(amp, phase)[:, None] * basis).sum(0)


noise = 0.1 * torch.complex(torch.randn(N), torch.randn(N))
signal = synth(true_amp, true_phase) + noise
target = torch.fft.fft(signal)
print("signal", signal.dtype, signal.shape, "spectrum", target.dtype)
peaks = target.abs().topk(3).indices.sort().values
print("peak bins", peaks.tolist(), "frequencies", torch.fft.fftfreq(N)[peaks])

log_amp = torch.zeros(3, requires_grad=True)
phase = torch.zeros(3, requires_grad=True)
opt = torch.optim.Adam([log_amp, phase], lr=0.05)
for step in range(301):
    opt.zero_grad()
    model = torch.fft.fft(synth(log_amp.exp(), phase), norm="ortho")
    loss = (model - target / math.sqrt(N)).abs().pow(2).mean()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step:3d} loss {loss.item():.6f} grad {phase.grad.norm().item():.5f}")

c = torch.complex(log_amp.exp() * phase.cos(), log_amp.exp() * phase.sin()).detach()
print("fitted", c)
print("amplitudes", c.abs(), "phases", c.angle())
print("errors", (c.abs() - true_amp).abs().max().item() < 0.1,
      (c.angle() - true_phase).abs().max().item() < 0.1)

residual = signal - synth(c.abs(), c.angle())
power = torch.fft.fftshift(torch.fft.fft(residual).abs() ** 2) / N
print("residual power", f"{power.mean().item():.4f}", "max at",
      torch.fft.fftshift(torch.fft.fftfreq(N))[power.argmax()].item())
real_part = signal.real
half = torch.fft.rfft(real_part, norm="forward")
print("rfft", half.shape, half[:4].abs())
back = torch.fft.irfft(half, n=N, norm="forward")
print("round trip", torch.allclose(back, real_part, atol=1e-5))
