# A tiny character-level transformer, as the "GPT from scratch" notebooks build it with
# torch.nn's own blocks: token and position embeddings, a TransformerEncoder with a causal
# mask (norm-first layers, GELU, dropout), a linear head, AdamW for a few steps.
import torch
import torch.nn as nn
import torch.nn.functional as F

text = "to be or not to be that is the question whether tis nobler in the mind to suffer"
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
vocab, block, d_model = len(chars), 8, 16
print("vocab", vocab, "tokens", data.numel())

torch.manual_seed(1337)


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(block, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=32, dropout=0.1,
                                           activation="gelu", batch_first=True,
                                           norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(block))

    def forward(self, idx, targets=None):
        T = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(T))
        x = self.blocks(x, mask=self.mask[:T, :T], is_causal=True)
        logits = self.head(self.ln(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, vocab), targets.view(-1))


model = TinyGPT()
print(sum(p.numel() for p in model.parameters()), "parameters")
print(list(model.state_dict().keys())[:6])
print(model.blocks.layers[0].self_attn)
print(model.blocks.layers[1].self_attn.in_proj_weight[:2, :4])

opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
for step in range(12):
    ix = torch.randint(len(data) - block, (4,))
    xb = torch.stack([data[i:i + block] for i in ix])
    yb = torch.stack([data[i + 1:i + block + 1] for i in ix])
    logits, loss = model(xb, yb)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    if step % 3 == 0 or step == 11:
        print(f"step {step:2d} loss {loss.item():.4f}")

print(model.blocks.layers[0].linear1.weight.grad[:2, :4])
print(model.head.bias[:5])

model.eval()
with torch.no_grad():
    idx = data[:block].unsqueeze(0)
    logits, _ = model(idx)
    probs = F.softmax(logits[0, -1], dim=-1)
    print("next-char probabilities", probs.topk(3))
    attn = model.blocks.layers[0].self_attn
    h = model.blocks.layers[0].norm1(model.tok(idx) + model.pos(torch.arange(block)))
    _, w = attn(h, h, h, attn_mask=model.mask, need_weights=True)
    print("attention row 3", w[0, 3])
