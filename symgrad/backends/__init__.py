"""``torch.backends`` as a CPU-only build of torch answers it: no MPS, no CUDA, no cuDNN.

Layer: front end (the torch API surface). Programs test ``torch.backends.mps.is_available()``
to choose a device, and set cuDNN and TF32 flags for speed or reproducibility
(``torch.backends.cudnn.deterministic = True``, ``torch.backends.cuda.matmul.allow_tf32 =
True``): the answers are False, the flags are kept (with torch's defaults) and change nothing
here (the CPU results are deterministic and in full float32 precision already). Each backend
is a module, so ``import torch.backends.cudnn as cudnn`` works: ``cuda``, ``cudnn``, ``mps``;
``precision`` holds the float32 matmul precision setting that ``cuda.matmul.allow_tf32``
mirrors.
"""

from . import cuda, cudnn, mps, precision  # noqa: F401
