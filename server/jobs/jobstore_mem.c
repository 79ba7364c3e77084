/* jobstore_mem.c -- the embedded job store: an array of records in creation
 * order, under one mutex.
 *
 * Lookups scan the array: with --max-jobs bounded (100,000 at most) a scan
 * is a few hundred microseconds at worst and usually far less, which keeps
 * the structure one array with no second index to keep in step.  Removal
 * shifts the tail down, so the array stays sorted by seq and listing "newest
 * first" walks it backwards.  Nothing here survives a restart. */
#include "server/jobs/jobstore.h"

#include "server/budget.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct mem_store_s {
    jobstore_t base;
    pthread_mutex_t lock; /* guards everything below; a leaf lock */
    job_rec_t *recs;      /* seq ascending; cap grows up to max */
    size_t n, cap, max;
    uint64_t next_seq;
    budget_t *results; /* constant; NULL = no budget (the budget is atomic) */
} mem_store_t;

static const char *const job_status_names[JOB_NSTATUS] = {"queued", "running",   "done",
                                                          "failed", "cancelled", "timeout"};

const char *job_status_name(job_status_t st) {
    return (unsigned)st < JOB_NSTATUS ? job_status_names[st] : "unknown";
}

void job_rec_clear(job_rec_t *r) {
    if (r == NULL) return;
    free(r->result);
    free(r->cluster);
    r->result = NULL;
    r->result_len = 0;
    r->cluster = NULL;
}

static ssize_t mem_find(const mem_store_t *m, const char *id) {
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->recs[i].id, id) == 0) return (ssize_t)i;
    return -1;
}

static void mem_drop(mem_store_t *m, size_t i) {
    if (m->results != NULL) budget_give(m->results, m->recs[i].result_len);
    job_rec_clear(&m->recs[i]);
    memmove(&m->recs[i], &m->recs[i + 1], (m->n - i - 1) * sizeof *m->recs);
    m->n--;
}

static int mem_add(jobstore_t *s, job_rec_t *rec) {
    mem_store_t *m = (mem_store_t *)s;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    if (m->n == m->max) {
        size_t i = 0;
        while (i < m->n && !JOB_ENDED(m->recs[i].status))
            i++;
        if (i == m->n)
            rc = JOBSTORE_EFULL;
        else
            mem_drop(m, i); /* the oldest ended record */
    }
    if (rc == 0 && m->n == m->cap) {
        size_t cap = m->cap * 2 < m->max ? m->cap * 2 : m->max;
        job_rec_t *r = realloc(m->recs, cap * sizeof *r);
        if (r == NULL)
            rc = JOBSTORE_ENOMEM;
        else
            m->recs = r, m->cap = cap;
    }
    if (rc == 0) {
        rec->seq = m->next_seq++;
        m->recs[m->n] = *rec;
        m->recs[m->n].result = NULL;
        m->recs[m->n].result_len = 0;
        m->recs[m->n].cluster = NULL;
        m->n++;
    }
    pthread_mutex_unlock(&m->lock);
    return rc;
}

/* Charges a result of `len` bytes replacing one of `old` bytes in record
 * `keep` to the results budget, evicting the oldest ended records (never
 * `keep`) until it fits.  Under m->lock.  If even an empty store cannot
 * hold it (the caller keeps results under the budget, so only a result of
 * more than the whole budget) it is charged past the limit. */
static void mem_charge(mem_store_t *m, size_t keep, size_t len, size_t old) {
    if (m->results == NULL) return;
    budget_give(m->results, old);
    while (budget_take(m->results, len) != 0) {
        size_t i = 0;
        while (i < m->n &&
               (i == keep || !JOB_ENDED(m->recs[i].status) || m->recs[i].result == NULL))
            i++;
        if (i == m->n) {
            budget_force(m->results, len);
            return;
        }
        mem_drop(m, i);
        if (i < keep) keep--;
    }
}

static int mem_put(jobstore_t *s, job_rec_t *rec) {
    mem_store_t *m = (mem_store_t *)s;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    ssize_t i = mem_find(m, rec->id);
    if (i < 0) {
        rc = JOBSTORE_ENOTFOUND;
    } else {
        job_rec_t *r = &m->recs[i];
        char *result = r->result;
        size_t len = r->result_len;
        uint64_t seq = r->seq;
        if (rec->result != NULL) {
            mem_charge(m, (size_t)i, rec->result_len, len);
            i = mem_find(m, rec->id); /* eviction moved it */
            r = &m->recs[i];
            free(r->result);
            result = rec->result;
            len = rec->result_len;
            rec->result = NULL;
            rec->result_len = 0;
        }
        *r = *rec;
        r->seq = seq;
        r->result = result;
        r->result_len = len;
        r->cluster = NULL; /* not this store's: the caller keeps its own */
    }
    pthread_mutex_unlock(&m->lock);
    return rc;
}

