/* The lexicon graph: arcs, look-ups, node tilesets and the long words by letter hash. */
#include "lexicon.h"

#include <stdlib.h>
#include <string.h>

/* The tile of a packed arc. */
static inline int64_t arc_tile(uint32_t arc) { return (int64_t)(arc >> TILE_SHIFT); }

int64_t arc_index(const uint32_t *arcs, int64_t node, int64_t tile) {
    if (node == 0) return -1;
    for (int64_t i = node;; i++) {
        uint32_t a = arcs[i];
        int64_t t = arc_tile(a);
        if (t == tile) return i;
        if (t > tile || (a & ARC_END)) return -1;
    }
}

/* arc_index, never reading past the array's end (for arcs not checked by the caller). */
static int64_t arc_index_bounded(const uint32_t *arcs, int64_t n_arcs, int64_t node, int64_t tile) {
    if (node <= 0) return -1;
    for (int64_t i = node; i < n_arcs; i++) {
        uint32_t a = arcs[i];
        int64_t t = arc_tile(a);
        if (t == tile) return i;
        if (t > tile || (a & ARC_END)) return -1;
    }
    return -1;
}

bool gaddag_has(const uint32_t *arcs, int64_t n_arcs, const int64_t *codes, int64_t n) {
    if (n_arcs == 0) return false;
    int64_t node = arcs[0] & CHILD_MASK, i = -1;
    for (int64_t k = n - 1; k >= 0; k--) {
        i = arc_index_bounded(arcs, n_arcs, node, codes[k] + 1);
        if (i < 0) return false;
        node = arcs[i] & CHILD_MASK;
    }
    return i >= 0 && (arcs[i] & ARC_ACCEPTS) != 0;
}

void node_tilesets(const uint32_t *arcs, int64_t n_arcs, int64_t *out) {
    for (int64_t i = 0; i < n_arcs; i++) out[i] = (int64_t)arcs[i];
    int64_t first = 1, tiles = 0;
    for (int64_t i = 1; i < n_arcs; i++) {
        int64_t t = arc_tile(arcs[i]);
        if (t < NODE_SHIFT) tiles |= INT64_C(1) << t;
        if (arcs[i] & ARC_END) {
            out[first] |= (int64_t)((uint64_t)tiles << NODE_SHIFT);
            first = i + 1;
            tiles = 0;
        }
    }
}

/* The stable sorting permutation of uint64 keys, least significant byte first. */
static int radix_order(const uint64_t *keys, int64_t n, int64_t *order) {
    int64_t *spare = malloc((size_t)(n ? n : 1) * sizeof *spare);
    uint64_t *now = malloc((size_t)(n ? n : 1) * sizeof *now), *later = malloc((size_t)(n ? n : 1) * sizeof *later);
    if (!spare || !now || !later) {
        free(spare), free(now), free(later);
        return -1;
    }
    for (int64_t i = 0; i < n; i++) order[i] = i, now[i] = keys[i];
    int64_t counts[257];
    for (int shift = 0; shift < 64; shift += 8) {
        memset(counts, 0, sizeof counts);
        for (int64_t i = 0; i < n; i++) counts[((now[i] >> shift) & 255) + 1]++;
        bool same = false;
        for (int d = 1; d <= 256; d++) same |= counts[d] == n;
        if (same) continue; /* every key has the same byte here */
        for (int d = 0; d < 256; d++) counts[d + 1] += counts[d];
        for (int64_t i = 0; i < n; i++) {
            int64_t at = (int64_t)((now[i] >> shift) & 255);
            spare[counts[at]] = order[i];
            later[counts[at]] = now[i];
            counts[at]++;
        }
        memcpy(order, spare, (size_t)n * sizeof *order);
        memcpy(now, later, (size_t)n * sizeof *now);
    }
    free(spare), free(now), free(later);
    return 0;
}

/* Room for `want` words in growing arrays; 0, or -1 out of memory. */
static int grow_words(int8_t (**words)[LONGEST], uint64_t **hashes, int64_t *cap, int64_t want) {
    if (want <= *cap) return 0;
    int64_t bigger = 2 * *cap;
    int8_t (*w)[LONGEST] = realloc(*words, (size_t)bigger * sizeof **words);
    if (!w) return -1;
    *words = w;
    uint64_t *h = realloc(*hashes, (size_t)bigger * sizeof **hashes);
    if (!h) return -1;
    *hashes = h;
    *cap = bigger;
    return 0;
}

