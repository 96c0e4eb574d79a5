"""symgrad.fft: the torch.fft mirror.

Layer: front end. Input: tensors (real, integer or complex), eager. Output: tensors. The
transforms live in ``frontend.functions.spectral`` (on the FFT primitives of ``ops.fft``), the
frequency and shift helpers in ``frontend.functions.spectral_helpers``; this module is their
torch-named namespace, with torch's keyword spellings (``input=``, ``out=``).
"""

from .frontend.functions.keywords import wrap_namespace
from .frontend.functions.spectral import (fft, fft2, fftn, hfft, hfft2, hfftn, ifft, ifft2,
                                          ifftn, ihfft, ihfft2, ihfftn, irfft, irfft2, irfftn,
                                          rfft, rfft2, rfftn)
from .frontend.functions.spectral_helpers import fftfreq, fftshift, ifftshift, rfftfreq

__all__ = ["fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "hfft2", "hfftn", "ifft",
           "ifft2", "ifftn", "ifftshift", "ihfft", "ihfft2", "ihfftn", "irfft", "irfft2",
           "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn"]

wrap_namespace(globals())
