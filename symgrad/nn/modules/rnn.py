"""Recurrent layers: ``RNNCell``, ``GRUCell``, ``LSTMCell`` and the multi-layer ``RNN``,
``GRU``, ``LSTM``.

Layer: front end (torch.nn mirror). Input: sizes and torch's options. Output: modules with
torch's parameter names, shapes, registration order and initialization (every parameter
uniform in +-1/sqrt(hidden_size), drawn in ``parameters()`` order, so that after
``manual_seed`` they hold torch's values), whose forward unrolls the sequence with tensor ops
(gates in torch's order: LSTM i, f, g, o; GRU r, z, n). Inside ``@symgrad.compile`` the loop
over time steps is unrolled at trace time. The outputs' grad_fn are those of the ops used, not
torch's fused kernels' names.
"""

from __future__ import annotations

import math
from typing import Any

from ...frontend.functions.creation import zeros
from ...frontend.functions.basic import relu, sigmoid, tanh
from ...frontend.functions.shapes import cat, squeeze, stack, unsqueeze
from ...frontend.core.tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ._common import new_empty
from .module import Module

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _rnn_step(mode: str, x: Tensor, h: Tensor, w: tuple) -> Tensor:
    pre = F.linear(x, w[0], w[2]) + F.linear(h, w[1], w[3])
    return tanh(pre) if mode == "RNN_TANH" else relu(pre)


def _gru_step(x: Tensor, h: Tensor, w: tuple) -> Tensor:
    i_r, i_z, i_n = F.linear(x, w[0], w[2]).chunk(3, -1)
    h_r, h_z, h_n = F.linear(h, w[1], w[3]).chunk(3, -1)
    r = sigmoid(i_r + h_r)
    z = sigmoid(i_z + h_z)
    n = tanh(i_n + r * h_n)
    return (1 - z) * n + z * h


def _lstm_step(x: Tensor, h: Tensor, c: Tensor, w: tuple) -> tuple[Tensor, Tensor]:
    gates = F.linear(x, w[0], w[2]) + F.linear(h, w[1], w[3])
    i, f, g, o = gates.chunk(4, -1)
    c = sigmoid(f) * c + sigmoid(i) * tanh(g)
    return sigmoid(o) * tanh(c), c


def _check_input(name: str, x: Tensor, size: int, batched_dims: int) -> None:
    if x.ndim not in (batched_dims - 1, batched_dims):
        raise ValueError(f"{name}: Expected input to be {batched_dims - 1}D or "
                         f"{batched_dims}D, got {x.ndim}D instead")
    if x.shape[-1] != size:
        raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {size}, "
                           f"got {x.shape[-1]}")


