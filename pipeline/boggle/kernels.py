"""Compiled (numba) kernels of Boggle: trie compaction, board solving, random boards, annealing."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

# A Boggle dictionary is a compact trie (built as `mask`, `first` by trie_compact): node i is one uint64
# `nodes[i]` holding its child letters (bits 0-25), the class of its points (bits 26-31; the points are
# `values[class]`, > 0 when a countable word ends there) and the index of its first child (bits 32-63; its
# children are stored together, in letter order); `rank[i]` is that word's place, longest first then
# alphabetical. A board is an array of letter codes (Q = the Qu cube; the dictionary spells QU as Q).
# `nbrs[cell, :ncount[cell]]` are a cell's neighbours.

# The packed node's bit layout, named in the kernels' own file so that numba's cache of the kernels that
# read it follows any change (dictionary.pack_nodes writes nodes with it).
NODE_CLASS_SHIFT = 26  # bits 0-25: the child letters
NODE_CLASS_MASK = 63  # bits 26-31: the points class (class 0: no word ends here)
NODE_FIRST_SHIFT = 32  # bits 32-63: the index of the first child
STOP_CHECK = 256  # an annealing run reads its stop flag once every this many steps (a few milliseconds)

_U64 = np.uint64
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@intrinsic
def _ctpop32(typingctx, x):
    """The number of set bits of a uint32 (the CPU's popcount)."""
    sig = types.uint32(types.uint32)

    def codegen(context, builder, signature, args):
        """LLVM's ctpop of the argument."""
        return builder.ctpop(args[0])

    return sig, codegen


@njit(cache=True)
def trie_compact(children, word_at):
    """A trie's children table as (mask, first, word_at) in breadth-first order, children of a node adjacent."""
    n = children.shape[0]
    alphabet = children.shape[1]
    order = np.empty(n, dtype=np.int32)  # new index -> old node
    new_of = np.empty(n, dtype=np.int32)  # old node -> new index
    order[0] = 0
    new_of[0] = 0
    tail = 1
    mask = np.zeros(n, dtype=np.uint32)
    first = np.zeros(n, dtype=np.int32)
    out_word = np.empty(n, dtype=np.int32)
    for head in range(n):
        old = order[head]
        first[head] = tail
        m = np.uint32(0)
        for c in range(alphabet):
            child = children[old, c]
            if child >= 0:
                m |= np.uint32(1) << np.uint32(c)
                order[tail] = child
                new_of[child] = tail
                tail += 1
        mask[head] = m
        out_word[head] = word_at[old]
    return mask, first, out_word


@njit(cache=True)
def boggle_neighbours(rows, cols):
    """Each cell's neighbours (8-connected) in a rows × cols grid, and how many it has."""
    n = rows * cols
    nbrs = np.full((n, 8), -1, dtype=np.int32)
    ncount = np.zeros(n, dtype=np.int32)
    for r in range(rows):
        for c in range(cols):
            k = 0
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    rr, cc = r + dr, c + dc
                    if (dr != 0 or dc != 0) and 0 <= rr < rows and 0 <= cc < cols:
                        nbrs[r * cols + c, k] = rr * cols + cc
                        k += 1
            ncount[r * cols + c] = k
    return nbrs, ncount


@intrinsic
def _cttz64(typingctx, x):
    """The index of the lowest set bit of a non-zero uint64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        """LLVM's cttz of the argument (zero input undefined)."""
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


_LETTERS = _U64((1 << NODE_CLASS_SHIFT) - 1)
_CLASS_SHIFT = _U64(NODE_CLASS_SHIFT)
_CLASS_MASK = _U64(NODE_CLASS_MASK)
_FIRST_SHIFT = _U64(NODE_FIRST_SHIFT)


@njit(cache=True, inline="always")
def _children(record):
    """A packed node's child letters, as a 26-bit mask."""
    return np.uint32(record & _LETTERS)


@njit(cache=True, inline="always")
def _points(record, values):
    """A packed node's points (0 when no countable word ends there)."""
    return values[(record >> _CLASS_SHIFT) & _CLASS_MASK]


@njit(cache=True, inline="always")
def _child_of(record, letter):
    """The index of a packed node's child for `letter`, which must be one of its child letters."""
    children = _children(record)
    letter_bit = np.uint32(1) << np.uint32(letter)
    return np.uint32(record >> _FIRST_SHIFT) + _ctpop32(children & (letter_bit - np.uint32(1)))


def _fast_pext() -> bool:
    """Whether the CPU numba compiles for has a fast PEXT instruction (BMI2, and not the microcoded AMD Zen 1/2)."""
    import llvmlite.binding as llvm
    import numba

    if numba.config.CPU_NAME not in (None, "host"):
        return False
    return bool(llvm.get_host_cpu_features().get("bmi2")) and llvm.get_host_cpu_name() not in ("znver1", "znver2")


_FAST_PEXT = _fast_pext()


@intrinsic
def _pext32_cpu(typingctx, x, m):
    """The bits of uint32 `x` selected by mask `m`, packed into the low bits (the CPU's PEXT)."""
    sig = types.uint32(types.uint32, types.uint32)

    def codegen(context, builder, signature, args):
        """A call to the BMI2 pext instruction."""
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), ir.IntType(32)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.32")
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True)
def _pext32_loop(x, m):
    """The bits of uint32 `x` selected by mask `m`, packed into the low bits (a loop over the mask's bits)."""
    out = np.uint32(0)
    k = np.uint32(0)
    while m:
        low = m & (~m + np.uint32(1))
        if x & low:
            out |= np.uint32(1) << k
        k += np.uint32(1)
        m ^= low
    return out


