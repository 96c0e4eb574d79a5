"""The front end's core: the ``Tensor`` (eager or traced) and its autograd, ops applied to
tensors, grad mode, the recording of a trace's source lines and captured state.

Modules, bottom to top: ``grad_mode``, ``sources``, ``tensor``, ``backward_graph`` (the
recorded ``grad_fn`` graph), ``apply`` (ops on tensors; the VJP ``Builder``), ``engine``
(reverse mode over the recorded graph), ``hooks``, ``custom_function``
(``torch.autograd.Function``), ``capture`` (state read from outside a compiled function).
"""
