/* The functions the module exports, one file each by domain: trie.c, grid.c, solve.c; and the proof's: paths.c,
   tree.c, force.c, break.c (with layout.c and search.c, proof.h). */
#ifndef WORDSTATS_KERNELS_H
#define WORDSTATS_KERNELS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

PyObject *trie_node_count(PyObject *self, PyObject *args);
PyObject *trie_fill(PyObject *self, PyObject *args);
PyObject *trie_compact(PyObject *self, PyObject *args);
PyObject *boggle_neighbours(PyObject *self, PyObject *args);
PyObject *boggle_solve(PyObject *self, PyObject *args);
PyObject *boggle_scores(PyObject *self, PyObject *args);
PyObject *proof_word_paths(PyObject *self, PyObject *args);
PyObject *proof_sort_paths(PyObject *self, PyObject *args);
PyObject *proof_build_tree(PyObject *self, PyObject *args);
PyObject *proof_class_tree(PyObject *self, PyObject *args);
PyObject *proof_force_tree(PyObject *self, PyObject *args);
PyObject *proof_break_tree(PyObject *self, PyObject *args);

#endif
