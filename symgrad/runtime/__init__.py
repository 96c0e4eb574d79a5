"""The runtime: a compiled specialization's call path.

Modules: ``specialization`` (the loaded C and its call functions), ``callgen`` (the generated
call path), ``outputs`` (out= checks), ``pool`` (recycled output memory), ``artifact`` (the
pickled form), ``paths`` (the specializations of one signature's paths through its Python
control flow).
"""

from .artifact import Artifact  # noqa: F401
from .paths import GuardFailure, GuardLimitError, Paths  # noqa: F401
from .specialization import Specialization  # noqa: F401
