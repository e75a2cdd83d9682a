/* Arrays taken from Python through the buffer protocol, checked for dtype, dimensions and order. */
#ifndef WORDSTATS_ARRAYS_H
#define WORDSTATS_ARRAYS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAX_HELD 16

/* The buffers one call holds, released together when it returns. */
typedef struct {
    const char *function;
    Py_buffer views[MAX_HELD];
    int count;
} Held;

Py_buffer *hold(Held *held, PyObject *obj, const char *name, const char *dtype, int ndim, int writable);
void release(Held *held);
int check_shape(const Held *held, const Py_buffer *view, const char *name, int axis, Py_ssize_t expected);

#endif
