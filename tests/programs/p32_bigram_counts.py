# makemore, part 1: a bigram character model by counting. An int32 count matrix filled with
# N[ix1, ix2] += 1, smoothed probabilities, sampling names with a seeded Generator, and the
# average negative log likelihood of the training set.
import torch

words = ["emma", "olivia", "ava", "isabella", "sophia", "charlotte", "mia", "amelia",
         "harper", "evelyn", "abigail", "emily", "elizabeth", "mila", "ella", "avery",
         "sofia", "camila", "aria", "scarlett", "victoria", "madison", "luna", "grace"]
print(len(words), min(len(w) for w in words), max(len(w) for w in words))

chars = sorted(list(set("".join(words)) | set("abcdefghijklmnopqrstuvwxyz")))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}

N = torch.zeros((27, 27), dtype=torch.int32)
for w in words:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        N[ix1, ix2] += 1
print(N.dtype, N.sum(), N[0, :10], N[stoi["a"]].max())
top = sorted(((N[i, j].item(), itos[i] + itos[j]) for i in range(27) for j in range(27)),
             reverse=True)[:5]
print(top)

p = N[0].float()
p = p / p.sum()
print(p[:6])
g = torch.Generator().manual_seed(2147483647)
print(torch.multinomial(p, num_samples=5, replacement=True, generator=g))

P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P.shape, P[0].sum(), P.sum(1)[:3])

g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))

log_likelihood = 0.0
n = 0
for w in words[:3]:
    chs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(chs, chs[1:]):
        prob = P[stoi[ch1], stoi[ch2]]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
        if n <= 4:
            print(f"{ch1}{ch2}: {prob:.4f} {logprob:.4f}")
print(f"{log_likelihood=}".split("=")[0], f"{log_likelihood:.4f}")
nll = -log_likelihood
print(f"nll {nll:.4f} avg {nll / n:.4f}", type(nll).__name__)
