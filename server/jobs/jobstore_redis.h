/* jobstore_redis.h -- what the cluster (server/jobs/cluster.c) shares with the
 * Redis job store beyond the store interface: the record's fields as
 * script arguments, and records read back from a hash. */
#ifndef PUZZLED_JOBSTORE_REDIS_H
#define PUZZLED_JOBSTORE_REDIS_H

#include <stddef.h>
#include <stdint.h>

#include "server/jobs/jobstore.h"

struct redisReply;

/* Script arguments: pointers and lengths, with room for numbers. */
#define JSR_MAX_ARGS 64
typedef struct jsr_args_s {
    const char *v[JSR_MAX_ARGS];
    size_t l[JSR_MAX_ARGS];
    char num[JSR_MAX_ARGS][24];
    int n;
} jsr_args_t;

void jsr_args_init(jsr_args_t *a);
/* Appends a string (not copied: it must outlive the call) or a number. */
void jsr_args_str(jsr_args_t *a, const char *s, size_t len);
void jsr_args_cstr(jsr_args_t *a, const char *s);
void jsr_args_int(jsr_args_t *a, long long x);

/* Appends the record's fields (st, m, path, cr, sa, fi, unit, done, total,
 * nodes, el, eta, rs, rt) as name/value pairs. */
void jsr_args_record(jsr_args_t *a, const job_rec_t *r);

/* Fills *out from an HGETALL reply of a record (result and cluster NULL;
 * the cluster statistics too when `with_cluster` and the job is split).
 * Returns 0, JOBSTORE_ENOTFOUND (empty hash) or JOBSTORE_ENOMEM. */
int jsr_parse_record(const struct redisReply *hash, const char *id, int with_cluster,
                     job_rec_t *out);

/* The prefix and the ttl the store was made with. */
const char *jobstore_redis_prefix(jobstore_t *s);

#endif