_pext32 = _pext32_cpu if _FAST_PEXT else _pext32_loop


@njit(cache=True, inline="always")
def _subset_unions(sets, start, out, at):
    """out[at + x] = the union of sets[start + j] over the bits j of x, for all 16 subsets x of 4 sets."""
    out[at] = 0
    for j in range(4):
        add = sets[start + j]
        half = 1 << j
        for x in range(half):
            out[at + half + x] = out[at + x] | add


@njit(cache=True)
def _board_tables(board, nbrs, near_letters, cell_sets, sets):
    """Per cell: the set of letters around it, and the cells showing any subset of those letters as two
    16-entry tables at cell_sets[32 * cell:] (subsets of its first four letters in alphabetical order, then
    subsets of the next four); `sets` (8 entries) is work space. Loops have fixed lengths (8 neighbour
    slots, 16 subsets): no mispredicted loop exits."""
    for cell in range(board.shape[0]):
        letters = np.uint32(0)
        for i in range(8):
            nb = nbrs[cell, i]
            letters |= np.uint32(nb >= 0) << np.uint32(board[max(nb, 0)])
        near_letters[cell] = letters
        for j in range(8):
            sets[j] = 0
        for i in range(8):
            nb = nbrs[cell, i]
            bit = np.uint32(1) << np.uint32(board[max(nb, 0)])
            sets[_ctpop32(letters & (bit - np.uint32(1)))] |= _U64(nb >= 0) << _U64(max(nb, 0))
        _subset_unions(sets, 0, cell_sets, 32 * cell)
        _subset_unions(sets, 4, cell_sets, 32 * cell + 16)


@njit(cache=True, inline="always")
def _next_cells(children, cell, near_letters, cell_sets):
    """The neighbours of `cell` whose letter is in the child mask `children`, as a cell set."""
    x = _U64(_pext32(children, near_letters[cell]))
    at = _U64(cell) << _U64(5)
    return cell_sets[at | (x & _U64(15))] | cell_sets[at | _U64(16) | (x >> _U64(4))]


@njit(cache=True, inline="always")
def _slot(level, cell):
    """Where a stack level keeps a cell's entry: 64 slots a level (MAX_CELLS), so no multiplication."""
    return (_U64(level) << _U64(6)) | _U64(cell)


@njit(cache=True, inline="always")
def _visit(node, nodes, values, mark, stamp, fresh, score, words):
    """Count the word ending at `node` unless this board has it already (no branch): the node's record and
    the new (score, words). fresh[:words] lists the board's words so far, in order of discovery."""
    record = nodes[node]
    p = _points(record, values)
    new = mark[node] != stamp
    mark[node] = stamp
    fresh[_U64(words)] = node  # kept only when it is a new word: then `words` moves past it
    return record, score + p * new, words + ((p > 0) & new)


@njit(cache=True, inline="always")
def _expand(
    record,
    cells,
    used,
    board,
    nodes,
    values,
    mark,
    stamp,
    fresh,
    near_letters,
    cell_sets,
    kids,
    nexts,
    level,
    score,
    words,
):
    """Visit the children of the node `record` reached through `cells` (the path so far is `used`): count
    their words, and for each cell store its child's record in kids[_slot(level, cell)] and that child's own
    candidate cells in nexts[_slot(level, cell)]. Returns the cells whose child goes on (has candidates), and the
    new (score, words)."""
    going_on = _U64(0)
    while cells:
        here = _cttz64(cells)
        cells &= cells - _U64(1)
        child, score, words = _visit(_child_of(record, board[here]), nodes, values, mark, stamp, fresh, score, words)
        nxt = _next_cells(_children(child), here, near_letters, cell_sets) & ~(used | (_U64(1) << here))
        kids[_slot(level, here)] = child
        nexts[_slot(level, here)] = nxt
        going_on |= _U64(nxt != 0) << here
    return going_on, score, words


