"""symgrad.optim: the torch.optim mirror (work in progress: see issue 11)."""
