"""The calls whose answers ``test_torch_layout.py`` compares with torch's: each builder takes the
torch-like module (``torch`` or ``symgrad``) and returns what it answered, as text.

``python tests/frontend/torch_layout_cases.py --store`` (with torch installed) rewrites
``torch_layout_expected.py`` from torch's answers; the tests read those when torch is absent.
"""

import pprint
import sys
import warnings
from pathlib import Path

import numpy as np


def close_cases(T):
    """(label -> (actual, expected, options)) built with the torch-like module T."""
    t = T.tensor
    nan, inf = float("nan"), float("inf")
    return {
        "one_off": (t([1., 2., 3.]), t([1., 4., 3.]), {}),
        "within_default": (t([1., 2., 3.]), t([1., 2.0000001, 3.]), {}),
        "just_outside": (t([1., 2., 3.]), t([1., 2.0001, 3.]), {}),
        "ints_exact": (t([[1, 2], [3, 4]]), t([[1, 2], [3, 5]]), {}),
        "zero_dim": (t(1.5), t(1.6), {}),
        "dtype": (t([1., 2.]), t([1., 2.], dtype=T.float64), {}),
        "dtype_unchecked": (t([1., 2.]), t([1., 2.1], dtype=T.float64), {"check_dtype": False}),
        "shape": (t([1., 2.]), t([1., 2., 3.]), {}),
        "nan": (t([nan, 1.]), t([nan, 1.]), {}),
        "nan_equal": (t([nan, 1.]), t([nan, 1.]), {"equal_nan": True}),
        "inf_signs": (t([inf, 1.]), t([-inf, 1.]), {}),
        "relative_to_zero": (t([0., 1.]), t([1e-3, 0.]), {}),
        "rtol_only": (t([1., 2.]), t([1.1, 2.]), {"rtol": 0.01}),
        "custom_tolerance": (t([1., 2.]), t([1.1, 2.]), {"rtol": 0.2, "atol": 0}),
        "zero_tolerance": (t([1., 2.]), t([1.5, 2.]), {"rtol": 0, "atol": 0}),
        "nested": ([t(1.), {"a": t([1., 2.])}], [t(1.), {"a": t([1., 3.])}], {}),
        "keys": ({"a": 1, "b": 2}, {"a": 1, "c": 2}, {}),
        "lengths": ([1, 2], [1, 2, 3], {}),
        "int_vs_float": (1, 1.0, {}),
        "floats": (1.0, 1.1, {}),
        "float_close": (1.0, 1.0 + 1e-9, {}),
        "bools": (True, False, {}),
        "none": (None, 1, {}),
        "numpy": (np.array([1., 2.]), np.array([1., 2.5]), {}),
        "numpy_scalar": (np.float32(1.), np.float32(1.5), {}),
        "tensor_vs_numpy": (t([1., 2.]), np.array([1., 2.]), {}),
        "msg": (t([1., 2.]), t([1., 2.5]), {"msg": "custom"}),
        "msg_callable": ([t([1., 2.])], [t([1., 2.5])], {"msg": lambda m: "H\n" + m + "\nF"}),
        "subclass": (T.nn.Parameter(T.ones(2)), T.ones(2), {}),
        "no_subclass": (T.nn.Parameter(T.ones(2)), T.ones(2), {"allow_subclasses": False}),
        "bool_tensors": (t([True, False]), t([True, True]), {}),
        "float16": (t([1., 2.], dtype=T.float16), t([1., 2.01], dtype=T.float16), {}),
        "int32_vs_int64": (t([1, 2], dtype=T.int32), t([1, 2]), {}),
        "where_3d": (T.zeros(2, 3, 4), T.zeros(2, 3, 4).index_fill(2, t([1]), 1.0), {}),
        "rtol_without_atol": (t([1.]), t([1.]), {"rtol": 0.1}),
        "number_atol_only": (1, 2, {"atol": 0.1}),
        "tuple_vs_list": ((T.ones(2), 1.0), [T.ones(2), 1.0], {}),
        "strings": ("a", "b", {}),
        "tensor_vs_list": (t([1., 2.]), [1., 2.], {}),
        "nan_vs_number": (t([3., nan]), t([3., 4.]), {}),
        "int_zero_expected": (t([0, 5]), t([0, 0]), {}),
        "uint8": (t([250, 3], dtype=T.uint8), t([3, 250], dtype=T.uint8), {}),
    }


