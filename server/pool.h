/* pool.h -- the worker pool: a libuv loop on its own thread that hands
 * items to libuv's worker threads itself, with admission control, reserved
 * capacity for requests that wait for their answer, per-job parallelism
 * windows, deadlines and client hang-ups enforced while a task waits, and a
 * memory budget charged by every search. */
#ifndef PUZZLED_POOL_H
#define PUZZLED_POOL_H

#include <stdatomic.h>
#include <stddef.h>

#include "api/request.h"
#include "server/budget.h"
#include "server/config.h"
#include "server/metrics.h"
#include "solvers/search.h"

/* A background item's turn: a job that supports turns (api_job_t.turn_ns)
 * gives its worker back after about this much work, so that a small
 * background request queued behind a long one (a generate for a rare level)
 * waits one turn, not the long one's deadline.  5 ms: an easy 9x9 attempt
 * took about 0.8 ms (bench_logic step 3: 2,451 puzzles/s on two threads,
 * one attempt each), so a turn is a few attempts; bench_fair's probe of
 * small generates during a 10,000-puzzle job measured p99 1.8x idle with
 * 5 ms and 1.9x with 20 ms (two runs one after the other, each against
 * its own idle figure, the machine loaded).  What a turn's setup (the
 * generator's buffers) costs is not timed. */
#define POOL_TURN_NS (5 * 1000000LL)

typedef struct pool_s pool_t;
typedef struct pool_task_s pool_task_t;
typedef struct pool_slot_s pool_slot_t;

/* Called once on the loop thread when the task's last item has finished.
 * The pool does not touch the task after calling it. */
typedef void (*pool_done_fn)(pool_task_t *task);

/* A task runs one api_job_t.  The caller owns the struct (it is embedded in
 * the HTTP request) and fills the first block before pool_submit().
 *
 * Who may touch which field when:
 *   - The first block (job .. waits) is written by the submitting thread
 *     before pool_submit() and only read afterwards (by the loop thread).
 *   - From pool_submit() until done() returns, everything else belongs to
 *     the loop thread, except `cancel` (atomic: any thread may raise it),
 *     `started` (atomic: workers and the loop thread) and `charge` (atomics:
 *     the searches on the workers charge it through ctl.alloc).  Workers
 *     read `job`, `ctl` and `alloc` and write only their own item's slot.
 *   - `rc` and `client_gone` are the results: written on the loop thread,
 *     read in done() there, and by the submitter only after done() has
 *     handed the task back (for HTTP: after MHD_resume_connection(), whose
 *     mutex orders the two).  A progressive request's HTTP thread may end
 *     before its task does: it must not read them until done() ran.
 *   - After done() the pool never touches the task again. */
struct pool_task_s {
    api_job_t *job;
    pool_done_fn done;
    pool_done_fn progress; /* NULL, or called on the loop thread after each
                              merge() (progressive jobs: more output is ready) */
    void *owner;           /* for done() and progress() */
    int watch_fd;          /* client socket: a hang-up cancels the task; -1 = none.  Read
                              by the loop thread under the pool's lock; pool_unwatch()
                              clears it there before the socket may be closed */
    int background;        /* background work (async jobs, cluster items, long work such
                              as generation): its items take turns with the other background
                              tasks' in the --background-threads share of the workers, so
                              that the rest stays free for requests that wait */
    int waits;             /* a client waits for the answer: admitted by pool_admit() (else
                              by pool_admit_background()); its deadline and hang-up are
                              enforced while it waits for a worker */

    /* Results, valid in done(). */
    int rc;          /* first negative item code, 0 if none */
    int client_gone; /* the watched socket was closed by the peer */
    int waited_out;  /* the deadline passed before any item started: nothing ran, and
                        rc is SEARCH_TIMEOUT (the caller answers 503, not a result) */
    /* The task's memory: every search under ctl allocates through
     * ctl.alloc, charged to the work budget, at most --max-request-memory
     * of it.  Valid in done() (over_share / over_budget say why an
     * allocation failed); `held` is back to 0 once every item is freed. */
    budget_charge_t charge;

