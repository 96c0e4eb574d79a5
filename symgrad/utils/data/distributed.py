"""torch.utils.data.distributed: ``DistributedSampler``, one replica's share of a dataset.

Layer: front end (torch.utils.data mirror). Input: a dataset, the number of replicas and this
one's rank (needed here: symgrad has no process group to ask, see ``symgrad.distributed``),
shuffling, a seed and the epoch. Output: the indices torch's sampler gives that rank: a
permutation from a generator seeded with ``seed + epoch`` (torch's numbers), padded by
repeating its start (or cut, with ``drop_last``) to a multiple of the replicas, then every
``num_replicas``-th index from ``rank``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from ... import distributed as dist
from ...frontend.random.sampling import Generator, randperm
from .sampler import Sampler


def _replicas_and_rank(num_replicas, rank) -> tuple[int, int]:
    if num_replicas is None or rank is None:
        if not dist.is_available():
            raise RuntimeError("Requires distributed package to be available")
        num_replicas = dist.get_world_size() if num_replicas is None else num_replicas
        rank = dist.get_rank() if rank is None else rank
    if rank >= num_replicas or rank < 0:
        raise ValueError(f"Invalid rank {rank}, rank should be in the interval "
                         f"[0, {num_replicas - 1}]")
    return num_replicas, rank


class DistributedSampler(Sampler):
    """The indices of rank ``rank`` out of ``num_replicas`` (see the module)."""

    def __init__(self, dataset, num_replicas: int | None = None, rank: int | None = None,
                 shuffle: bool = True, seed: int = 0, drop_last: bool = False) -> None:
        self.num_replicas, self.rank = _replicas_and_rank(num_replicas, rank)
        self.dataset, self.epoch, self.drop_last = dataset, 0, drop_last
        n = len(dataset)
        if drop_last and n % self.num_replicas:
            self.num_samples = math.ceil((n - self.num_replicas) / self.num_replicas)
        else:
            self.num_samples = math.ceil(n / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle, self.seed = shuffle, seed

    def __iter__(self) -> Iterator[int]:
        n = len(self.dataset)
        if self.shuffle:
            g = Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if self.drop_last:
            indices = indices[:self.total_size]
        else:
            missing = self.total_size - n
            indices += (indices * math.ceil(missing / n))[:missing] if missing > n else \
                indices[:missing]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch
