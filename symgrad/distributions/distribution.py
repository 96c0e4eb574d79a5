"""``Distribution``: what every distribution shares (``torch.distributions.Distribution``):
its batch and event shapes, argument and sample validation with torch's errors, the shape of
a sample, ``sample`` as ``rsample`` without gradients, ``expand``'s bookkeeping, the repr.

Layer: front end. Input: a subclass's parameters (tensors) and its ``arg_constraints`` and
``support``. Output: the base class. Validation is on by default (``__debug__``, as torch);
``Distribution.set_default_validate_args(False)`` turns it off for every distribution made
afterwards, ``validate_args=`` for one.
"""

from __future__ import annotations

import warnings

from ..frontend.core import lazy
from ..frontend.core.grad_mode import no_grad
from ..frontend.core.tensor import Tensor
from ..frontend.functions.basic import exp
from ..size import Size
from . import constraints
from .utils import formatted, lazy_property

__all__ = ["Distribution"]


class Distribution:
    """A probability distribution with a batch of parameter sets (``batch_shape``) over
    events of ``event_shape``."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Validate arguments (and samples scored) by default, or not."""
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None) -> None:
        self._batch_shape = Size(batch_shape)
        self._event_shape = Size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._check_arguments()
        super().__init__()

    def _check_arguments(self) -> None:
        """Each parameter against its constraint: torch's ValueError for the first that fails
        (dependent constraints, and lazy parameters not computed yet, are skipped)."""
        try:
            arg_constraints = self.arg_constraints
        except NotImplementedError:
            arg_constraints = {}
            warnings.warn(f"{self.__class__} does not define `arg_constraints`. Please set "
                          f"`arg_constraints = {{}}` or initialize the distribution with "
                          f"`validate_args=False` to turn off validation.", stacklevel=3)
        for param, constraint in arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if param not in self.__dict__ and isinstance(getattr(type(self), param, None),
                                                         lazy_property):
                continue
            value = getattr(self, param)

            def invalid(param=param, value=value, constraint=constraint):
                return ValueError(
                    f"Expected parameter {param} ({type(value).__name__} of shape "
                    f"{tuple(value.shape)}) of distribution {self!r} to satisfy the constraint "
                    f"{constraint!r}, but found invalid values:\n{formatted(value)}")
            _validate(constraint.check(value).all(), invalid)

    def expand(self, batch_shape, _instance=None):
        """A distribution of the same parameters expanded (broadcast, no copy) to
        ``batch_shape``."""
        raise NotImplementedError

    def _expanded(self, new, batch_shape, event_shape=None):
        """``new`` (with its parameters expanded) made this distribution's expansion to
        ``batch_shape``: the shapes set, validation as this one's, nothing checked again."""
        Distribution.__init__(new, batch_shape,
                              self._event_shape if event_shape is None else event_shape,
                              validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def batch_shape(self) -> Size:
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def sample(self, sample_shape=()) -> Tensor:
        """A sample of shape ``sample_shape + batch_shape + event_shape``, no gradient."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()) -> Tensor:
        """A reparameterized sample: differentiable with respect to the parameters."""
        raise NotImplementedError

    def sample_n(self, n: int) -> Tensor:
        warnings.warn("`sample_n(n)` will be deprecated. Use `sample((n,))` instead.",
                      FutureWarning, stacklevel=2)
        return self.sample(Size((n,)))

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def enumerate_support(self, expand: bool = True) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return exp(self.entropy())

    def _extended_shape(self, sample_shape=()) -> Size:
        """``sample_shape + batch_shape + event_shape``."""
        return Size(tuple(sample_shape)) + self._batch_shape + self._event_shape

    def _validate_sample(self, value) -> None:
        """torch's ValueError unless ``value`` is a tensor whose shape ends in the event
        shape, broadcasts with ``batch_shape + event_shape``, and whose values are in the
        support."""
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        size, event = value.size(), self._event_shape
        if Size(size[len(size) - len(event):]) != event:
            raise ValueError(f"The right-most size of value must match event_shape: {size} vs "
                             f"{event}.")
        expected = self._batch_shape + event
        for i, j in zip(reversed(size), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise ValueError(f"Value is not broadcastable with batch_shape+event_shape: "
                                 f"{size} vs {expected}.")
        try:
            support = self.support
        except NotImplementedError:
            warnings.warn(f"{self.__class__} does not define `support` to enable sample "
                          f"validation. Please initialize the distribution with "
                          f"`validate_args=False` to turn off validation.", stacklevel=3)
            return
        _validate(support.check(value).all(), lambda: ValueError(
            f"Expected value argument ({type(value).__name__} of shape {tuple(value.shape)}) to "
            f"be within the support ({support!r}) of the distribution {self!r}, but found "
            f"invalid values:\n{formatted(value)}"))

    def _get_checked_instance(self, cls, _instance=None):
        """A blank instance for ``expand`` (a subclass with its own ``__init__`` must define
        its own ``expand``)."""
        if _instance is None and type(self).__init__ != cls.__init__:
            raise NotImplementedError(f"Subclass {self.__class__.__name__} of {cls.__name__} "
                                      f"that defines a custom __init__ method must also define "
                                      f"a custom .expand() method.")
        return self.__new__(type(self)) if _instance is None else _instance

    def __repr__(self) -> str:
        shown = ", ".join(f"{p}: {_shown(self.__dict__[p])}"
                          for p in self.arg_constraints if p in self.__dict__)
        return f"{self.__class__.__name__}({shown})"


def _shown(t: Tensor) -> str:
    """A parameter in a distribution's repr: its value if it has one element, else its
    size."""
    return formatted(t) if t.numel() == 1 and not t.is_traced else str(t.size())


def _validate(ok: Tensor, error) -> None:
    """Raise ``error()`` unless ``ok`` is True; in a captured step where ``ok`` is pending,
    where the step runs (``lazy.check``: a validation need not read a value every step)."""
    if not lazy.check(ok, error) and not bool(ok):
        raise error()
