"""symgrad.utils.data: the torch.utils.data mirror: datasets, samplers and ``DataLoader``.

Layer: front end. Input/output: see ``dataset`` (datasets, ``random_split``), ``sampler``
(index orders), ``dataloader`` (collation and the loader, in-process) and ``distributed``
(``DistributedSampler``): torch's batches in torch's order, from symgrad's generator.
"""

from .dataset import (ChainDataset, ConcatDataset, Dataset, IterableDataset,  # noqa: F401
                      StackDataset, Subset, TensorDataset, random_split)
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler,  # noqa: F401
                      SubsetRandomSampler, WeightedRandomSampler)
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info  # noqa: F401
from . import distributed  # noqa: F401
from .distributed import DistributedSampler  # noqa: F401
