"""Compiled (numba) kernels of the Boggle proof: the orderly tree of a board class and its branch and bound.

A board class gives each cell a set of letters: `letters[cell, :n_letters[cell]]` (letter codes, Q = the Qu
cube), and a letter of a cell is named by its index in that row. Cells are visited in a fixed split order:
`order[pos]` is the cell split at position `pos`, `pos_of[cell]` its inverse.

The orderly tree (sum/choice tree) has two kinds of nodes. A sum node adds its own points to the bounds of
its children; its children are choice nodes, at most one per cell. A choice node stands for the choice of
one cell's letter: its children are sum nodes, at most one per letter of that cell, and its bound is the
largest of theirs. Every path of cells spelling a word with some choice of letters adds the word's points
to the sum node reached by its (cell, letter) choices sorted by split order, so along any branch of the tree
the cells come in split order ("orderly"). The root's bound bounds every board of the class from above.

The dictionary is the project's compact trie (see pipeline/boggle/kernels.py): node i is one uint64 with its
child letters in bits 0-25, the class of its points in bits 26-31 (`values[class]` points) and its first
child's index in bits 32-63, children stored together in letter order.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# The trie's node layout, as pipeline/boggle/kernels.py defines it: a kernel reads only its own file's constants
# (numba freezes them into its cache, keyed on this file alone); tests/test_kernels_rule.py checks they agree.
NODE_CLASS_SHIFT = 26  # bits 0-25: the child letters
NODE_CLASS_MASK = 63  # bits 26-31: the points class (class 0: no word ends here)
NODE_FIRST_SHIFT = 32  # bits 32-63: the index of the first child

_U64 = np.uint64
_LETTERS = _U64((1 << NODE_CLASS_SHIFT) - 1)
_CLASS_SHIFT = _U64(NODE_CLASS_SHIFT)
_CLASS_MASK = _U64(NODE_CLASS_MASK)
_FIRST_SHIFT = _U64(NODE_FIRST_SHIFT)


@intrinsic
def _popcount32(typingctx, x):
    """The number of set bits of a uint32 (the CPU's popcount)."""
    sig = types.uint32(types.uint32)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True, inline="always")
def _kids(record):
    """A trie node's child letters, as a 26-bit mask."""
    return np.uint32(record & _LETTERS)


@njit(cache=True, inline="always")
def _word_points(record, values):
    """The points of the word ending at a trie node (0 when none)."""
    return values[(record >> _CLASS_SHIFT) & _CLASS_MASK]


@njit(cache=True, inline="always")
def _kid(record, letter):
    """The index of a trie node's child for `letter` (which must be one of its child letters)."""
    kids = _kids(record)
    bit = np.uint32(1) << np.uint32(letter)
    return np.int64(np.uint32(record >> _FIRST_SHIFT) + _popcount32(kids & (bit - np.uint32(1))))


@intrinsic
def _lowest_bit32(typingctx, x):
    """The index of the lowest set bit of a non-zero uint32."""
    sig = types.uint32(types.uint32)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def _leading_zeros64(typingctx, x):
    """The number of leading zero bits of a non-zero uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def _popcount64(typingctx, x):
    """The number of set bits of a uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True)
