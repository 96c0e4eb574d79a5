"""The torch layout that training scripts import and call: ``torch.testing``,
``torch.utils.checkpoint``, ``torch.accelerator``/``cuda``/``mps``/``backends``, ``torch.amp``
(autocast, GradScaler), ``torch.utils.data`` submodules, legacy tensor types, ``torch.compile``
of a module, and the stand-ins (``onnx``, ``hub``, ``distributed``, ``jit``).

Each answer is compared with torch's when torch is installed, and with torch's answers stored
in ``torch_layout_expected.py`` (or an independent oracle: finite differences, training
without scaling) when it is not.
"""

import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import symgrad as sg
import torch_layout_cases as cases
import torch_layout_expected as expected
from symgrad.utils.checkpoint import checkpoint, checkpoint_sequential

PROGRAMS = Path(__file__).resolve().parents[1] / "programs"


def _torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    return torch


# ---------------------------------------------------------------- imports under torch's names

IMPORTS = """\
import torch
import torch.nn as nn
import torch.nn.parallel
import torch.backends.cudnn as cudnn
import torch.utils.data
import torch.utils.data.distributed
import torch.onnx
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed import init_process_group, destroy_process_group
from torch.utils.data.dataloader import DataLoader, default_collate
from torch.utils.data.dataset import Dataset, IterableDataset, TensorDataset
from torch.utils.data.sampler import Sampler, RandomSampler, WeightedRandomSampler
from torch.utils.data.distributed import DistributedSampler
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
from torch.utils.hooks import RemovableHandle
from torch.testing import assert_close, make_tensor
from torch.cuda.amp import autocast, GradScaler
from torch.amp import autocast as amp_autocast, GradScaler as AmpGradScaler
from torch.cpu.amp import autocast as cpu_autocast
from torch.nn.modules.rnn import LSTM
from torch.nn.modules.linear import Linear
from torch.autograd import Function
from torch.optim.lr_scheduler import StepLR
from torch.random import fork_rng
from torch.hub import download_url_to_file
from torch.backends.cuda import sdp_kernel
print(torch.accelerator.is_available(), torch.mps.is_available(), torch.version.cuda,
      cudnn.is_available(), dist.is_initialized(), torch.compiler.is_compiling())
print(cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.allow_tf32,
      torch.backends.cuda.matmul.allow_tf32, torch.get_float32_matmul_precision(),
      torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
      torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction)
try:
    import torch.no_such_module
except ModuleNotFoundError as e:
    print("ModuleNotFoundError:", e)
"""


def _run(script: str, with_torch: bool, tmp_path) -> str:
    path = tmp_path / "imports.py"
    path.write_text(script)
    cmd = [sys.executable] + ([] if with_torch else [str(PROGRAMS / "as_torch.py")]) + [str(path)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_scripts_imports_resolve_to_symgrad_modules(tmp_path):
    out = _run(IMPORTS, False, tmp_path)
    assert out.splitlines() == ["False False None False False False",
                                "True False False True False highest True True",
                                "ModuleNotFoundError: No module named 'torch.no_such_module'"]


def test_the_imports_are_torch_s_own(tmp_path):
    _torch()
    assert _run(IMPORTS, True, tmp_path) == _run(IMPORTS, False, tmp_path)


# ---------------------------------------------------------------- stored and live answers

@pytest.mark.parametrize("label", sorted(expected.CLOSE))
def test_assert_close_raises_torch_s_error(label):
    got = cases.outcome(sg, *cases.close_cases(sg)[label])
    assert got == expected.CLOSE[label]


def test_assert_close_matches_live_torch():
    torch = _torch()
    theirs = {k: cases.outcome(torch, *v) for k, v in cases.close_cases(torch).items()}
    assert {k: cases.outcome(sg, *v) for k, v in cases.close_cases(sg).items()} == theirs


def test_assert_close_can_fail_and_pass():
    sg.testing.assert_close(sg.ones(3), sg.ones(3) + 1e-7)
    with pytest.raises(AssertionError, match="Tensor-likes are not close!"):
        sg.testing.assert_close(sg.ones(3), sg.ones(3) + 1e-3)
    with pytest.warns(FutureWarning, match="assert_allclose"):
        sg.testing.assert_allclose(sg.ones(2), [1.00001, 1.0])


@pytest.mark.parametrize("table", ["DEVICE", "LEGACY", "SEEDED"])
def test_answers_are_torch_s(table):
    builder = {"DEVICE": cases.device_answers, "LEGACY": cases.legacy_answers,
               "SEEDED": cases.seeded_answers}[table]
    assert builder(sg) == getattr(expected, table)


@pytest.mark.parametrize("table", ["DEVICE", "LEGACY", "SEEDED"])
def test_answers_match_live_torch(table):
    torch = _torch()
    builder = {"DEVICE": cases.device_answers, "LEGACY": cases.legacy_answers,
               "SEEDED": cases.seeded_answers}[table]
    assert builder(sg) == builder(torch)


# ---------------------------------------------------------------- utils.checkpoint

def _net():
    sg.manual_seed(0)
    block = sg.nn.Sequential(sg.nn.Linear(4, 8), sg.nn.Tanh(), sg.nn.Dropout(0.3),
                             sg.nn.Linear(8, 4))
    return block, sg.nn.Linear(4, 1), sg.randn(5, 4, requires_grad=True)


def _grads(wrap):
    block, head, x = _net()
    loss = head(wrap(block, x)).pow(2).sum()
    loss.backward()
    after = sg.rand(3).numpy()            # the random state the backward left
    return [loss.detach().numpy(), x.grad.numpy(), after] + \
        [p.grad.numpy() for p in (*block.parameters(), *head.parameters())]


@pytest.mark.parametrize("reentrant", [True, False])
def test_checkpoint_gives_the_gradients_of_the_plain_call(reentrant):
    """Dropout inside: the backward's recomputation draws the forward's numbers, and the
    random state afterwards is the one without checkpointing."""
    plain = _grads(lambda f, x: f(x))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ckpt = _grads(lambda f, x: checkpoint(f, x, use_reentrant=reentrant))
    for a, b in zip(plain, ckpt):
        np.testing.assert_array_equal(a, b)


def test_checkpoint_gradients_agree_with_central_differences():
    sg.manual_seed(1)
    w = sg.randn(3, 3, dtype=sg.float64)
    x0 = np.random.default_rng(0).standard_normal(3)

    def f(x):
        return sg.tanh(w @ x).pow(3).sum()

    x = sg.tensor(x0, requires_grad=True)
    checkpoint(lambda v: sg.tanh(w @ v).pow(3), x, use_reentrant=True).sum().backward()
    h = 1e-6
    numeric = [(f(sg.tensor(x0 + h * e)) - f(sg.tensor(x0 - h * e))).item() / (2 * h)
               for e in np.eye(3)]
    np.testing.assert_allclose(x.grad.numpy(), numeric, rtol=1e-6, atol=1e-9)


def test_reentrant_checkpoint_behaves_as_torch_s():
    block, head, x = _net()
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed"):
        h = checkpoint(block, x)
    assert type(h.grad_fn).__name__ == "CheckpointFunctionBackward"
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        assert not checkpoint(block, x.detach(), use_reentrant=True).requires_grad
    assert checkpoint(block, x.detach(), use_reentrant=False).requires_grad
    with pytest.raises(ValueError, match="Unexpected keyword arguments: foo"):
        checkpoint(block, x, use_reentrant=True, foo=1)
    with pytest.raises(ValueError, match="only supported when use_reentrant=False"):
        checkpoint(block, x, use_reentrant=True, debug=True)


def test_checkpoint_sequential_and_tuples():
    sg.manual_seed(2)
    seq = sg.nn.Sequential(sg.nn.Linear(4, 4), sg.nn.ReLU(), sg.nn.Linear(4, 4), sg.nn.ReLU(),
                           sg.nn.Linear(4, 2))
    x = sg.randn(2, 4, requires_grad=True)
    seq(x).sum().backward()
    want = [x.grad.numpy().copy()] + [p.grad.numpy().copy() for p in seq.parameters()]
    x.grad = None
    seq.zero_grad()
    checkpoint_sequential(seq, 2, x, use_reentrant=True).sum().backward()
    for a, b in zip(want, [x.grad.numpy()] + [p.grad.numpy() for p in seq.parameters()]):
        np.testing.assert_array_equal(a, b)
    a, b = sg.randn(3, requires_grad=True), sg.randn(3, requires_grad=True)
    u, v = checkpoint(lambda p, s, q: (p * s + q, (p * q).sum()), a, 2.0, b, use_reentrant=True)
    (u.sum() + v).backward()
    np.testing.assert_array_equal(a.grad.numpy(), 2.0 + b.detach().numpy())


def test_checkpoint_inside_compile_is_the_plain_call():
    f = sg.grad(lambda x: checkpoint(lambda t: sg.sin(t) * t, x, use_reentrant=False).sum())
    x = np.linspace(0.0, 1.0, 4)
    np.testing.assert_allclose(f(x), np.cos(x) * x + np.sin(x), rtol=1e-12)


# ---------------------------------------------------------------- amp

def _scaled_training(T, scaler, steps=6, inf_at=2):
    T.manual_seed(0)
    w = T.nn.Parameter(T.randn(3, dtype=T.float64))
    x, y = T.randn(8, 3, dtype=T.float64), T.randn(8, dtype=T.float64)
    opt = T.optim.SGD([w], lr=0.1)
    trace = []
    for step in range(steps):
        opt.zero_grad()
        loss = ((w * x).sum(1) - y).pow(2).mean()
        if step == inf_at:
            loss = loss * float("inf")
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        trace.append((scaler.get_scale(), w.detach().numpy().tolist()))
    return trace, scaler.state_dict()


def test_grad_scaler_on_the_cpu_scales_exactly_and_skips_overflows():
    """Oracle: powers of two scale exactly, so the parameters follow unscaled SGD, except the
    step whose loss overflowed (skipped); the scale halves there and doubles every
    ``growth_interval`` clean steps."""
    scaled, state = _scaled_training(sg, sg.amp.GradScaler("cpu", init_scale=2.0 ** 10,
                                                          growth_interval=2))
    plain, _ = _scaled_training(sg, sg.amp.GradScaler("cuda", enabled=False))
    assert [s for s, _ in scaled] == [1024.0, 2048.0, 1024.0, 1024.0, 2048.0, 2048.0]
    assert state == {"scale": 2048.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                     "growth_interval": 2, "_growth_tracker": 1}
    assert scaled[2][1] == scaled[1][1]           # the overflowed step was skipped
    assert [w for _, w in scaled[:2]] == [w for _, w in plain[:2]]
    assert all(np.isnan(plain[2][1])) and not np.isnan(scaled[-1][1]).any()


def test_grad_scaler_matches_torch():
    """The same scales, skipped steps and state as torch's; the parameters to the last bits
    of float64 (the model's own sums may round differently from torch's)."""
    torch = _torch()
    for make in (lambda T: T.amp.GradScaler("cpu", init_scale=2.0 ** 10, growth_interval=2),
                 lambda T: T.amp.GradScaler("cpu")):
        (mine, my_state), (theirs, their_state) = (_scaled_training(T, make(T))
                                                   for T in (sg, torch))
        assert [s for s, _ in mine] == [s for s, _ in theirs] and my_state == their_state
        np.testing.assert_allclose([w for _, w in mine], [w for _, w in theirs], rtol=1e-13)


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn()
    return value, [(w.category.__name__, str(w.message)) for w in caught]


def _amp_calls(T):
    def enabled_inside(ctx):
        with ctx:
            return T.is_autocast_enabled(), T.is_autocast_enabled("cpu")
    return [
        _warnings_of(lambda: T.cuda.amp.GradScaler().is_enabled()),
        _warnings_of(lambda: T.amp.GradScaler("cuda", enabled=False).is_enabled()),
        _warnings_of(lambda: enabled_inside(T.cuda.amp.autocast())),
        _warnings_of(lambda: enabled_inside(T.autocast("cuda", dtype=T.float16))),
        _warnings_of(lambda: enabled_inside(T.autocast("cpu", dtype=T.float64))),
        _warnings_of(lambda: enabled_inside(T.autocast("cpu", enabled=False))),
        _warnings_of(lambda: T.is_autocast_enabled("cpu")),
    ]


TORCH_AMP = [
    (False, [("FutureWarning", "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                               "`torch.amp.GradScaler('cuda', args...)` instead."),
             ("UserWarning", "torch.cuda.amp.GradScaler is enabled, but CUDA is not available. "
                             " Disabling.")]),
    (False, []),
    ((False, False), [("FutureWarning", "`torch.cuda.amp.autocast(args...)` is deprecated. "
                                        "Please use `torch.amp.autocast('cuda', args...)` "
                                        "instead."),
                      ("UserWarning", "CUDA is not available or torch_xla is imported. "
                                      "Disabling autocast.")]),
    ((False, False), [("UserWarning", "CUDA is not available or torch_xla is imported. "
                                      "Disabling autocast.")]),
    ((False, False), [("UserWarning", "In CPU autocast, but the target dtype is not supported. "
                                      "Disabling autocast.\nCPU Autocast only supports dtypes "
                                      "of torch.bfloat16, torch.float16 currently.")]),
    ((False, False), []),
    (False, []),
]


def test_autocast_and_scaler_warn_and_answer_as_torch():
    assert _amp_calls(sg) == TORCH_AMP


def test_autocast_and_scaler_match_live_torch():
    assert _amp_calls(sg) == _amp_calls(_torch())


def test_cpu_autocast_says_symgrad_stays_in_float32():
    with pytest.warns(UserWarning, match="symgrad does not compute in bfloat16"):
        ctx = sg.autocast("cpu")
    with ctx:
        assert sg.is_autocast_enabled("cpu")
        assert (sg.ones(2, 2) @ sg.ones(2, 2)).dtype is sg.float32
    assert not sg.is_autocast_enabled("cpu")


# ---------------------------------------------------------------- torch.compile of a module

def test_compiled_module_is_torch_s_wrapper():
    sg.manual_seed(0)
    model = sg.nn.Sequential(sg.nn.Linear(3, 4), sg.nn.ReLU(), sg.nn.Linear(4, 2))
    cm = sg.compile(model, mode="max-autotune", fullgraph=True)
    assert type(cm).__name__ == "OptimizedModule" and cm._orig_mod is model
    assert list(cm.state_dict()) == ["_orig_mod." + k for k in model.state_dict()]
    assert cm.eval() is cm and not model.training and cm.train() is cm and model.training
    x = sg.randn(5, 3)
    out = cm(x)
    assert out.grad_fn is not None
    out.sum().backward()
    assert model[0].weight.grad is not None
    with sg.no_grad():
        got = cm(x)                       # the compiled C, tensors in and out
    assert isinstance(got, sg.Tensor)
    np.testing.assert_allclose(got.numpy(), model(x).detach().numpy(), rtol=1e-5, atol=1e-6)
    assert "Sequential" in cm.c_source    # read through to the compiled function
    assert sg.compile(model, disable=True) is model
    with pytest.raises(RuntimeError, match="Either mode or options"):
        sg.compile(model, mode="default", options={})


def test_a_module_symgrad_cannot_trace_runs_eagerly_with_one_warning():
    class Python(sg.nn.Module):
        def forward(self, x):
            return sg.tensor(np.asarray(x.detach().numpy()) * 2)

    cm = sg.compile(Python())
    with sg.no_grad():
        with pytest.warns(UserWarning, match="symgrad could not compile Python"):
            assert cm(sg.ones(2)).tolist() == [2.0, 2.0]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert cm(sg.ones(2)).tolist() == [2.0, 2.0]


def test_compile_as_a_decorator_with_torch_options():
    f = sg.compile(mode="reduce-overhead", backend="inductor")(lambda a: a * 2)
    assert isinstance(f, sg.CompiledFunction)
    np.testing.assert_array_equal(f(np.ones(2)), [2.0, 2.0])


# ---------------------------------------------------------------- data, switches, stand-ins

class _Stream(sg.utils.data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter([(float(i), i) for i in range(self.n)])

    def __len__(self):
        return self.n


def test_iterable_datasets_load_in_order():
    DataLoader = sg.utils.data.dataloader.DataLoader
    batches = [(a.tolist(), b.tolist()) for a, b in DataLoader(_Stream(7), batch_size=3)]
    assert batches == [([0.0, 1.0, 2.0], [0, 1, 2]), ([3.0, 4.0, 5.0], [3, 4, 5]),
                       ([6.0], [6])]
    assert len(DataLoader(_Stream(7), batch_size=3, drop_last=True)) == 2
    assert list(DataLoader(_Stream(2), batch_size=None)) == [[0.0, 0], [1.0, 1]]
    chained = sg.utils.data.ChainDataset([_Stream(2), _Stream(1)])
    assert [b[1].tolist() for b in DataLoader(chained, batch_size=2)] == [[0, 1], [0]]
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(_Stream(3), shuffle=True)
    with pytest.warns(UserWarning, match="'pin_memory' argument is set as true"):
        list(DataLoader(_Stream(1), pin_memory=True))


def test_iterable_loading_matches_torch():
    torch = _torch()

    class Stream(torch.utils.data.IterableDataset):
        def __iter__(self):
            return iter([(float(i), i) for i in range(5)])

    def run(T, ds):
        T.manual_seed(4)
        out = [[x.tolist() for x in b] for b in T.utils.data.DataLoader(ds, batch_size=2)]
        return out, T.rand(2).tolist()
    assert run(sg, _Stream(5)) == run(torch, Stream())


def test_switches_keep_torch_s_settings():
    assert sg.get_float32_matmul_precision() == "highest"
    try:
        sg.backends.cuda.matmul.allow_tf32 = True
        assert sg.get_float32_matmul_precision() == "high"
        sg.set_float32_matmul_precision("medium")
        assert sg.backends.cuda.matmul.allow_tf32
        with pytest.warns(UserWarning, match="foo is not one of 'highest', 'high', or 'medium'"):
            sg.set_float32_matmul_precision("foo")
        assert sg.get_float32_matmul_precision() == "medium"
    finally:
        sg.set_float32_matmul_precision("highest")
    assert not sg.backends.cuda.matmul.allow_tf32
    for mode, flags in [("warn", (1, True, True)), (2, (2, True, False)), (0, (0, False, False))]:
        sg.set_deterministic_debug_mode(mode)
        assert (sg.get_deterministic_debug_mode(), sg.are_deterministic_algorithms_enabled(),
                sg.is_deterministic_algorithms_warn_only_enabled()) == flags
    with pytest.raises(RuntimeError, match="expected 0, 1, or 2, but got 3"):
        sg.set_deterministic_debug_mode(3)
    before = (sg.backends.cudnn.enabled, sg.backends.cudnn.deterministic)
    with sg.backends.cudnn.flags(enabled=False, deterministic=True):
        assert not sg.backends.cudnn.enabled and sg.backends.cudnn.deterministic
    assert (sg.backends.cudnn.enabled, sg.backends.cudnn.deterministic) == before


def test_stand_ins_say_what_to_do():
    with pytest.raises(RuntimeError, match="cannot export ONNX.*export_c"):
        sg.onnx.export(sg.nn.Linear(2, 2), (sg.ones(1, 2),), "model.onnx")
    with pytest.raises(RuntimeError, match="cannot load models or weights from torch.hub"):
        sg.hub.load_state_dict_from_url("https://example.invalid/w.pth")
    assert sg.hub.get_dir().endswith(os.path.join("torch", "hub"))
    with pytest.raises(RuntimeError, match="one process"):
        sg.distributed.init_process_group("gloo", rank=0, world_size=1)
    with pytest.raises(ValueError, match="environment variable RANK expected"):
        sg.distributed.init_process_group("gloo")
    with pytest.warns(DeprecationWarning, match="torch.jit.script"):
        scripted = sg.jit.script(sg.nn.Linear(2, 2))
    assert isinstance(scripted, sg.nn.Linear)
    assert sg.jit.ignore(len) is len and sg.compiler.disable(len) is len
    assert sg.grad(lambda x: (x * float(sg.compiler.is_compiling())).sum())(np.ones(2)).tolist() \
        == [1.0, 1.0]
