"""Linear algebra whose bits are the same on every machine: BLAS kept to one thread (threadpoolctl), so that its
sums are added in one order whatever the number of cores (wordstats runs its parallel work in processes)."""

from __future__ import annotations

from threadpoolctl import threadpool_limits


def one_thread() -> threadpool_limits:
    """A context in which BLAS (numpy's matrix products and solvers) runs on one thread."""
    return threadpool_limits(limits=1, user_api="blas")
