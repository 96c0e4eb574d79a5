# makemore, part 1 (second half): the bigram model as a single linear layer on one-hot inputs,
# softmax by hand, the NLL of the correct next characters, and gradient descent on W.
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn",
         "abigail", "emily", "ella", "avery", "sofia", "aria", "luna"]
stoi = {s: i + 1 for i, s in enumerate("abcdefghijklmnopqrstuvwxyz")}
stoi["."] = 0

xs, ys = [], []
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print("number of examples: ", num, xs.dtype, xs[:6], ys[:6])

xenc = F.one_hot(xs, num_classes=27).float()
print(xenc.shape, xenc.dtype, xenc[:2].nonzero())

g = torch.Generator().manual_seed(2147483647)
W = torch.randn((27, 27), generator=g, requires_grad=True)
for k in range(100):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    if k % 20 == 0:
        print(k, f"{loss.item():.4f}")
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
print(f"final {loss.item():.4f}")
print(f"{F.cross_entropy(xenc @ W, ys).item():.4f}", f"{(-probs[torch.arange(num), ys].log().mean()).item():.4f}")

g = torch.Generator().manual_seed(2147483647)
itos = {i: s for s, i in stoi.items()}
for i in range(4):
    out = []
    ix = 0
    while True:
        xenc1 = F.one_hot(torch.tensor([ix]), num_classes=27).float()
        p = F.softmax(xenc1 @ W, dim=1)
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0 or len(out) > 20:
            break
    print("".join(out))
