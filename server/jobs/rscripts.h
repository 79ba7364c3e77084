/* rscripts.h -- the Lua scripts that keep the cluster's records consistent
 * in Redis (server/jobs/rscripts.c holds them, with the key layout they share).
 *
 * Every change to a job that touches more than one key runs as one script,
 * so that Redis applies it whole or not at all: a replica that dies between
 * two calls never leaves a record counted twice, or a finished job still in
 * the work list.  Scripts build their key names from the prefix they are
 * given (ARGV[1]), which a sharded Redis Cluster does not allow: one Redis
 * (or a primary with replicas behind Sentinel) serves a puzzled cluster. */
#ifndef PUZZLED_RSCRIPTS_H
#define PUZZLED_RSCRIPTS_H

enum {
    RSCRIPT_ADD,     /* a new record (and, for split work, its items) */
    RSCRIPT_PUT,     /* a live record's status and progress */
    RSCRIPT_END,     /* a record's final state, once */
    RSCRIPT_REMOVE,  /* an ended record, deleted */
    RSCRIPT_EXPIRE,  /* ended records past their TTL, from the indexes */
    RSCRIPT_TOUCH,   /* a consumer's first look at a job: queued -> running */
    RSCRIPT_COMMIT,  /* one item's result, once per item, and its ack */
    RSCRIPT_RECLAIM, /* items idle past --redis-claim-ms, taken over */
    RSCRIPT_REQUEUE, /* an item given back (its replica is stopping) */
    RSCRIPT_CANCEL,  /* a cancel request, to every replica */
    RSCRIPT_SWEEP,   /* live jobs whose replica is gone */
    RSCRIPT_COUNT_
};

/* The scripts' sources, indexed by RSCRIPT_*. */
extern const char *const rscripts_src[RSCRIPT_COUNT_];

#endif
