"""``LRScheduler``: the base of the learning-rate schedulers, and what they share.

Layer: front end (torch.optim mirror). Input: an optimizer. Output: the base class (``initial_lr``
set in each group, ``base_lrs``, ``last_epoch``, the initial step taken at construction,
``step()``, ``get_last_lr()``, ``state_dict()``/``load_state_dict()``: every attribute but the
optimizer, as torch's), torch's warnings (``lr_scheduler.step()`` before ``optimizer.step()``,
the optimizer's ``step`` replaced after the scheduler was made, ``step(epoch)`` deprecated,
``get_lr()`` called outside ``step()``), and the helpers of the options given per parameter
group. As torch does, a scheduler wraps its optimizer's ``step`` (once) to note that it ran.
It must not touch parameters.
"""

from __future__ import annotations

import functools
import warnings
import weakref
from typing import Any

from ...frontend.core.tensor import Tensor
from ..optimizer import Optimizer

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)
OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    "See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
GET_LR_WARNING = ("To get the last learning rate computed by the scheduler, please use "
                  "`get_last_lr()`.")


def per_group(name: str, optimizer: Optimizer, value: Any) -> list:
    """``value`` for each parameter group: a list of one per group, or one for all."""
    if isinstance(value, (list, tuple)):
        if len(value) != len(optimizer.param_groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has "
                             f"{len(optimizer.param_groups)}.")
    else:
        value = [value] * len(optimizer.param_groups)
    return [v.clone() if isinstance(v, Tensor) else v for v in value]


def group_values(optimizer: Optimizer, key: str) -> list:
    """Each group's ``key`` (copies of tensors, so the list never aliases a group's)."""
    return [g[key].clone() if isinstance(g[key], Tensor) else g[key]
            for g in optimizer.param_groups]


def set_group_value(group: dict, key: str, value: Any) -> None:
    """Set ``group[key]``: filled in place when it is a tensor, else replaced."""
    if isinstance(group[key], Tensor):
        group[key].fill_(float(value))
    else:
        group[key] = value


def _note_optimizer_steps(optimizer: Optimizer) -> None:
    """Wrap the optimizer's ``step`` (once) so that it records that it ran."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    method = optimizer.step.__func__
    owner = weakref.ref(optimizer)

    @functools.wraps(method)
    def step(*args, **kwargs):
        opt = owner()
        opt._opt_called = True
        return method.__get__(opt, type(opt))(*args, **kwargs)
    step._wrapped_by_lr_sched = True
    optimizer.step = step


class LRScheduler:
    """Base of the schedulers (``torch.optim.lr_scheduler.LRScheduler``): subclasses give
    ``get_lr()`` (the chainable form) and may give ``closed_form_lr()``."""

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                lr = group["lr"]
                group.setdefault("initial_lr", lr.clone() if isinstance(lr, Tensor) else lr)
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        f"resuming scheduler with last_epoch >= 0.\n"
                        "This typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n"
                        "2. You're using last_epoch >= 0 for a fresh training run (not "
                        "recommended)")
        self.base_lrs = group_values(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _note_optimizer_steps(optimizer)
        self.initial_step()

    def initial_step(self) -> None:
        """Count no steps yet and take the construction's step (``_is_initial`` set)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list:
        """The learning rates of the current epoch (each scheduler's formula)."""
        raise NotImplementedError

    def get_last_lr(self) -> list:
        """The learning rates the last ``step()`` set."""
        return self._last_lr

    def warn_outside_step(self) -> None:
        """torch's warning when ``get_lr()`` is called by user code."""
        if not self._get_lr_called_within_step:
            warnings.warn(GET_LR_WARNING, UserWarning, stacklevel=2)

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (or to ``epoch``, deprecated) and set each group's ``lr``."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.update_lr(epoch)

    def update_lr(self, epoch: int | None = None) -> None:
        """Set the learning rates of the next epoch (or of ``epoch``, by the closed form
        where the scheduler has one)."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed = getattr(self, "closed_form_lr", None)
                values = closed() if closed is not None else self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values):
            set_group_value(group, "lr", lr)
        self._last_lr = group_values(self.optimizer, "lr")

    def children(self) -> list:
        """The schedulers this one steps (composite schedulers)."""
        return []

    def state_dict(self) -> dict:
        """Every attribute but the optimizer."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what ``state_dict`` returned."""
        self.__dict__.update(state_dict)

    def current(self) -> list:
        """The groups' learning rates now (copies of tensors)."""
        return group_values(self.optimizer, "lr")
