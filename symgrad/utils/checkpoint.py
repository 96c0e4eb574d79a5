"""symgrad.utils.checkpoint: torch.utils.checkpoint's ``checkpoint`` and
``checkpoint_sequential``.

Layer: front end (torch.utils mirror), above ``frontend.control.checkpoint``. Input: a
function and its arguments (or a sequence of modules), torch's options. Output: the
function's results, with the gradients torch's checkpointing gives.

- ``use_reentrant=True`` (torch's default when the argument is omitted, with torch's warning):
  the forward runs without recording (only the arguments are kept); the backward restores
  the random state the forward began with (``preserve_rng_state``), runs the function again
  on detached copies of the arguments and backpropagates through it, which accumulates
  ``.grad`` into any parameter it reads, as torch's does. As in torch, if no argument requires
  grad the outputs do not either (with torch's warning), and the random state after the
  backward is the one before it.
- ``use_reentrant=False``: torch records the forward graph as usual and only frees the saved
  activations until the backward needs them. symgrad's eager tape keeps them, so this runs
  the function as it is: the same values and gradients (to the arguments and to whatever the
  function reads), without the memory saving.

Traced inside ``@symgrad.compile`` both are ``symgrad.checkpoint``, which calls the function
(what a compiled loop stores is ``scan(..., checkpoint=k)``'s business).
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

from ..autograd import Function, backward
from ..frontend.control.checkpoint import checkpoint as traced_checkpoint
from ..frontend.core import grad_mode, sources
from ..frontend.core.tensor import Tensor
from ..random import fork_rng, get_rng_state, set_rng_state


def noop_context_fn() -> tuple:
    return contextlib.nullcontext(), contextlib.nullcontext()


class CheckpointFunction(Function):
    """The reentrant checkpoint: forward without a graph, backward by recomputation."""

    _graph_rules = True   # (it recomputes what it computes: its nodes' rules are right)

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state, *args):
        if not any(a.requires_grad for a in args if isinstance(a, Tensor)):
            warnings.warn("None of the inputs have requires_grad=True. Gradients will be None",
                          stacklevel=2)
        ctx.run_function, ctx.preserve_rng_state = run_function, preserve_rng_state
        if preserve_rng_state:
            ctx.fwd_cpu_state = get_rng_state()
        ctx.inputs = [None if isinstance(a, Tensor) else a for a in args]
        ctx.tensor_indices = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        with grad_mode.no_grad():
            return run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        inputs = list(ctx.inputs)
        for i, t in zip(ctx.tensor_indices, ctx.saved_tensors):
            inputs[i] = t
        with fork_rng(enabled=ctx.preserve_rng_state):
            if ctx.preserve_rng_state:
                set_rng_state(ctx.fwd_cpu_state)
            detached = [a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor)
                        else a for a in inputs]
            with grad_mode.enable_grad():
                outputs = ctx.run_function(*detached)
        outputs = (outputs,) if isinstance(outputs, Tensor) else outputs
        wanted = [(o, g) for o, g in zip(outputs, grads)
                  if isinstance(o, Tensor) and o.requires_grad]
        if not wanted:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is "
                               "not necessary")
        backward([o for o, _ in wanted], [g for _, g in wanted])
        return (None, None) + tuple(a.grad if isinstance(a, Tensor) else None
                                    for a in detached)


def checkpoint(function, *args, use_reentrant: bool | None = None,
               context_fn=noop_context_fn, determinism_check: str = "default",
               debug: bool = False, early_stop: bool = True, **kwargs) -> Any:
    """``function(*args, **kwargs)``, its activations recomputed in the backward (see the
    module for the two variants)."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint: the use_reentrant parameter should be passed "
                      "explicitly. Starting in PyTorch 2.9, calling checkpoint without "
                      "use_reentrant will raise an exception. use_reentrant=False is "
                      "recommended, but if you need to preserve the current default behavior, "
                      "you can pass use_reentrant=True. Refer to docs for more details on the "
                      "differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs and use_reentrant:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))
    if use_reentrant and (context_fn is not noop_context_fn or debug is not False):
        raise ValueError("Passing `context_fn` or `debug` is only supported when "
                         "use_reentrant=False.")
    if sources.current() is not None:
        return traced_checkpoint(function, *args, **kwargs)
    if use_reentrant:
        return CheckpointFunction.apply(function, preserve, *args)
    forward_context, _ = context_fn()
    with forward_context:
        return function(*args, **kwargs)


def checkpoint_sequential(functions, segments: int, input, use_reentrant: bool | None = None,
                          **kwargs) -> Any:
    """Run ``functions`` (a list or ``nn.Sequential``) in ``segments`` pieces, checkpointing
    all but the last."""
    if use_reentrant is None:
        warnings.warn("torch.utils.checkpoint.checkpoint_sequential: the use_reentrant "
                      "parameter should be passed explicitly. In version 2.9 we will raise an "
                      "exception if use_reentrant is not passed. use_reentrant=False is "
                      "recommended, but if you need to preserve the current default behavior, "
                      "you can pass use_reentrant=True. Refer to docs for more details on the "
                      "differences between the two variants.", stacklevel=2)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(arg for arg in kwargs))

    def run(start: int, end: int):
        def forward(x):
            for j in range(start, end + 1):
                x = functions[j](x)
            return x
        return forward

    if hasattr(functions, "children") and not isinstance(functions, (list, tuple)):
        functions = list(functions.children())
    size = len(functions) // segments
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(run(start, end), input, use_reentrant=use_reentrant,
                           preserve_rng_state=preserve)
    return run(end + 1, len(functions) - 1)(input)