class _CellBase(Module):
    mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        g = _GATES[self.mode] * hidden_size
        self.weight_ih = Parameter(new_empty((g, input_size), device, dtype))
        self.weight_hh = Parameter(new_empty((g, hidden_size), device, dtype))
        if bias:
            self.bias_ih = Parameter(new_empty((g,), device, dtype))
            self.bias_hh = Parameter(new_empty((g,), device, dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _weights(self) -> tuple:
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh

    def _state(self, x: Tensor, hx: Tensor | None) -> tuple[Tensor, Tensor, bool]:
        _check_input(type(self).__name__, x, self.input_size, 2)
        batched = x.ndim == 2
        if not batched:
            x = unsqueeze(x, 0)
        if hx is None:
            hx = zeros(x.shape[0], self.hidden_size, dtype=x.dtype)
        elif not batched:
            hx = unsqueeze(hx, 0)
        return x, hx, batched

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(_CellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, h, batched = self._state(input, hx)
        h = _rnn_step(self.mode, x, h, self._weights())
        return h if batched else squeeze(h, 0)


class GRUCell(_CellBase):
    """torch's GRU cell: r, z, n gates; h' = (1 - z) * n + z * h."""

    mode = "GRU"

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, h, batched = self._state(input, hx)
        h = _gru_step(x, h, self._weights())
        return h if batched else squeeze(h, 0)


class LSTMCell(_CellBase):
    """torch's LSTM cell: i, f, g, o gates; returns (h', c')."""

    mode = "LSTM"

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:  # noqa: A002
        x, h, batched = self._state(input, None if hx is None else hx[0])
        c = zeros(x.shape[0], self.hidden_size, dtype=x.dtype) if hx is None \
            else (hx[1] if batched else unsqueeze(hx[1], 0))
        h, c = _lstm_step(x, h, c, self._weights())
        return (h, c) if batched else (squeeze(h, 0), squeeze(c, 0))


class RNNBase(Module):
    """Stacked (and optionally bidirectional) recurrent layers over a sequence."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if proj_size:
            raise NotImplementedError("LSTM(proj_size=...) is not supported yet")
        if not 0 <= dropout <= 1:
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, 0
        g = _GATES[mode] * hidden_size
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[:2 if bidirectional else 1]:
                width = input_size if layer == 0 else hidden_size * (2 if bidirectional else 1)
                shapes = [("weight_ih", (g, width)), ("weight_hh", (g, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (g,)), ("bias_hh", (g,))]
                for name, shape in shapes:
                    setattr(self, f"{name}_l{layer}{suffix}",
                            Parameter(new_empty(shape, device, dtype)))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def flatten_parameters(self) -> None:
        """torch packs the weights into one cuDNN buffer; there is nothing to pack here."""

    def _weights(self, layer: int, suffix: str) -> tuple:
        get = lambda n: getattr(self, f"{n}_l{layer}{suffix}", None)  # noqa: E731
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh")

    def _run(self, seq: list, state: tuple, w: tuple, reverse: bool) -> tuple[list, tuple]:
        """One layer in one direction over the time steps of ``seq``."""
        outs = []
        for x in (reversed(seq) if reverse else seq):
            if self.mode == "LSTM":
                state = _lstm_step(x, state[0], state[1], w)
            elif self.mode == "GRU":
                state = (_gru_step(x, state[0], w),)
            else:
                state = (_rnn_step(self.mode, x, state[0], w),)
            outs.append(state[0])
        return (outs[::-1] if reverse else outs), state

    def _initial(self, x: Tensor, hx, batched: bool) -> list:
        """The initial states, as [(h,) or (h, c)] per layer and direction."""
        n = self.num_layers * (2 if self.bidirectional else 1)
        parts = 2 if self.mode == "LSTM" else 1
        if hx is None:
            zero = zeros(n, x.shape[1], self.hidden_size, dtype=x.dtype)
            hx = (zero,) * parts
        else:
            hx = tuple(hx) if self.mode == "LSTM" else (hx,)
            if not batched:
                hx = tuple(unsqueeze(h, 1) for h in hx)
        return [tuple(h[k] for h in hx) for k in range(n)]

    def forward(self, input: Tensor, hx=None):  # noqa: A002
        _check_input(type(self).__name__, input, self.input_size, 3)
        batched = input.ndim == 3
        x = input if batched else unsqueeze(input, 1)
        if batched and self.batch_first:
            x = x.transpose(0, 1)
        states = self._initial(x, hx, batched)
        seq, finals = list(x.unbind(0)), []
        dirs = ("", "_reverse") if self.bidirectional else ("",)
        for layer in range(self.num_layers):
            if layer and self.dropout and self.training:
                seq = list(F.dropout(stack(seq, 0), self.dropout, True).unbind(0))
            outs = []
            for d, suffix in enumerate(dirs):
                out, final = self._run(seq, states[layer * len(dirs) + d],
                                       self._weights(layer, suffix), bool(d))
                outs.append(out)
                finals.append(final)
            seq = outs[0] if len(outs) == 1 else [cat([a, b], -1) for a, b in zip(*outs)]
        return self._outputs(stack(seq, 0), finals, batched)

    def _outputs(self, out: Tensor, finals: list, batched: bool):
        if batched and self.batch_first:
            out = out.transpose(0, 1)
        h = stack([f[0] for f in finals], 0)
        c = stack([f[1] for f in finals], 0) if self.mode == "LSTM" else None
        if not batched:
            out, h = squeeze(out, 1), squeeze(h, 1)
            c = None if c is None else squeeze(c, 1)
        return (out, (h, c)) if self.mode == "LSTM" else (out, h)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        for name, default in (("num_layers", 1), ("bias", True), ("batch_first", False),
                              ("dropout", 0.0), ("bidirectional", False)):
            value = getattr(self, name)
            if value != default:
                s += f", {name}={value}"
        return s


class RNN(RNNBase):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             f"'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", input_size,
                         hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         0, device, dtype)
        self.nonlinearity = nonlinearity


class GRU(RNNBase):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, device: Any = None, dtype: Any = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, 0, device, dtype)


class LSTM(RNNBase):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, device, dtype)
