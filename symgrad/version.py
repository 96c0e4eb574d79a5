"""symgrad's version (base layer: every layer may ask; the package re-exports it)."""

__version__ = "0.1.0"

# torch.version's build facts, as a CPU-only torch reports them
cuda = None
hip = None
rocm = None
xpu = None
debug = False
