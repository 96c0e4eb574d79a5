"""torch.utils.data: datasets, samplers, collation and DataLoader give torch's batches in
torch's order (shuffles drawn from the same random numbers), and leave the global generator
where torch leaves it."""

import numpy as np
import pytest

import symgrad as sg
from symgrad.utils.data import (DataLoader, Subset, TensorDataset, default_collate,
                                random_split)


def _epochs(T, shuffle, drop_last, seeded):
    T.manual_seed(7)
    X = T.arange(22, dtype=T.float32).reshape(11, 2)
    y = T.arange(11)
    gen = T.Generator().manual_seed(3) if seeded else None
    loader = T.utils.data.DataLoader(T.utils.data.TensorDataset(X, y), batch_size=4,
                                     shuffle=shuffle, drop_last=drop_last, generator=gen)
    out = [[(xb.tolist(), yb.tolist()) for xb, yb in loader] for _ in range(2)]
    return out, len(loader), T.rand(3).tolist()


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("seeded", [False, True])
def test_loader_batches_like_torch(shuffle, drop_last, seeded):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    assert _epochs(sg, shuffle, drop_last, seeded) == _epochs(torch, shuffle, drop_last, seeded)


def test_loader_without_torch_covers_every_sample_once():
    X = sg.arange(10, dtype=sg.float32)
    batches = list(DataLoader(TensorDataset(X), batch_size=3, shuffle=True))
    assert [len(b[0]) for b in batches] == [3, 3, 3, 1]
    seen = np.concatenate([b[0].numpy() for b in batches])
    np.testing.assert_array_equal(np.sort(seen), np.arange(10, dtype=np.float32))


def test_collate_and_split():
    batch = default_collate([(1.5, 2, {"a": np.ones(2)}), (2.5, 3, {"a": np.zeros(2)})])
    assert batch[0].dtype is sg.float64 and batch[1].dtype is sg.int64
    np.testing.assert_array_equal(batch[2]["a"].numpy(), [[1, 1], [0, 0]])
    parts = random_split(range(10), [0.3, 0.7], generator=sg.Generator().manual_seed(0))
    assert [len(p) for p in parts] == [3, 7] and isinstance(parts[0], Subset)
    assert sorted(list(parts[0]) + list(parts[1])) == list(range(10))
    with pytest.raises(AssertionError, match="Size mismatch"):
        TensorDataset(sg.ones(3), sg.ones(4))
    with pytest.raises(ValueError, match="mutually exclusive"):
        DataLoader(range(4), sampler=[0, 1], shuffle=True)


def test_random_split_like_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    for T in (torch, sg):
        T.manual_seed(1)
    a = [list(s) for s in torch.utils.data.random_split(range(9), [4, 5])]
    b = [list(s) for s in random_split(range(9), [4, 5])]
    assert a == b


class _OneByOne(TensorDataset):
    """A TensorDataset the loader reads sample by sample (a subclass: no batch fast path)."""


@pytest.mark.parametrize("shapes", [((7, 3), (7,)), ((7, 2, 2), (7, 1))])
def test_a_tensor_dataset_s_batches_are_its_samples_stacked(shapes):
    # rows taken at once must be what stacking the samples gives: values, dtypes, shapes,
    # layout (a transposed source too), whatever the sampler's order
    rng = np.random.default_rng(0)
    X = sg.tensor(rng.standard_normal(shapes[0]).astype(np.float32))
    y = sg.tensor(rng.integers(0, 9, shapes[1]))
    for cls in (TensorDataset, _OneByOne):
        sg.manual_seed(1)
        got = [[(b.numpy().copy(), b.dtype, tuple(b.shape), b.stride(), b.is_contiguous())
                for b in batch] for batch in DataLoader(cls(X, y), batch_size=3, shuffle=True)]
        if cls is TensorDataset:
            fast = got
    assert len(fast) == len(got) == 3
    for a, b in zip(fast, got):
        for (va, *ma), (vb, *mb) in zip(a, b):
            np.testing.assert_array_equal(va, vb)
            assert ma == mb
    if len(shapes[0]) == 2:
        Xt = sg.tensor(rng.standard_normal(shapes[0][::-1]).astype(np.float64)).t()
        batches = list(DataLoader(TensorDataset(Xt), batch_size=4))
        np.testing.assert_array_equal(batches[0][0].numpy(), Xt.numpy()[:4])
        assert batches[0][0].is_contiguous()


def test_a_dataset_s_getitems_fetches_a_batch_as_torch_s_fetcher_does():
    class Pairs(sg.utils.data.Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            raise AssertionError("__getitems__ is asked first")

        def __getitems__(self, indices):
            return [(float(i), i) for i in indices]

    xs, ys = next(iter(DataLoader(Pairs(), batch_size=5)))
    assert xs.dtype == sg.float64 and ys.dtype == sg.int64
    assert xs.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0] and ys.tolist() == [0, 1, 2, 3, 4]