int read_long_words(const uint32_t *arcs, int64_t n_arcs, int64_t shortest, const uint64_t *letter_hash,
                    WordTable *out) {
    memset(out, 0, sizeof *out);
    int64_t cap = 1024, n_words = 0;
    int8_t (*words)[LONGEST] = malloc((size_t)cap * sizeof *words);
    uint64_t *hashes = malloc((size_t)cap * sizeof *hashes);
    int64_t pos[LONGEST + 1], spelled[LONGEST + 1];
    uint64_t key[LONGEST + 1] = {0};
    if (!words || !hashes) goto fail;
    int64_t d = 0;
    pos[0] = n_arcs > 0 ? (int64_t)(arcs[0] & CHILD_MASK) : 0;
    while (d >= 0) { /* depth first over the full reversals: the paths that never take SEP */
        int64_t i = pos[d];
        if (i <= 0 || i >= n_arcs) {
            d--;
            continue;
        }
        uint32_t a = arcs[i];
        pos[d] = (a & ARC_END) ? -1 : i + 1;
        int64_t t = arc_tile(a);
        if (t == SEP || t > LETTERS) continue;
        spelled[d] = t - 1;
        key[d + 1] = key[d] + letter_hash[t - 1];
        if ((a & ARC_ACCEPTS) && d + 1 >= shortest) {
            if (grow_words(&words, &hashes, &cap, n_words + 1)) goto fail;
            for (int k = 0; k < LONGEST; k++) words[n_words][k] = k <= d ? (int8_t)spelled[d - k] : -1;
            hashes[n_words] = key[d + 1];
            n_words++;
        }
        int64_t child = a & CHILD_MASK;
        if (child != 0 && d + 1 < LONGEST) pos[++d] = child;
    }
    int64_t size = 16;
    while (size < 2 * n_words) size *= 2;
    int64_t n_slots = size + size * FILTER_BITS / 64;
    int64_t *order = malloc((size_t)(n_words ? n_words : 1) * sizeof *order);
    out->hashes = malloc((size_t)(n_words ? n_words : 1) * sizeof *out->hashes);
    out->words = malloc((size_t)(n_words ? n_words : 1) * sizeof *out->words);
    out->slots = calloc((size_t)n_slots, sizeof *out->slots);
    if (!order || !out->hashes || !out->words || !out->slots || radix_order(hashes, n_words, order)) {
        free(order);
        goto fail;
    }
    for (int64_t i = 0; i < n_words; i++) {
        out->hashes[i] = hashes[order[i]];
        memcpy(out->words[i], words[order[i]], LONGEST);
    }
    free(order);
    for (int64_t i = 0; i < n_words; i++) {
        uint64_t h = out->hashes[i];
        if (i > 0 && h == out->hashes[i - 1]) continue;
        uint64_t slot = h & (uint64_t)(size - 1);
        while (out->slots[slot] != 0) slot = (slot + 1) & (uint64_t)(size - 1);
        out->slots[slot] = i + 1;
        int64_t bit = (int64_t)((h >> 32) & (uint64_t)(FILTER_BITS * size - 1));
        out->slots[size + (bit >> 6)] |= (int64_t)(UINT64_C(1) << (bit & 63));
    }
    out->n_words = n_words;
    out->n_slots = n_slots;
    free(words), free(hashes);
    return 0;
fail:
    free(words), free(hashes);
    free_long_words(out);
    return -1;
}

void free_long_words(WordTable *table) {
    free(table->hashes), free(table->words), free(table->slots);
    memset(table, 0, sizeof *table);
}

int64_t table_size(int64_t n_slots) { return n_slots * 64 / (64 + FILTER_BITS); }

/* The filter bit of a letter hash: from the hash's high bits, as the slot is from its low ones. */
static inline int64_t filter_bit(uint64_t key, int64_t size) {
    return (int64_t)((key >> 32) & (uint64_t)(FILTER_BITS * size - 1));
}

bool may_hold(const int64_t *slots, int64_t size, uint64_t key) {
    int64_t bit = filter_bit(key, size);
    return (((uint64_t)slots[size + (bit >> 6)] >> (bit & 63)) & 1) != 0;
}

int64_t first_word(const LongWords *lw, uint64_t key) {
    int64_t size = table_size(lw->n_slots);
    if (size == 0) { /* bisection: the first hash not below key */
        int64_t lo = 0, hi = lw->n_words;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (lw->hashes[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        return lo < lw->n_words && lw->hashes[lo] == key ? lo : -1;
    }
    if (!may_hold(lw->slots, size, key)) return -1;
    uint64_t mask = (uint64_t)(size - 1), slot = key & mask;
    while (lw->slots[slot] != 0) {
        int64_t i = lw->slots[slot] - 1;
        if (lw->hashes[i] == key) return i;
        slot = (slot + 1) & mask;
    }
    return -1;
}
