/* The functions the module exports, one file each by domain: trie.c, grid.c, solve.c. */
#ifndef WORDSTATS_KERNELS_H
#define WORDSTATS_KERNELS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

PyObject *trie_node_count(PyObject *self, PyObject *args);
PyObject *trie_fill(PyObject *self, PyObject *args);
PyObject *trie_compact(PyObject *self, PyObject *args);
PyObject *boggle_neighbours(PyObject *self, PyObject *args);
PyObject *boggle_solve(PyObject *self, PyObject *args);

#endif
