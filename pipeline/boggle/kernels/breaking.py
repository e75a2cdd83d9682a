"""Compiled (numba) kernels of the Boggle proof, second half: break a class's orderly tree (built by
`prove`) into single boards, or prove that none reaches the floor.

The tree lives in an arena of int32 records (see prove.py): a sum node is points, bound, k and its k
choice children (increasing position); a choice node is position, bound, letter mask and one sum child per
bit of the mask; offsets 0, 3, ... hold the interned leaf sum nodes of 0..INTERNED-1 points.

Two ways to split the class, as hybrid-boggle does:

* **force** the next cell of the split order to each of its letters in turn: the tree of the boards with
  that letter there is the chosen letter's subtree merged with the root's other children, cell by cell and
  letter by letter (the merge shares every subtree that meets nothing to merge with). Merging the choice
  nodes of one cell that different words reached is what makes the bound tight: the best letter is chosen
  once for the sum of the words, not once per word.
* **search** depth first over the remaining cells without changing the tree: stacks of each open cell's
  choice nodes and a running sum of their bounds (the sum of the best letters, each chosen alone).

A tree is forced while its bound is above `switch` and fewer than `max_force` cells are chosen, then searched.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pipeline.boggle.kernels.bits import ctpop32
from pipeline.boggle.kernels.prove import BOUND, COUNT, INTERNED, KIDS, MASK, MAX_SLOTS, POINTS, POS  # the arena

FAR = 1 << 30  # a position past every cell


@njit(cache=True, inline="always")
def _count(mask):
    """The number of letters in a letter mask."""
    return np.int64(ctpop32(np.uint32(mask)))


# A merge in progress at one level (a row of the `frames` work array): the sum nodes merged, the new node and
# where its children are, and the choice node being merged in it, if any.
F_A, F_B_FROM, F_B_N, F_S, F_I, F_J, F_SLOT, F_BOUND = 0, 1, 2, 3, 4, 5, 6, 7
F_CA, F_CB, F_C, F_REST, F_IA, F_IB, F_C_SLOT, F_BEST = 8, 9, 10, 11, 12, 13, 14, 15
FRAME = 16


@njit(cache=True, inline="always")
def _enter(mem, tip, frames, depth, a, b_from, b_n, b_points):
    """Start merging sum node `a` with the choice nodes mem[b_from : b_from + b_n] and b_points more points:
    returns (the finished node, depth) for a leaf, or (-1, depth + 1) with a new frame when it has children.
    On a full arena tip[1] is set and (0, depth) returned."""
    a_n = mem[a + COUNT]
    i = j = k = 0
    while i < a_n and j < b_n:
        pa, pb = mem[mem[a + KIDS + i] + POS], mem[mem[b_from + j] + POS]
        i += pa <= pb
        j += pb <= pa
        k += 1
    k += a_n - i + b_n - j
    points = mem[a + POINTS] + b_points
    if k == 0 and points < INTERNED:
        return 3 * np.int64(points), depth
    s = tip[0]
    if s + KIDS + k > mem.shape[0]:
        tip[1] = 1
        return np.int64(0), depth
    tip[0] = s + KIDS + k
    mem[s + POINTS] = points
    mem[s + COUNT] = k
    f = frames[depth]
    f[F_A], f[F_B_FROM], f[F_B_N], f[F_S] = a, b_from, b_n, s
    f[F_I], f[F_J], f[F_SLOT], f[F_BOUND], f[F_C] = 0, 0, s + KIDS, points, -1
    return np.int64(-1), depth + 1


@njit(cache=True)
def _merge(mem, tip, frames, a, b_from, b_n, b_points):
    """A new sum node: sum node `a` merged with the choice nodes mem[b_from : b_from + b_n] (increasing
    position) and b_points more points. Choice nodes of the same cell merge letter by letter, their common
    letters' sum nodes recursively (an explicit stack of `frames`); everything else is shared. tip[0] is the
    arena's next free slot; when the arena is full, tip[1] is set and 0 returned."""
    done, depth = _enter(mem, tip, frames, 0, a, b_from, b_n, b_points)
    while depth > 0 and not tip[1]:
        f = frames[depth - 1]
        if f[F_C] >= 0:  # a choice node being merged: its next letters
            ca, cb = f[F_CA], f[F_CB]
            ma, mb = mem[ca + MASK], mem[cb + MASK]
            if done >= 0:  # a common letter's merged sum node is finished
                mem[f[F_C_SLOT]] = done
                f[F_C_SLOT] += 1
                f[F_BEST] = max(f[F_BEST], mem[done + BOUND])
                done = -1
            deeper = False
            while f[F_REST] and not deeper:
                bit = f[F_REST] & -f[F_REST]
                f[F_REST] ^= bit
                if ma & bit and mb & bit:
                    sb = mem[cb + KIDS + f[F_IB]]
                    t, depth = _enter(
                        mem, tip, frames, depth, mem[ca + KIDS + f[F_IA]], sb + KIDS, mem[sb + COUNT], mem[sb + POINTS]
                    )
                    deeper = t < 0
                elif ma & bit:
                    t = mem[ca + KIDS + f[F_IA]]
                else:
                    t = mem[cb + KIDS + f[F_IB]]
                f[F_IA] += (ma & bit) != 0
                f[F_IB] += (mb & bit) != 0
                if not deeper:
                    mem[f[F_C_SLOT]] = t
                    f[F_C_SLOT] += 1
                    f[F_BEST] = max(f[F_BEST], mem[t + BOUND])
            if deeper:
                continue
            mem[f[F_C] + BOUND] = f[F_BEST]
            mem[f[F_SLOT]] = f[F_C]
            f[F_SLOT] += 1
            f[F_BOUND] += f[F_BEST]
            f[F_C] = -1
        a, s = f[F_A], f[F_S]
        a_n, b_from, b_n = mem[a + COUNT], f[F_B_FROM], f[F_B_N]
        while f[F_SLOT] < s + KIDS + mem[s + COUNT]:  # the next child: shared, or two choice nodes to merge
            i, j = f[F_I], f[F_J]
            ca = mem[a + KIDS + i] if i < a_n else 0
            cb = mem[b_from + j] if j < b_n else 0
            pa = mem[ca + POS] if i < a_n else FAR
            pb = mem[cb + POS] if j < b_n else FAR
            f[F_I] += pa <= pb
            f[F_J] += pb <= pa
            if pa != pb:
                child = ca if pa < pb else cb
                mem[f[F_SLOT]] = child
                f[F_SLOT] += 1
                f[F_BOUND] += mem[child + BOUND]
                continue
            mask = mem[ca + MASK] | mem[cb + MASK]
            c = tip[0]
            if c + KIDS + _count(mask) > mem.shape[0]:
                tip[1] = 1
                break
            tip[0] = c + KIDS + _count(mask)
            mem[c + POS] = pa
            mem[c + MASK] = mask
            f[F_CA], f[F_CB], f[F_C], f[F_REST] = ca, cb, c, mask
            f[F_IA], f[F_IB], f[F_C_SLOT], f[F_BEST] = 0, 0, c + KIDS, 0
            break
        if f[F_C] >= 0 or tip[1]:
            continue
        mem[s + BOUND] = f[F_BOUND]
        done = s
        depth -= 1
    return np.int64(0) if tip[1] else done


