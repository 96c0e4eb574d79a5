"""torch's checkpoint container: a zip archive of uncompressed records in one folder.

Layer: front end (the torch.serialization mirror). Input: for writing, record names and their
bytes (``data.pkl``, ``byteorder``, ``data/<key>``...) and where to write (a path, or a binary
file-like); for reading, a path or a binary file-like. Output: ``ArchiveWriter``, which writes
the records as ``torch.save`` lays them out (all under one folder, ``archive/`` for a buffer
and the file's name without its extension for a path; each record's data 64-byte aligned;
``version`` and ``.data/serialization_id`` last), and ``ArchiveReader``, which finds the
folder from the first record (as torch's reader does) and reads records, storages as
writeable NumPy arrays (copies, or copy-on-write maps of the file with ``mmap``) in the
file's byte order.
"""

from __future__ import annotations

import io
import os
import struct
import sys
import zipfile
import zlib
from typing import Any

import numpy as np

ALIGNMENT = 64
FILE_FORMAT_VERSION = b"3\n"
_LOCAL_HEADER = struct.Struct("<IHHHHHIIIHH")   # a zip local file header: 30 bytes
_PADDING_ID = b"FB"   # the extra field torch pads records with (filled with "Z")


def is_path(f: Any) -> bool:
    return isinstance(f, (str, os.PathLike))


def archive_name(f: Any) -> str:
    """The folder torch's writer puts the records in: a file's name without its extension,
    ``archive`` for a buffer or a name that is not ASCII."""
    if not is_path(f):
        return "archive"
    path = os.fspath(f)
    base = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = base.rpartition(".")[0] if "." in base else base
    if not stem:
        raise RuntimeError(f"invalid file name: {path}")
    return stem if stem.isascii() else "archive"


class ArchiveWriter:
    """Writes records into a zip archive in ``out`` (seekable, at the archive's start)."""

    def __init__(self, out, name: str) -> None:
        self.out, self.start = out, out.tell()
        self.prefix = name + "/"
        self.zip = zipfile.ZipFile(out, "w", zipfile.ZIP_STORED)
        self.crc = self.size = 0

    def write_record(self, name: str, data: bytes | np.ndarray) -> None:
        if isinstance(data, np.ndarray):
            data = memoryview(np.ascontiguousarray(data).reshape(-1).view(np.uint8))
        info = zipfile.ZipInfo(self.prefix + name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_STORED
        info.file_size = len(data)
        header = _LOCAL_HEADER.size + len(info.filename.encode("utf-8"))
        if info.file_size * 1.05 > zipfile.ZIP64_LIMIT:
            header += 20    # zipfile adds a zip64 extra field to the local header
        at = self.out.tell() - self.start + header + 4
        info.extra = _PADDING_ID + struct.pack("<H", -at % ALIGNMENT) + b"Z" * (-at % ALIGNMENT)
        self.zip.writestr(info, data)
        self.crc = zlib.crc32(f"{name}:{info.CRC};".encode(), self.crc)
        self.size += len(data)

    def finish(self) -> None:
        """The last records (torch's: the format version, an id of this file) and the
        archive's directory."""
        self.write_record("version", FILE_FORMAT_VERSION)
        ident = f"{self.crc:020d}{self.size:020d}"   # (torch's: 40 digits; only logged)
        self.write_record(".data/serialization_id", ident.encode())
        self.zip.close()


def seekable(f: Any) -> bool:
    """Whether the file-like ``f`` can seek (and tell where it is)."""
    try:
        return bool(f.seekable()) and f.tell() >= 0
    except (AttributeError, OSError, ValueError):
        return False


class ArchiveReader:
    """The records of a torch checkpoint archive read from ``f`` (a path or a file-like)."""

    def __init__(self, f: Any, mmap: bool = False) -> None:
        self.path = os.fspath(f) if is_path(f) else None
        self.zip = zipfile.ZipFile(self.path if self.path is not None else
                                   f if seekable(f) else io.BytesIO(f.read()))
        infos = self.zip.infolist()
        if not infos:
            raise RuntimeError("PytorchStreamReader failed reading zip archive: archive does "
                               "not contain any files")
        self.prefix = infos[0].filename.split("/", 1)[0] + "/"
        self.records = {i.filename[len(self.prefix):]: i for i in infos
                        if i.filename.startswith(self.prefix)}
        self.mmap = mmap
        order = self.read_record("byteorder") if self.has_record("byteorder") else b"little"
        if order not in (b"little", b"big"):
            raise ValueError("Unknown endianness type: " + order.decode())
        self.swap = order.decode() != sys.byteorder

    def close(self) -> None:
        self.zip.close()

    def __enter__(self) -> ArchiveReader:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def has_record(self, name: str) -> bool:
        return name in self.records

    def _info(self, name: str) -> zipfile.ZipInfo:
        info = self.records.get(name)
        if info is None:
            raise RuntimeError(f"PytorchStreamReader failed locating file {name}: file not "
                               "found")
        return info

    def read_record(self, name: str) -> bytes:
        return self.zip.read(self._info(name))

    def read_storage(self, name: str, dtype: np.dtype, numel: int) -> np.ndarray:
        """Record ``name`` as ``numel`` elements of ``dtype``: a writeable array in this
        machine's byte order."""
        info = self._info(name)
        if info.file_size != numel * dtype.itemsize:
            raise RuntimeError(f"record {name} holds {info.file_size} bytes, its storage needs "
                               f"{numel * dtype.itemsize} ({numel} x {dtype.itemsize})")
        if numel == 0:
            return np.empty(0, dtype)
        array = self._mapped(info, dtype, numel) if self.mmap else self._copied(info, dtype,
                                                                                  numel)
        if self.swap:
            array.byteswap(inplace=True)
        if dtype == np.bool_:
            np.not_equal(array.view(np.uint8), 0, out=array)   # any nonzero byte is True
        return array

    def _copied(self, info: zipfile.ZipInfo, dtype: np.dtype, numel: int) -> np.ndarray:
        array = np.empty(numel, dtype)
        view, done = memoryview(array.view(np.uint8)), 0
        with self.zip.open(info) as src:
            while done < len(view):
                got = src.readinto(view[done:])
                if not got:
                    raise RuntimeError(f"record {info.filename} ends early")
                done += got
        return array

    def _mapped(self, info: zipfile.ZipInfo, dtype: np.dtype, numel: int) -> np.ndarray:
        """A copy-on-write map of the record's bytes in the file (torch's ``mmap=True``
        with its default MAP_PRIVATE): pages are read when used, writes stay private."""
        if info.compress_type != zipfile.ZIP_STORED:
            raise RuntimeError(f"record {info.filename} is compressed: mmap needs the "
                               "uncompressed records torch.save writes")
        with open(self.path, "rb") as raw:
            raw.seek(info.header_offset)
            fields = _LOCAL_HEADER.unpack(raw.read(_LOCAL_HEADER.size))
        offset = info.header_offset + _LOCAL_HEADER.size + fields[9] + fields[10]
        return np.asarray(np.memmap(self.path, dtype, "c", offset, (numel,)))
