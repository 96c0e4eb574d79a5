"""torch's top-level in-place functions (``torch.exp_(x)``, ``torch.clamp_(x, 0)``,
``torch.zero_(x)``...): one table, each the ``Tensor`` method of the same name.

Layer: front end (above ``methods``, which installs the methods it forwards to). Input: the
names torch 2.13 has both as ``torch.X_`` and as ``Tensor.X_``. Output: a module-level function
per name (``__all__``) that calls ``input.X_(*args, **kwargs)``: the method's checks, errors,
grad_fn and version counter, so the two spellings cannot drift apart. The first argument is
torch's ``input`` (positional or ``input=``); a non-tensor there is torch's TypeError.
"""

from __future__ import annotations

from ..core.tensor import Tensor
from . import methods  # noqa: F401  (installs the methods forwarded to)

NAMES = ("abs_ acos_ acosh_ addmv_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ "
         "asinh_ atan_ atanh_ ceil_ clamp_ clamp_max_ clamp_min_ clip_ conj_physical_ cos_ cosh_ "
         "deg2rad_ detach_ erf_ erfc_ exp2_ exp_ expm1_ fill_ fix_ floor_ frac_ gcd_ i0_ "
         "index_put_ lcm_ ldexp_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ "
         "rad2deg_ reciprocal_ relu_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ "
         "tanh_ trunc_ xlogy_ zero_").split()


def _forward(name: str):
    def function(*args, **kwargs):
        if args:
            target, args = args[0], args[1:]
        elif "input" in kwargs:
            target = kwargs.pop("input")
        else:
            raise TypeError(f'{name}() missing 1 required positional arguments: "input"')
        if not isinstance(target, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(target).__name__}")
        return getattr(target, name)(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``torch.{name}(input, ...)``: ``input.{name}(...)``."
    return function


__all__ = [name for name in NAMES if hasattr(Tensor, name)]
globals().update({name: _forward(name) for name in __all__})
