# "Dive into Deep Learning", RNN from scratch: one-hot inputs, a tanh recurrence over time
# steps, gradient clipping by the global norm, and greedy prediction of a short text.
import math

import torch
import torch.nn.functional as F

text = "the time machine by h g wells " * 6
vocab = sorted(set(text))
char_to_idx = {c: i for i, c in enumerate(vocab)}
corpus = torch.tensor([char_to_idx[c] for c in text])
vocab_size, num_hiddens, num_steps, batch_size = len(vocab), 24, 8, 4
print(vocab_size, corpus.shape, F.one_hot(torch.tensor([0, 2]), vocab_size).shape)


def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape) * 0.01

    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)),)


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


def grad_clipping(params, theta):
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


torch.manual_seed(0)
params = get_params(vocab_size, num_hiddens)
X = torch.arange(10).reshape((2, 5))
Y, new_state = rnn(F.one_hot(X.T, vocab_size).type(torch.float32),
                   init_rnn_state(X.shape[0], num_hiddens), params)
print(Y.shape, len(new_state), new_state[0].shape)

lr, starts = 1.0, list(range(0, len(text) - num_steps - 1, num_steps))
for epoch in range(60):
    total, count = 0.0, 0
    for i in range(0, len(starts) - batch_size + 1, batch_size):
        idx = torch.tensor(starts[i:i + batch_size])
        Xb = torch.stack([corpus[j:j + num_steps] for j in idx.tolist()])
        Yb = torch.stack([corpus[j + 1:j + 1 + num_steps] for j in idx.tolist()])
        state = init_rnn_state(batch_size, num_hiddens)
        y_hat, state = rnn(F.one_hot(Xb.T, vocab_size).float(), state, params)
        l = F.cross_entropy(y_hat, Yb.T.reshape(-1))
        for p in params:
            p.grad = None
        l.backward()
        norm = grad_clipping(params, 1)
        with torch.no_grad():
            for p in params:
                p -= lr * p.grad
        total, count = total + l.item() * Yb.numel(), count + Yb.numel()
    if (epoch + 1) % 15 == 0:
        print(f"epoch {epoch + 1} perplexity {math.exp(total / count):.3f} grad norm {norm:.3f}")


def predict(prefix, num_preds):
    state = init_rnn_state(1, num_hiddens)
    outputs = [char_to_idx[prefix[0]]]
    get_input = lambda: torch.tensor([outputs[-1]]).reshape((1, 1))
    for y in prefix[1:]:
        _, state = rnn(F.one_hot(get_input().T, vocab_size).float(), state, params)
        outputs.append(char_to_idx[y])
    for _ in range(num_preds):
        y, state = rnn(F.one_hot(get_input().T, vocab_size).float(), state, params)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return "".join([vocab[i] for i in outputs])


print(repr(predict("the ", 20)))
