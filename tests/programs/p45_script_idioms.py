# The scaffolding of real training scripts (pytorch/examples' mnist and word_language_model,
# nanoGPT's train.py, minGPT's trainer, makemore): device selection through torch.accelerator,
# cuDNN/TF32 flags, autocast and a GradScaler that are off without a GPU, a DataLoader
# imported from its submodule with minGPT's infinite random sampler, an LSTM whose
# parameters get flattened, gradient checkpointing, and assert_close in the checks.
import math
from contextlib import nullcontext

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.backends.cudnn as cudnn
from torch.utils.data import Dataset
from torch.utils.data.dataloader import DataLoader, default_collate
from torch.utils.data.sampler import RandomSampler
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
from torch.testing import assert_close

use_accel = torch.accelerator.is_available()
device = torch.accelerator.current_accelerator() if use_accel else torch.device("cpu")
print("Using device:", device)
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available(),
      torch.version.cuda, cudnn.is_available(), torch.accelerator.device_count())

torch.manual_seed(1337)
cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True
print(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
torch.set_float32_matmul_precision("highest")
device_type = "cuda" if "cuda" in str(device) else "cpu"
ctx = nullcontext() if device_type == "cpu" else torch.amp.autocast(device_type=device_type)
scaler = torch.cuda.amp.GradScaler(enabled=True)   # nanoGPT's float16 path: disabled on a CPU
print("scaler enabled:", scaler.is_enabled(), scaler.get_scale())

text = "the quick brown fox jumps over the lazy dog " * 4
chars = sorted(set(text))
stoi = {ch: i for i, ch in enumerate(chars)}


class CharDataset(Dataset):
    def __init__(self, data, block_size):
        self.data, self.block_size = data, block_size

    def __len__(self):
        return len(self.data) - self.block_size

    def __getitem__(self, idx):
        chunk = [stoi[c] for c in self.data[idx:idx + self.block_size + 1]]
        return torch.tensor(chunk[:-1], dtype=torch.long), torch.tensor(chunk[1:], dtype=torch.long)


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.fc, self.proj = nn.Linear(n, 2 * n), nn.Linear(2 * n, n)

    def forward(self, x):
        return x + self.proj(F.gelu(self.fc(x)))


class CharLSTM(nn.Module):
    def __init__(self, vocab, n=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, n)
        self.rnn = nn.LSTM(n, n, batch_first=True)
        self.block = Block(n)
        self.head = nn.Linear(n, vocab)

    def forward(self, idx, targets=None):
        self.rnn.flatten_parameters()
        h, _ = self.rnn(self.emb(idx))
        h = checkpoint(self.block, h, use_reentrant=False)
        logits = self.head(h)
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


train_dataset = CharDataset(text, block_size=8)
loader = DataLoader(train_dataset,
                    sampler=RandomSampler(train_dataset, replacement=True, num_samples=int(1e10)),
                    shuffle=False, pin_memory=True, batch_size=4, num_workers=0)
model = CharLSTM(len(chars)).to(device)
print("parameters:", sum(p.numel() for p in model.parameters()))
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-2, weight_decay=0.1)

data_iter = iter(loader)
model.train()
for it in range(30):
    x, y = (t.to(device, non_blocking=True) for t in next(data_iter))
    with ctx:
        logits, loss = model(x, y)
    optimizer.zero_grad(set_to_none=True)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
    if it % 6 == 0:
        print(f"iter {it}: loss {loss.item():.4f}, grad norm {norm.item():.4f}")

model.eval()
with torch.no_grad():
    x, y = default_collate([train_dataset[0], train_dataset[5]])
    logits, loss = model(x, y)
    h, _ = model.rnn(model.emb(x))
    assert_close(model.block(h), checkpoint(model.block, h, use_reentrant=False))
    print(f"eval loss {loss.item():.4f}, perplexity {math.exp(loss.item()):.3f}")
    print("next chars:", "".join(chars[i] for i in logits[0].argmax(-1).tolist()))

seq = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
inp = torch.randn(3, 4, requires_grad=True)
out = checkpoint_sequential(seq, 2, inp, use_reentrant=True)
out.sum().backward()
print("checkpoint_sequential:", out.grad_fn is not None, inp.grad.shape)
with torch.cuda.amp.autocast(enabled=False):
    print(torch.is_autocast_enabled(), torch.is_autocast_enabled("cpu"))

try:
    assert_close(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]))
except AssertionError as e:
    print(str(e))
try:
    assert_close({"w": torch.ones(2)}, {"w": torch.ones(2, dtype=torch.float64)})
except AssertionError as e:
    print(str(e))
