"""torch.stft and torch.istft: the short-time Fourier transform and its inverse.

Layer: front end, above ``spectral`` and ``nn.functional`` (whose ``pad`` centers the signal).
Input: a signal (1-D, or 2-D with a batch) or its STFT, torch's arguments (``n_fft``,
``hop_length``, ``win_length``, ``window``, ``center``, ``pad_mode``, ``normalized``,
``onesided``, ``return_complex``, ``length``). Output: tensors built as ATen builds them: frames
gathered from the (padded) signal (``AsStridedBackward0``), windowed, transformed with the FFT
primitives of ``ops/fft.py``; the inverse transforms the frames back, windows them and adds
them up where they overlap (``UnfoldBackwardBackward0``), divided by the windows' summed
squares. Errors and warnings are torch's. Not built: ``align_to_window=True``, and the
``Tensor.stft``/``Tensor.istft`` methods.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..core.apply import apply
from ..core.arguments import tensor_arg
from ..core.tensor import Tensor, tensor
from ...nn.functional import pad
from .basic import composite
from .complexes import view_as_real
from .shapes import reshape, unsqueeze

_WARNED: set = set()


def _warn_once(key: str, message: str) -> None:
    """torch's TORCH_WARN_ONCE: a UserWarning once per process."""
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(message, UserWarning, stacklevel=3)


def _opt(v) -> str:
    return "None" if v is None else str(int(v))


def _window_repr(window) -> str:
    if window is None:
        return "None"
    return f"torch.{window.dtype.scalar_type}Tensor{{{list(window.shape)}}}"


def _windowed(window, win: int, n_fft: int, dtype):
    """The window (ones if None) zero-padded on both sides to ``n_fft`` points."""
    if window is None:
        if win == n_fft:
            return None
        window = tensor(np.ones(win), dtype=dtype)
    left = (n_fft - win) // 2
    return window if win == n_fft else pad(window, [left, n_fft - win - left])


def _frames(x: Tensor, n_fft: int, hop: int, n_frames: int) -> Tensor:
    """(batch, n_frames, n_fft): frame t is x[:, t hop : t hop + n_fft] (torch's as_strided)."""
    idx = (hop * np.arange(n_frames)[:, None] + np.arange(n_fft)).reshape(1, -1)
    idx = tensor(np.broadcast_to(idx, (x.shape[0], idx.shape[1])).copy())

    def body(v):
        return reshape(apply("gather", v, idx, axis=1), (v.shape[0], n_frames, n_fft))
    return composite("AsStridedBackward0", body, [x])


def _overlap_added(frames: Tensor, hop: int, size: int) -> Tensor:
    """(channels, size): the frames (channels, n_frames, n_fft) added up at their places."""
    c, n_frames, n_fft = frames.shape
    idx = (hop * np.arange(n_frames)[:, None] + np.arange(n_fft)).reshape(1, -1)
    idx = tensor(np.broadcast_to(idx, (c, n_frames * n_fft)).copy())

    def body(f):
        return apply("scatter_add", reshape(f, (c, n_frames * n_fft)), idx, axis=1,
                     shape_to=(c, size))

    def rule(g, out, ins):
        return (reshape(apply("gather", g, idx, axis=1), (c, n_frames, n_fft)),)
    return composite("UnfoldBackwardBackward0", body, [frames], rule, saves=False,
                     uses_out=False)


