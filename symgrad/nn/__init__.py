"""symgrad.nn: the torch.nn mirror: ``Module`` and the layer, container and loss modules,
``Parameter``, ``functional``, ``init`` and ``utils``.

Layer: front end (it imports only the front end and below). Its names are torch.nn's: a
program written against ``torch.nn`` runs with ``import symgrad as torch``.

Modules and ``@symgrad.compile``: a module called inside a compiled function reads its
parameters as constants, with the values they had when the signature was traced (later
updates do not reach that compiled code, and ``backward()`` into them is refused there). To
differentiate with respect to the parameters, pass them as arguments and call the module
through ``nn.utils.stateless.functional_call``::

    params = {k: p.detach().numpy() for k, p in model.named_parameters()}
    step = symgrad.value_and_grad(
        lambda params, x, y: F.cross_entropy(functional_call(model, params, (x,)), y))
    loss, grads = step(params, x, y)          # grads: a dict like params
    for k, p in model.named_parameters():
        p.grad = symgrad.tensor(grads[k])
    optimizer.step()

Batch norm's running statistics, likewise, are updated in compiled code only when passed in
(``functional_call`` with the buffers) and returned.
"""

from . import functional, init, utils  # noqa: F401
from .modules import *  # noqa: F401,F403
from .parameter import (Buffer, Parameter, UninitializedBuffer,  # noqa: F401
                        UninitializedParameter)
from . import parallel  # noqa: F401
from .parallel import DataParallel  # noqa: F401
