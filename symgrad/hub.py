"""symgrad.hub: ``torch.hub`` as far as a program without torch's model zoo can use it.

Layer: front end (imports nothing of symgrad). Input: URLs, file paths, the hub directory.
Output: ``get_dir``/``set_dir`` (torch's default, ``$TORCH_HOME/hub`` or
``~/.cache/torch/hub``), ``download_url_to_file`` (a plain download, with the SHA-256 prefix
check torch makes). Loading models or weights from a hub repository (``load``, ``list``,
``help``, ``load_state_dict_from_url``) needs torch's repositories and checkpoint files: they
raise a ``RuntimeError`` that says so.
"""

from __future__ import annotations

import os

_hub_dir: str | None = None


def get_dir() -> str:
    """Where hub downloads go: ``set_dir``'s choice, else ``$TORCH_HOME/hub``."""
    if _hub_dir is not None:
        return _hub_dir
    home = os.path.expanduser(os.getenv("TORCH_HOME", os.path.join(
        os.getenv("XDG_CACHE_HOME", "~/.cache"), "torch")))
    return os.path.join(home, "hub")


def set_dir(d) -> None:
    global _hub_dir
    _hub_dir = os.path.expanduser(os.fspath(d))


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None,
                         progress: bool = True) -> None:
    """Download ``url`` to the file ``dst`` (through a temporary file in its directory);
    with ``hash_prefix``, check that the SHA-256 digest starts with it."""
    import hashlib
    import shutil
    import tempfile
    import urllib.request
    dst = os.path.expanduser(dst)
    folder = os.path.dirname(os.path.abspath(dst))
    digest = hashlib.sha256()
    with tempfile.NamedTemporaryFile(delete=False, dir=folder) as part:
        try:
            with urllib.request.urlopen(url) as response:
                while chunk := response.read(8192):
                    part.write(chunk)
                    digest.update(chunk)
            part.close()
            if hash_prefix is not None and not digest.hexdigest().startswith(hash_prefix):
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got '
                                   f'"{digest.hexdigest()}")')
            shutil.move(part.name, dst)
        finally:
            if os.path.exists(part.name):
                os.remove(part.name)


def _no_model_zoo(*args, **kwargs):
    raise RuntimeError("symgrad cannot load models or weights from torch.hub: it has no copy of "
                       "torch's hub repositories or checkpoint format here. Build the model "
                       "with symgrad.nn and load its weights from a file you control.")


load = list = help = load_state_dict_from_url = _no_model_zoo  # noqa: A001
