"""GradBench ``lstm``: ADBench's LSTM text model (diagonal weights), its loss and gradient.

Functions: ``objective``, the mean negative log-likelihood of each next character of a
sequence of c characters under an l-layer LSTM with b-bit inputs, and ``jacobian``, its
gradient with respect to ``main_params`` (2l, 4b) and ``extra_params`` (3, b), each
flattened row by row and concatenated (the eval's output).

Definition (``cpp/gradbench/evals/lstm.hpp``, ``tools/pytorch/lstm_objective.py``): layer i
has weights W = main_params[2i] and biases B = main_params[2i+1], each four b-vectors
(forget, input, output, change); with input x and its own previous hidden state h and cell
state s, forget = sigmoid(x W_f + B_f), in = sigmoid(h W_i + B_i), out = sigmoid(x W_o + B_o),
change = tanh(h W_c + B_c) (elementwise: the weights are diagonal), s' = s forget + in change,
h' = out tanh(s'); layer i's new hidden state is layer i+1's input. Step t feeds character t
times extra_params[0] to layer 0 and predicts y = h_top extra_params[1] + extra_params[2];
the loss is -sum_t sum(seq[t+1] (y - log(2 + sum(exp(y))))) / ((c - 1) b). (The "+ 2" is
ADBench's: its Python summed ``sum(exp(y), 2)``, 2 being the start value; the C++ kept it.)

Inputs: the eval reads the first c characters of a text file (``evals/lstm/data/lstm_full.txt``,
not in the mirror), one row of b bits per character (b = ceil(log2(the largest code point)),
14 for ADBench's text, as its data files ``lstm_l*_c*_d14`` say) and draws state, main_params
and extra_params uniformly from [0, 1). We build a text of the same kind deterministically:
English words from a fixed list drawn by ``numpy.random.default_rng(0)``, with a right single
quotation mark (U+2019, so b = 14 as in ADBench) for each apostrophe, and the parameters from
the same generator. The eval's defaults are l in {2, 4, 6} and c in {1024, 4096, 8192}
(GradBench; ADBench's were l in {2, 4}, c in {1024, 4096}). Default subset: l=2, c=1024 and
l=4, c=4096; ``full``: all nine.

Each system writes it the natural way: torch eager (a Python loop over the characters and the
layers, ``backward`` of the loss); JAX ``jax.jit`` of ``lax.scan`` over the characters (a
Python loop over the layers inside; a Python loop over 4,095 characters under ``jit`` would
unroll); symgrad: the torch spelling, the Python loop over the characters (traced, unrolled,
and rolled back into a loop by ``sg.grad``; see the README's "Loops and branches").

symgrad's first calls are slow at l=4, c=4096: ``sg.compile`` of the objective (no gradient,
so no rolling) unrolls the loop; its repeated steps are outlined into one function each
(``lower.outline``, by the volume of C since this benchmark showed gcc taking ~20 s over 8.7
MB of C at l=2, c=1024: now 2.4 s), but tracing and lowering 4 x 4,095 steps take ~15 s;
``sg.grad`` rolls the loop and compiles in 2-3 s (l=2, c=1024) and ~11 s (l=4, c=4096).
Written with ``sg.scan``, as JAX's is, it compiles in well under a second (``make
bench-loops``); we keep the torch spelling.
"""

from __future__ import annotations

import math

import numpy as np

NAME = "lstm"
FUNCTIONS = ("objective", "jacobian")
NOTES = {"objective": "symgrad's first call compiles the Python loop unrolled (rolling is for "
                      "gradients); the repeated steps are outlined into one function each "
                      "(lower.outline), but tracing and lowering 4 x 4,095 steps still take "
                      "~15 s at l=4, c=4096"}

_WORDS = ("the of and to in a is that it was for on are as with his they at be this from "
          "have or by one had not but what all were when we there can an your which their "
          "said if do will each about how up out them then she many some so these would other "
          "into has more her two like him see time could no make than first been its who now "
          "people my made over did down only way find use may water long little very after "
          "words called just where most know don't it's isn't we're you're can't").split()


def configs(full: bool) -> list[tuple[str, dict]]:
    pairs = [(l, c) for l in (2, 4, 6) for c in (1024, 4096, 8192)] if full \
        else [(2, 1024), (4, 4096)]
    return [(f"l={l},c={c}", {"l": l, "c": c}) for l, c in sorted(pairs, key=lambda v: v[0] * v[1])]


def _text(c: int, rng) -> str:
    words, size = [], 0
    while size < c:
        word = _WORDS[rng.integers(len(_WORDS))].replace("'", "\u2019")
        words.append(word.capitalize() if rng.random() < 0.1 else word)
        size += len(word) + 1
    return (" ".join(words) + ".")[:c]