@njit(cache=True)
def _force(mem, tip, frames, root, pos, letter):
    """The tree of the boards of `root`'s class with `letter` at the cell of split position `pos` (the root's
    first choice child when any word goes through it): that letter's subtree merged with the other children."""
    k = mem[root + COUNT]
    top = mem[root + KIDS] if k and mem[mem[root + KIDS] + POS] == pos else -1
    skip = 1 if top >= 0 else 0
    if top >= 0 and (mem[top + MASK] >> letter) & 1:
        below = mem[top + MASK] & ((1 << letter) - 1)
        chosen = mem[top + KIDS + _count(below)]
    else:
        chosen = 0  # no word goes through the cell with this letter: the other children alone
    return _merge(mem, tip, frames, chosen, root + KIDS + skip, k - skip, mem[root + POINTS])


@njit(cache=True)
def _search(mem, root, start, n_letters, floor, out, n_out, visited, dropped):
    """Depth first over positions start..n-1 of the tree at `root` (every earlier cell chosen): the boards
    whose bound reaches `floor` are appended to out (letter index per position; n_out of them so far).

    The bound of a partial choice is the points reached plus, for each open cell, the bounds of its choice
    nodes reached (a stack and a running sum per cell). On entering a position the sum nodes below its stacked
    choice nodes are sorted by letter once, so a letter's bound is known before anything is pushed: a dropped
    letter costs one pass over its own sum nodes. Returns out (grown when needed) and n_out."""
    n = n_letters.shape[0]
    cap = 256
    stack = np.empty((n, cap), dtype=np.int32)
    top = np.zeros(n, dtype=np.int64)
    sums = np.zeros(n, dtype=np.int64)
    saved_top = np.empty((n + 1, n), dtype=np.int64)
    saved_sums = np.empty((n + 1, n), dtype=np.int64)
    base = np.zeros(n + 1, dtype=np.int64)
    rest_after = np.zeros(n + 1, dtype=np.int64)
    li = np.zeros(n + 1, dtype=np.int64)
    width = 1
    for p in range(n):
        width = max(width, n_letters[p])
    letter_first = np.zeros((n, width + 1), dtype=np.int64)
    bucket = np.empty(1024, dtype=np.int32)
    bucket_at = np.zeros(n + 1, dtype=np.int64)
    base[start] = mem[root + POINTS]
    for t in range(mem[root + COUNT]):
        c = mem[root + KIDS + t]
        p = mem[c + POS]
        stack[p, top[p]] = c
        top[p] += 1
        sums[p] += mem[c + BOUND]
    if mem[root + BOUND] < floor:
        return out, n_out
    d = start
    li[d] = -1
    saved_top[d, :] = top
    saved_sums[d, :] = sums
    rest_after[d] = mem[root + BOUND] - base[d] - sums[d]
    bucket = _bucket(mem, d, stack, top[d], n_letters[d], bucket, bucket_at, letter_first)
    while d >= start:
        li[d] += 1
        if li[d] >= n_letters[d]:
            d -= 1
            continue
        letter = li[d]
        bound = base[d] + rest_after[d]
        for k in range(letter_first[d, letter], letter_first[d, letter + 1]):
            bound += mem[bucket[k] + BOUND]
        visited[d] += 1
        if bound < floor:
            dropped[d] += 1
            continue
        top[:] = saved_top[d, :]
        sums[:] = saved_sums[d, :]
        points = base[d]
        for k in range(letter_first[d, letter], letter_first[d, letter + 1]):
            t = bucket[k]
            points += mem[t + POINTS]
            for jj in range(mem[t + COUNT]):
                c = mem[t + KIDS + jj]
                p = mem[c + POS]
                if top[p] == stack.shape[1]:
                    grown = np.empty((n, 2 * stack.shape[1]), dtype=np.int32)
                    grown[:, : stack.shape[1]] = stack
                    stack = grown
                stack[p, top[p]] = c
                top[p] += 1
                sums[p] += mem[c + BOUND]
        if d == n - 1:
            if n_out == out.shape[0]:
                grown_out = np.zeros((2 * n_out, n), dtype=np.int8)
                grown_out[:n_out] = out
                out = grown_out
            for p in range(start, n):
                out[n_out, p] = li[p]
            n_out += 1
            continue
        d += 1
        base[d] = points
        li[d] = -1
        saved_top[d, :] = top
        saved_sums[d, :] = sums
        rest_after[d] = bound - points - sums[d]
        bucket = _bucket(mem, d, stack, top[d], n_letters[d], bucket, bucket_at, letter_first)
    return out, n_out


