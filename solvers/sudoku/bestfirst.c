/* sudoku/bestfirst.c -- best-first search: a priority queue of propagated
 * partial grids, the one with the fewest undecided cells expanded first.
 *
 * Expansion of a node: load its candidate masks into the propagation engine
 * (sudoku/prop.c), pick the undecided cell with the fewest candidates, and
 * for each of its values (highest first, see ties) guess, propagate at the
 * requested level (default hidden-singles), record a solved child at once,
 * queue a consistent one, drop a failed one, then undo back to the node.
 *
 * Order: key (undecided cells ascending, push sequence descending).  Newest
 * first among equals makes ties deterministic and the search dive like DFS
 * while the counts are equal, which keeps the queue small; children are
 * pushed highest value first so the lowest value is the newest.
 *
 * Memory
 * ------
 *   arena (one malloc before the search): geometry, engine (trail bounded as
 *     in sudoku/prop.c), and the table of chunk pointers.
 *   node slots: [hdr 16 B][cand ncells * 8 B], in chunks of about
 *     mem_cap / 256 bytes, clamped to 1..64 MiB (and at least one slot; the
 *     table of chunk pointers is sized for the cap), allocated when the
 *     queue needs a slot and none is free -- between two children, never
 *     inside propagation.  A popped node's slot goes on a free list (the
 *     list link lives in the free slot) and is reused first.
 *   heap: array of 16-byte entries (undecided, slot, sequence), replaced by
 *     one twice as large when a new chunk would outgrow it.
 * The arena, all chunks and the heap (both copies while it is replaced)
 * together stay within mem_cap; when the next chunk would pass it the search
 * returns SEARCH_BUDGET (the user sees a timeout) instead of exhausting the
 * machine.  A cap smaller than the arena stops before the search.
 *
 * Stats: nodes = children generated, backtracks = children that failed,
 * max_depth = guesses on the deepest node's path.
 *
 * Thread-safety: all state belongs to one solve. */
#include <string.h>

#include "solvers/sudoku/internal.h"

#define BF_NONE UINT32_MAX

typedef struct bf_hdr_s {
    uint32_t depth;   /* guesses from the root */
    uint32_t decided; /* decided cells */
    uint32_t next;    /* free-list link while the slot is free */
    uint32_t pad;
} bf_hdr_t;

typedef struct bf_ent_s {
    uint32_t undecided;
    uint32_t slot;
    uint64_t seq;
} bf_ent_t;

typedef struct bf_s {
    sudoku__run_t *run;
    sudoku__prop_t prop;
    size_t cap; /* mem_cap */
    size_t slot_bytes, chunk_bytes;
    uint32_t per_chunk; /* slots per chunk */
    char **chunks;      /* [max_chunks] */
    uint32_t nchunks, max_chunks;
    uint32_t fresh; /* slots ever handed out (< nchunks * per_chunk) */
    uint32_t free_head;
    bf_ent_t *heap;
    uint32_t hlen, hcap;
    uint64_t seq;
} bf_t;

static inline char *slot_ptr(const bf_t *q, uint32_t s) {
    return q->chunks[s / q->per_chunk] + (size_t)(s % q->per_chunk) * q->slot_bytes;
}

static inline int ent_before(const bf_ent_t *a, const bf_ent_t *b) {
    return a->undecided < b->undecided || (a->undecided == b->undecided && a->seq > b->seq);
}

static void heap_push(bf_t *q, bf_ent_t e) {
    uint32_t i = q->hlen++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!ent_before(&e, &q->heap[parent])) break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = e;
}

static bf_ent_t heap_pop(bf_t *q) {
    bf_ent_t top = q->heap[0], last = q->heap[--q->hlen];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= q->hlen) break;
        if (c + 1 < q->hlen && ent_before(&q->heap[c + 1], &q->heap[c])) c++;
        if (!ent_before(&q->heap[c], &last)) break;
        q->heap[i] = q->heap[c];
        i = c;
    }
    if (q->hlen > 0) q->heap[i] = last;
    return top;
}

/* Adds a chunk (and a larger heap if needed).  Returns 0, or SEARCH_BUDGET
 * when the cap forbids it, SEARCH_ENOMEM when the allocator fails. */
static int bf_grow(bf_t *q) {
    sudoku__run_t *run = q->run;
    uint32_t slots = (q->nchunks + 1) * q->per_chunk;
    size_t need = q->chunk_bytes, heap_bytes = 0;
    bf_ent_t *heap = NULL;
    char *chunk;
    uint32_t hcap = q->hcap;

    if (q->nchunks == q->max_chunks) return SEARCH_BUDGET;
    if (hcap < slots) {
        uint64_t want = (uint64_t)hcap * 2; /* 64-bit: no wrap near 2^32 slots */
        hcap = (want > slots && want < BF_NONE) ? (uint32_t)want : slots;
        heap_bytes = (size_t)hcap * sizeof(bf_ent_t);
        need += heap_bytes; /* the old heap stays alive during the copy */
    }
    if (run->mem_now + need > q->cap) return SEARCH_BUDGET;
    chunk = sudoku__alloc(run, q->chunk_bytes);
    if (chunk == NULL) return SEARCH_ENOMEM;
    if (heap_bytes != 0) {
        heap = sudoku__alloc(run, heap_bytes);
        if (heap == NULL) {
            sudoku__free(run, chunk, q->chunk_bytes);
            return SEARCH_ENOMEM;
        }
        if (q->hlen > 0) memcpy(heap, q->heap, (size_t)q->hlen * sizeof(bf_ent_t));
        sudoku__free(run, q->heap, (size_t)q->hcap * sizeof(bf_ent_t));
        q->heap = heap;
        q->hcap = hcap;
    }
    q->chunks[q->nchunks++] = chunk;
    return 0;
}

