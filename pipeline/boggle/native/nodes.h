/* The packed trie node of a Boggle dictionary: one uint64 holding its child letters (bits 0-25), the class of
   its points (bits 26-31; the points are values[class]) and the index of its first child (bits 32-63; its
   children are stored together, in letter order). */
#ifndef WORDSTATS_NODES_H
#define WORDSTATS_NODES_H

#include <stdint.h>

#define NODE_CLASS_SHIFT 26
#define NODE_CLASS_MASK 63
#define NODE_FIRST_SHIFT 32
#define LETTERS 26

/* A node's child letters, as a 26-bit mask. */
static inline uint32_t node_children(uint64_t node)
{
    return (uint32_t)(node & ((1u << NODE_CLASS_SHIFT) - 1));
}

/* A node's points class (0: no word ends here). */
static inline unsigned node_class(uint64_t node)
{
    return (unsigned)(node >> NODE_CLASS_SHIFT) & NODE_CLASS_MASK;
}

/* The index of a node's first child. */
static inline uint64_t node_first(uint64_t node)
{
    return node >> NODE_FIRST_SHIFT;
}

/* The index of a node's child for `letter`, which must be one of its child letters. */
static inline uint64_t child_of(uint64_t node, int letter)
{
    return node_first(node) + (uint64_t)__builtin_popcount(node_children(node) & ((1u << letter) - 1));
}

#endif
