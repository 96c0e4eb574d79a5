"""torch.utils.data.dataset: map-style and iterable datasets, subsets, concatenation, splits.

Layer: front end (torch.utils.data mirror). Input: tensors, other datasets, lengths or
fractions. Output: datasets: ``TensorDataset`` (samples are the tensors' rows),
``Subset``, ``ConcatDataset``, ``IterableDataset`` and ``ChainDataset`` (streams, read in
order), ``StackDataset`` (samples zipped), and ``random_split`` (torch's permutation from
symgrad's generator, which draws torch's numbers).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from ...frontend.random.sampling import Generator, randperm
from ...frontend.core.tensor import Tensor


class Dataset:
    """A map-style dataset: ``dataset[i]`` and ``len(dataset)``."""

    def __getitem__(self, index):
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of samples: ``iter(dataset)``; a loader reads it in order."""

    def __iter__(self) -> Iterator:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset) -> ChainDataset:
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """Several iterable datasets, one after the other."""

    def __init__(self, datasets: Iterable) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator:
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")
            total += len(d)
        return total


class StackDataset(Dataset):
    """Samples of several datasets of one length, zipped: a tuple, or a dict by keyword."""

    def __init__(self, *args: Dataset, **kwargs: Dataset) -> None:
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or``dict``- (via "
                             "``kwargs``) like input/output, but both types are given.")
        parts = list(args) or list(kwargs.values())
        self._length = len(parts[0])
        if any(self._length != len(p) for p in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets = args or kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self) -> int:
        return self._length


class TensorDataset(Dataset):
    """Samples are ``tuple(t[i] for t in tensors)``; the tensors share their first size."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t.shape[0] != tensors[0].shape[0] for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].shape[0]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``."""

    def __init__(self, dataset, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets, one after the other."""

    def __init__(self, datasets: Iterable) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError("ConcatDataset does not support IterableDataset")
        self.cumulative_sizes = list(np.cumsum([len(d) for d in self.datasets]))

    def __len__(self) -> int:
        return int(self.cumulative_sizes[-1])

    def __getitem__(self, idx: int):
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx += len(self)
        k = int(np.searchsorted(self.cumulative_sizes, idx, side="right"))
        start = 0 if k == 0 else int(self.cumulative_sizes[k - 1])
        return self.datasets[k][idx - start]


def _split_lengths(n: int, lengths: Sequence) -> list[int]:
    """Fractions summing to 1 become sizes (the remainder dealt round-robin), as torch's."""
    if not (math.isclose(sum(lengths), 1) and sum(lengths) <= 1):
        return [int(k) for k in lengths]
    sizes = []
    for i, frac in enumerate(lengths):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        sizes.append(math.floor(n * frac))
    for i in range(n - sum(sizes)):
        sizes[i % len(sizes)] += 1
    for i, size in enumerate(sizes):
        if size == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty "
                          f"dataset.", stacklevel=3)
    return sizes


def random_split(dataset, lengths: Sequence, generator: Generator | None = None) -> list:
    """Split ``dataset`` into ``Subset``s of the given lengths (or fractions) at random."""
    sizes = _split_lengths(len(dataset), lengths)
    if sum(sizes) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input "
                         "dataset!")
    order = randperm(sum(sizes), generator=generator).tolist()
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, order[start:start + size]))
        start += size
    return out