@njit(cache=True)
def _bucket(mem, d, stack, top_d, n_letters_d, bucket, bucket_at, letter_first):
    """Sort the sum nodes below the choice nodes stacked for position d by letter: letter l's are
    bucket[letter_first[d, l]:letter_first[d, l + 1]], written from bucket_at[d] on (bucket grown when
    needed); sets bucket_at[d + 1] and returns the bucket array."""
    for letter in range(n_letters_d + 1):
        letter_first[d, letter] = 0
    for k in range(top_d):
        rest = mem[stack[d, k] + MASK]
        while rest:
            bit = rest & -rest
            rest ^= bit
            letter_first[d, _count(bit - 1) + 1] += 1
    letter_first[d, 0] = bucket_at[d]
    for letter in range(n_letters_d):
        letter_first[d, letter + 1] += letter_first[d, letter]
    end = letter_first[d, n_letters_d]
    if end > bucket.shape[0]:
        grown = np.empty(2 * end, dtype=np.int32)
        grown[: bucket_at[d]] = bucket[: bucket_at[d]]
        bucket = grown
    fill = letter_first[d, :n_letters_d].copy()
    for k in range(top_d):
        c = stack[d, k]
        rest = mem[c + MASK]
        j = 0
        while rest:
            bit = rest & -rest
            rest ^= bit
            letter = _count(bit - 1)
            bucket[fill[letter]] = mem[c + KIDS + j]
            fill[letter] += 1
            j += 1
    bucket_at[d + 1] = end
    return bucket


