"""Schedulers made of schedulers: ``SequentialLR`` (one after another, switching at
milestones: warm-up recipes) and ``ChainedScheduler`` (all of them, every step).

Layer: front end (torch.optim mirror). Input: an optimizer and schedulers already made on
it. Output: the composite scheduler; ``SequentialLR`` undoes the initial steps its
schedulers took, restarts the first from the initial rates, and at each milestone starts
the next one at epoch 0, as torch's does; ``state_dict()`` holds each scheduler's. It must
not touch parameters.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from ..optimizer import Optimizer
from .base import LRScheduler, group_values, set_group_value
from .plateau import ReduceLROnPlateau


def _check(kind: str, optimizer: Optimizer, schedulers: Sequence) -> None:
    """Every scheduler an epoch scheduler of ``optimizer``."""
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{kind} at index {i} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(f"{kind} does not support `ReduceLROnPlateau` scheduler as it "
                             "requires additional kwargs to be specified when calling `step`, "
                             f"but got one at index {i} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(f"{kind} expects all schedulers to belong to the same optimizer, "
                             f"but got scheduler {type(scheduler).__name__} at index {i} has "
                             f"{scheduler.optimizer}, which is different from "
                             f"{type(optimizer).__name__}.")


class _Composite(LRScheduler):
    """State: the own attributes, and each scheduler's ``state_dict()``."""

    def children(self) -> list:
        return list(self._schedulers)

    def state_dict(self) -> dict:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer",
                                                                       "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        saved = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = saved
        for scheduler, state in zip(self._schedulers, saved):
            scheduler.load_state_dict(state)


class SequentialLR(_Composite):
    """``schedulers[i]`` runs from ``milestones[i - 1]`` to ``milestones[i]``."""

    def __init__(self, optimizer: Optimizer, schedulers: list, milestones: list,
                 last_epoch: int = -1) -> None:
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler, but got "
                             f"no scheduler.")
        _check(type(self).__name__, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                f"than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}")
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:
            set_group_value(group, "lr", group["initial_lr"])
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first.initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched: LRScheduler | None = None) -> None:
        """Take back the initial step of every scheduler inside (recursively)."""
        sched = self if sched is None else sched
        if isinstance(sched, _Composite):
            for inner in sched.children():
                self.recursive_undo(inner)
        elif hasattr(sched, "last_epoch"):
            sched.last_epoch -= 1

    def step(self) -> None:
        """The next epoch: the current scheduler's step, or the next one's start."""
        self.last_epoch += 1
        i = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[i]
        if i > 0 and self._milestones[i - 1] == self.last_epoch:
            scheduler.update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_Composite):
    """Every scheduler steps at every step, in order (their factors multiply)."""

    def __init__(self, schedulers: Sequence, optimizer: Optimizer | None = None) -> None:
        if len(schedulers) < 1:
            raise ValueError(f"{type(self).__name__} expects at least one scheduler to be "
                             f"chained, but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check(type(self).__name__, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")

    def step(self) -> None:
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = group_values(self._schedulers[-1].optimizer, "lr")
