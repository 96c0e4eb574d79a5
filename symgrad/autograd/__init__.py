"""symgrad.autograd: the torch.autograd mirror (work in progress: see issue 11)."""
