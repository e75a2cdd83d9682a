/* A board class's layout taken from Python (the named tuple pipeline.boggle.prove.Layout), checked so that the
   proof's kernels never read or write outside their arrays. */
#include "proof.h"

#define LAYOUT_FIELDS 10

/* The uint64 held by a Python integer (or numpy integer); 0 with an error set when it is none. */
static uint64_t as_u64(PyObject *obj, int *ok)
{
    PyObject *index = PyNumber_Index(obj);
    if (!index) {
        *ok = 0;
        return 0;
    }
    uint64_t value = PyLong_AsUnsignedLongLong(index);
    Py_DECREF(index);
    if (PyErr_Occurred())
        *ok = 0;
    return value;
}

/* A description of what is wrong with the layout's contents, or NULL when nothing is. */
static const char *bad_layout(const Layout *lay)
{
    int n = lay->n, seen[MAX_PROOF_CELLS] = {0};
    for (int cell = 0; cell < n; cell++) {
        int32_t count = lay->n_letters[cell];
        if (count < 1 || count > lay->width || count > MAX_LETTERS)
            return "a cell's letter count is not 1 to 26 within letters' rows";
        for (int i = 0; i < count; i++)
            if (lay->letters[cell * lay->width + i] < 0 || lay->letters[cell * lay->width + i] >= MAX_LETTERS)
                return "a letter code is not 0 to 25";
    }
    uint64_t high = 0, lows = 0;
    for (int pos = 0; pos < n; pos++) {
        int32_t cell = lay->order[pos];
        if (cell < 0 || cell >= n || seen[cell]++)
            return "order is not a permutation of the cells";
        if (pos == 0)
            continue;
        int64_t bits = lay->digits[pos], low = lay->shift[pos];
        if (bits < 1 || bits > 5 || low < 0 || low + bits > 64 || lay->n_letters[cell] >= (INT64_C(1) << bits))
            return "a position's digit does not hold its cell's letters within 64 bits";
        for (int64_t bit = low; bit < low + bits; bit++)
            if (lay->pos_at_bit[bit] != pos || ((high | lows) >> bit & 1))
                return "the positions' digits overlap, or pos_at_bit does not name them";
        high |= UINT64_C(1) << (low + bits - 1);
        lows |= ((UINT64_C(1) << (bits - 1)) - 1) << low;
    }
    if (high != lay->high || lows != lay->lows)
        return "high and lows are not the digits' top and other bits";
    for (int bit = 0; bit < 64; bit++)
        if (lay->pos_at_bit[bit] < 0 || lay->pos_at_bit[bit] >= n)
            return "pos_at_bit names a position outside the grid";
    return NULL;
}

int hold_layout(Held *held, PyObject *obj, Layout *lay)
{
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != LAYOUT_FIELDS) {
        PyErr_Format(PyExc_TypeError, "%s(): lay must be a Layout of %d fields", held->function, LAYOUT_FIELDS);
        return 0;
    }
    Py_buffer *letters = hold(held, PyTuple_GET_ITEM(obj, 0), "lay.letters", "int8", 2, 0);
    Py_buffer *n_letters = letters ? hold(held, PyTuple_GET_ITEM(obj, 1), "lay.n_letters", "int32", 1, 0) : NULL;
    Py_buffer *order = n_letters ? hold(held, PyTuple_GET_ITEM(obj, 2), "lay.order", "int32", 1, 0) : NULL;
    Py_buffer *shift = order ? hold(held, PyTuple_GET_ITEM(obj, 4), "lay.shift", "int64", 1, 0) : NULL;
    Py_buffer *digits = shift ? hold(held, PyTuple_GET_ITEM(obj, 5), "lay.width", "int64", 1, 0) : NULL;
    Py_buffer *pos_at_bit = digits ? hold(held, PyTuple_GET_ITEM(obj, 6), "lay.pos_at_bit", "int64", 1, 0) : NULL;
    if (!pos_at_bit)
        return 0;
    Py_ssize_t n = letters->shape[0];
    if (!check_shape(held, n_letters, "lay.n_letters", 0, n) || !check_shape(held, order, "lay.order", 0, n) ||
        !check_shape(held, shift, "lay.shift", 0, n) || !check_shape(held, digits, "lay.width", 0, n) ||
        !check_shape(held, pos_at_bit, "lay.pos_at_bit", 0, 64))
        return 0;
    if (n < 1 || n > MAX_PROOF_CELLS) {
        PyErr_Format(PyExc_ValueError, "%s(): a class has 1 to %d cells, not %zd", held->function, MAX_PROOF_CELLS,
                     n);
        return 0;
    }
    int ok = 1;
    uint64_t high = as_u64(PyTuple_GET_ITEM(obj, 7), &ok);
    uint64_t lows = ok ? as_u64(PyTuple_GET_ITEM(obj, 8), &ok) : 0;
    if (!ok)
        return 0;
    *lay = (Layout){.n = (int)n,
                    .letters = letters->buf,
                    .width = letters->shape[1],
                    .n_letters = n_letters->buf,
                    .order = order->buf,
                    .shift = shift->buf,
                    .digits = digits->buf,
                    .pos_at_bit = pos_at_bit->buf,
                    .high = high,
                    .lows = lows};
    const char *bad = bad_layout(lay);
    if (bad) {
        PyErr_Format(PyExc_ValueError, "%s(): lay: %s", held->function, bad);
        return 0;
    }
    return 1;
}
