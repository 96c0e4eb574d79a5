"""symgrad.special: the torch.special mirror.

Layer: front end. Input: tensors, eager or traced, and Python numbers. Output: tensors. Every
function is an elementwise primitive or a composite defined elsewhere in the front end; this
module only gives them torch.special's names.
The Bessel, Airy and orthogonal-polynomial families, erfcx, log_ndtr, ndtri and
gammainc/gammaincc are ``frontend.functions.special_functions``' (eager only).
"""

from __future__ import annotations

from .frontend.functions import basic as _F
from .frontend.functions import pointwise as _P
from .frontend.functions.keywords import torch_keywords as _keywords, wrap_namespace as _wrap
from .frontend.functions.dtype_checks import guard as _guard
from .frontend.functions.special_functions import SPECIAL as _SPECIAL

erf, erfc, erfinv, exp2, expm1, log1p = _P.erf, _P.erfc, _P.erfinv, _P.exp2, _F.expm1, _F.log1p
digamma = psi = _P.digamma
gammaln = _P.lgamma
polygamma, multigammaln = _P.polygamma, _P.mvlgamma
zeta, xlogy, xlog1py, entr, sinc = _P.zeta, _P.xlogy, _P.xlog1py, _P.entr, _P.sinc
expit, logit, ndtr = _F.sigmoid, _P.logit, _P.ndtr
logsumexp, softmax, log_softmax = _F.logsumexp, _F.softmax, _F.log_softmax


def round(input, *, decimals: int = 0):  # noqa: A001  (torch's name)
    """torch's ``round(input, decimals=decimals)`` (RoundBackward1 even for 0 decimals); an
    integer tensor with 0 decimals is copied."""
    floating = getattr(getattr(input, "dtype", None), "is_floating", False)
    return _P.round(input, decimals=decimals if floating else decimals or None)


round = _keywords(round, exact_out=True)  # noqa: A001  (defined here, not in the front end: out= by hand)

globals().update(_SPECIAL)

__all__ = ["digamma", "entr", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln",
           "log1p", "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "polygamma",
           "psi", "round", "sinc", "softmax", "xlog1py", "xlogy", "zeta"]
__all__ += sorted(_SPECIAL)  # noqa: PLE0605  (names, from the table)
_wrap(globals())
_guard(globals(), "special")
