"""Solving Boggle boards: a cell's neighbours, and the depth-first walk of a board's paths and the trie together,
for one board (its words) or many on all threads (scores, word counts, longest words, how often each word)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pipeline.boggle.kernels.bits import ctpop32, cttz64, pext32
from pipeline.boggle.kernels.nodes import child_of, node_children, node_points

# A board is an array of letter codes (Q = the Qu cube; the dictionary spells QU as Q); `nbrs[cell, :ncount[cell]]`
# are a cell's neighbours.
_U64 = np.uint64


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
            sets[ctpop32(letters & (bit - np.uint32(1)))] |= _U64(nb >= 0) << _U64(max(nb, 0))
        _subset_unions(sets, 0, cell_sets, 32 * cell)
        _subset_unions(sets, 4, cell_sets, 32 * cell + 16)


@njit(cache=True, inline="always")
def _next_cells(children, cell, near_letters, cell_sets):
    """The neighbours of `cell` whose letter is in the child mask `children`, as a cell set."""
    x = _U64(pext32(children, near_letters[cell]))
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
    p = node_points(record, values)
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
        here = cttz64(cells)
        cells &= cells - _U64(1)
        child, score, words = _visit(child_of(record, board[here]), nodes, values, mark, stamp, fresh, score, words)
        nxt = _next_cells(node_children(child), here, near_letters, cell_sets) & ~(used | (_U64(1) << here))
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
def board_dfs(board, nbrs, ncount, nodes, values, rank, mark, stamp, counts, scratch):
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
    words = np.int64(0)  # not a literal: numba compiles a callee once more for each literal argument
    root = nodes[0]
    for start in range(n):
        if not (node_children(root) >> np.uint32(board[start])) & np.uint32(1):
            continue
        record, score, words = _visit(child_of(root, board[start]), nodes, values, mark, stamp, fresh, score, words)
        used = _U64(1) << _U64(start)
        cells = _next_cells(node_children(record), start, near_letters, cell_sets) & ~used
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
            here = cttz64(pending)
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
        count += node_points(nodes[i], values) > 0
    return count


@njit(cache=True)
def board_scratch(n_cells, nodes, values):
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
    scratch = board_scratch(board.shape[0], nodes, values)
    _, words, _ = board_dfs(board, nbrs, ncount, nodes, values, rank, mark, np.int64(1), np.empty(0, np.int32), scratch)
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
        scratch = board_scratch(boards.shape[1], nodes, values)
        lo = chunk * n_boards // n_chunks
        hi = (chunk + 1) * n_boards // n_chunks
        for b in range(lo, hi):
            s, w, lg = board_dfs(boards[b], nbrs, ncount, nodes, values, rank, mark, b - lo + 1, counts[chunk], scratch)
            scores[b] = s
            n_words[b] = w
            longest[b] = lg
    total = np.zeros(width, dtype=np.int64)
    for chunk in range(n_chunks):
        for i in range(width):
            total[i] += counts[chunk, i]
    return scores, n_words, longest, total