def _grow_uint64(a, need):
    """`a` itself when it holds `need` entries, else a copy at least twice as long."""
    if a.shape[0] >= need:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=np.uint64)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def _grow_int32(a, need):
    """`a` itself when it holds `need` entries, else a copy `need` long."""
    if a.shape[0] >= need:
        return a
    b = np.empty(need, dtype=np.int32)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def _grown(a, size, fill):
    """A copy of int32 array `a` with `size` entries, the new ones set to `fill`."""
    b = np.full(size, fill, dtype=np.int32)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def word_keys(nodes, values, nbrs, ncount, letters, n_letters, order, digit_bits, class_bits, keys, words, seen, stamp):
    """Every (word, path) of the board class as a uint64 key: per split position, from the most significant
    digit down, the letter index + 1 chosen at that cell (0 when the path does not use it), then the word's
    points class in the low `class_bits` bits; and the word's trie node beside it. Returns the keys and words
    (in `keys` and `words`, grown when too short), their number, and the sum/union bound: the points of every
    distinct word some board of the class has (words are marked in `seen` with `stamp`, which must differ
    from the marks of earlier calls)."""
    n = letters.shape[0]
    shift = np.empty(n, dtype=np.uint64)
    for p in range(n):
        shift[order[p]] = _U64(class_bits + (n - 1 - p) * digit_bits)
    cell_mask = np.zeros(n, dtype=np.uint32)
    index_of = np.zeros((n, 26), dtype=np.int64)
    for cell in range(n):
        for li in range(n_letters[cell]):
            cell_mask[cell] |= np.uint32(1) << np.uint32(letters[cell, li])
            index_of[cell, letters[cell, li]] = li
    n_keys = 0
    union = 0
    st_cell = np.empty(n, dtype=np.int64)
    st_todo = np.empty(n, dtype=np.uint32)  # letters still to try at the cell
    st_nb = np.empty(n, dtype=np.int64)  # next neighbour slot, -1 = pick a letter first
    st_node = np.empty(n, dtype=np.int64)
    st_parent = np.empty(n, dtype=np.int64)
    used = np.int64(0)
    key = _U64(0)
    for start in range(n):
        todo = _kids(nodes[0]) & cell_mask[start]
        if not todo:
            continue
        d = 0
        st_cell[0] = start
        st_todo[0] = todo
        st_nb[0] = -1
        st_parent[0] = 0
        while d >= 0:
            cell = st_cell[d]
            if st_nb[d] < 0:  # the cell's next letter that continues the prefix
                todo = st_todo[d]
                if not todo:
                    used &= ~(np.int64(1) << cell)
                    key &= ~(_U64((1 << digit_bits) - 1) << shift[cell])
                    d -= 1
                    continue
                letter = _lowest_bit32(todo)
                st_todo[d] = todo & (todo - np.uint32(1))
                child = _kid(nodes[st_parent[d]], letter)
                st_node[d] = child
                used |= np.int64(1) << cell
                key = (key & ~(_U64((1 << digit_bits) - 1) << shift[cell])) | (
                    _U64(index_of[cell, letter] + 1) << shift[cell]
                )
                st_nb[d] = 0
                record = nodes[child]
                cls = (record >> _CLASS_SHIFT) & _CLASS_MASK
                if cls:
                    if seen[child] != stamp:
                        seen[child] = stamp
                        union += values[cls]
                    if n_keys == keys.shape[0]:
                        keys = _grow_uint64(keys, n_keys + 1)
                        words = _grow_int32(words, keys.shape[0])
                    keys[n_keys] = key | cls
                    words[n_keys] = child
                    n_keys += 1
            else:  # the next unused neighbour whose letters continue the prefix
                kids = _kids(nodes[st_node[d]])
                k = st_nb[d]
                nxt = -1
                while k < ncount[cell]:
                    nb = nbrs[cell, k]
                    k += 1
                    if not ((used >> nb) & 1) and (kids & cell_mask[nb]):
                        nxt = nb
                        break
                st_nb[d] = k
                if nxt >= 0:
                    d += 1
                    st_cell[d] = nxt
                    st_todo[d] = kids & cell_mask[nxt]
                    st_nb[d] = -1
                    st_parent[d] = st_node[d - 1]
                else:
                    st_nb[d] = -1
    return keys, words, n_keys, union


