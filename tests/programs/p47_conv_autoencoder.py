# A small convolutional autoencoder and a bag-of-words classifier, written with the layers a
# vision or recommendation tutorial reaches for: padding layers, strided and transposed
# convolutions, instance norm, channel dropout, adaptive max pooling, upsampling, pixel
# shuffle, lazy layers, RMSNorm and EmbeddingBag; trained a few steps with Adam.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.ReflectionPad2d(1), nn.Conv2d(1, 8, 3), nn.InstanceNorm2d(8, affine=True),
            nn.ReLU(), nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Dropout2d(0.1))
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
            nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
            nn.Conv2d(8, 4, 3, padding=1), nn.PixelShuffle(2), nn.AdaptiveMaxPool2d(8))

    def forward(self, x):
        return self.decoder(self.encoder(x))


model = AutoEncoder()
print(model)
print(sum(p.numel() for p in model.parameters()))
images = torch.rand(6, 1, 8, 8)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(12):
    recon = model(images)
    loss = F.mse_loss(recon, images)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(f"step {step:2d} loss {loss.item():.5f} {tuple(recon.shape)}")
model.eval()
with torch.no_grad():
    print(f"eval loss {F.mse_loss(model(images), images).item():.5f}")

# a bag-of-words classifier: EmbeddingBag (mean of each bag), a lazy linear layer, RMSNorm
torch.manual_seed(1)
vocab, classes = 20, 3
tokens = torch.randint(0, vocab, (40,))
offsets = torch.tensor([0, 5, 9, 16, 22, 30, 35])
labels = torch.tensor([0, 1, 2, 1, 0, 2, 1])
bag = nn.EmbeddingBag(vocab, 6, mode="mean")
head = nn.Sequential(nn.RMSNorm(6), nn.LazyLinear(classes))
print(bag, head)
head(bag(tokens, offsets))
print(head)
params = list(bag.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=0.5)
for step in range(20):
    logits = head(bag(tokens, offsets))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:2d} loss {loss.item():.4f}")
print(logits.argmax(1), (logits.argmax(1) == labels).float().mean().item())
pooled = F.embedding_bag(tokens, bag.weight, offsets, mode="max")
print(pooled.shape, f"{pooled.sum().item():.4f}")