static int mem_get(jobstore_t *s, const char *id, int want_result, job_rec_t *out) {
    mem_store_t *m = (mem_store_t *)s;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    ssize_t i = mem_find(m, id);
    if (i < 0) {
        rc = JOBSTORE_ENOTFOUND;
    } else {
        *out = m->recs[i];
        out->result = NULL;
        out->result_len = 0;
        out->result_size = m->recs[i].result_len;
        if (want_result && m->recs[i].result != NULL) {
            out->result = malloc(m->recs[i].result_len + 1);
            if (out->result == NULL) {
                rc = JOBSTORE_ENOMEM;
            } else {
                memcpy(out->result, m->recs[i].result, m->recs[i].result_len);
                out->result[m->recs[i].result_len] = '\0';
                out->result_len = m->recs[i].result_len;
            }
        }
    }
    pthread_mutex_unlock(&m->lock);
    return rc;
}

static int mem_remove(jobstore_t *s, const char *id) {
    mem_store_t *m = (mem_store_t *)s;
    int rc = 0;
    pthread_mutex_lock(&m->lock);
    ssize_t i = mem_find(m, id);
    if (i < 0)
        rc = JOBSTORE_ENOTFOUND;
    else
        mem_drop(m, (size_t)i);
    pthread_mutex_unlock(&m->lock);
    return rc;
}

static size_t mem_list(jobstore_t *s, const char *owner, uint64_t before, job_rec_t *out,
                       size_t max, int *more) {
    mem_store_t *m = (mem_store_t *)s;
    size_t k = 0;
    *more = 0;
    pthread_mutex_lock(&m->lock);
    for (size_t i = m->n; i-- > 0;) {
        if (before != 0 && m->recs[i].seq >= before) continue;
        if (strcmp(m->recs[i].owner, owner) != 0) continue;
        if (k == max) {
            *more = 1;
            break;
        }
        out[k] = m->recs[i];
        out[k].result = NULL;
        out[k].result_len = 0;
        k++;
    }
    pthread_mutex_unlock(&m->lock);
    return k;
}

static size_t mem_expire(jobstore_t *s, int64_t cutoff_ms) {
    mem_store_t *m = (mem_store_t *)s;
    size_t gone = 0;
    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->n;) {
        if (JOB_ENDED(m->recs[i].status) && m->recs[i].finished_ms < cutoff_ms) {
            mem_drop(m, i);
            gone++;
        } else {
            i++;
        }
    }
    pthread_mutex_unlock(&m->lock);
    return gone;
}

static void mem_count(jobstore_t *s, size_t by_status[JOB_NSTATUS]) {
    mem_store_t *m = (mem_store_t *)s;
    memset(by_status, 0, JOB_NSTATUS * sizeof *by_status);
    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->n; i++)
        if ((unsigned)m->recs[i].status < JOB_NSTATUS) by_status[m->recs[i].status]++;
    pthread_mutex_unlock(&m->lock);
}

static void mem_free(jobstore_t *s) {
    mem_store_t *m = (mem_store_t *)s;
    if (m == NULL) return;
    while (m->n > 0) /* gives the budget back */
        mem_drop(m, m->n - 1);
    free(m->recs);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

static const jobstore_ops_t mem_ops = {mem_add,  mem_put,    mem_get,   mem_remove,
                                       mem_list, mem_expire, mem_count, mem_free};

int jobstore_mem_new(jobstore_t **out, size_t max_records, budget_t *results) {
    mem_store_t *m = calloc(1, sizeof *m);
    if (m == NULL) return JOBSTORE_ENOMEM;
    m->results = results;
    m->max = max_records ? max_records : 1;
    m->cap = m->max < 64 ? m->max : 64;
    m->recs = calloc(m->cap, sizeof *m->recs);
    if (m->recs == NULL) {
        free(m);
        return JOBSTORE_ENOMEM;
    }
    m->base.ops = &mem_ops;
    m->next_seq = 1;
    pthread_mutex_init(&m->lock, NULL);
    *out = &m->base;
    return 0;
}