def inputs(l: int, c: int, seed: int = 0) -> dict:  # noqa: E741  (the eval's name)
    rng = np.random.default_rng(seed)
    text = _text(c, rng)
    b = math.ceil(math.log2(max(map(ord, text))))
    codes = np.array([ord(ch) for ch in text])
    sequence = ((codes[:, None] >> np.arange(b - 1, -1, -1)) & 1).astype(np.float64)
    state = rng.random((2 * l, b))                 # the eval's order: state, main, extra
    main_params = rng.random((2 * l, 4 * b))
    return {"main_params": main_params, "extra_params": rng.random((3, b)), "state": state,
            "sequence": sequence}


def _torch_loss(torch):
    """The objective as a torch user writes it (symgrad runs the same code)."""
    def loss(main, extra, state, seq):
        n_layers, b = main.shape[0] // 2, seq.shape[1]
        hidden = [state[2 * i] for i in range(n_layers)]
        cell = [state[2 * i + 1] for i in range(n_layers)]
        total = 0.0
        for t in range(seq.shape[0] - 1):
            x = seq[t] * extra[0]
            for i in range(n_layers):
                gates = torch.cat([x, hidden[i], x, hidden[i]]) * main[2 * i] + main[2 * i + 1]
                forget = torch.sigmoid(gates[:b])
                ingate = torch.sigmoid(gates[b:2 * b])
                outgate = torch.sigmoid(gates[2 * b:3 * b])
                change = torch.tanh(gates[3 * b:])
                cell[i] = cell[i] * forget + ingate * change
                hidden[i] = outgate * torch.tanh(cell[i])
                x = hidden[i]
            ypred = x * extra[1] + extra[2]
            ynorm = ypred - torch.log(torch.exp(ypred).sum() + 2)
            total = total + (seq[t + 1] * ynorm).sum()
        return -total / ((seq.shape[0] - 1) * b)
    return loss


def torch_impl(inp: dict) -> dict:
    import torch
    loss = _torch_loss(torch)

    def tensors(grad):
        return [torch.tensor(inp["main_params"], requires_grad=grad),
                torch.tensor(inp["extra_params"], requires_grad=grad),
                torch.from_numpy(inp["state"]), torch.from_numpy(inp["sequence"])]

    def objective():
        with torch.no_grad():
            return loss(*tensors(False)).numpy()

    def jacobian():
        args = tensors(True)
        loss(*args).backward()
        return np.concatenate([args[0].grad.numpy().ravel(), args[1].grad.numpy().ravel()])
    return {"objective": objective, "jacobian": jacobian}


def jax_impl(inp: dict) -> dict:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)

    def loss(main, extra, state, seq):
        n_layers, b = main.shape[0] // 2, seq.shape[1]

        def step(carry, xy):
            hidden, cell = carry
            x, ygold = xy[0] * extra[0], xy[1]
            new_h, new_c = [], []
            for i in range(n_layers):
                gates = (jnp.concatenate([x, hidden[i], x, hidden[i]]) * main[2 * i]
                         + main[2 * i + 1])
                forget = jax.nn.sigmoid(gates[:b])
                ingate = jax.nn.sigmoid(gates[b:2 * b])
                outgate = jax.nn.sigmoid(gates[2 * b:3 * b])
                change = jnp.tanh(gates[3 * b:])
                new_c.append(cell[i] * forget + ingate * change)
                new_h.append(outgate * jnp.tanh(new_c[i]))
                x = new_h[i]
            ypred = x * extra[1] + extra[2]
            ynorm = ypred - jnp.log(jnp.exp(ypred).sum() + 2)
            return (jnp.stack(new_h), jnp.stack(new_c)), (ygold * ynorm).sum()

        _, terms = jax.lax.scan(step, (state[0::2], state[1::2]), (seq[:-1], seq[1:]))
        return -terms.sum() / ((seq.shape[0] - 1) * b)

    obj = jax.jit(loss)
    grad = jax.jit(jax.grad(loss, argnums=(0, 1)))
    args = [inp[k] for k in ("main_params", "extra_params", "state", "sequence")]

    def objective():
        return np.asarray(obj(*args))

    def jacobian():
        g_main, g_extra = grad(*args)
        return np.concatenate([np.asarray(g_main).ravel(), np.asarray(g_extra).ravel()])
    return {"objective": objective, "jacobian": jacobian}


def symgrad_impl(inp: dict) -> dict:
    import symgrad as sg
    loss = _torch_loss(sg)
    obj = sg.compile(loss)
    grad = sg.grad(loss, argnums=(0, 1))
    args = [inp[k] for k in ("main_params", "extra_params", "state", "sequence")]

    def objective():
        return obj(*args)

    def jacobian():
        g_main, g_extra = grad(*args)
        return np.concatenate([g_main.ravel(), g_extra.ravel()])
    return {"objective": objective, "jacobian": jacobian}
