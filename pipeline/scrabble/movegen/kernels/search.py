"""The best plays first: the strips of the board by their score bound, a full rack's plays by letter hash, the
other plays by anchor walks cut where no strip they could still make reaches the best found so far."""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.scrabble.movegen.kernels.bounds import equity_bound, square_caps, strip_bounds
from pipeline.scrabble.movegen.kernels.hashed import full_rack_plays, may_fill, rack_subsets
from pipeline.scrabble.movegen.kernels.layout import (
    BLANK_SLOT,
    CHECKED_TILES,
    MEMO_ROWS,
    NO_BOUND,
    STRIP_ANCHOR,
    STRIP_BOUND,
    STRIP_DIR,
    STRIP_EMPTY,
    STRIP_END,
    STRIP_LINE,
    STRIP_START,
    STRIP_WORD,
    WORK,
    N,
)
from pipeline.scrabble.movegen.kernels.position import position_tables
from pipeline.scrabble.movegen.kernels.walk import (
    anchor_walk,
    bar_of,
    board_tables,
    by_score,
    generate_plays,
    rack_facts,
    walk_tables,
)


@njit(cache=True, inline="always")
def heap_push(heap_bound, heap_item, n, bound, item):
    """Add an item to the max-heap of (bound, item) pairs of n entries (ties: the smaller item first);
    returns the new size."""
    i = n
    while i > 0:
        up = (i - 1) >> 1
        if heap_bound[up] > bound or (heap_bound[up] == bound and heap_item[up] < item):
            break
        heap_bound[i], heap_item[i] = heap_bound[up], heap_item[up]
        i = up
    heap_bound[i], heap_item[i] = bound, item
    return n + 1


