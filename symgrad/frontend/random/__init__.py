"""Random numbers exactly as torch's CPU generator gives them: ``generator`` (the mt19937
stream and its state), ``arithmetic`` and ``kernels`` (how each distribution turns draws into
numbers, bit for bit), ``args`` (what the sampling functions share), ``sampling`` (torch's
sampling functions) and ``inplace`` (``uniform_``, ``normal_``... on tensors).
"""
