"""Run a torch program with symgrad standing in for torch: ``python as_torch.py prog.py``.

Every ``import torch`` / ``import torch.nn as nn`` / ``from torch.utils.data.dataloader import
DataLoader`` of the program finds symgrad's module of the same name: the program runs
unmodified. ``torch`` is symgrad, and ``torch.X.Y`` is ``symgrad.X.Y`` for every module of the
package (found when first imported, so a new symgrad submodule needs no edit here); a name
symgrad does not have raises the ``ModuleNotFoundError`` torch's absence of it would.
"""

import importlib
import importlib.abc
import importlib.util
import runpy
import sys

import symgrad


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``torch.X.Y`` is the module ``symgrad.X.Y`` (imported on first use)."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("torch."):
            return None
        real = "symgrad." + fullname.split(".", 1)[1]
        try:
            found = importlib.util.find_spec(real)
        except ImportError:
            return None
        if found is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=bool(
            found.submodule_search_locations))

    def create_module(self, spec):
        return importlib.import_module("symgrad." + spec.name.split(".", 1)[1])

    def exec_module(self, module):
        pass   # symgrad's module ran when it was imported


def install() -> None:
    """From now on, ``import torch`` in this process is symgrad."""
    sys.modules["torch"] = symgrad
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())


if __name__ == "__main__":
    install()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
