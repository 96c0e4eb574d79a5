"""The checks of optimizer options, raising torch's errors with torch's messages.

Layer: front end (torch.optim mirror). Input: an optimizer's option values, named as torch's
messages name them. Output: nothing, or the ``ValueError`` (``NotImplementedError`` for an
option symgrad does not implement) torch raises first for them.
"""

from __future__ import annotations


def nonnegative(*named: tuple[str, float]) -> None:
    """``ValueError("Invalid <name>: <value>")`` for the first negative value, in order."""
    for name, value in named:
        if not 0.0 <= value:
            raise ValueError(f"Invalid {name}: {value}")


def betas(pair: tuple[float, float]) -> None:
    """Each beta in [0, 1)."""
    for i, beta in enumerate(pair):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")


def not_differentiable(name: str, differentiable: bool) -> None:
    """symgrad's optimizers update values in place, outside autograd."""
    if differentiable:
        raise NotImplementedError(f"{name}(differentiable=True) is not supported")
