/* The module pipeline.boggle._native: the Boggle solver's kernels for one-off commands and the proof's, the node
   and arena layouts, and the digests of the sources and processor it was built from (pipeline.core.native
   checks them). */
#include "arrays.h"
#include "kernels.h"
#include "nodes.h"
#include "proof.h"

static PyMethodDef methods[] = {
    {"trie_node_count", trie_node_count, METH_VARARGS, "Distinct prefixes (root included) of sorted words."},
    {"trie_fill", trie_fill, METH_VARARGS, "Write the words' trie into children and word_at."},
    {"trie_compact", trie_compact, METH_VARARGS, "Write the trie breadth-first into mask, first and out_word."},
    {"boggle_neighbours", boggle_neighbours, METH_VARARGS, "Write each cell's neighbours and their count."},
    {"boggle_solve", boggle_solve, METH_VARARGS, "Write the word nodes found on one board; return how many."},
    {"boggle_scores", boggle_scores, METH_VARARGS, "Write the score of each board."},
    {"word_paths", proof_word_paths, METH_VARARGS, "Write a class's word paths; return their number and sum/union."},
    {"sort_paths", proof_sort_paths, METH_VARARGS, "Sort the distinct word paths; return how many."},
    {"build_tree", proof_build_tree, METH_VARARGS, "Write the tree of sorted paths; return (tip, root, needed)."},
    {"class_tree", proof_class_tree, METH_VARARGS, "Write a class's orderly tree; return (tip, root, needed)."},
    {"force_tree", proof_force_tree, METH_VARARGS, "Write a forced tree; return (tip, tree, needed)."},
    {"break_tree", proof_break_tree, METH_VARARGS, "Break a tree into candidate boards; return (picks, needed)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "pipeline.boggle._native",
    .m_doc = "The Boggle solver's and proof's kernels (pipeline.boggle.engine wraps them).",
    .m_size = -1,
    .m_methods = methods,
};

/* The module, with its kernels, the node layout's shifts, the arena's records and the digests of what it was
   built from. */
PyMODINIT_FUNC PyInit__native(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0 ||
        PyModule_AddStringConstant(m, "PROCESSOR_DIGEST", PROCESSOR_DIGEST) < 0 ||
        PyModule_AddIntConstant(m, "NODE_CLASS_SHIFT", NODE_CLASS_SHIFT) < 0 ||
        PyModule_AddIntConstant(m, "NODE_FIRST_SHIFT", NODE_FIRST_SHIFT) < 0 ||
        PyModule_AddIntConstant(m, "POINTS", POINTS) < 0 || PyModule_AddIntConstant(m, "BOUND", BOUND) < 0 ||
        PyModule_AddIntConstant(m, "COUNT", COUNT) < 0 || PyModule_AddIntConstant(m, "KIDS", KIDS) < 0 ||
        PyModule_AddIntConstant(m, "POS", POS) < 0 || PyModule_AddIntConstant(m, "MASK", MASK) < 0 ||
        PyModule_AddIntConstant(m, "INTERNED", INTERNED) < 0 || PyModule_AddIntConstant(m, "WC_SHIFT", WC_SHIFT) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SLOTS", (long)MAX_SLOTS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
