"""symgrad.onnx: ``torch.onnx`` for programs that offer an ONNX export.

Layer: front end (imports nothing of symgrad). symgrad does not write ONNX: ``export``,
``dynamo_export`` and the older ``_export`` raise a ``RuntimeError`` that names what symgrad
exports instead (standalone C with ``symgrad.compile(f).export_c(...)``), so a script whose
export step is optional (an ``--onnx-export`` flag) runs, and one that asks for it stops with
a clear message. ``is_in_onnx_export()`` is False, as outside an export in torch.
"""

from __future__ import annotations

_WHY = ("symgrad cannot export ONNX models. To run the model outside Python, compile it and "
        "write standalone C instead: symgrad.compile(fn).export_c(directory, *example_args).")


def export(*args, **kwargs):
    raise RuntimeError(_WHY)


dynamo_export = _export = export


def is_in_onnx_export() -> bool:
    return False
