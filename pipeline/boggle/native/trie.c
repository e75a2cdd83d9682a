/* The letter trie of sorted words given as letter codes with offsets: its node count, its children table, and
   the table compacted breadth-first (children of a node adjacent) for the packed Boggle dictionary. */
#include <stdint.h>
#include <stdlib.h>

#include "arrays.h"
#include "kernels.h"

/* The index of the first word whose offsets do not lie in order inside the codes, or -1 when all do. */
static Py_ssize_t bad_offsets(const int64_t *offsets, Py_ssize_t n_words, Py_ssize_t n_codes)
{
    for (Py_ssize_t i = 0; i < n_words; i++)
        if (offsets[i] < 0 || offsets[i] > offsets[i + 1] || offsets[i + 1] > n_codes)
            return i;
    return -1;
}

/* Distinct prefixes (root included) of the sorted words: each word adds the letters past the prefix it shares
   with the word before it. */
static int64_t count_nodes(const uint8_t *codes, const int64_t *offsets, Py_ssize_t n_words)
{
    int64_t nodes = 1, prev_start = 0, prev_len = 0;
    for (Py_ssize_t i = 0; i < n_words; i++) {
        int64_t start = offsets[i], length = offsets[i + 1] - offsets[i], common = 0;
        while (common < length && common < prev_len && codes[start + common] == codes[prev_start + common])
            common++;
        nodes += length - common;
        prev_start = start;
        prev_len = length;
    }
    return nodes;
}

/* trie_node_count(codes, offsets): distinct prefixes (root included) of sorted words (uint8 letter codes, int64
   offsets of n + 1 entries). */
PyObject *trie_node_count(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *codes_obj, *offsets_obj;
    if (!PyArg_ParseTuple(args, "OO:trie_node_count", &codes_obj, &offsets_obj))
        return NULL;
    Held held = {.function = "trie_node_count"};
    Py_buffer *codes = hold(&held, codes_obj, "codes", "uint8", 1, 0);
    Py_buffer *offsets = codes ? hold(&held, offsets_obj, "offsets", "int64", 1, 0) : NULL;
    if (!offsets)
        return release(&held), NULL;
    Py_ssize_t n_words = offsets->shape[0] > 0 ? offsets->shape[0] - 1 : 0, bad;
    int64_t nodes = 0;
    Py_BEGIN_ALLOW_THREADS
    bad = bad_offsets(offsets->buf, n_words, codes->shape[0]);
    if (bad < 0)
        nodes = count_nodes(codes->buf, offsets->buf, n_words);
    Py_END_ALLOW_THREADS
    release(&held);
    if (bad >= 0)
        return PyErr_Format(PyExc_ValueError, "trie_node_count(): word %zd's offsets are out of order", bad);
    return PyLong_FromLongLong(nodes);
}

enum { FILLED, BAD_LETTER, TOO_FEW_NODES };

/* Write the trie of the words into children (n_nodes x alphabet, -1 = none) and word_at (the word ending at each
   node, -1 = none); nodes are numbered in order of creation, the root 0. */
static int fill(const uint8_t *codes, const int64_t *offsets, Py_ssize_t n_words, int32_t *children,
                int32_t *word_at, Py_ssize_t n_nodes, Py_ssize_t alphabet)
{
    for (Py_ssize_t i = 0; i < n_nodes * alphabet; i++)
        children[i] = -1;
    for (Py_ssize_t i = 0; i < n_nodes; i++)
        word_at[i] = -1;
    if (n_words > 0 && n_nodes == 0)
        return TOO_FEW_NODES;
    Py_ssize_t used = 1;
    for (Py_ssize_t i = 0; i < n_words; i++) {
        Py_ssize_t node = 0;
        for (int64_t j = offsets[i]; j < offsets[i + 1]; j++) {
            if (codes[j] >= alphabet)
                return BAD_LETTER;
            int32_t *slot = &children[node * alphabet + codes[j]];
            if (*slot < 0) {
                if (used >= n_nodes)
                    return TOO_FEW_NODES;
                *slot = (int32_t)used++;
            }
            node = *slot;
        }
        word_at[node] = (int32_t)i;
    }
    return FILLED;
}

/* trie_fill(codes, offsets, children, word_at): write the words' trie into children (int32, n_nodes x alphabet)
   and word_at (int32, n_nodes). */
