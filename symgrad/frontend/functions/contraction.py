"""``einsum`` and ``tensordot``: tensor contractions written as index equations.

Layer: front end. Input: an equation (``"bij,bjk->bik"``, with ``...`` and implicit outputs)
and tensors. Output: a tensor built from ``diagonal``, ``sum``, ``permute``/``reshape`` and
batched ``matmul``: operands are contracted pairwise, left to right, each pair as one batched
matrix product over (shared kept letters) x (first-only letters) x (summed letters) x
(second-only letters), so a contraction costs what the matrix product costs (never an
outer-product-sized temporary), compiles to BLAS, and has matmul's gradient. The result's
grad_fn is the last node of torch's own composition (``_torch_last``).
"""

from __future__ import annotations

import math
import string

from ..core.apply import as_tensor
from ..core.shown import shown_as
from .basic import matmul, sum
from .manipulation import diagonal
from .shapes import broadcast_to, permute, reshape
from ..core.tensor import Tensor


def _parse(equation: str, operands: list) -> tuple[list[str], str]:
    """Input letter strings (ellipses spelled out with spare capital letters) and output."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation" if len(operands) > len(terms) else
                           "einsum(): fewer operands were provided than specified in the "
                           "equation")
    spare = [c for c in string.ascii_uppercase if c not in eq]
    n_ell = max((t.ndim - len(term.replace("...", "")) for term, t in zip(terms, operands)
                 if "..." in term), default=0)
    ell = "".join(spare[:n_ell])
    spelled = []
    for term, t in zip(terms, operands):
        if "..." in term:
            k = t.ndim - len(term.replace("...", ""))
            term = term.replace("...", ell[n_ell - k:])
        if len(term) != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(term)}) does not match the number of dimensions "
                               f"({t.ndim}) for operand {len(spelled)}")
        spelled.append(term)
    if arrow:
        out = out.replace("...", ell)
    else:
        counts = {c: "".join(spelled).count(c) for c in "".join(spelled)}
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    return spelled, out


def _own_letters(t: Tensor, term: str, keep: set) -> tuple[Tensor, str]:
    """Take the diagonals of repeated letters and sum letters no one else needs."""
    while len(set(term)) < len(term):
        c = next(c for c in term if term.count(c) > 1)
        i = term.index(c)
        j = term.index(c, i + 1)
        t = diagonal(t, 0, i, j)
        term = term[:i] + term[i + 1:j] + term[j + 1:] + c
    gone = [d for d, c in enumerate(term) if c not in keep]
    if gone:
        t = sum(t, tuple(gone))
        term = "".join(c for c in term if c in keep)
    return t, term


def _pair(a: Tensor, la: str, b: Tensor, lb: str, keep: set) -> tuple[Tensor, str]:
    """One batched matrix product: the contraction of two operands."""
    size = {**dict(zip(lb, b.shape)), **{c: n for c, n in zip(la, a.shape) if n != 1}}
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    fa = [c for c in la if c not in lb]
    fb = [c for c in lb if c not in la]

    def arranged(t, letters, order):
        t = permute(t, [letters.index(c) for c in order]) if list(letters) != order else t
        return broadcast_to(t, tuple(size[c] for c in order))
    n = [math.prod(size[c] for c in group) for group in (batch, fa, summed, fb)]
    a3 = reshape(arranged(a, la, batch + fa + summed), (n[0], n[1], n[2]))
    b3 = reshape(arranged(b, lb, batch + summed + fb), (n[0], n[2], n[3]))
    out = reshape(matmul(a3, b3), tuple(size[c] for c in batch + fa + fb))
    return out, "".join(batch + fa + fb)


def einsum(equation: str, *operands) -> Tensor:
    """Sum of products of the operands' elements over the letters not in the output."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    ts = [as_tensor(t) for t in operands]
    terms, out = _parse(equation, ts)
    result, letters = None, ""
    for k, (t, term) in enumerate(zip(ts, terms)):
        later = set(out).union(*terms[k + 1:])
        t, term = _own_letters(t, term, later | (set(letters) if result is not None else set()))
        if result is None:
            result, letters = t, term
        else:
            result, letters = _pair(result, letters, t, term, later)
    result, letters = _own_letters(result, letters, set(out))
    if letters != out or result is ts[0]:   # torch's result is a new tensor (a view)
        result = permute(result, [letters.index(c) for c in out])
    return shown_as(result, _torch_last(len(ts), bool(set("".join(terms)) - set(out))), *ts)


def _torch_last(n_operands: int, contracts: bool) -> str:
    """The last node of torch's einsum (without opt_einsum: operands permuted to the output's
    letters, then multiplied pairwise left to right): one operand is its permutation, summed
    over the contracted letters; several are a product (``a * b``), or when letters are
    contracted batched matrix products whose result is reshaped (a view) at the end."""
    if n_operands == 1:
        return "SumBackward1" if contracts else "PermuteBackward0"
    return "ViewBackward0" if contracts else "MulBackward0"


def tensordot(a: Tensor, b: Tensor, dims=2) -> Tensor:
    """Contract the last ``dims`` dims of ``a`` with the first of ``b`` (or the listed
    pairs of dims)."""
    a, b = as_tensor(a), as_tensor(b)
    if isinstance(dims, int):
        if dims < 0 or dims > min(a.ndim, b.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        da, db = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    else:
        da, db = ([d] if isinstance(d, int) else list(d) for d in dims)
    letters = iter(string.ascii_letters)
    la = [next(letters) for _ in range(a.ndim)]
    lb = [next(letters) for _ in range(b.ndim)]
    for i, j in zip(da, db):
        lb[j] = la[i]
    out = [c for c in la if c not in lb] + [c for c in lb if c not in la]
    result = einsum(f"{''.join(la)},{''.join(lb)}->{''.join(out)}", a, b)
    return shown_as(result, "ViewBackward0", a, b)   # torch's: mm, then a reshape (a view)


__all__ = ["einsum", "tensordot"]
