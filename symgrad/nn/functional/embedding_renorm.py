"""torch's ``embedding_renorm_``: the rows of an embedding table that a lookup reads, scaled
in place down to ``max_norm`` (``F.embedding(max_norm=)``, ``F.embedding_bag(max_norm=)``).

Layer: front end (torch.nn mirror). Input: the weight (D columns), the indices of the lookup,
``max_norm``, ``norm_type``. Output: nothing; the weight is updated in place without recording
(torch runs it under ``no_grad``), so its version counter moves as torch's does. torch's CPU
kernel takes each distinct index once: the row's norm in the weight's dtype (as a double),
``scale = max_norm / (norm + 1e-7)`` in double, and ``row *= scale`` where the norm exceeds
``max_norm`` (the scale rounded to the weight's dtype). Here every row gets a factor, 1 where
torch leaves it (exact), so no index needs to be known at trace time.
"""

from __future__ import annotations

from ... import dtypes
from ...frontend.core.apply import apply
from ...frontend.core.grad_mode import no_grad
from ...frontend.core.tensor import Tensor
from ...frontend.functions.basic import gt, logical_and, where
from ...frontend.functions.creation import zeros
from ...frontend.functions.norms import vector_norm


def embedding_renorm_(weight: Tensor, indices: Tensor, max_norm, norm_type) -> Tensor:
    """Scale the rows of ``weight`` named in ``indices`` whose ``norm_type``-norm exceeds
    ``max_norm`` to that norm (in place), as torch's ``embedding_renorm_``."""
    with no_grad():
        rows = weight.shape[0]
        flat = indices.reshape(-1)
        used = apply("scatter_add", zeros(flat.shape[0], dtype=dtypes.int64).add(1), flat,
                     axis=0, shape_to=(rows,))
        norm = vector_norm(weight, float(norm_type), dim=1).to(dtypes.float64)
        scale = float(max_norm) / (norm + 1e-7)
        factor = where(logical_and(gt(used, 0), gt(norm, float(max_norm))), scale, 1.0)
        weight.mul_(factor.to(weight.dtype).reshape(rows, 1))
    return weight


__all__ = ["embedding_renorm_"]