def _centered(x: Tensor, n_fft: int, pad_mode: str) -> Tensor:
    """torch.stft's Python part: the signal padded by n_fft // 2 on both sides."""
    d = x.ndim
    extended = reshape(x, (1,) * (3 - d) + tuple(x.shape))
    padded = pad(extended, [n_fft // 2, n_fft // 2], pad_mode)
    return reshape(padded, padded.shape[len(padded.shape) - d:])


def _stft_checks(x, n_fft, hop, win, window, described) -> None:
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise RuntimeError(f"{described} : expected a tensor of floating point or complex "
                           f"values")
    if x.ndim not in (1, 2):
        raise RuntimeError(f"{described} : expected a 1D or 2D tensor")
    length = x.shape[-1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(f"{described} : expected 0 < n_fft < {length}, but got "
                           f"n_fft={win}")
    if hop <= 0:
        raise RuntimeError(f"{described} : expected hop_length > 0, but got "
                           f"hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise RuntimeError(f"{described} : expected 0 < win_length <= n_fft, but got "
                           f"win_length={win}")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        raise RuntimeError(f"{described} : expected a 1D window tensor of size equal to "
                           f"win_length={win}, but got window with size {list(window.shape)}")


def stft(input, n_fft: int, hop_length=None, win_length=None, window=None,  # noqa: A002
         center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided=None, return_complex=None, align_to_window=None) -> Tensor:
    """The short-time Fourier transform: (B?, N, T) complex (N = n_fft // 2 + 1 if
    onesided, else n_fft; T frames ``hop_length`` apart)."""
    x = tensor_arg(input)
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    if align_to_window:
        raise NotImplementedError("symgrad's stft does not take align_to_window=True yet")
    if center:
        x = _centered(x, n_fft, pad_mode)
    window = None if window is None else tensor_arg(window)
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if window is None:
        _warn_once("stft window", "A window was not provided. A rectangular window will be "
                   "applied,which is known to cause spectral leakage. Other windows such as "
                   "torch.hann_window or torch.hamming_window are recommended to reduce "
                   "spectral leakage.To suppress this warning and use a rectangular window, "
                   "explicitly set `window=torch.ones(n_fft, device=<device>)`.")
    complex_out = return_complex if return_complex is not None else (
        x.dtype.is_complex or (window is not None and window.dtype.is_complex))
    if not complex_out:
        if return_complex is None:
            raise RuntimeError("stft requires the return_complex parameter be given for real "
                               "inputs, and will further require that return_complex=True in "
                               "a future PyTorch release.")
        _warn_once("stft real", "stft with return_complex=False is deprecated. In a future "
                   "pytorch release, stft will return complex tensors for all inputs, and "
                   "return_complex=False will raise an error.\nNote: you can still call "
                   "torch.view_as_real on the complex output to recover the old return "
                   "format.")
    described = (f"stft(torch.{x.dtype.scalar_type}Tensor{list(x.shape)}, n_fft={n_fft}, "
                 f"hop_length={hop}, win_length={win}, window={_window_repr(window)}, "
                 f"normalized={int(normalized)}, onesided={_opt(onesided)}, "
                 f"return_complex={_opt(return_complex)}, align_to_window="
                 f"{_opt(align_to_window)})")
    _stft_checks(x, n_fft, hop, win, window, described)
    batch = x if x.ndim == 2 else unsqueeze(x, 0)
    n_frames = 1 + (batch.shape[1] - n_fft) // hop
    frames = _frames(batch, n_fft, hop, n_frames)
    w = _windowed(window, win, n_fft, x.dtype.real_dtype)
    if w is not None:
        frames = frames * w
    sided = (not frames.dtype.is_complex) if onesided is None else onesided
    norm = "sqrt" if normalized else "none"
    if frames.dtype.is_complex:
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        out = apply("fft_c2c", frames, axes=(2,), norm=norm, forward=True)
    else:
        out = apply("fft_r2c", frames, axes=(2,), norm=norm, onesided=sided)
    # (torch transposes and squeezes in place: its grad_fns are the in-place ones)
    out = apply("permute", out, perm=(0, 2, 1), _torch_name="TransposeBackward1")
    if x.ndim == 1:
        out = apply("reshape", out, shape_to=tuple(out.shape[1:]),
                    _torch_name="SqueezeBackward4")
    return out if complex_out else view_as_real(out)


def _istft_checks(z, n_fft, hop, win, window, sided, described) -> None:
    dims = z.ndim + 1   # of its real view, as torch counts
    if z.numel() == 0:
        raise RuntimeError(f"{described} : input tensor cannot be empty.")
    if dims not in (3, 4):
        raise RuntimeError(f"{described} : expected a tensor with 3 or 4 dimensions, but got "
                           f"{dims}")
    fft_size = z.shape[-2]
    if sided and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(f"{described} : expected the frequency dimension (3rd to the last) "
                           f"of the input tensor to match n_fft / 2 + 1 when onesided=True, "
                           f"but got {fft_size}")
    if not sided and n_fft != fft_size:
        raise RuntimeError(f"{described} : expected the frequency dimension (3rd to the last) "
                           f"of the input tensor to match n_fft when onesided=False, but got "
                           f"{fft_size}")
    if not 0 < hop <= win:
        raise RuntimeError(f"{described} : expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        raise RuntimeError(f"{described} : expected 0 < win_length <= n_fft")
    if window is not None and (window.ndim != 1 or window.shape[0] != win):
        raise RuntimeError(f"{described} : Invalid window shape. window has to be 1D and "
                           f"length of `win_length`")


def istft(input, n_fft: int, hop_length=None, win_length=None, window=None,  # noqa: A002
          center: bool = True, normalized: bool = False, onesided=None, length=None,
          return_complex: bool = False) -> Tensor:
    """The inverse of ``stft``: the frames transformed back, windowed, overlap-added and
    divided by the windows' summed squares (the least-squares signal)."""
    z = tensor_arg(input)
    window = None if window is None else tensor_arg(window)
    if window is None:
        _warn_once("istft window", "A window was not provided. A rectangular window will be "
                   "applied.Please provide the same window used by stft to make the inversion "
                   "lossless.To suppress this warning and use a rectangular window, explicitly "
                   "set `window=torch.ones(n_fft, device=<device>)`.")
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not z.dtype.is_complex:
        raise RuntimeError("istft requires a complex-valued input tensor matching the output "
                           "from stft with return_complex=True.")
    described = (f"istft(CPU{z.dtype.scalar_type}Type{list(z.shape)}, n_fft={n_fft}, "
                 f"hop_length={hop}, win_length={win}, window={_window_repr(window)}, "
                 f"center={int(center)}, normalized={int(normalized)}, "
                 f"onesided={_opt(onesided)}, length={_opt(length)}, "
                 f"return_complex={int(return_complex)})")
    sided = (z.ndim >= 2 and z.shape[-2] != n_fft) if onesided is None else onesided
    _istft_checks(z, n_fft, hop, win, window, sided, described)
    w = _windowed(window, win, n_fft, z.dtype.real_dtype)
    if w is None:
        w = tensor(np.ones(n_fft), dtype=z.dtype.real_dtype)
    # (channels, n_frames, fft_size); torch's last step there is a view_as_complex
    spec = apply("permute", z if z.ndim == 3 else unsqueeze(z, 0), perm=(0, 2, 1),
                 _torch_name="ViewAsComplexBackward0")
    frames = _inverse_frames(spec, n_fft, normalized, sided, return_complex, window)
    n_frames = spec.shape[1]
    size = n_fft + hop * (n_frames - 1)
    y = _overlap_added(frames * w, hop, size)
    squares = (w * w).expand(1, n_frames, n_fft)
    envelope = _overlap_added(squares, hop, size)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else (size - n_fft // 2 if center else size)
    y, envelope = _cut(y, start, min(end, size)), _cut(envelope, start, min(end, size))
    if bool((envelope.abs().min() < 1e-11).item()):
        raise RuntimeError(f"{described} window overlap add min: 1\n[ CPUBoolType{{}} ]")
    y = y / envelope
    if z.ndim == 2:
        y = y.squeeze(0)
    if end > size:
        _warn_once("istft length", "The length of signal is shorter than the length "
                   "parameter. Result is being padded with zeros in the tail. Please check "
                   "your center and hop_length settings.")
        y = pad(y, [0, end - size])
    return y


def _cut(y: Tensor, start: int, stop: int) -> Tensor:
    """``y[:, start:stop]``, a slice even when it is all of ``y`` (torch's grad_fn)."""
    return apply("slice", y, starts=(0, start), stops=(y.shape[0], stop), steps=(1, 1))


def _inverse_frames(spec, n_fft: int, normalized: bool, sided: bool, return_complex: bool,
                    window) -> Tensor:
    """(channels, n_frames, n_fft): each frame's spectrum transformed back."""
    norm = "sqrt" if normalized else "n"
    if return_complex:
        if sided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        return apply("fft_c2c", spec, axes=(2,), norm=norm, forward=False)
    if window is not None and window.dtype.is_complex:
        raise RuntimeError("Complex windows are incompatible with return_complex=False")
    if not sided:
        spec = spec[:, :, :n_fft // 2 + 1]
    return apply("fft_c2r", spec, axes=(2,), norm=norm, last_dim_size=n_fft)


__all__ = ["stft", "istft"]