@njit(cache=True)
def _tally(fresh, words, rank, counts):
    """counts[node] += 1 for each word node in fresh[:words]; returns the best-ranked (longest) one, or -1."""
    longest = -1
    for i in range(words):
        node = fresh[i]
        counts[node] += 1
        if longest < 0 or rank[node] < rank[longest]:
            longest = node
    return longest


@njit(cache=True)
def _board_dfs(board, nbrs, ncount, nodes, values, rank, mark, stamp, counts, scratch):
    """Score one board: (points, words, longest word's node or -1); marks visited nodes with `stamp`.

    A depth-first walk of paths and trie together. Per board, each cell gets the set of letters around it
    and tables of the neighbours showing any subset of them; the candidate next cells of a node (unused
    neighbours whose letter continues the prefix) are then two table look-ups, indexed by the node's child
    mask with the letters absent around the cell squeezed out (PEXT), with no branch. A node's children are
    visited together (their trie loads are independent, one packed uint64 each), and only those with
    candidates of their own are stepped into. A stack level holds such pending cells, with each one's child
    record and candidates; a level
    with none left is replaced by the next rather than kept, so going back up is always one level.
    The word nodes found are left in scratch's `fresh` list, in order of discovery. When counts has entries,
    counts[node] += 1 for each of them and the longest word is picked (else longest is -1).
    """
    near_letters, cell_sets, sets, kids, nexts, todo, paths, fresh = scratch
    n = board.shape[0]
    _board_tables(board, nbrs, near_letters, cell_sets, sets)
    score = 0
    words = 0
    root = nodes[0]
    for start in range(n):
        if not (_children(root) >> np.uint32(board[start])) & np.uint32(1):
            continue
        record, score, words = _visit(_child_of(root, board[start]), nodes, values, mark, stamp, fresh, score, words)
        used = _U64(1) << _U64(start)
        cells = _next_cells(_children(record), start, near_letters, cell_sets) & ~used
        going_on, score, words = _expand(
            record,
            cells,
            used,
            board,
            nodes,
            values,
            mark,
            stamp,
            fresh,
            near_letters,
            cell_sets,
            kids,
            nexts,
            _U64(0),
            score,
            words,
        )
        if going_on == 0:
            continue
        depth: int | np.int64 = 0
        todo[0] = going_on
        paths[0] = used
        while depth >= 0:
            d = np.uint64(depth)  # unsigned indices: no negative-index checks
            pending = todo[d]
            here = _cttz64(pending)
            rest = pending & (pending - _U64(1))
            todo[d] = rest
            used = paths[d] | (_U64(1) << here)
            level = d + _U64(rest != 0)
            going_on, score, words = _expand(
                kids[_slot(d, here)],
                nexts[_slot(d, here)],
                used,
                board,
                nodes,
                values,
                mark,
                stamp,
                fresh,
                near_letters,
                cell_sets,
                kids,
                nexts,
                level,
                score,
                words,
            )
            if going_on != 0:
                depth = np.int64(level)
                todo[level] = going_on
                paths[level] = used
            elif rest == 0:
                depth -= 1
    longest = _tally(fresh, words, rank, counts) if counts.shape[0] > 0 else -1
    return score, words, longest


@njit(cache=True)
def _word_nodes(nodes, values):
    """How many nodes end a countable word."""
    count = 0
    for i in range(nodes.shape[0]):
        count += _points(nodes[i], values) > 0
    return count


@njit(cache=True)
def _scratch(n_cells, nodes, values):
    """Work space for one board walk: letters around each cell, its two tables of neighbours by letter
    subset (and room to build them); per stack level and cell (see _slot) the child record and its candidate
    cells, per level the pending cells and the path; the list of a board's words (room for all the
    dictionary's)."""
    return (
        np.empty(n_cells, dtype=np.uint32),
        np.zeros(32 * n_cells, dtype=np.uint64),
        np.zeros(8, dtype=np.uint64),
        np.zeros(_slot(n_cells + 1, 0), dtype=np.uint64),
        np.zeros(_slot(n_cells + 1, 0), dtype=np.uint64),
        np.empty(n_cells + 1, dtype=np.uint64),
        np.empty(n_cells + 1, dtype=np.uint64),
        np.empty(_word_nodes(nodes, values) + 1, dtype=np.int32),
    )


