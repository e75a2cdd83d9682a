/* pipeline.scrabble._native: the move generator and the GADDAG's look-ups for Python, arrays taken through the
   buffer protocol (dtype, dimensions and shape checked: TypeError, ValueError), the GIL released while they run.
   The contents of the Tables (the GADDAG's arcs, checked when it was loaded, and what movegen.tables built from
   them) are trusted; a board's tiles and a rack's counts are checked. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "lexicon.h"
#include "movegen.h"

/* An array argument's wanted type: kind ('i' signed, 'u' unsigned, 'b' bool), item size and dimensions. */
typedef struct {
    char kind;
    Py_ssize_t itemsize;
    int ndim;
    const char *dtype; /* numpy's name, for messages */
} ArrayType;

static const ArrayType UINT32_1 = {'u', 4, 1, "uint32"}, INT64_1 = {'i', 8, 1, "int64"};
static const ArrayType UINT64_1 = {'u', 8, 1, "uint64"}, INT8_2 = {'i', 1, 2, "int8"};
static const ArrayType INT64_3 = {'i', 8, 3, "int64"}, BOOL_2 = {'b', 1, 2, "bool"};
static const ArrayType INT32_2 = {'i', 4, 2, "int32"};

/* The kind of a buffer's format ('i', 'u', 'b'), or 0 for any other (a native or little-endian one-item code). */
static char format_kind(const char *format) {
    if (format == NULL) return 'u'; /* plain bytes */
    if (*format == '@' || *format == '=' || *format == '<') format++;
    if (format[0] == 0 || format[1] != 0) return 0;
    if (strchr("bhilqn", format[0])) return 'i';
    if (strchr("BHILQN", format[0])) return 'u';
    return format[0] == '?' ? 'b' : 0;
}

/* Raise TypeError: argument `name` of `function` is not what `want` says. */
static void wrong_type(const char *function, const char *name, const ArrayType *want, PyObject *obj) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_FULL_RO) == 0) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): %s must be a C-ordered %d-d %s array, not a %s %d-d array of format '%s' (%zd-byte items)",
                     function, name, want->ndim, want->dtype, PyBuffer_IsContiguous(&view, 'C') ? "C-ordered" : "strided",
                     view.ndim, view.format ? view.format : "B", view.itemsize);
        PyBuffer_Release(&view);
        return;
    }
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s(): %s must be a C-ordered %d-d %s array, not %.100s", function, name, want->ndim,
                 want->dtype, Py_TYPE(obj)->tp_name);
}

/* Take a C-ordered array argument of the wanted type (writable when `writable`) into `view`; -1 with TypeError. */
static int get_array(const char *function, const char *name, PyObject *obj, const ArrayType *want, bool writable,
                     Py_buffer *view) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) != 0) {
        PyErr_Clear();
        if (writable && PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
            PyBuffer_Release(view);
            PyErr_Format(PyExc_TypeError, "%s(): %s must be a writable array", function, name);
            return -1;
        }
        PyErr_Clear();
        wrong_type(function, name, want, obj);
        return -1;
    }
    if (format_kind(view->format) != want->kind || view->itemsize != want->itemsize || view->ndim != want->ndim) {
        PyBuffer_Release(view);
        wrong_type(function, name, want, obj);
        return -1;
    }
    return 0;
}

/* Check an array's extent along dimension `dim` (-1: any); -1 with ValueError. */
static int check_extent(const char *function, const char *name, const Py_buffer *view, int dim, Py_ssize_t want) {
    if (view->shape[dim] == want) return 0;
    PyErr_Format(PyExc_ValueError, "%s(): %s must have %zd items along dimension %d, not %zd", function, name, want,
                 dim, view->shape[dim]);
    return -1;
}

