"""The op registry. Importing this package registers every primitive: it imports each op module
of the package in name order, and each registers its ops (one ``register`` per op). A new op
module needs no edit here; only the support modules below are not op modules.
"""

import importlib as _importlib
import pkgutil as _pkgutil

# The registry itself, the batching rules ops share, and SymPy's custom functions (loaded
# only when an op's SymPy expression is built: importing symgrad must not import SymPy).
_SUPPORT = {"registry", "batching", "scalar_functions"}

for _info in sorted(_pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name not in _SUPPORT:
        _importlib.import_module(f"{__name__}.{_info.name}")

from .registry import OPS, Builder, OpDef, ShapeError, get  # noqa: E402, F401
