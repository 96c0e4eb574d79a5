"""symgrad's version (base layer: every layer may ask; the package re-exports it)."""

__version__ = "0.1.0"
