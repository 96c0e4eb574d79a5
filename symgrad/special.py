"""symgrad.special: the torch.special mirror (work in progress: see issue 11).

Layer: front end. Input: tensors, eager or traced. Output: tensors.
"""