@njit(cache=True)
def orderly_tree(ks, values, n, digit_bits, class_bits):
    """The orderly tree of the sorted keys, built in one pass over them (keys sharing a prefix of choices are
    neighbours in sorted order, so the path of the previous key is the only one still open).

    Returns (root bound, s_pts, s_first, s_kids, c_pos, c_bound, c_first, c_kids, c_letter, s_bound):
    sum node s (0 = the root) has points s_pts[s], bound s_bound[s] (its points plus its children's bounds)
    and choice children s_kids[s_first[s]:s_first[s + 1]];
    choice node c is for the cell at split position c_pos[c], has bound c_bound[c] and sum children
    c_kids[c_first[c]:c_first[c + 1]], for the letter indices c_letter[...] of the same range, increasing.
    Equal keys (several words with the same choices; `distinct_keys` keeps each word once) add up.
    """
    n_keys = ks.shape[0]
    key_shift = _U64(class_bits)
    class_mask = _U64((1 << class_bits) - 1)
    digit_mask = _U64((1 << digit_bits) - 1)
    body_bits = n * digit_bits
    low = _U64(0)  # the lowest bit of every digit
    for p in range(n):
        low |= _U64(1) << _U64(p * digit_bits)
    cap = max(64, n_keys // 2 + n + 1)  # grown below as needed
    s_pts = np.zeros(cap, dtype=np.int32)
    s_parent = np.empty(cap, dtype=np.int32)  # the choice node above a sum node
    s_letter = np.empty(cap, dtype=np.int32)  # the letter index it stands for
    c_pos = np.empty(cap, dtype=np.int32)
    c_parent = np.empty(cap, dtype=np.int32)  # the sum node above a choice node
    c_bound = np.zeros(cap, dtype=np.int32)
    s_bound = np.zeros(cap, dtype=np.int32)  # a sum node's bound: its points plus its choice children's bounds
    s_parent[0] = -1
    s_letter[0] = -1
    n_sum, n_choice = 1, 0
    sum_stack = np.zeros(n + 1, dtype=np.int64)  # sum_stack[j]: the sum node after j choices
    choice_stack = np.zeros(n + 1, dtype=np.int64)  # choice_stack[j]: the choice node below sum_stack[j]
    s_acc = np.zeros(n + 1, dtype=np.int64)  # a sum node's points plus its finished children's bounds
    c_acc = np.zeros(n + 1, dtype=np.int64)  # a choice node's best finished child bound
    prev = _U64(0)
    prev_nz = _U64(0)
    m = 0  # choices on the path of the previous key
    i = 0
    while i < n_keys:
        body = ks[i] >> key_shift
        pts = 0
        while i < n_keys and (ks[i] >> key_shift) == body:
            pts += values[ks[i] & class_mask]
            i += 1
        if n_sum + n >= cap or n_choice + n >= cap:
            cap *= 2
            s_pts = _grown(s_pts, cap, 0)
            s_parent = _grown(s_parent, cap, 0)
            s_letter = _grown(s_letter, cap, 0)
            c_pos = _grown(c_pos, cap, 0)
            c_parent = _grown(c_parent, cap, 0)
            c_bound = _grown(c_bound, cap, 0)
            s_bound = _grown(s_bound, cap, 0)
        nz = body
        for _ in range(digit_bits - 1):
            nz |= nz >> _U64(1)
        nz &= low  # one bit per non-zero digit, at the digit's lowest bit
        # q: the first split position where this key differs from the previous one; h: the choices before it
        diff = body ^ prev
        if diff == 0:
            q = n
        else:
            q = (np.int64(_leading_zeros64(diff)) - (64 - body_bits)) // digit_bits
        below = _U64((n - q) * digit_bits)  # the bits of positions q and after
        h = np.int64(_popcount64(nz >> below)) if below < _U64(64) else 0
        share = (
            q < n
            and ((nz >> (below - _U64(digit_bits))) & _U64(1)) != 0
            and ((prev_nz >> (below - _U64(digit_bits))) & _U64(1)) != 0
        )
        # finish the previous path's nodes below the shared part
        for j in range(m, h, -1):
            bound = s_acc[j]
            s_bound[sum_stack[j]] = bound
            if bound > c_acc[j - 1]:
                c_acc[j - 1] = bound
            if j - 1 > h or not share:
                c_bound[choice_stack[j - 1]] = c_acc[j - 1]
                s_acc[j - 1] += c_acc[j - 1]
        # the new key's remaining choices, from position q on
        j = int(h)
        rest = nz & ((_U64(1) << below) - _U64(1)) if below < _U64(64) else nz
        while rest:
            bit = _U64(63) - _leading_zeros64(rest)
            rest ^= _U64(1) << bit
            p = n - 1 - np.int64(bit) // digit_bits
            digit = np.int64((body >> bit) & digit_mask)
            if not (j == h and share):
                c = n_choice
                n_choice += 1
                c_pos[c] = p
                c_parent[c] = sum_stack[j]
                choice_stack[j] = c
                c_acc[j] = 0
            t = n_sum
            n_sum += 1
            s_parent[t] = choice_stack[j]
            s_letter[t] = digit - 1
            sum_stack[j + 1] = t
            s_acc[j + 1] = 0
            j += 1
        s_pts[sum_stack[j]] += pts
        s_acc[j] += pts
        m = j
        prev = body
        prev_nz = nz
    for j in range(m, 0, -1):
        s_bound[sum_stack[j]] = s_acc[j]
        if s_acc[j] > c_acc[j - 1]:
            c_acc[j - 1] = s_acc[j]
        c_bound[choice_stack[j - 1]] = c_acc[j - 1]
        s_acc[j - 1] += c_acc[j - 1]
    s_bound[0] = s_acc[0]
    # children lists, in order of creation (for a choice node: by increasing letter)
    s_first = np.zeros(n_sum + 1, dtype=np.int32)
    for c in range(n_choice):
        s_first[c_parent[c] + 1] += 1
    for s in range(n_sum):
        s_first[s + 1] += s_first[s]
    s_kids = np.empty(max(n_choice, 1), dtype=np.int32)
    fill = s_first[:n_sum].copy()
    for c in range(n_choice):
        s_kids[fill[c_parent[c]]] = c
        fill[c_parent[c]] += 1
    c_first = np.zeros(n_choice + 1, dtype=np.int32)
    for t in range(1, n_sum):
        c_first[s_parent[t] + 1] += 1
    for c in range(n_choice):
        c_first[c + 1] += c_first[c]
    c_kids = np.empty(max(n_sum - 1, 1), dtype=np.int32)
    c_letter = np.empty(max(n_sum - 1, 1), dtype=np.int8)
    fill = c_first[:n_choice].copy()
    for t in range(1, n_sum):
        k = fill[s_parent[t]]
        c_kids[k] = t
        c_letter[k] = s_letter[t]
        fill[s_parent[t]] = k + 1
    return (
        s_acc[0],
        s_pts[:n_sum].copy(),
        s_first,
        s_kids,
        c_pos[:n_choice].copy(),
        c_bound[:n_choice].copy(),
        c_first,
        c_kids,
        c_letter,
        s_bound[:n_sum].copy(),
    )


@njit(cache=True)
def _bucket(d, stack, stack_first, top_d, c_first, c_kids, c_letter, n_letters_d, bucket, bucket_at, letter_first):
    """Sort the sum nodes below the choice nodes stacked for split position d by letter: letter l's are
    bucket[letter_first[d, l]:letter_first[d, l + 1]], written from bucket_at[d] on; sets bucket_at[d + 1]."""
    base = bucket_at[d]
    for letter in range(n_letters_d + 1):
        letter_first[d, letter] = 0
    for k in range(stack_first[d], top_d):
        c = stack[k]
        for j in range(c_first[c], c_first[c + 1]):
            letter_first[d, c_letter[j] + 1] += 1
    letter_first[d, 0] = base
    for letter in range(n_letters_d):
        letter_first[d, letter + 1] += letter_first[d, letter]
    fill_at = letter_first[d, :n_letters_d].copy()
    for k in range(stack_first[d], top_d):
        c = stack[k]
        for j in range(c_first[c], c_first[c + 1]):
            letter = c_letter[j]
            bucket[fill_at[letter]] = c_kids[j]
            fill_at[letter] += 1
    bucket_at[d + 1] = letter_first[d, n_letters_d]


@njit(cache=True)
def orderly_search(
    n, n_letters, order, s_pts, s_first, s_kids, c_pos, c_bound, c_first, c_kids, c_letter, s_bound, floor
):
    """Branch and bound over the class: choose the cells' letters in split order, depth first, dropping a
    choice as soon as its bound is below `floor`.

    The bound of a partial choice is the points of the sum nodes reached so far plus, for each cell still
    open, the bounds of its choice nodes reached so far (kept per cell as a stack and a running sum). When
    every cell is chosen the bound is the board's score counted with repeats (every word once per set of
    cells spelling it), at least its true score. On entering a split position, the sum nodes below its
    stacked choice nodes are sorted by letter once (`_bucket`), so each letter visits only its own. A letter's
    bound is known before its choice nodes are pushed (the bound of the open cells after the split position,
    plus the bounds of the letter's sum nodes), so a dropped letter costs one pass over its sum nodes.
    Returns the surviving boards as letter indices per cell (in cell order), their bounds, and per split
    position the choices visited and dropped.
    """
    n_choice = c_pos.shape[0]
    n_sum = s_pts.shape[0]
    stack_first = np.zeros(n + 1, dtype=np.int64)
    for c in range(n_choice):
        stack_first[c_pos[c] + 1] += 1
    for p in range(n):
        stack_first[p + 1] += stack_first[p]
    stack = np.empty(max(stack_first[n], 1), dtype=np.int32)
    bucket = np.empty(max(n_sum, 1), dtype=np.int32)  # per open level, its sum nodes by letter
    bucket_at = np.zeros(n + 1, dtype=np.int64)
    width = 1
    for p in range(n):
        width = max(width, n_letters[order[p]])
    letter_first = np.zeros((n, width + 1), dtype=np.int64)
    top = stack_first[:n].copy()
    sums = np.zeros(n, dtype=np.int64)
    saved_top = np.empty((n + 1, n), dtype=np.int64)
    saved_sums = np.empty((n + 1, n), dtype=np.int64)
    base = np.zeros(n + 1, dtype=np.int64)
    rest_after = np.zeros(n + 1, dtype=np.int64)  # per depth: the bounds of the open cells after it
    li = np.zeros(n + 1, dtype=np.int64)
    visited = np.zeros(n, dtype=np.int64)
    dropped = np.zeros(n, dtype=np.int64)
    out = np.empty((16, n), dtype=np.int8)
    out_bound = np.empty(16, dtype=np.int32)
    n_out = 0
    # the root: its points, and its choice children on their cells' stacks
    base[0] = s_pts[0]
    for k in range(s_first[0], s_first[1]):
        c = s_kids[k]
        p = c_pos[c]
        stack[top[p]] = c
        top[p] += 1
        sums[p] += c_bound[c]
    rest = base[0]
    for p in range(n):
        rest += sums[p]
    if rest < floor:
        return out[:0], out_bound[:0], visited, dropped
    d = 0
    li[0] = -1
    saved_top[0, :] = top
    saved_sums[0, :] = sums
    rest_after[0] = rest - base[0] - sums[0]
    _bucket(
        0, stack, stack_first, top[0], c_first, c_kids, c_letter, n_letters[order[0]], bucket, bucket_at, letter_first
    )
    while d >= 0:
        li[d] += 1
        cell = order[d]
        if li[d] >= n_letters[cell]:
            d -= 1
            continue
        letter = li[d]
        bound = base[d] + rest_after[d]
        for k in range(letter_first[d, letter], letter_first[d, letter + 1]):
            bound += s_bound[bucket[k]]
        visited[d] += 1
        if bound < floor:
            dropped[d] += 1
            continue
        top[:] = saved_top[d, :]
        sums[:] = saved_sums[d, :]
        pts = base[d]
        for k in range(letter_first[d, letter], letter_first[d, letter + 1]):
            t = bucket[k]
            pts += s_pts[t]
            for jj in range(s_first[t], s_first[t + 1]):
                c = s_kids[jj]
                p = c_pos[c]
                stack[top[p]] = c
                top[p] += 1
                sums[p] += c_bound[c]
        if d == n - 1:
            if n_out == out.shape[0]:
                grown = np.empty((2 * n_out, n), dtype=np.int8)
                grown[:n_out] = out
                out = grown
                grown_bound = np.empty(2 * n_out, dtype=np.int32)
                grown_bound[:n_out] = out_bound
                out_bound = grown_bound
            for p in range(n):
                out[n_out, order[p]] = li[p]
            out_bound[n_out] = bound
            n_out += 1
            continue
        d += 1
        base[d] = pts
        li[d] = -1
        saved_top[d, :] = top
        saved_sums[d, :] = sums
        rest_after[d] = bound - pts - sums[d]
        _bucket(
            d,
            stack,
            stack_first,
            top[d],
            c_first,
            c_kids,
            c_letter,
            n_letters[order[d]],
            bucket,
            bucket_at,
            letter_first,
        )
    return out[:n_out].copy(), out_bound[:n_out].copy(), visited, dropped


RADIX_BITS = 11  # bits of a key sorted per pass: 2,048 counters per pass stay in the L1 cache


@njit(cache=True)
def distinct_keys(keys, words, n_keys, key_bits):
    """The keys of the distinct (key, word) pairs among the first `n_keys`, in increasing order: a word spelled
    with the same choices along several paths (the same cells and letters in another order) is one key, since
    a board counts a word once. A least-significant-digit radix sort of the keys (their words alongside) over
    the low `key_bits` bits, counting every pass's digits in one read and skipping the passes whose digit is
    the same in every key; then, in each run of equal keys (a few words at most), each word is kept once."""
    radix = np.uint64(RADIX_BITS)
    mask = np.uint64((1 << RADIX_BITS) - 1)
    passes = max(1, (key_bits + RADIX_BITS - 1) // RADIX_BITS)
    counts = np.zeros((passes, 1 << RADIX_BITS), dtype=np.int64)
    a = keys[:n_keys].copy()
    aw = words[:n_keys].copy()
    for i in range(n_keys):
        k = a[i]
        for p in range(passes):
            counts[p, (k >> (np.uint64(p) * radix)) & mask] += 1
    b = np.empty_like(a)
    bw = np.empty_like(aw)
    offsets = np.empty(1 << RADIX_BITS, dtype=np.int64)
    for p in range(passes):
        shift = np.uint64(p) * radix
        at = 0
        single = False
        for digit in range(1 << RADIX_BITS):
            c = counts[p, digit]
            if c == n_keys:
                single = True
            offsets[digit] = at
            at += c
        if single:
            continue
        for i in range(n_keys):
            digit = (a[i] >> shift) & mask
            b[offsets[digit]] = a[i]
            bw[offsets[digit]] = aw[i]
            offsets[digit] += 1
        a, b = b, a
        aw, bw = bw, aw
    m = 0
    run = 0  # where the current run of equal keys starts in the output
    for i in range(n_keys):
        if i == 0 or a[i] != a[i - 1]:
            run = m
        else:
            repeat = False
            for j in range(run, m):
                if aw[j] == aw[i]:
                    repeat = True
                    break
            if repeat:
                continue
        a[m] = a[i]
        aw[m] = aw[i]
        m += 1
    return a[:m].copy()