def outcome(T, actual, expected, options):
    """(exception name, message with class names made neutral) or ("ok", "")."""
    try:
        T.testing.assert_close(actual, expected, **options)
        return "ok", ""
    except Exception as e:   # noqa: BLE001  (the exception is the answer)
        text = str(e)
        for name in ("symgrad.frontend.core.tensor.Tensor", "torch.Tensor",
                     "symgrad.nn.parameter.Parameter", "torch.nn.parameter.Parameter"):
            text = text.replace(name, "Tensor" if "Tensor" in name else "Parameter")
        return type(e).__name__, text


def _call(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return repr(f())
        except Exception as e:   # noqa: BLE001  (the exception is the answer)
            return f"{type(e).__name__}: {e}"


def device_answers(T):
    """What a CPU-only torch answers to the device questions scripts ask."""
    A, C, B = T.accelerator, T.cuda, T.backends
    calls = {
        "accelerator.is_available": lambda: A.is_available(),
        "accelerator.device_count": lambda: A.device_count(),
        "accelerator.current_accelerator": lambda: A.current_accelerator(),
        "accelerator.current_accelerator(True)": lambda: A.current_accelerator(True),
        "accelerator.current_device_index": lambda: A.current_device_index(),
        "accelerator.set_device_index(0)": lambda: A.set_device_index(0),
        "accelerator.set_device_index(None)": lambda: A.set_device_index(None),
        "accelerator.synchronize": lambda: A.synchronize(),
        "accelerator.memory_allocated": lambda: A.memory_allocated(),
        "accelerator.device_index(None)": lambda: A.device_index(None).__enter__(),
        "accelerator.device_index(0)": lambda: A.device_index(0).__enter__(),
        "cuda.is_available": lambda: C.is_available(),
        "cuda.device_count": lambda: C.device_count(),
        "cuda.is_bf16_supported": lambda: C.is_bf16_supported(),
        "cuda.get_device_name": lambda: C.get_device_name(0),
        "cuda.get_device_properties": lambda: C.get_device_properties(0),
        "cuda.memory_allocated": lambda: C.memory_allocated(),
        "cuda.max_memory_allocated": lambda: C.max_memory_allocated(),
        "cuda.memory_reserved": lambda: C.memory_reserved(),
        "cuda.memory_stats": lambda: dict(C.memory_stats()),
        "cuda.manual_seed_all": lambda: C.manual_seed_all(0),
        "cuda.seed": lambda: C.seed(),
        "cuda.synchronize": lambda: C.synchronize(),
        "cuda.current_device": lambda: C.current_device(),
        "cuda.initial_seed": lambda: C.initial_seed(),
        "cuda.get_arch_list": lambda: C.get_arch_list(),
        "cuda.set_device(cpu)": lambda: C.set_device("cpu"),
        "cuda.device(-1)": lambda: C.device(-1).__enter__(),
        "cuda.device(0)": lambda: C.device(0).__enter__(),
        "cuda.Stream": lambda: C.Stream(),
        "cuda.Event": lambda: C.Event(),
        "mps.is_available": lambda: T.mps.is_available(),
        "mps.device_count": lambda: T.mps.device_count(),
        "mps.manual_seed": lambda: T.mps.manual_seed(0),
        "mps.synchronize": lambda: T.mps.synchronize(),
        "mps.empty_cache": lambda: T.mps.empty_cache(),
        "mps.seed": lambda: T.mps.seed(),
        "backends.mps.is_available": lambda: B.mps.is_available(),
        "backends.mps.is_built": lambda: B.mps.is_built(),
        "backends.cuda.is_built": lambda: B.cuda.is_built(),
        "backends.cudnn.is_available": lambda: B.cudnn.is_available(),
        "backends.cudnn.version": lambda: B.cudnn.version(),
        "backends.cuda.matmul.unknown": lambda: B.cuda.matmul.unknown_flag,
        "backends.cuda.sdp": lambda: (B.cuda.flash_sdp_enabled(), B.cuda.math_sdp_enabled(),
                                      B.cuda.mem_efficient_sdp_enabled()),
        "cpu.is_available": lambda: T.cpu.is_available(),
        "cpu.device_count": lambda: T.cpu.device_count(),
        "cpu.current_device": lambda: T.cpu.current_device(),
        "version.cuda": lambda: (T.version.cuda, T.version.hip, T.version.debug),
        "distributed.is_initialized": lambda: T.distributed.is_initialized(),
        "distributed.get_rank": lambda: T.distributed.get_rank(),
        "distributed.get_world_size": lambda: T.distributed.get_world_size(),
        "distributed.barrier": lambda: T.distributed.barrier(),
        "distributed.destroy_process_group": lambda: T.distributed.destroy_process_group(),
        "DDP": lambda: T.nn.parallel.DistributedDataParallel(T.nn.Linear(2, 2)),
        "data_parallel": lambda: T.nn.parallel.data_parallel(T.nn.Linear(2, 2), T.ones(1, 2)),
        "DataParallel.state_dict": lambda: list(T.nn.DataParallel(T.nn.Linear(2, 2)).state_dict()),
        "DataParallel.device_ids": lambda: T.nn.DataParallel(T.nn.Linear(2, 2)).device_ids,
        "onnx.is_in_onnx_export": lambda: T.onnx.is_in_onnx_export(),
        "amp.GradScaler(cuda)": lambda: T.amp.GradScaler().is_enabled(),
        "amp.GradScaler(cpu)": lambda: T.amp.GradScaler("cpu").state_dict(),
        "cuda.amp.GradScaler": lambda: (T.cuda.amp.GradScaler().get_scale(),
                                        T.cuda.amp.GradScaler().state_dict()),
        "amp.is_autocast_available": lambda: T.amp.is_autocast_available("cpu"),
        "autocast(xyz)": lambda: T.autocast("xyz"),
        "jit.is_scripting": lambda: (T.jit.is_scripting(), T.jit.is_tracing()),
        "compiler.is_compiling": lambda: T.compiler.is_compiling(),
        "utils.data.get_worker_info": lambda: T.utils.data.get_worker_info(),
        "tensor.is_pinned": lambda: T.ones(2).is_pinned(),
        "tensor.pin_memory": lambda: T.ones(2).pin_memory(),
        "tensor.get_device": lambda: T.ones(2).get_device(),
        "tensor.layout": lambda: (T.ones(2).layout, T.strided, T.channels_last,
                                  T.contiguous_format, T.preserve_format),
        "tensor.is_mps": lambda: (T.ones(2).is_mps, T.ones(2).is_shared()),
        "tensor.share_memory_": lambda: T.ones(2).share_memory_(),
        "tensor.to(channels_last)": lambda: T.ones(1, 2, 3, 4).to(
            memory_format=T.channels_last).shape,
        "module.to(channels_last)": lambda: T.nn.Linear(2, 2).to(
            memory_format=T.channels_last).weight.shape,
        "module.half": lambda: T.nn.Linear(2, 2).half().weight.dtype,
        "lstm.flatten_parameters": lambda: T.nn.LSTM(2, 3).flatten_parameters(),
        "constants": lambda: (T.inf, T.pi, T.e, T.newaxis, isinstance(T.float32, T.dtype)),
    }
    return {k: _call(f) for k, f in calls.items()}


def legacy_answers(T):
    calls = {
        "FloatTensor(list)": lambda: T.FloatTensor([1, 2]),
        "LongTensor(3).zero_()": lambda: T.LongTensor(3).zero_(),
        "FloatTensor()": lambda: T.FloatTensor(),
        "FloatTensor(2, 3).shape": lambda: T.FloatTensor(2, 3).shape,
        "FloatTensor(Size)": lambda: T.FloatTensor(T.Size([2])).shape,
        "LongTensor(floats)": lambda: T.LongTensor([1.5, -2.7]),
        "LongTensor(array)": lambda: T.LongTensor(np.array([1., 2.])),
        "ByteTensor(-1)": lambda: T.ByteTensor([-1]),
        "BoolTensor": lambda: T.BoolTensor([0, 2]),
        "DoubleTensor": lambda: T.DoubleTensor([1.5]),
        "IntTensor": lambda: T.IntTensor([[1], [2]]),
        "HalfTensor": lambda: T.HalfTensor([1]),
        "ShortTensor/CharTensor": lambda: (T.ShortTensor([1]), T.CharTensor([1])),
        "FloatTensor(tensor)": lambda: T.FloatTensor(T.ones(2)),
        "FloatTensor(long tensor)": lambda: T.FloatTensor(T.ones(2).long()),
        "FloatTensor(2, 3.0)": lambda: T.FloatTensor(2, 3.0),
        "FloatTensor(-1)": lambda: T.FloatTensor(-1),
        "FloatTensor(np scalar)": lambda: T.FloatTensor(np.float32(2.0)),
        "repr": lambda: (T.FloatTensor, T.LongTensor),
        "dtype": lambda: (T.FloatTensor.dtype, T.ByteTensor.dtype),
        "isinstance": lambda: (isinstance(T.ones(2), T.FloatTensor),
                               isinstance(T.ones(2).long(), T.FloatTensor),
                               isinstance(T.nn.Parameter(T.ones(1)), T.FloatTensor),
                               isinstance(T.ones(1).int(), T.IntTensor)),
        "type()": lambda: [T.ones(1, dtype=d).type() for d in
                           (T.float32, T.float64, T.int64, T.int32, T.int16, T.int8, T.uint8,
                            T.bool, T.float16)],
        "type(class)": lambda: T.tensor([1.7, 2.]).type(T.LongTensor),
        "type(str)": lambda: T.tensor([1, 2]).type("torch.DoubleTensor"),
        "type(bad str)": lambda: T.tensor([1, 2]).type("DoubleTensor"),
        "typename": lambda: (T.typename(T.ones(1).long()), T.typename(3),
                             T.typename(object())),
    }
    return {k: _call(f) for k, f in calls.items()}


def seeded_answers(T):
    """Draws that must be torch's after manual_seed."""
    from_ = T.testing.make_tensor
    data = T.utils.data
    out = {}
    T.manual_seed(3)
    out["make_tensor float32"] = _call(lambda: from_(2, 3, dtype=T.float32, device="cpu"))
    out["make_tensor int64"] = _call(lambda: from_((4,), dtype=T.int64, device="cpu"))
    out["make_tensor bool"] = _call(lambda: from_(5, dtype=T.bool, device="cpu"))
    out["make_tensor noncontiguous"] = _call(lambda: from_(2, 2, dtype=T.float64, device="cpu",
                                                             low=-1, high=1, noncontiguous=True))
    out["make_tensor uint8 exclude_zero"] = _call(lambda: from_(6, dtype=T.uint8, device="cpu",
                                                                exclude_zero=True))
    out["make_tensor full range"] = _call(lambda: from_(3, dtype=T.float32, device="cpu",
                                                        low=float("-inf"), high=float("inf")))
    out["make_tensor half grad"] = _call(lambda: from_(3, dtype=T.float16, device="cpu",
                                                       requires_grad=True))
    out["make_tensor low >= high"] = _call(lambda: from_(2, dtype=T.float32, device="cpu",
                                                         low=3, high=1))
    out["make_tensor int grad"] = _call(lambda: from_(2, dtype=T.int64, device="cpu",
                                                      requires_grad=True))
    w = [0.1, 0.5, 0.2, 0.9, 0.0]
    out["weighted"] = _call(lambda: (list(data.WeightedRandomSampler(w, 8)),
                                     list(data.WeightedRandomSampler(w, 3, replacement=False))))
    out["distributed"] = _call(lambda: [
        (list(_epoch(data.DistributedSampler(list(range(11)), num_replicas=3, rank=r), 2)),
         list(data.DistributedSampler(list(range(11)), num_replicas=3, rank=r, shuffle=False,
                                      drop_last=True))) for r in range(3)])
    out["distributed padding"] = _call(lambda: list(data.DistributedSampler(
        [0, 1], num_replicas=5, rank=4)))
    out["distributed bad rank"] = _call(lambda: data.DistributedSampler([0], num_replicas=3,
                                                                        rank=3))
    out["distributed no group"] = _call(lambda: data.DistributedSampler([0]))
    out["after"] = _call(lambda: T.rand(2))
    return out


def _epoch(sampler, epoch):
    sampler.set_epoch(epoch)
    return sampler


def all_answers(T) -> dict:
    return {"CLOSE": {k: outcome(T, *v) for k, v in close_cases(T).items()},
            "DEVICE": device_answers(T), "LEGACY": legacy_answers(T),
            "SEEDED": seeded_answers(T)}


if __name__ == "__main__" and sys.argv[1:] == ["--store"]:
    import torch
    import torch.utils.data  # noqa: F401
    found = all_answers(torch)
    text = ['"""torch ' + torch.__version__ + "'s answers to ``torch_layout_cases``, stored by\n"
            "``python tests/frontend/torch_layout_cases.py --store``."
            '"""\n']
    for name, table in found.items():
        text.append(f"{name} = {pprint.pformat(table, width=95, sort_dicts=False)}\n")
    (Path(__file__).parent / "torch_layout_expected.py").write_text("\n".join(text))
    print("stored", ", ".join(f"{k}: {len(v)}" for k, v in found.items()))
