"""The shared statistics against plain-Python references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.core.stats import spearman
from tests.reference.stats import spearman as spearman_by_hand

pairs = st.integers(2, 30).flatmap(lambda n: st.tuples(*[st.lists(st.integers(0, 5), min_size=n, max_size=n)] * 2))


@given(pairs)
def test_spearman_is_pearson_of_average_ranks(pair):
    xs, ys = pair
    rho = spearman(np.array(xs), np.array(ys))
    if len(set(xs)) == 1 or len(set(ys)) == 1:
        assert rho is None
    else:
        assert rho == pytest.approx(spearman_by_hand(xs, ys), abs=1e-12)


def test_spearman_known_values():
    assert spearman(np.array([1, 2, 3]), np.array([30, 20, 10])) == pytest.approx(-1.0)
    assert spearman(np.array([1, 2]), np.array([5, 7])) == pytest.approx(1.0)
    assert spearman(np.array([4]), np.array([4])) is None