/* An integer argument (int, numpy integer or bool; not a float); -1 with an error set. */
static int get_int(const char *function, const char *name, PyObject *obj, int64_t *out) {
    PyObject *index = PyNumber_Index(obj);
    if (index == NULL) {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be an int64 scalar, not %.100s", function, name,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    long long value = PyLong_AsLongLong(index);
    Py_DECREF(index);
    if (value == -1 && PyErr_Occurred()) return -1;
    *out = value;
    return 0;
}

/* The buffers a call holds, released together. */
typedef struct {
    Py_buffer views[16];
    int n;
} Held;

/* Release every buffer held. */
static void release(Held *held) {
    for (int i = 0; i < held->n; i++) PyBuffer_Release(&held->views[i]);
    held->n = 0;
}

/* Take an array argument into the next held buffer; its data, or NULL with an error set. */
static void *hold(Held *held, const char *function, const char *name, PyObject *obj, const ArrayType *want,
                  bool writable) {
    Py_buffer *view = &held->views[held->n];
    if (get_array(function, name, obj, want, writable, view) != 0) return NULL;
    held->n++;
    return view->buf;
}

/* The last buffer taken. */
static const Py_buffer *last(const Held *held) { return &held->views[held->n - 1]; }

/* The move generator's Tables from the named tuple (movegen.tables.Tables, or any tuple of its 13 fields). */
static int get_tables(PyObject *obj, Held *held, Tables *tab) {
    const char *f = "board_plays";
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 13) {
        PyErr_Format(PyExc_TypeError, "%s(): tables must be a Tables (a tuple of 13 fields), not %.100s", f,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject **item = &PyTuple_GET_ITEM(obj, 0);
    if (!(tab->arcs = hold(held, f, "tables.arcs", item[0], &UINT32_1, false))) return -1;
    tab->n_arcs = last(held)->shape[0];
    if (tab->n_arcs < 2) {
        PyErr_Format(PyExc_ValueError, "%s(): tables.arcs must hold a GADDAG (2 arcs or more)", f);
        return -1;
    }
    if (!(tab->tilesets = hold(held, f, "tables.tilesets", item[1], &INT64_1, false))) return -1;
    if (check_extent(f, "tables.tilesets", last(held), 0, tab->n_arcs)) return -1;
    if (!(tab->long_words.hashes = hold(held, f, "tables.bingos", item[2], &UINT64_1, false))) return -1;
    tab->long_words.n_words = last(held)->shape[0];
    if (!(tab->long_words.words = hold(held, f, "tables.bingo_words", item[3], &INT8_2, false))) return -1;
    if (check_extent(f, "tables.bingo_words", last(held), 0, tab->long_words.n_words) ||
        check_extent(f, "tables.bingo_words", last(held), 1, LONGEST))
        return -1;
    if (!(tab->long_words.slots = hold(held, f, "tables.bingo_slots", item[4], &INT64_1, false))) return -1;
    tab->long_words.n_slots = last(held)->shape[0];
    if (!(tab->letter_hash = hold(held, f, "tables.letter_hash", item[5], &UINT64_1, false))) return -1;
    if (check_extent(f, "tables.letter_hash", last(held), 0, LETTERS)) return -1;
    if (!(tab->values = hold(held, f, "tables.values", item[6], &INT64_1, false))) return -1;
    if (check_extent(f, "tables.values", last(held), 0, LETTERS)) return -1;
    const char *grids[2] = {"tables.lmul", "tables.wmul"};
    for (int g = 0; g < 2; g++) {
        const void *data = hold(held, f, grids[g], item[7 + g], &INT64_3, false);
        if (!data) return -1;
        for (int dim = 0; dim < 3; dim++)
            if (check_extent(f, grids[g], last(held), dim, dim == 0 ? 2 : N)) return -1;
        if (g == 0) tab->lmul = data;
        else tab->wmul = data;
    }
    int64_t *ints[4] = {&tab->centre_r, &tab->centre_c, &tab->bingo, &tab->rack_size};
    const char *names[4] = {"tables.centre_r", "tables.centre_c", "tables.bingo", "tables.rack_size"};
    for (int i = 0; i < 4; i++)
        if (get_int(f, names[i], item[9 + i], ints[i])) return -1;
    if (tab->centre_r < 0 || tab->centre_r >= N || tab->centre_c < 0 || tab->centre_c >= N) {
        PyErr_Format(PyExc_ValueError, "%s(): the centre square must be on the %dx%d board", f, N, N);
        return -1;
    }
    return 0;
}

/* Check a board's tiles (letter codes 0-25, -1 empty) and a rack (27 counts, at most N tiles in all). */
static int check_position(const int8_t *tiles, const int64_t *rack) {
    for (int i = 0; i < N * N; i++)
        if (tiles[i] < -1 || tiles[i] >= LETTERS) {
            PyErr_Format(PyExc_ValueError, "board_plays(): a tile is a letter code 0-25 or -1 (empty), not %d",
                         tiles[i]);
            return -1;
        }
    int64_t in_rack = 0;
    for (int k = 0; k < RACK_SLOTS; k++) {
        if (rack[k] < 0 || rack[k] > N) {
            PyErr_Format(PyExc_ValueError, "board_plays(): a rack count is 0 to %d, not %lld", N, (long long)rack[k]);
            return -1;
        }
        in_rack += rack[k];
    }
    if (in_rack > N) {
        PyErr_Format(PyExc_ValueError, "board_plays(): a rack holds at most %d tiles, not %lld", N, (long long)in_rack);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(board_plays_doc,
             "board_plays(tables, tiles, blanks, rack, keep, out) -> (records, n, total)\n\n"
             "The plays of a board (tiles: int8 (15, 15) letter codes, -1 empty; blanks: bool (15, 15)) and rack "
             "(int64 (27,) counts): every legal one (keep = 0) or the `keep` best in rank order, as play records "
             "written into out (int32 (rows, RECORD); keep > 0 needs keep rows). records is out, or a bytearray of "
             "the n records when every play was kept and they outgrew it; total counts the plays scored.");

static PyObject *py_board_plays(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tables, *tiles_obj, *blanks_obj, *rack_obj, *keep_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOOOOO:board_plays", &tables, &tiles_obj, &blanks_obj, &rack_obj, &keep_obj, &out_obj))
        return NULL;
    const char *f = "board_plays";
    Held held = {.n = 0};
    Tables tab;
    int64_t keep, total = 0;
    PyObject *result = NULL;
    if (get_tables(tables, &held, &tab)) goto done;
    const int8_t *tiles = hold(&held, f, "tiles", tiles_obj, &INT8_2, false);
    if (!tiles || check_extent(f, "tiles", last(&held), 0, N) || check_extent(f, "tiles", last(&held), 1, N)) goto done;
    const bool *blanks = hold(&held, f, "blanks", blanks_obj, &BOOL_2, false);
    if (!blanks || check_extent(f, "blanks", last(&held), 0, N) || check_extent(f, "blanks", last(&held), 1, N))
        goto done;
    const int64_t *rack = hold(&held, f, "rack", rack_obj, &INT64_1, false);
    if (!rack || check_extent(f, "rack", last(&held), 0, RACK_SLOTS)) goto done;
    if (get_int(f, "keep", keep_obj, &keep)) goto done;
    Record *out = hold(&held, f, "out", out_obj, &INT32_2, true);
    if (!out || check_extent(f, "out", last(&held), 1, RECORD)) goto done;
    Py_ssize_t rows = last(&held)->shape[0];
    if (keep < 0 || (keep > 0 && rows < keep)) {
        PyErr_Format(PyExc_ValueError, "%s(): keep must be 0 or at most out's %zd rows, not %lld", f, rows,
                     (long long)keep);
        goto done;
    }
    if (check_position(tiles, rack)) goto done;
    Kept kept = {.rows = out, .cap = rows, .n = 0, .keep = keep, .owned = false, .no_memory = false};
    bool ok;
    Py_BEGIN_ALLOW_THREADS
    ok = board_plays(&tab, (const int8_t(*)[N])tiles, (const bool(*)[N])blanks, rack, &kept, &total);
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_NoMemory();
    } else if (kept.owned) {
        PyObject *records = PyByteArray_FromStringAndSize((const char *)kept.rows, (Py_ssize_t)(kept.n * sizeof(Record)));
        if (records) result = Py_BuildValue("NLL", records, (long long)kept.n, (long long)total);
    } else {
        result = Py_BuildValue("OLL", out_obj, (long long)kept.n, (long long)total);
    }
    if (kept.owned) free(kept.rows);
done:
    release(&held);
    return result;
}

PyDoc_STRVAR(gaddag_contains_doc, "gaddag_contains(arcs, codes) -> bool\n\n"
                                  "Whether the word of letter codes (int64, A = 0) is in the GADDAG (uint32 arcs).");

static PyObject *py_gaddag_contains(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *arcs_obj, *codes_obj;
    if (!PyArg_ParseTuple(args, "OO:gaddag_contains", &arcs_obj, &codes_obj)) return NULL;
    Held held = {.n = 0};
    PyObject *result = NULL;
    const uint32_t *arcs = hold(&held, "gaddag_contains", "arcs", arcs_obj, &UINT32_1, false);
    if (!arcs) goto done;
    int64_t n_arcs = last(&held)->shape[0];
    const int64_t *codes = hold(&held, "gaddag_contains", "codes", codes_obj, &INT64_1, false);
    if (!codes) goto done;
    result = PyBool_FromLong(gaddag_has(arcs, n_arcs, codes, last(&held)->shape[0]));
done:
    release(&held);
    return result;
}

PyDoc_STRVAR(check_arcs_doc,
             "check_arcs(arcs) -> int\n\n"
             "The number of nodes of a GADDAG's arcs (uint32) that the generator can walk safely (arc 0 a root "
             "pointer, the last arc ending a node, every child inside the array, every tile a letter or the separator), "
             "or -(1 + index) of the first bad arc (-1 also for too few arcs or a bad first or last arc).");

static PyObject *py_check_arcs(PyObject *self, PyObject *arcs_obj) {
    (void)self;
    Held held = {.n = 0};
    PyObject *result = NULL;
    const uint32_t *arcs = hold(&held, "check_arcs", "arcs", arcs_obj, &UINT32_1, false);
    if (!arcs) goto done;
    int64_t n = last(&held)->shape[0], found = -1;
    if (n >= 2 && (arcs[0] & ARC_END) && (arcs[n - 1] & ARC_END) && (arcs[0] & CHILD_MASK)) {
        int64_t nodes = 0;
        for (int64_t i = 0; i < n; i++) {
            if ((int64_t)(arcs[i] & CHILD_MASK) >= n || (arcs[i] >> TILE_SHIFT) > LETTERS) {
                nodes = -(1 + i);
                break;
            }
            if (i > 0 && (arcs[i] & ARC_END)) nodes++;
        }
        found = nodes;
    }
    result = PyLong_FromLongLong((long long)found);
done:
    release(&held);
    return result;
}

PyDoc_STRVAR(arc_tilesets_doc, "arc_tilesets(arcs, out) -> None\n\n"
                               "Write into out (int64, as many as arcs) each arc widened, with the tiles of its node as "
                               "bits from NODE_SHIFT on at the node's first arc.");

static PyObject *py_arc_tilesets(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *arcs_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OO:arc_tilesets", &arcs_obj, &out_obj)) return NULL;
    Held held = {.n = 0};
    PyObject *result = NULL;
    const uint32_t *arcs = hold(&held, "arc_tilesets", "arcs", arcs_obj, &UINT32_1, false);
    if (!arcs) goto done;
    int64_t n_arcs = last(&held)->shape[0];
    int64_t *out = hold(&held, "arc_tilesets", "out", out_obj, &INT64_1, true);
    if (!out || check_extent("arc_tilesets", "out", last(&held), 0, n_arcs)) goto done;
    Py_BEGIN_ALLOW_THREADS
    node_tilesets(arcs, n_arcs, out);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    release(&held);
    return result;
}

PyDoc_STRVAR(long_words_doc,
             "long_words(arcs, shortest, letter_hash) -> (hashes, words, slots)\n\n"
             "The words of at least `shortest` letters read off the GADDAG by letter hash, as bytearrays: the sorted "
             "uint64 hashes, the words' int8 rows of 15 letter codes, the int64 hash table and its filter.");

static PyObject *py_long_words(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *arcs_obj, *shortest_obj, *hash_obj;
    if (!PyArg_ParseTuple(args, "OOO:long_words", &arcs_obj, &shortest_obj, &hash_obj)) return NULL;
    Held held = {.n = 0};
    PyObject *result = NULL;
    int64_t shortest;
    const uint32_t *arcs = hold(&held, "long_words", "arcs", arcs_obj, &UINT32_1, false);
    if (!arcs) goto done;
    int64_t n_arcs = last(&held)->shape[0];
    if (get_int("long_words", "shortest", shortest_obj, &shortest)) goto done;
    const uint64_t *letter_hash = hold(&held, "long_words", "letter_hash", hash_obj, &UINT64_1, false);
    if (!letter_hash || check_extent("long_words", "letter_hash", last(&held), 0, LETTERS)) goto done;
    WordTable table;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = read_long_words(arcs, n_arcs, shortest, letter_hash, &table);
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *hashes = PyByteArray_FromStringAndSize((const char *)table.hashes, (Py_ssize_t)(table.n_words * 8));
    PyObject *words = PyByteArray_FromStringAndSize((const char *)table.words, (Py_ssize_t)(table.n_words * LONGEST));
    PyObject *slots = PyByteArray_FromStringAndSize((const char *)table.slots, (Py_ssize_t)(table.n_slots * 8));
    free_long_words(&table);
    if (hashes && words && slots) result = PyTuple_Pack(3, hashes, words, slots);
    Py_XDECREF(hashes), Py_XDECREF(words), Py_XDECREF(slots);
done:
    release(&held);
    return result;
}

static PyMethodDef methods[] = {
    {"board_plays", py_board_plays, METH_VARARGS, board_plays_doc},
    {"gaddag_contains", py_gaddag_contains, METH_VARARGS, gaddag_contains_doc},
    {"check_arcs", py_check_arcs, METH_O, check_arcs_doc},
    {"arc_tilesets", py_arc_tilesets, METH_VARARGS, arc_tilesets_doc},
    {"long_words", py_long_words, METH_VARARGS, long_words_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "Scrabble's move generator and GADDAG look-ups in C (the numba kernels' results, byte for byte).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    struct {
        const char *name;
        long long value;
    } constants[] = {
        {"N", N},
        {"RECORD", RECORD},
        {"PLAY_SCORE", PLAY_SCORE},
        {"PLAY_ROW", PLAY_ROW},
        {"PLAY_COL", PLAY_COL},
        {"PLAY_DIR", PLAY_DIR},
        {"PLAY_LEN", PLAY_LEN},
        {"PLAY_BLANKS", PLAY_BLANKS},
        {"PLAY_PLACED", PLAY_PLACED},
        {"PLAY_LETTERS", PLAY_LETTERS},
        {"CHILD_BITS", CHILD_BITS},
        {"CHILD_MASK", CHILD_MASK},
        {"END", ARC_END},
        {"TILE_SHIFT", TILE_SHIFT},
        {"NODE_SHIFT", NODE_SHIFT},
        {"LONGEST", LONGEST},
    };
    for (size_t i = 0; i < sizeof constants / sizeof *constants; i++)
        if (PyModule_AddObject(m, constants[i].name, PyLong_FromLongLong(constants[i].value)) < 0) goto fail;
    if (PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0 ||
        PyModule_AddStringConstant(m, "PROCESSOR_DIGEST", PROCESSOR_DIGEST) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
