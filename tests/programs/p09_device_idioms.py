# Device-agnostic code as GPU tutorials write it; on this machine everything is on the CPU.
import torch

device = (
    "cuda" if torch.cuda.is_available()
    else "mps" if torch.backends.mps.is_available()
    else "cpu"
)
print(f"Using {device} device")
x = torch.ones(3, device=device) * 2
w = torch.zeros(3, requires_grad=True, device=device)
print(x.device, w.device, x.is_cuda)
loss = ((w.to(device) - x) ** 2).sum()
loss.backward()
print(w.grad.cpu().numpy().tolist())
print(torch.device("cpu"), torch.zeros(2, 2).to(torch.device("cpu"), torch.float64).dtype)
torch.backends.cudnn.deterministic = True
print(torch.Size([2, 3]), torch.zeros(2, 3).size(), torch.get_default_dtype())
