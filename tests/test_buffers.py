"""core.buffers: a polars column's values through Arrow's C stream, as the column holds them."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.buffers import values, zeros

INTEGERS = {pl.Int8: 8, pl.Int16: 16, pl.Int32: 32, pl.Int64: 64}
UNSIGNED = {pl.UInt8: 8, pl.UInt16: 16, pl.UInt32: 32, pl.UInt64: 64}
STRUCT_CODES = {pl.Int8: "b", pl.Int16: "h", pl.Int32: "i", pl.Int64: "q", pl.UInt8: "B", pl.UInt16: "H"}
STRUCT_CODES |= {pl.UInt32: "I", pl.UInt64: "Q", pl.Float32: "f", pl.Float64: "d"}


@st.composite
def columns(draw) -> tuple[pl.Series, list]:
    """A numeric column in one or more chunks (a slice of it, so that chunks start at an offset) and its values."""
    kind = draw(st.sampled_from(["int", "uint", "float32", "float64"]))
    if kind == "int":
        dtype, bits = draw(st.sampled_from(sorted(INTEGERS.items(), key=str)))
        element = st.integers(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    elif kind == "uint":
        dtype, bits = draw(st.sampled_from(sorted(UNSIGNED.items(), key=str)))
        element = st.integers(0, 2**bits - 1)
    else:
        dtype = pl.Float32 if kind == "float32" else pl.Float64
        element = st.floats(width=32 if kind == "float32" else 64, allow_nan=False)
    chunks = draw(st.lists(st.lists(element, max_size=20), min_size=1, max_size=4))
    series = pl.concat([pl.Series(c, dtype=dtype) for c in chunks], rechunk=False)
    start = draw(st.integers(0, len(series)))
    stop = draw(st.integers(start, len(series)))
    return series[start:stop], [x for c in chunks for x in c][start:stop]


@settings(max_examples=300, deadline=None)
@given(columns())
def test_values_are_the_columns_in_order(column):
    series, expected = column
    view = values(series)
    assert view.readonly and view.ndim == 1 and view.tolist() == expected
    assert view.format == STRUCT_CODES[series.dtype]


def test_values_refuse_what_is_no_flat_numeric_column():
    with pytest.raises(ValueError, match="nulls"):
        values(pl.Series([1, None, 3]))
    with pytest.raises(TypeError, match="not a primitive numeric column"):
        values(pl.Series(["A", "B"]))
    with pytest.raises(TypeError, match="not a primitive numeric column"):
        values(pl.Series([[1], [2]]))


def test_zeros_are_writable_buffers_of_the_shape_asked():
    grid = zeros("i", 3, 8)
    assert (grid.shape, grid.format, grid.readonly) == ((3, 8), "i", False) and grid[2, 7] == 0
    assert zeros("Q", 5).tolist() == [0] * 5
