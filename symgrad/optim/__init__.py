"""symgrad.optim: the torch.optim mirror: ``Optimizer``, ``SGD``, ``Adam``, ``AdamW``,
``RMSprop``, ``Adagrad``, ``Adadelta``, ``Adamax``, ``NAdam``, ``RAdam``, ``LBFGS`` and
``lr_scheduler``.

Layer: front end (it imports only the front end and below). Optimizers update parameters in
place, eagerly, with torch's formulas and rounding (see ``sgd.py``, ``adam.py``,
``kernels.py``).
"""

from . import lr_scheduler  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .radam import RAdam  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .sgd import SGD  # noqa: F401