PyObject *trie_fill(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *codes_obj, *offsets_obj, *children_obj, *word_at_obj;
    if (!PyArg_ParseTuple(args, "OOOO:trie_fill", &codes_obj, &offsets_obj, &children_obj, &word_at_obj))
        return NULL;
    Held held = {.function = "trie_fill"};
    Py_buffer *codes = hold(&held, codes_obj, "codes", "uint8", 1, 0);
    Py_buffer *offsets = codes ? hold(&held, offsets_obj, "offsets", "int64", 1, 0) : NULL;
    Py_buffer *children = offsets ? hold(&held, children_obj, "children", "int32", 2, 1) : NULL;
    Py_buffer *word_at = children ? hold(&held, word_at_obj, "word_at", "int32", 1, 1) : NULL;
    if (!word_at || !check_shape(&held, word_at, "word_at", 0, children->shape[0]))
        return release(&held), NULL;
    if (offsets->shape[0] - 1 > INT32_MAX || children->shape[0] > INT32_MAX) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "trie_fill(): more words or nodes than int32 can number");
    }
    Py_ssize_t n_words = offsets->shape[0] > 0 ? offsets->shape[0] - 1 : 0, bad;
    int outcome = FILLED;
    Py_BEGIN_ALLOW_THREADS
    bad = bad_offsets(offsets->buf, n_words, codes->shape[0]);
    if (bad < 0)
        outcome = fill(codes->buf, offsets->buf, n_words, children->buf, word_at->buf, children->shape[0],
                       children->shape[1]);
    Py_END_ALLOW_THREADS
    release(&held);
    if (bad >= 0)
        return PyErr_Format(PyExc_ValueError, "trie_fill(): word %zd's offsets are out of order", bad);
    if (outcome == BAD_LETTER)
        return PyErr_Format(PyExc_ValueError, "trie_fill(): a letter code is not below the alphabet's size");
    if (outcome == TOO_FEW_NODES)
        return PyErr_Format(PyExc_ValueError, "trie_fill(): the words need more nodes than children has rows");
    Py_RETURN_NONE;
}

enum { COMPACTED, BAD_CHILD, UNREACHED, NO_MEMORY };

/* Renumber the trie's nodes breadth-first, children of a node adjacent in letter order: for each new node its
   child letters (mask), its first child's new index (first) and its word (out_word). */
static int compact(const int32_t *children, const int32_t *word_at, Py_ssize_t n, Py_ssize_t alphabet,
                   uint32_t *mask, int32_t *first, int32_t *out_word)
{
    if (n == 0)
        return COMPACTED;
    int32_t *order = malloc((size_t)n * sizeof *order); /* new index -> old node */
    if (!order)
        return NO_MEMORY;
    order[0] = 0;
    Py_ssize_t tail = 1;
    int outcome = COMPACTED;
    for (Py_ssize_t head = 0; head < n && outcome == COMPACTED; head++) {
        if (head >= tail) {
            outcome = UNREACHED;
            break;
        }
        int32_t old = order[head];
        uint32_t letters = 0;
        first[head] = (int32_t)tail;
        for (Py_ssize_t c = 0; c < alphabet; c++) {
            int32_t child = children[old * alphabet + c];
            if (child < 0)
                continue;
            if (child >= n || tail >= n) {
                outcome = BAD_CHILD;
                break;
            }
            letters |= 1u << c;
            order[tail++] = child;
        }
        mask[head] = letters;
        out_word[head] = word_at[old];
    }
    free(order);
    return outcome;
}

/* trie_compact(children, word_at, mask, first, out_word): the trie (int32 n x alphabet, int32 n) breadth-first
   into mask (uint32), first and out_word (int32), n entries each. */
PyObject *trie_compact(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *children_obj, *word_at_obj, *mask_obj, *first_obj, *out_word_obj;
    if (!PyArg_ParseTuple(args, "OOOOO:trie_compact", &children_obj, &word_at_obj, &mask_obj, &first_obj,
                          &out_word_obj))
        return NULL;
    Held held = {.function = "trie_compact"};
    Py_buffer *children = hold(&held, children_obj, "children", "int32", 2, 0);
    Py_buffer *word_at = children ? hold(&held, word_at_obj, "word_at", "int32", 1, 0) : NULL;
    Py_buffer *mask = word_at ? hold(&held, mask_obj, "mask", "uint32", 1, 1) : NULL;
    Py_buffer *first = mask ? hold(&held, first_obj, "first", "int32", 1, 1) : NULL;
    Py_buffer *out_word = first ? hold(&held, out_word_obj, "out_word", "int32", 1, 1) : NULL;
    Py_ssize_t n = children ? children->shape[0] : 0;
    if (!out_word || !check_shape(&held, word_at, "word_at", 0, n) || !check_shape(&held, mask, "mask", 0, n) ||
        !check_shape(&held, first, "first", 0, n) || !check_shape(&held, out_word, "out_word", 0, n))
        return release(&held), NULL;
    if (children->shape[1] > 32 || n > INT32_MAX) {
        release(&held);
        return PyErr_Format(PyExc_ValueError, "trie_compact(): at most 32 letters and 2**31 - 1 nodes");
    }
    int outcome;
    Py_BEGIN_ALLOW_THREADS
    outcome = compact(children->buf, word_at->buf, n, children->shape[1], mask->buf, first->buf, out_word->buf);
    Py_END_ALLOW_THREADS
    release(&held);
    if (outcome == NO_MEMORY)
        return PyErr_NoMemory();
    if (outcome == BAD_CHILD)
        return PyErr_Format(PyExc_ValueError, "trie_compact(): children is not a tree of its %zd nodes", n);
    if (outcome == UNREACHED)
        return PyErr_Format(PyExc_ValueError, "trie_compact(): some node is not reached from the root");
    Py_RETURN_NONE;
}