@njit(cache=True)
def break_tree(mem, tip, root, n_letters, floor, switch, max_force):
    """Every board of the tree at `root` (positions 0..n-1, n_letters[pos] letters each) whose bound reaches
    `floor`: the tree is forced cell by cell while its bound is above `switch` and fewer than `max_force`
    cells are chosen, then searched depth first. Returns the arena (grown when needed), the boards (letter
    index per position), their number and, per position: trees forced there, trees dropped on their bound,
    trees searched from there, and the search's partial choices visited and dropped there."""
    n = n_letters.shape[0]
    at = np.zeros(2, dtype=np.int64)
    at[0] = tip
    frames = np.zeros((n + 2, FRAME), dtype=np.int64)
    frame_root = np.zeros(n + 1, dtype=np.int64)
    frame_letter = np.zeros(n + 1, dtype=np.int64)
    frame_tip = np.zeros(n + 1, dtype=np.int64)
    chosen = np.zeros(n + 1, dtype=np.int64)
    forced = np.zeros(n, dtype=np.int64)
    eliminated = np.zeros(n + 1, dtype=np.int64)
    searched = np.zeros(n, dtype=np.int64)
    visited = np.zeros(n, dtype=np.int64)
    dropped = np.zeros(n, dtype=np.int64)
    out = np.zeros((16, n), dtype=np.int8)
    n_out = 0
    depth = -1  # the deepest open frame: frames 0..depth are the cells being forced
    tree, pos = root, 0
    while True:
        if tree >= 0:  # a tree to judge: drop it, search it or force its next cell
            if mem[tree + BOUND] < floor:
                eliminated[pos] += 1
            elif mem[tree + BOUND] <= switch or pos >= max_force:
                searched[pos] += 1
                before = n_out
                out, n_out = _search(mem, tree, pos, n_letters, floor, out, n_out, visited, dropped)
                for b in range(before, n_out):
                    for p in range(pos):
                        out[b, p] = chosen[p]
            else:
                depth = pos
                frame_root[pos] = tree
                frame_letter[pos] = 0
                frame_tip[pos] = at[0]
            tree = -1
        if depth < 0:
            break
        pos = depth
        if frame_letter[pos] >= n_letters[pos]:
            depth -= 1
            continue
        at[0] = frame_tip[pos]  # the previous letter's tree is done with: reuse its slots
        child = _force(mem, at, frames, frame_root[pos], pos, frame_letter[pos])
        if at[1]:  # the arena is full: grow it and force again
            mem = _grown(mem, frame_tip[pos])
            at[1] = 0
            continue
        forced[pos] += 1
        chosen[pos] = frame_letter[pos]
        frame_letter[pos] += 1
        tree, pos = child, pos + 1
    return mem, out[:n_out].copy(), forced, eliminated[:n], searched, visited, dropped


@njit(cache=True)
def force_tree(mem, tip, root, pos, letter):
    """The tree of `root`'s boards with `letter` at split position `pos` (see `_force`), for callers outside
    `break_tree`: returns the arena (grown when needed), its next free slot and the new tree's offset."""
    at = np.zeros(2, dtype=np.int64)
    frames = np.zeros((64, FRAME), dtype=np.int64)
    while True:
        at[0], at[1] = tip, 0
        child = _force(mem, at, frames, root, pos, letter)
        if not at[1]:
            return mem, at[0], child
        mem = _grown(mem, tip)


@njit(cache=True)
def _grown(mem, keep):
    """A copy of the arena twice as long (at most MAX_SLOTS), its first `keep` slots kept; MemoryError when it
    cannot grow. An arena reserved at MAX_SLOTS (the proof's) never comes here."""
    if mem.shape[0] >= MAX_SLOTS:
        raise MemoryError("a forced tree needs more arena slots than int32 offsets address")
    grown = np.zeros(min(2 * mem.shape[0], MAX_SLOTS), dtype=np.int32)
    grown[:keep] = mem[:keep]
    return grown
