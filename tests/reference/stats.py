"""The statistics references: Spearman's rho by hand (Pearson correlation of average ranks)."""

from __future__ import annotations


def spearman(xs, ys) -> float:
    """Spearman's rho by hand: Pearson correlation of average ranks."""

    def ranks(values):
        ordered = sorted(range(len(values)), key=lambda i: values[i])
        out, i = [0.0] * len(values), 0
        while i < len(ordered):
            j = i
            while j + 1 < len(ordered) and values[ordered[j + 1]] == values[ordered[i]]:
                j += 1
            for k in range(i, j + 1):
                out[ordered[k]] = (i + j) / 2 + 1
            i = j + 1
        return out

    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    return cov / (sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)) ** 0.5