@njit(cache=True)
def boggle_solve(board, nbrs, ncount, nodes, values, rank):
    """The word nodes found on one board, in order of discovery."""
    mark = np.zeros(nodes.shape[0], dtype=np.int32)
    scratch = _scratch(board.shape[0], nodes, values)
    _, words, _ = _board_dfs(board, nbrs, ncount, nodes, values, rank, mark, 1, np.empty(0, np.int32), scratch)
    return scratch[-1][:words].copy()


@njit(cache=True, parallel=True)
def boggle_score_boards(boards, nbrs, ncount, nodes, values, rank, n_chunks, count_words):
    """Score many boards (one per row) on all threads: scores, word counts, longest word nodes, node counts.

    Node counts (how many boards contain the word ending at each node) are returned when count_words.
    """
    n_boards = boards.shape[0]
    n_nodes = nodes.shape[0]
    scores = np.zeros(n_boards, dtype=np.int32)
    n_words = np.zeros(n_boards, dtype=np.int32)
    longest = np.full(n_boards, -1, dtype=np.int32)
    width = n_nodes if count_words else 0
    counts = np.zeros((n_chunks, width), dtype=np.int32)
    for chunk in prange(n_chunks):
        mark = np.zeros(n_nodes, dtype=np.int32)
        scratch = _scratch(boards.shape[1], nodes, values)
        lo = chunk * n_boards // n_chunks
        hi = (chunk + 1) * n_boards // n_chunks
        for b in range(lo, hi):
            s, w, lg = _board_dfs(
                boards[b], nbrs, ncount, nodes, values, rank, mark, b - lo + 1, counts[chunk], scratch
            )
            scores[b] = s
            n_words[b] = w
            longest[b] = lg
    total = np.zeros(width, dtype=np.int64)
    for chunk in range(n_chunks):
        for i in range(width):
            total[i] += counts[chunk, i]
    return scores, n_words, longest, total


