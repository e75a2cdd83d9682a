/* Arrays taken from Python through the buffer protocol, checked for dtype, dimensions and order. */
#include "arrays.h"

#include <stdio.h>
#include <string.h>

/* The numpy name of a buffer's item type ("int32", "uint64", "float64", "bool"), written into `out`. */
static void dtype_name(const Py_buffer *view, char *out, size_t size)
{
    const char *format = view->format ? view->format : "B";
    if (format[0] == '@' || format[0] == '=' || format[0] == '<')
        format++;
    int bits = (int)view->itemsize * 8;
    if (format[0] != '\0' && format[1] == '\0' && strchr("bhilqn", format[0]))
        snprintf(out, size, "int%d", bits);
    else if (format[0] != '\0' && format[1] == '\0' && strchr("BHILQN", format[0]))
        snprintf(out, size, "uint%d", bits);
    else if (format[0] != '\0' && format[1] == '\0' && strchr("efd", format[0]))
        snprintf(out, size, "float%d", bits);
    else if (strcmp(format, "?") == 0)
        snprintf(out, size, "bool");
    else
        snprintf(out, size, "format '%s'", view->format ? view->format : "B");
}

/* Take `obj` as a C-contiguous array of `dtype` and `ndim` dimensions (writable when asked), held until release;
   NULL with TypeError (not an array, another dtype or dimension) or ValueError (not C-contiguous, read-only). */
Py_buffer *hold(Held *held, PyObject *obj, const char *name, const char *dtype, int ndim, int writable)
{
    if (!PyObject_CheckBuffer(obj)) {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be a %d-d %s array, not %.100s", held->function, name, ndim,
                     dtype, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    Py_buffer *view = &held->views[held->count];
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s(): %s must be a C-contiguous array", held->function, name);
        return NULL;
    }
    held->count++;
    char found[64];
    dtype_name(view, found, sizeof found);
    if (strcmp(found, dtype) != 0 || view->ndim != ndim) {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be a %d-d %s array, not a %d-d %s array", held->function, name,
                     ndim, dtype, view->ndim, found);
        return NULL;
    }
    if (writable && view->readonly) {
        PyErr_Format(PyExc_ValueError, "%s(): %s must be writable", held->function, name);
        return NULL;
    }
    return view;
}

/* Release every buffer a call holds. */
void release(Held *held)
{
    while (held->count > 0)
        PyBuffer_Release(&held->views[--held->count]);
}

/* Whether an array's length along `axis` is `expected`: 1, or 0 with ValueError. */
int check_shape(const Held *held, const Py_buffer *view, const char *name, int axis, Py_ssize_t expected)
{
    if (view->shape[axis] == expected)
        return 1;
    PyErr_Format(PyExc_ValueError, "%s(): %s must have %zd entries along axis %d, not %zd", held->function, name,
                 expected, axis, view->shape[axis]);
    return 0;
}