/* Copies the engine's state into a free slot and queues it. */
static int bf_push(bf_t *q, uint32_t depth) {
    const sudoku__prop_t *p = &q->prop;
    bf_hdr_t *h;
    bf_ent_t e;
    uint32_t s;
    if (q->free_head != BF_NONE) {
        s = q->free_head;
        q->free_head = ((bf_hdr_t *)(void *)slot_ptr(q, s))->next;
    } else {
        if (q->fresh == q->nchunks * q->per_chunk) {
            int rc = bf_grow(q);
            if (rc != 0) return rc;
        }
        s = q->fresh++;
    }
    h = (bf_hdr_t *)(void *)slot_ptr(q, s);
    h->depth = depth;
    h->decided = p->decided;
    memcpy((char *)h + sizeof(bf_hdr_t), p->cand, (size_t)p->ncells * sizeof(uint64_t));
    e.undecided = (uint32_t)p->ncells - p->decided;
    e.slot = s;
    e.seq = q->seq++;
    heap_push(q, e);
    return 0;
}

static int take_solution(bf_t *q) {
    uint8_t *slot = sudoku__solution_slot(q->run);
    if (slot != NULL) sudoku__prop_extract(&q->prop, slot);
    return sudoku__solution_done(q->run);
}

static int bf_search(bf_t *q) {
    sudoku__run_t *run = q->run;
    sudoku__prop_t *p = &q->prop;
    int rc;

    if (sudoku__prop_run(p) < 0) {
        run->res->exhausted = 1;
        return 0;
    }
    if (p->decided == (uint32_t)p->ncells) {
        take_solution(q);
        run->res->exhausted = 1;
        return 0;
    }
    rc = bf_push(q, 0);
    if (rc != 0) return rc;

    while (q->hlen > 0) {
        bf_ent_t e = heap_pop(q);
        bf_hdr_t *h = (bf_hdr_t *)(void *)slot_ptr(q, e.slot);
        uint32_t depth = h->depth, decided = h->decided;
        uint64_t left;
        int cell;

        memcpy(p->cand, (char *)h + sizeof(bf_hdr_t), (size_t)p->ncells * sizeof(uint64_t));
        h->next = q->free_head; /* the node now lives in the engine */
        q->free_head = e.slot;
        p->tlen = 0;
        sudoku__prop_undo(p, 0, decided);

        cell = sudoku__prop_pick(p);
        assert(cell >= 0);
        for (left = p->cand[cell]; left != 0;) {
            int v = 63 - __builtin_clzll(left);
            left &= ~SUDOKU__BIT(v + 1);
            rc = sudoku__tick(run);
            if (rc != 0) return rc;
            sudoku__depth(run, depth + 1);
            sudoku__prop_guess(p, cell, v + 1);
            if (sudoku__prop_run(p) < 0) {
                run->res->stats.backtracks++;
            } else if (p->decided == (uint32_t)p->ncells) {
                if (take_solution(q)) {
                    run->res->exhausted = (q->hlen == 0 && left == 0);
                    return 0;
                }
            } else {
                rc = bf_push(q, depth + 1);
                if (rc != 0) return rc;
            }
            sudoku__step(run, SUDOKU_STEP_BACKTRACK, cell, v + 1);
            sudoku__prop_undo(p, 0, decided);
        }
    }
    run->res->exhausted = 1;
    return 0;
}

int sudoku__solve_bestfirst(sudoku__run_t *run) {
    bf_t q;
    size_t bits, geom, prop, target, bytes;
    char *mem;
    uint32_t i;
    int rc;

    memset(&q, 0, sizeof q);
    q.run = run;
    q.cap = run->opts->mem_cap != 0 ? run->opts->mem_cap : SUDOKU_DEFAULT_MEM_CAP;
    q.free_head = BF_NONE;
    if (sudoku__prop_count(run, &bits) < 0) {
        run->res->exhausted = 1;
        return 0;
    }
    q.slot_bytes = SUDOKU__ALIGN(sizeof(bf_hdr_t) + (size_t)run->ncells * sizeof(uint64_t));
    target = q.cap / 256;
    if (target < ((size_t)1 << 20)) target = (size_t)1 << 20;
    if (target > ((size_t)64 << 20)) target = (size_t)64 << 20;
    q.per_chunk = target / q.slot_bytes > 0 ? (uint32_t)(target / q.slot_bytes) : 1;
    q.chunk_bytes = (size_t)q.per_chunk * q.slot_bytes;
    q.max_chunks = (uint32_t)(q.cap / q.chunk_bytes) + 1;
    /* slot ids must fit in uint32_t */
    if ((uint64_t)q.max_chunks * q.per_chunk >= BF_NONE)
        q.max_chunks = (uint32_t)((BF_NONE - 1) / q.per_chunk);

    geom = sudoku__geom_bytes(run);
    prop = sudoku__prop_bytes(run, bits);
    bytes = geom + prop + SUDOKU__ALIGN((size_t)q.max_chunks * sizeof(char *));
    if (bytes > q.cap) return SEARCH_BUDGET;
    mem = sudoku__alloc(run, bytes);
    if (mem == NULL) return SEARCH_ENOMEM;
    sudoku__geom_build(run, mem);
    sudoku__prop_init(&q.prop, run, mem + geom, bits);
    q.chunks = (char **)(void *)(mem + geom + prop);

    rc = bf_search(&q);

    for (i = 0; i < q.nchunks; i++)
        sudoku__free(run, q.chunks[i], q.chunk_bytes);
    sudoku__free(run, q.heap, (size_t)q.hcap * sizeof(bf_ent_t));
    sudoku__free(run, mem, bytes);
    return rc;
}
