"""The public names symgrad shares with torch, and the ones the sweep does not call.

Input: the two libraries' namespaces (``torch``, ``torch.nn.functional``, ``torch.linalg``,
``torch.special``, ``torch.fft`` when symgrad has it, ``Tensor`` with its operators and
in-place forms). Output: ``shared_with()`` (``ns.name`` of each callable public name in both) and
``NOT_OPS`` (names that are not ops on tensors, each with the reason the sweep leaves it to
other tests) and ``NOT_SWEPT_YET`` (ops whose sweep samples are still to write; their own
test files compare them with torch). Every other shared name must have samples
(``test_sweep`` checks it).
"""

from __future__ import annotations

SPACES = ("torch", "F", "linalg", "special", "fft", "Tensor")

# Names that are no op on tensor values: grad modes, global settings, the random state,
# types and objects, the Python object protocol, printing, hooks and autograd plumbing.
NOT_OPS = {
    "torch.Generator": "an object (the random state), covered by tests/frontend/test_seeds.py",
    "torch.Size": "a tuple type", "torch.Tensor": "the class", "torch.device": "an object",
    "torch.compile": "compilation, not an op", "torch.vmap": "a transform (tests/transforms)",
    "torch.cond": "control flow (tests/frontend/test_control.py)",
    "torch.while_loop": "control flow (tests/frontend/test_control.py)",
    "torch.no_grad": "grad mode", "torch.enable_grad": "grad mode",
    "torch.inference_mode": "grad mode", "torch.set_grad_enabled": "grad mode",
    "torch.is_grad_enabled": "grad mode", "torch.is_inference_mode_enabled": "grad mode",
    "torch.manual_seed": "random state", "torch.seed": "random state",
    "torch.initial_seed": "random state", "torch.get_rng_state": "random state",
    "torch.set_rng_state": "random state",
    "torch.set_default_dtype": "global setting", "torch.get_default_dtype": "global setting",
    "torch.set_default_device": "global setting", "torch.get_default_device": "global setting",
    "torch.set_num_threads": "global setting", "torch.get_num_threads": "global setting",
    "torch.set_printoptions": "printing (tests/frontend/test_torch_surface.py)",
    "torch.finfo": "dtype information object", "torch.iinfo": "dtype information object",
    "torch.dtype": "a type", "torch.layout": "a type", "torch.autocast": "a context manager",
    "Tensor.data_ptr": "a memory address",
    "torch.from_numpy": "shares NumPy memory (the sweep builds tensors with it implicitly)",
    "torch.save": "serialization (files)", "torch.load": "serialization (files)",
    "torch.memory_format": "a type (torch.contiguous_format...), not an op",
    "linalg.LinAlgError": "an exception class",
    "Tensor.backward": "autograd plumbing (every sample calls it)",
    "Tensor.register_hook": "hooks (tests/frontend/test_autograd_api.py)",
    "Tensor.register_post_accumulate_grad_hook": "hooks",
    "Tensor.cuda": "no accelerator (tests/frontend/test_torch_surface.py)",
    "Tensor.numpy": "shares memory; the sweep reads every value through it",
}
for _name in ("are_deterministic_algorithms_enabled get_deterministic_debug_mode "
              "get_float32_matmul_precision get_num_interop_threads is_autocast_enabled "
              "is_deterministic_algorithms_warn_only_enabled is_warn_always_enabled "
              "set_deterministic_debug_mode set_float32_matmul_precision set_num_interop_threads "
              "set_warn_always use_deterministic_algorithms").split():
    NOT_OPS[f"torch.{_name}"] = "global setting"
for _name in ("__class__ __delattr__ __dir__ __format__ __getattribute__ __getstate__ __hash__ "
              "__init__ __init_subclass__ __new__ __reduce__ __reduce_ex__ __repr__ __setattr__ "
              "__sizeof__ __str__ __subclasshook__ __iter__ __array__").split():
    NOT_OPS[f"Tensor.{_name}"] = "Python object protocol (printing, pickling, attributes)"


def _public(obj, dunders: bool) -> set:
    return {n for n in dir(obj) if not n.startswith("_")
            or dunders and n.startswith("__") and n.endswith("__")}


def public_callables(lib: dict) -> dict:
    """ns -> the callable public names of a library's namespace (``runner.library``)."""
    out = {}
    for ns in SPACES:
        if ns in lib:
            space = lib[ns]
            out[ns] = {n for n in _public(space, ns == "Tensor")
                       if callable(getattr(space, n, None))}
    return out


def shared_with(torch_names: dict, symgrad_lib: dict) -> list:
    """Every ``ns.name`` callable in both: torch's names (``public_callables``, live or
    stored) against symgrad's namespaces."""
    mine = public_callables(symgrad_lib)
    return [f"{ns}.{name}" for ns in SPACES if ns in torch_names and ns in mine
            for name in sorted(torch_names[ns] & mine[ns])]


# Ops added after the sweep's samples were written, while their samples are still to write:
# op -> the test file that compares it with torch meanwhile (the report counts them). Empty
# now: every shared op has samples.
NOT_SWEPT_YET: dict = {}