@njit(cache=True, inline="always")
def _next_random(state):
    """splitmix64: the next state and a 64-bit random number."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
    return state, z ^ (z >> _U64(31))


@njit(cache=True, inline="always")
def _stream(seed, index):
    """The starting state of random stream `index` under `seed`."""
    state, z = _next_random(_U64(seed) ^ (_U64(index) * _GOLDEN))
    state, z2 = _next_random(state ^ z)
    return z2


@njit(cache=True, inline="always")
def _below(state, n):
    """The next state and a random integer in [0, n)."""
    state, z = _next_random(state)
    return state, np.int64(z % _U64(n))


@njit(cache=True, inline="always")
def _uniform(state):
    """The next state and a random float in [0, 1)."""
    state, z = _next_random(state)
    return state, np.float64(z >> _U64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _roll_into(faces, n_faces, state, out, perm):
    """Shuffle the dice into the cells and roll each one; returns the new random state."""
    n_dice = faces.shape[0]
    for i in range(n_dice):
        perm[i] = i
    for i in range(n_dice - 1, 0, -1):  # Fisher-Yates
        state, j = _below(state, i + 1)
        t = perm[i]
        perm[i] = perm[j]
        perm[j] = t
    for cell in range(out.shape[0]):
        die = perm[cell]
        state, f = _below(state, n_faces[die])
        out[cell] = faces[die, f]
    return state


@njit(cache=True, parallel=True)
def boggle_roll(faces, n_faces, n_cells, seed, start, count):
    """Boards start .. start+count-1 of the random sequence `seed`: board k uses random stream k."""
    boards = np.empty((count, n_cells), dtype=np.int8)
    for k in prange(count):
        perm = np.empty(faces.shape[0], dtype=np.int32)
        _roll_into(faces, n_faces, _stream(seed, start + k), boards[k], perm)
    return boards


@njit(cache=True, inline="always")
def _pick_letter(state, cumulative):
    """The next state and a letter code drawn with the given cumulative weights."""
    state, u = _uniform(state)
    target = u * cumulative[cumulative.shape[0] - 1]
    letter = 0
    while letter < cumulative.shape[0] - 1 and cumulative[letter] <= target:
        letter += 1
    return state, letter


@njit(cache=True)
def _anneal_one(
    state,
    free,
    cumulative,
    faces,
    n_faces,
    n_cells,
    steps,
    t_start,
    t_end,
    nbrs,
    ncount,
    nodes,
    values,
    rank,
    mark,
    scratch,
    best,
    stop,
):
    """One simulated-annealing run from a random start; writes the best board into `best`, returns its score and
    the steps it made (fewer than `steps` when `stop[0]` was set meanwhile: it is read every STOP_CHECK steps)."""
    none = np.empty(0, dtype=np.int32)
    board = np.empty(n_cells, dtype=np.int8)
    n_dice = faces.shape[0]
    perm = np.empty(max(n_dice, 1), dtype=np.int32)
    face_of = np.zeros(max(n_dice, 1), dtype=np.int32)
    if free:
        for cell in range(n_cells):
            state, letter = _pick_letter(state, cumulative)
            board[cell] = letter
    else:
        state = _roll_into(faces, n_faces, state, board, perm)
        for cell in range(n_cells):  # recover which face each placed die shows
            die = perm[cell]
            for f in range(n_faces[die]):
                if faces[die, f] == board[cell]:
                    face_of[die] = f
                    break
    stamp = 1
    mark[:] = 0
    current, _, _ = _board_dfs(board, nbrs, ncount, nodes, values, rank, mark, stamp, none, scratch)
    best[:] = board
    best_score = current
    ratio = (t_end / t_start) ** (1.0 / max(steps - 1, 1))
    t = t_start
    done = steps
    for step in range(steps):
        if step % STOP_CHECK == STOP_CHECK - 1 and stop[0] != 0:
            done = step
            break
        # propose: kind 0 = change one cell's letter (free) or die face (dice), 1 = swap two cells
        state, kind = _below(state, 2)
        state, a = _below(state, n_cells)
        b = a
        old_a = board[a]
        old_face = 0
        swapped_out = -1
        if kind == 0:
            if free:
                state, letter = _pick_letter(state, cumulative)
                if letter == old_a:
                    continue
                board[a] = letter
            else:
                die = perm[a]
                if n_dice > n_cells:  # sometimes trade the die for one off the board
                    state, other = _below(state, n_dice)
                    if other >= n_cells:
                        swapped_out = other
                        perm[a] = perm[other]
                        perm[other] = die
                        die = perm[a]
                old_face = face_of[die]
                state, f = _below(state, n_faces[die])
                face_of[die] = f
                board[a] = faces[die, f]
                if board[a] == old_a and swapped_out < 0:
                    face_of[die] = old_face
                    continue
        else:
            state, b = _below(state, n_cells)
            if board[a] == board[b]:
                continue
            board[a] = board[b]
            board[b] = old_a
            if not free:
                t_ = perm[a]
                perm[a] = perm[b]
                perm[b] = t_
        stamp += 1
        if stamp == 2147483647:
            mark[:] = 0
            stamp = 1
        score, _, _ = _board_dfs(board, nbrs, ncount, nodes, values, rank, mark, stamp, none, scratch)
        delta = score - current
        accept = delta >= 0
        if not accept:
            state, u = _uniform(state)
            accept = u < np.exp(delta / t)
        if accept:
            current = score
            if score > best_score:
                best_score = score
                best[:] = board
        else:  # undo
            if kind == 0:
                board[a] = old_a
                if not free:
                    die = perm[a]
                    face_of[die] = old_face
                    if swapped_out >= 0:
                        perm[a] = perm[swapped_out]
                        perm[swapped_out] = die
            else:
                board[b] = board[a]
                board[a] = old_a
                if not free:
                    t_ = perm[a]
                    perm[a] = perm[b]
                    perm[b] = t_
        t *= ratio
    return best_score, done


@njit(cache=True, parallel=True, nogil=True)
def boggle_anneal(
    seed,
    first_run,
    n_runs,
    free,
    cumulative,
    faces,
    n_faces,
    n_cells,
    steps,
    t_start,
    t_end,
    nbrs,
    ncount,
    nodes,
    values,
    rank,
    stop,
):
    """Runs first_run .. first_run+n_runs-1 of seeded simulated annealing, on all threads: best boards, scores
    and steps made. Another thread may set stop[0] (the GIL is released) to end every run within STOP_CHECK
    steps."""
    boards = np.empty((n_runs, n_cells), dtype=np.int8)
    scores = np.zeros(n_runs, dtype=np.int32)
    made = np.zeros(n_runs, dtype=np.int64)
    for r in prange(n_runs):
        mark = np.zeros(nodes.shape[0], dtype=np.int32)
        scores[r], made[r] = _anneal_one(
            _stream(seed, first_run + r),
            free,
            cumulative,
            faces,
            n_faces,
            n_cells,
            steps,
            t_start,
            t_end,
            nbrs,
            ncount,
            nodes,
            values,
            rank,
            mark,
            _scratch(n_cells, nodes, values),
            boards[r],
            stop,
        )
    return boards, scores, made
