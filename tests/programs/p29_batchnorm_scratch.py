# "Dive into Deep Learning", batch normalization from scratch: batch statistics in training,
# moving averages in evaluation, for dense (2-d) and convolutional (4-d) inputs.
import torch
from torch import nn


def batch_norm(X, gamma, beta, moving_mean, moving_var, eps, momentum):
    if not torch.is_grad_enabled():
        X_hat = (X - moving_mean) / torch.sqrt(moving_var + eps)
    else:
        assert len(X.shape) in (2, 4)
        if len(X.shape) == 2:
            mean = X.mean(dim=0)
            var = ((X - mean) ** 2).mean(dim=0)
        else:
            mean = X.mean(dim=(0, 2, 3), keepdim=True)
            var = ((X - mean) ** 2).mean(dim=(0, 2, 3), keepdim=True)
        X_hat = (X - mean) / torch.sqrt(var + eps)
        moving_mean = (1.0 - momentum) * moving_mean + momentum * mean
        moving_var = (1.0 - momentum) * moving_var + momentum * var
    Y = gamma * X_hat + beta
    return Y, moving_mean.data, moving_var.data


class BatchNorm(nn.Module):
    def __init__(self, num_features, num_dims):
        super().__init__()
        shape = (1, num_features) if num_dims == 2 else (1, num_features, 1, 1)
        self.gamma = nn.Parameter(torch.ones(shape))
        self.beta = nn.Parameter(torch.zeros(shape))
        self.moving_mean = torch.zeros(shape)
        self.moving_var = torch.ones(shape)

    def forward(self, X):
        if self.moving_mean.device != X.device:
            self.moving_mean = self.moving_mean.to(X.device)
            self.moving_var = self.moving_var.to(X.device)
        Y, self.moving_mean, self.moving_var = batch_norm(
            X, self.gamma, self.beta, self.moving_mean, self.moving_var, eps=1e-5, momentum=0.1)
        return Y


torch.manual_seed(2)
X = torch.randn(8, 3) * 4 + 1
bn = BatchNorm(3, num_dims=2)
Y = bn(X)
print(Y.mean(0).abs().max() < 1e-6, Y.std(0, unbiased=False))
print(bn.moving_mean, bn.moving_var)
with torch.no_grad():
    print(bn(X[:2]))

ref = nn.BatchNorm1d(3)
print(torch.allclose(ref(X), Y, atol=1e-5), ref.running_mean, ref.running_var)
print(ref.num_batches_tracked, list(ref.state_dict().keys()))
ref.eval()
print(ref(X[:2]))

X4 = torch.randn(2, 3, 4, 4)
bn2 = BatchNorm(3, num_dims=4)
Y4 = bn2(X4)
ref2 = nn.BatchNorm2d(3)
print(Y4.shape, torch.allclose(ref2(X4), Y4, atol=1e-5))
loss = (Y4 * torch.arange(3.0).reshape(1, 3, 1, 1)).pow(2).sum()
loss.backward()
print(bn2.gamma.grad.flatten(), bn2.beta.grad.abs().max() < 1e-4, bn2.beta.grad.shape)
print(bn2.moving_var.flatten(), ref2.running_var)
