/* The Boggle grid: each cell's 8-connected neighbours. */
#include <stdint.h>

#include "arrays.h"
#include "kernels.h"

/* Write each cell's neighbours (in row order, -1 padded to 8) and their count for a rows x cols grid. */
static void fill_neighbours(Py_ssize_t rows, Py_ssize_t cols, int32_t *nbrs, int32_t *ncount)
{
    for (Py_ssize_t r = 0; r < rows; r++)
        for (Py_ssize_t c = 0; c < cols; c++) {
            Py_ssize_t cell = r * cols + c;
            int k = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++) {
                    Py_ssize_t rr = r + dr, cc = c + dc;
                    if ((dr != 0 || dc != 0) && 0 <= rr && rr < rows && 0 <= cc && cc < cols)
                        nbrs[cell * 8 + k++] = (int32_t)(rr * cols + cc);
                }
            for (int i = k; i < 8; i++)
                nbrs[cell * 8 + i] = -1;
            ncount[cell] = k;
        }
}

/* boggle_neighbours(rows, cols, nbrs, ncount): each cell's neighbours into nbrs (int32, cells x 8, -1 padded)
   and how many it has into ncount (int32, cells). */
PyObject *boggle_neighbours(PyObject *self, PyObject *args)
{
    (void)self;
    Py_ssize_t rows, cols;
    PyObject *nbrs_obj, *ncount_obj;
    if (!PyArg_ParseTuple(args, "nnOO:boggle_neighbours", &rows, &cols, &nbrs_obj, &ncount_obj))
        return NULL;
    if (rows < 0 || cols < 0 || (cols > 0 && rows > INT32_MAX / cols))
        return PyErr_Format(PyExc_ValueError, "boggle_neighbours(): no grid of %zd x %zd cells", rows, cols);
    Held held = {.function = "boggle_neighbours"};
    Py_buffer *nbrs = hold(&held, nbrs_obj, "nbrs", "int32", 2, 1);
    Py_buffer *ncount = nbrs ? hold(&held, ncount_obj, "ncount", "int32", 1, 1) : NULL;
    if (!ncount || !check_shape(&held, nbrs, "nbrs", 0, rows * cols) || !check_shape(&held, nbrs, "nbrs", 1, 8) ||
        !check_shape(&held, ncount, "ncount", 0, rows * cols))
        return release(&held), NULL;
    Py_BEGIN_ALLOW_THREADS
    fill_neighbours(rows, cols, nbrs->buf, ncount->buf);
    Py_END_ALLOW_THREADS
    release(&held);
    Py_RETURN_NONE;
}
