"""Flat typed buffers without numpy: a polars column's values read through Arrow's C stream interface (the
PyCapsule protocol polars implements), and zeroed buffers for a C extension to fill. A one-off command (`boggle
solve`) hands these to the compiled kernels, which take any buffer of the right item type, and so starts without
importing numpy."""

from __future__ import annotations

import ctypes
import struct
from typing import Any

# Arrow's format code of a primitive type -> the struct module's item code of the same width and sign
ITEM_CODES = {"c": "b", "C": "B", "s": "h", "S": "H", "i": "i", "I": "I", "l": "q", "L": "Q", "f": "f", "g": "d"}
STREAM_CAPSULE = b"arrow_array_stream"


class ArrowSchema(ctypes.Structure):
    """struct ArrowSchema of the Arrow C data interface."""


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    """struct ArrowArray of the Arrow C data interface."""


ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    """struct ArrowArrayStream of the Arrow C stream interface."""


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream), ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))),
    ("private_data", ctypes.c_void_p),
]

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def values(column: Any) -> memoryview:
    """A primitive column's values (a polars Series of integers or floats, no nulls) as a read-only memoryview of
    the matching item code, copied out of Arrow's C stream chunk by chunk."""
    capsule = column.__arrow_c_stream__()
    stream = ArrowArrayStream.from_address(_capsule_pointer(capsule, STREAM_CAPSULE))
    schema = ArrowSchema()
    try:
        if stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) != 0:
            raise ValueError(f"Arrow stream: {stream.get_last_error(ctypes.byref(stream))!r}")
        try:
            arrow_format = schema.format.decode("ascii")
        finally:
            schema.release(ctypes.byref(schema))
        item = ITEM_CODES.get(arrow_format)
        if item is None:
            raise TypeError(f"not a primitive numeric column (Arrow format {arrow_format!r})")
        width = struct.calcsize(item)
        chunks = []
        while True:
            chunk = ArrowArray()
            if stream.get_next(ctypes.byref(stream), ctypes.byref(chunk)) != 0:
                raise ValueError(f"Arrow stream: {stream.get_last_error(ctypes.byref(stream))!r}")
            if not chunk.release:
                break
            try:
                if chunk.null_count != 0:
                    raise ValueError("the column holds nulls")
                if chunk.length:
                    chunks.append(ctypes.string_at(chunk.buffers[1] + chunk.offset * width, chunk.length * width))
            finally:
                chunk.release(ctypes.byref(chunk))
    finally:
        if stream.release:
            stream.release(ctypes.byref(stream))
    return memoryview(b"".join(chunks)).cast(item)  # type: ignore[call-overload]


def zeros(item: str, rows: int, width: int | None = None) -> memoryview:
    """A writable zeroed buffer of `rows` items (or rows × width, rows at least 1: a 2-d memoryview has no empty
    axis) of the struct item code `item`."""
    flat = memoryview(bytearray(struct.calcsize(item) * rows * (width or 1)))
    return flat.cast(item) if width is None else flat.cast(item, (rows, width))  # type: ignore[call-overload]