    /* Private to the pool (loop thread, but for the atomics). */
    atomic_int cancel;
    atomic_int started;
    atomic_uint_fast64_t live_nodes; /* ctl.progress: advanced by the searches */
    size_t merged;                   /* items merged so far */
    uint64_t turns;                  /* background items started (turn taking) */
    search_ctl_t ctl;
    search_allocator_t alloc; /* charges `charge`; ctl.alloc points here */
    uint64_t served;          /* when an item of it last started (the pool's clock) */
    pool_t *pool;
    size_t next_item;
    unsigned again; /* slots whose item is between turns (API_JOB_AGAIN) */
    unsigned running;
    int stopping;
    pool_slot_t *slots;
    pool_task_t *pending_next; /* guarded by the pool's lock until drained */
    pool_task_t *prev, *next;
};

/* Starts the loop thread.  From cfg: `threads` sizes libuv's work pool (it
 * reads UV_THREADPOOL_SIZE once per process, so the first pool in a process
 * fixes it), `background_threads` is the most of them background items may
 * hold, at most threads + max_queue foreground tasks are admitted at once,
 * and `max_request_memory` is each task's share of `work` (the budget every
 * search's arena is charged to; not owned, it must outlive the pool).
 * Returns 0, or a negative errno-style code. */
int pool_new(pool_t **out, const config_t *cfg, metrics_t *metrics, budget_t *work);

/* The work budget the pool charges. */
budget_t *pool_budget(pool_t *p);

/* Reserves room for one task that a client waits for; any thread.  Returns
 * 0, or -1 when the pool is full (the caller answers 503).  Each successful
 * admit is followed by exactly one pool_submit() or pool_release(). */
int pool_admit(pool_t *p);
void pool_release(pool_t *p);

/* Admits a background task whatever the queue: it counts as in flight
 * (shutdown waits for it) but never against --max-queue; the caller bounds
 * how many it starts.  Any thread; always succeeds.  Each is followed by
 * exactly one pool_submit() (with task->background set), or
 * pool_release_background(). */
void pool_admit_background(pool_t *p);
void pool_release_background(pool_t *p);

/* Background item slots free now: the --background-threads share less the
 * background items running, and never more than the idle workers.  Loop
 * thread only (the cluster's fill asks before it takes items). */
long pool_background_idle(pool_t *p);

/* Hands an admitted task to the loop thread; any thread.  Returns 0, or -1
 * when out of memory (the admission is released and done() never called). */
int pool_submit(pool_t *p, pool_task_t *task);

/* How often the loop thread looks at every task: its client's socket (a
 * hang-up cancels it) and whether a held job (api_job_ops_t.hold) may go
 * on. */
#define POOL_WATCH_MS 100

/* The loop thread ticks every POOL_TICK_MS; from now on each tick calls
 * fn(arg) there (NULL: none).  Any thread. */
#define POOL_TICK_MS 50
void pool_on_tick(pool_t *p, void (*fn)(void *arg), void *arg);

/* Called once on the loop thread when pool_free() stops the loop, before its
 * own handles close: whoever put handles on the loop (pool_loop()) closes
 * them there, or the loop would never end.  Set before the pool runs
 * anything that uses the loop; any thread. */
void pool_on_stop(pool_t *p, void (*fn)(void *arg), void *arg);

/* The loop itself, for handles that must run on the loop thread (the
 * cluster's Redis subscription).  Loop thread only, and only through
 * pool_on_tick() / pool_on_stop() callbacks. */
struct uv_loop_s *pool_loop(pool_t *p);

/* Stops watching task's socket (task->watch_fd = -1), under the pool's
 * lock: once it returns the loop thread will not peek at the socket again,
 * so its owner may close it.  For a task whose client left while the task
 * still runs (a progressive answer: libmicrohttpd closes such a connection
 * after on_completed, whereas a waiting request's connection stays
 * suspended, hence open, until done()).  Any thread. */
void pool_unwatch(pool_t *p, pool_task_t *task);

/* Raises the cancel flag of every task in the pool; any thread. */
void pool_cancel_all(pool_t *p);

/* Tasks admitted and not finished (foreground and background); any thread. */
long pool_inflight(pool_t *p);

/* Stops the loop thread and frees the pool.  Call only when
 * pool_inflight() == 0.  NULL-safe. */
void pool_free(pool_t *p);

#endif