@njit(cache=True, inline="always")
def heap_pop(heap_bound, heap_item, n):
    """Remove the top of the max-heap of n entries; returns the new size."""
    n -= 1
    bound, item = heap_bound[n], heap_item[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and (
            heap_bound[child + 1] > heap_bound[child]
            or (heap_bound[child + 1] == heap_bound[child] and heap_item[child + 1] < heap_item[child])
        ):
            child += 1
        if bound > heap_bound[child] or (bound == heap_bound[child] and item < heap_item[child]):
            break
        heap_bound[i], heap_item[i] = heap_bound[child], heap_item[child]
        i = child
    heap_bound[i], heap_item[i] = bound, item
    return n


@njit(cache=True, inline="always")
def requeue(heap_bound, heap_item, n_heap, b, better, k):
    """After anchor k, taken off the heap at bound b, had its strips' bounds tightened or dropped: queue it anew
    under `better` (its best live strip's bound; NO_BOUND: none is left, so it is dropped) when that fell below b.
    Returns the heap's new size and whether the anchor was moved (then it is not walked now)."""
    if better >= b:
        return n_heap, False
    if better != NO_BOUND:
        n_heap = heap_push(heap_bound, heap_item, n_heap, better, k)
    return n_heap, True


@njit(cache=True)
def anchor_reach(strips, bounds, j, next_strip, dead, a, reach, none):
    """The bounds an anchor walk from square a prunes with, from the anchor's live strips (j, then
    next_strip[j] ...; the plays of the walk are theirs; bounds[j] strip j's): reach[0, s, p] (p >= a) the best
    bound of the strips from s ending at or after p, reach[1, p, a] of those starting at or before p."""
    for s in range(a + 1):
        for p in range(a, N):
            reach[0, s, p] = none
    while j >= 0:
        if not dead[j]:
            s, b = strips[j, STRIP_START], bounds[j]
            for p in range(a, strips[j, STRIP_END] + 1):
                if b > reach[0, s, p]:
                    reach[0, s, p] = b
        j = next_strip[j]
    best = none
    for p in range(a + 1):
        if reach[0, p, a] > best:
            best = reach[0, p, a]
        reach[1, p, a] = best


@njit(cache=True)
def best_plays(tab, pos, rack, keep, out):
    """The `keep` best plays by score (keep >= 1; the records and rank order of generate_plays): search by
    score."""
    return search(tab, pos, rack, keep, out, by_score())


@njit(cache=True)
def search(tab, pos, rack, keep, out, keeping):
    """The `keep` best plays (keep >= 1) by score (the records and rank order of generate_plays) or by equity
    (keep_ranked's order, from keeping.floor up: `keeping`), highest bound first until a bound falls below the
    bar (walk.bar_of); a strip's bound is its score bound, plus by equity the best value of a leave after its
    tiles are placed. The strips a full rack covers (at most two blanks on it) are searched by full_rack_plays
    when tab.bingo_words holds the words of tab.bingos, the other plays by anchor walks, inside which the
    branches whose strips cannot reach the bar are cut. Without blanks on the rack, an anchor's strips of
    CHECKED_TILES or more empty squares are first checked by may_fill: those no word fits are dropped and the
    anchor waits in the queue under its new bound. Returns the records, their number, and how many plays were
    scored."""
    in_rack, have = rack_facts(rack)
    if in_rack == 0:
        return out, 0, 0
    caps = square_caps(tab, pos, rack)
    strips = strip_bounds(tab, pos, rack, caps)
    bingos, bingo_words = tab.bingos, tab.bingo_words
    by_hash = in_rack == tab.rack_size and rack[BLANK_SLOT] <= 2 and bingo_words.shape[0] == bingos.shape[0]
    by_hash = by_hash and bingos.shape[0] > 0
    limit = in_rack - 1 if by_hash else in_rack  # the most tiles a walk places
    # strips of CHECKED_TILES or more empty squares are checked by letter hash before their anchor is walked
    checking = rack[BLANK_SLOT] == 0 and bingos.shape[0] > 0
    if checking:
        sub_keys, sub_first = rack_subsets(rack, tab.letter_hash)
    else:  # never read
        sub_keys, sub_first = np.empty(0, dtype=np.uint64), np.zeros(N + 2, dtype=np.int64)
    memo_keys = np.empty(MEMO_ROWS, dtype=np.uint64)  # _may_fill's look-ups
    memo = np.zeros((MEMO_ROWS + 1, 3), dtype=np.int64)
    hits = np.empty(1024, dtype=np.int64)
    none = NO_BOUND
    n_strips = strips.shape[0]
    bounds = np.empty(n_strips, dtype=np.float64)
    for j in range(n_strips):
        bounds[j] = strips[j, STRIP_BOUND]
        if keeping.by_equity:
            bounds[j] += keeping.caps[strips[j, STRIP_EMPTY]]
    anchor_bound = np.full(2 * N * N, none, dtype=np.float64)
    anchor_strip = np.full(2 * N * N, -1, dtype=np.int64)  # the anchor's first strip, then by next_strip
    next_strip = np.empty(n_strips, dtype=np.int64)
    dead = np.zeros(n_strips, dtype=np.bool_)  # no word of the rack and the board letters fits it
    heap_bound = np.empty(2 * N * N + n_strips, dtype=np.float64)  # anchors (k < 2 N N) and full-rack strips
    heap_item = np.empty(2 * N * N + n_strips, dtype=np.int64)
    n_heap = 0
    for j in range(n_strips - 1, -1, -1):
        b, o, line = bounds[j], strips[j, STRIP_DIR], strips[j, STRIP_LINE]
        if by_hash and strips[j, STRIP_EMPTY] == in_rack:
            dead[j] = True  # not the walks' business
            if strips[j, STRIP_WORD]:
                n_heap = heap_push(heap_bound, heap_item, n_heap, b, 2 * N * N + j)
            continue
        k = (o * N + line) * N + strips[j, STRIP_ANCHOR]
        next_strip[j] = anchor_strip[k]
        anchor_strip[k] = j
        if b > anchor_bound[k]:
            anchor_bound[k] = b
    for k in range(2 * N * N):
        if anchor_bound[k] != none:
            n_heap = heap_push(heap_bound, heap_item, n_heap, anchor_bound[k], k)
    checked = np.zeros(2 * N * N, dtype=np.bool_)
    refined = np.zeros(2 * N * N, dtype=np.bool_)  # by equity: the anchor's strips under equity_bound
    coefs = np.zeros((3, N), dtype=np.int64)
    work = np.zeros((WORK, N + 1), dtype=np.int64)
    scratch = np.zeros((5, 32), dtype=np.int64)
    reach = np.zeros((2, N, N + 1), dtype=np.float64)
    game, board = walk_tables(tab), board_tables(pos)
    n_out, total = np.int64(0), np.int64(0)
    while n_heap > 0:
        b, k = heap_bound[0], heap_item[0]
        bar = bar_of(out, n_out, keep, keeping)
        if b < bar:
            break
        n_heap = heap_pop(heap_bound, heap_item, n_heap)
        if k >= 2 * N * N:
            j = k - 2 * N * N
            o, line = strips[j, STRIP_DIR], strips[j, STRIP_LINE]
            out, n_out, count = full_rack_plays(
                tab,
                pos,
                o,
                line,
                strips[j, STRIP_START],
                strips[j, STRIP_END],
                rack,
                keep,
                out,
                n_out,
                scratch,
                keeping,
            )
            total += count
            continue
        o, rest = k // (N * N), k % (N * N)
        line, a = rest // N, rest % N
        if keeping.by_equity and not refined[k]:  # the anchor's strips' bounds tightened, then queued anew
            refined[k] = True
            better = none
            j = anchor_strip[k]
            while j >= 0:
                if not dead[j] and bounds[j] >= bar:
                    bounds[j] = min(bounds[j], equity_bound(tab, pos, strips[j], keeping, in_rack, coefs))
                if not dead[j] and bounds[j] > better:
                    better = bounds[j]
                j = next_strip[j]
            n_heap, moved = requeue(heap_bound, heap_item, n_heap, b, better, k)
            if moved:
                continue
        if checking and not checked[k]:  # drop the anchor's strips that no word fits, then queue it anew
            checked[k] = True
            better = none
            j = anchor_strip[k]
            while j >= 0:
                if strips[j, STRIP_EMPTY] >= CHECKED_TILES and bounds[j] >= bar:
                    if not may_fill(
                        tab,
                        pos.tiles[o, line],
                        pos.masks[o, line],
                        strips[j, STRIP_START],
                        strips[j, STRIP_END],
                        strips[j, STRIP_EMPTY],
                        sub_keys,
                        sub_first,
                        memo_keys,
                        memo,
                        hits,
                    ):
                        dead[j] = True
                if not dead[j] and bounds[j] > better:
                    better = bounds[j]
                j = next_strip[j]
            n_heap, moved = requeue(heap_bound, heap_item, n_heap, b, better, k)
            if moved:
                continue
        anchor_reach(strips, bounds, anchor_strip[k], next_strip, dead, a, reach, none)
        out, n_out, count = anchor_walk(
            game, board, o, line, a, rack, have, limit, keep, out, n_out, work, reach, keeping
        )
        total += count
    return out, n_out, total


@njit(cache=True)
def board_plays(tab, tiles, blanks, rack, keep, out):
    """The plays of a board (tiles: int8 (N, N) letter codes, -1 empty; blanks: bool (N, N)) and rack (27
    counts): every legal one by generate_plays (keep = 0) or the `keep` best by best_plays. One-off commands
    run its C twin (pipeline/scrabble/native/, pipeline/scrabble/engine.py), which returns the same records."""
    pos = position_tables(tab, tiles, blanks)
    if keep == 0:
        return generate_plays(tab, pos, rack, keep, out)
    return best_plays(tab, pos, rack, keep, out)
