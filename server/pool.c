/* pool.c -- tasks from any thread, their items run on libuv's worker
 * threads, in an order this file decides.
 *
 *   MHD / any thread                loop thread                  workers
 *   ----------------                -----------                  -------
 *   pool_admit()  (atomic CAS)
 *   pool_submit() -> pending list -> async_cb: drain the whole
 *                  + uv_async_send    list onto `active`
 *                                   fill: while a worker is idle,
 *                                   pick the next item, queue it -> work_cb:
 *                                   (uv_queue_work)                 job->run(item)
 *                                   after_cb: job->merge(item),
 *                                   fill again; a task with
 *                                   nothing running or left is
 *                                   finished: done(task)
 *
 * uv_async_send is the only libuv call made off the loop thread; it may
 * coalesce wake-ups, so async_cb always drains the whole pending list.
 *
 * Scheduling.  libuv's queue is a FIFO shared by every caller, so the pool
 * never gives it more items than there are idle workers: items wait in the
 * pool's own list, where the order is ours.  When a worker is free, the
 * next item comes from
 *   1. a foreground task (a request whose client waits): the one with the
 *      fewest items running, then the one served longest ago, so a small
 *      request that arrives behind a count cut into thousands of items gets
 *      the next worker that frees, not the end of the count;
 *   2. else a background task (async jobs, cluster items, long work the api
 *      marks so: generation), the same way (a task whose client waits
 *      before an async job among equals), but only while background items
 *      hold fewer than --background-threads workers (default: all but one
 *      when there are two or more).  The rest of the workers are kept for
 *      requests that wait, whatever the background load.
 * A task never has more than job->threads items running (its window).
 *
 * Turns.  A background item may be long (a generate for a rare level runs
 * to its deadline), and a worker does not preempt it: so background tasks
 * of jobs that take turns (job->turns, set by prepare: the generators) get
 * job->turn_ns = POOL_TURN_NS, and their run() ends an unfinished item
 * after that much work with API_JOB_AGAIN, its state in its own slot
 * (from any other job a 1 is that job's own business: an N-Queens
 * completion answers 1 for "no solution").  The pool then keeps the item
 * in its worker slot (`again`, not merged) and picks the next item by the
 * order above, so a small background request waits at most one turn
 * behind a long one; the slot's item goes on when its task is picked
 * again (before the task's new items).  Deadlines and cancels end a task
 * with items between turns as they end one with items waiting.
 *
 * Waiting is bounded too.  A task that waits for a worker is stopped when
 * its deadline passes (a one-shot timer armed for the earliest deadline
 * among waiting tasks): with nothing run yet it ends `waited_out` (its
 * caller answers 503, the server was too busy), else with SEARCH_TIMEOUT
 * and what its items found.  A task whose client hung up (the watch timer
 * peeks at the socket of every task, waiting or running, every WATCH_MS:
 * MHD does not watch suspended connections), or whose cancel flag was
 * raised, ends at once if nothing of it runs; running items see the flag
 * at their next poll.
 *
 * Memory: every task gets an allocator (ctl.alloc) charging the work
 * budget, at most --max-request-memory of it per task (server/budget.h);
 * solvers allocate their arenas through it.  When the pool falls idle after
 * work, the tick gives freed heap back to the system (malloc_trim), so an
 * idle server returns to its idle size.
 *
 * Ownership and locking: the pending list, stop flags, callbacks and the
 * tasks' watch_fd are guarded by `lock`; the active list, slots, item
 * counts and timers are touched only on the loop thread (asserted); the
 * admission counters are atomic.  Lock order: `lock` is a leaf (nothing else is taken while
 * holding it). */
#include "server/pool.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <uv.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define WATCH_MS     POOL_WATCH_MS
#define TRIM_IDLE_MS 1000 /* idle this long after work: give freed heap back */

struct pool_slot_s {
    uv_work_t work;
    pool_task_t *task;
    size_t item;
    int rc;
    int busy;
    int again; /* not busy: its item's run() ended a turn (API_JOB_AGAIN) and goes on when
                  the slot next starts */
};

struct pool_s {
    uv_loop_t loop;
    uv_async_t wake;
    uv_timer_t watch;
    uv_timer_t deadline; /* armed for the earliest deadline of a waiting task */
    uv_timer_t tick;
    uv_thread_t thread;
    uv_mutex_t lock;
    pool_task_t *pending; /* guarded by lock; LIFO, reversed when drained */
    int stop;             /* guarded by lock */
    int cancel_all;       /* guarded by lock */
    pool_task_t *active;  /* loop thread only */
    uv_thread_t loop_tid; /* written by the loop thread before uv_run, read only there */
    atomic_long inflight; /* tasks admitted and not finished */
    atomic_long waiting;  /* ... of them admitted by pool_admit() (--max-queue counts these) */
    atomic_long bg_tasks; /* background tasks submitted and not finished */
    long limit;           /* constant: threads + max_queue */
    unsigned threads;     /* constant */
    unsigned bg_max;      /* constant: --background-threads */
    size_t share;         /* constant: --max-request-memory */
    budget_t *work;       /* constant (the budget itself is atomic) */
    metrics_t *metrics;
    /* Loop thread only. */
    unsigned fg_items, bg_items; /* items on the workers */
    uint64_t clock;              /* items started so far: `served` stamps */
    int64_t armed_ns;            /* when the deadline timer fires; 0 = not armed */
    uint64_t finished;           /* tasks finished so far */
    uint64_t trimmed_at;         /* `finished` at the last trim */
    int64_t idle_since_ns;       /* when the pool last fell idle; 0 = busy */
    void (*tick_fn)(void *);     /* guarded by lock */
    void *tick_arg;              /* guarded by lock */
    void (*stop_fn)(void *);     /* guarded by lock */
    void *stop_arg;              /* guarded by lock */
};

/* "Loop thread only" functions check that they run there (asserts stay on in
 * the shipped build, like the solvers'). */
static int pool_on_loop(const pool_t *p) {
    uv_thread_t self = uv_thread_self();
    return uv_thread_equal(&self, &p->loop_tid);
}
#define POOL_ASSERT_LOOP(p) assert(pool_on_loop(p))

/* === Worker side === */

static void pool_work_cb(uv_work_t *w) {
    pool_slot_t *slot = w->data;
    pool_task_t *t = slot->task;
    int rc = search_check_now(&t->ctl, 0); /* cancelled or late before it began */
    if (rc == 0) rc = t->job->ops->run(t->job, slot->item, &t->ctl);
    slot->rc = rc;
}

/* === Loop side === */

static void pool_after_cb(uv_work_t *w, int status);
static void pool_fill(pool_t *p);

static void pool_gauges(pool_t *p) {
    atomic_store_explicit(&p->metrics->workers_busy[0], p->fg_items, memory_order_relaxed);
    atomic_store_explicit(&p->metrics->workers_busy[1], p->bg_items, memory_order_relaxed);
}

/* The task left the queue: its first item started, or it ended without one. */
static void pool_mark_started(pool_task_t *t) {
    if (!atomic_exchange(&t->started, 1))
        atomic_fetch_sub_explicit(&t->pool->metrics->jobs_queued, 1, memory_order_relaxed);
}

static void pool_finish(pool_task_t *t) {
    pool_t *p = t->pool;
    POOL_ASSERT_LOOP(p);
    assert(t->running == 0);
    if (t->prev)
        t->prev->next = t->next;
    else
        p->active = t->next;
    if (t->next) t->next->prev = t->prev;
    if (t->background) atomic_fetch_sub(&p->bg_tasks, 1);
    pool_mark_started(t);
    free(t->slots);
    t->slots = NULL;
    p->finished++;
    if (t->waits) atomic_fetch_sub(&p->waiting, 1);
    atomic_fetch_sub_explicit(&p->metrics->jobs_inflight, 1, memory_order_relaxed);
    t->done(t); /* may free t */
    /* After done(): a task counts until its owner has its answer (done()
     * resumes the connection), so main's shutdown never stops the HTTP
     * daemon between this count reaching 0 and that resume. */
    atomic_fetch_sub(&p->inflight, 1);
}

/* Stops a task that has nothing running: it ends now with `rc` (kept if it
 * already has one).  t is gone afterwards. */
static void pool_end_waiting(pool_task_t *t, int rc) {
    assert(t->running == 0);
    t->stopping = 1;
    if (t->rc == 0) t->rc = rc;
    pool_finish(t);
}

/* Starts the task's next item in a free slot of its window: 1, or 0 when
 * libuv refused it (the task then stops with SEARCH_ENOMEM). */
static int pool_start_item(pool_t *p, pool_task_t *t) {
    POOL_ASSERT_LOOP(p);
    unsigned pick = t->job->threads;
    for (unsigned s = 0; s < t->job->threads; s++) {
        pool_slot_t *slot = &t->slots[s];
        if (slot->busy || (pick < t->job->threads && !slot->again)) continue;
        pick = s;
        if (slot->again) break; /* an item in turns first: it started earlier */
    }
    if (pick < t->job->threads) {
        pool_slot_t *slot = &t->slots[pick];
        slot->busy = 1;
        slot->task = t;
        if (slot->again) {
            slot->again = 0;
            t->again--;
        } else {
            slot->item = t->next_item++;
        }
        slot->rc = 0;
        slot->work.data = slot;
        if (uv_queue_work(&p->loop, &slot->work, pool_work_cb, pool_after_cb) != 0) {
            slot->busy = 0;
            t->stopping = 1;
            if (t->rc == 0) t->rc = SEARCH_ENOMEM;
            return 0;
        }
        pool_mark_started(t);
        t->running++;
        t->served = ++p->clock;
        if (t->background) {
            p->bg_items++;
            t->turns++;
        } else {
            p->fg_items++;
        }
        return 1;
    }
    assert(!"a task picked without a free slot");
    return 0;
}

/* Whether the task has an item to start now: one between turns, or a new
 * one unless the job holds (its reader is behind: api_job_ops_t.hold). */
static int pool_runnable(const pool_task_t *t) {
    api_job_t *job = t->job;
    int fresh = t->next_item < job->nitems && (job->ops->hold == NULL || !job->ops->hold(job));
    return !t->stopping && (fresh || t->again > 0) && t->running < job->threads &&
           !atomic_load_explicit(&t->cancel, memory_order_relaxed);
}

/* Whether a should get the next worker before b: fewer items running,
 * then one whose client waits (a generate before an async job), then the
 * one served longest ago. */
static int pool_before(const pool_task_t *a, const pool_task_t *b) {
    if (a->running != b->running) return a->running < b->running;
    if (a->waits != b->waits) return a->waits;
    return a->served < b->served;
}

/* The next task of a class to get a worker; NULL when none of that class
 * can start an item. */
static pool_task_t *pool_pick(pool_t *p, int background) {
    pool_task_t *best = NULL;
    for (pool_task_t *t = p->active; t != NULL; t = t->next)
        if (t->background == background && pool_runnable(t) &&
            (best == NULL || pool_before(t, best)))
            best = t;
    return best;
}

/* Ends the tasks that wait with nothing running and should not go on:
 * cancelled (their client hung up, a DELETE, shutdown), past their
 * deadline, or with nothing left to start.  Each ends once. */
static void pool_reap(pool_t *p) {
    int64_t now = search_now_ns();
    POOL_ASSERT_LOOP(p);
    for (pool_task_t *t = p->active, *next; t != NULL; t = next) {
        next = t->next;
        if (t->running != 0) continue;
        if (t->stopping || (t->next_item >= t->job->nitems && t->again == 0)) {
            pool_finish(t);
        } else if (atomic_load_explicit(&t->cancel, memory_order_relaxed)) {
            if (t->client_gone && t->merged == 0)
                atomic_fetch_add_explicit(&p->metrics->queue_abandoned, 1, memory_order_relaxed);
            pool_end_waiting(t, SEARCH_CANCELLED);
        } else if (t->ctl.deadline_ns != 0 && now >= t->ctl.deadline_ns) {
            if (t->merged == 0) {
                t->waited_out = 1;
                atomic_fetch_add_explicit(&p->metrics->queue_expired, 1, memory_order_relaxed);
            }
            pool_end_waiting(t, SEARCH_TIMEOUT);
        }
    }
}

static void pool_deadline_cb(uv_timer_t *h) {
    pool_t *p = h->data;
    POOL_ASSERT_LOOP(p);
    p->armed_ns = 0;
    pool_fill(p); /* reaps what is due, re-arms for the rest */
}

/* Arms the deadline timer for the earliest deadline among waiting tasks. */
static void pool_arm(pool_t *p) {
    int64_t first = 0, now;
    for (pool_task_t *t = p->active; t != NULL; t = t->next)
        if (t->running == 0 && t->ctl.deadline_ns != 0 &&
            (first == 0 || t->ctl.deadline_ns < first))
            first = t->ctl.deadline_ns;
    if (first == p->armed_ns) return;
    uv_timer_stop(&p->deadline);
    p->armed_ns = first;
    if (first == 0) return;
    now = search_now_ns();
    /* libuv counts whole milliseconds: round up, so that the task is due */
    uint64_t ms = first > now ? (uint64_t)((first - now + 999999) / 1000000) : 0;
    uv_timer_start(&p->deadline, pool_deadline_cb, ms, 0);
}

/* Ends what should end, gives idle workers their next items, re-arms. */
static void pool_fill(pool_t *p) {
    POOL_ASSERT_LOOP(p);
    pool_reap(p);
    while (p->fg_items + p->bg_items < p->threads) {
        pool_task_t *t = pool_pick(p, 0);
        if (t == NULL && p->bg_items < p->bg_max) t = pool_pick(p, 1);
        if (t == NULL) break;
        if (!pool_start_item(p, t) && t->running == 0) pool_finish(t);
    }
    pool_gauges(p);
    pool_arm(p);
    if (p->active == NULL && p->idle_since_ns == 0) p->idle_since_ns = search_now_ns();
    if (p->active != NULL) p->idle_since_ns = 0;
}

static void pool_after_cb(uv_work_t *w, int status) {
    pool_slot_t *slot = w->data;
    pool_task_t *t = slot->task;
    pool_t *p = t->pool;
    int rc = status == UV_ECANCELED ? SEARCH_CANCELLED : slot->rc;
    int action;

    POOL_ASSERT_LOOP(p);
    assert(slot->busy && t->running > 0);
    slot->busy = 0;
    t->running--;
    if (t->background)
        p->bg_items--;
    else
        p->fg_items--;
    if (rc == API_JOB_AGAIN && t->job->turns) { /* a turn ended: the item goes on when
                                                        the slot next starts */
        slot->again = 1;
        t->again++;
        pool_fill(p); /* the other tasks first, by pool_before()'s order */
        return;
    }
    if (rc < 0) {
        if (t->rc == 0) t->rc = rc;
        t->stopping = 1;
    }
    action = t->job->ops->merge(t->job, slot->item, rc);
    t->merged++;
    if (action != API_JOB_CONTINUE) t->stopping = 1;
    if (action == API_JOB_CANCEL) atomic_store(&t->cancel, 1);
    if (t->progress) t->progress(t);
    pool_fill(p); /* finishes t if it is done, and gives the worker its next item */
}

static void pool_async_cb(uv_async_t *h) {
    pool_t *p = h->data;
    pool_task_t *list, *rev = NULL;
    int stop, cancel_all;

    POOL_ASSERT_LOOP(p);
    uv_mutex_lock(&p->lock);
    list = p->pending;
    p->pending = NULL;
    stop = p->stop;
    cancel_all = p->cancel_all;
    uv_mutex_unlock(&p->lock);

    while (list) { /* restore submission order */
        pool_task_t *next = list->pending_next;
        list->pending_next = rev;
        rev = list;
        list = next;
    }
    while (rev) { /* appended, so that the oldest is served first among equals */
        pool_task_t *next = rev->pending_next, **pp = &p->active, *prev = NULL;
        while (*pp != NULL) {
            prev = *pp;
            pp = &(*pp)->next;
        }
        rev->prev = prev;
        rev->next = NULL;
        *pp = rev;
        rev = next;
    }
    if (cancel_all)
        for (pool_task_t *t = p->active; t != NULL; t = t->next)
            atomic_store(&t->cancel, 1);
    pool_fill(p);
    if (stop) {
        void (*fn)(void *);
        void *arg;
        uv_mutex_lock(&p->lock);
        fn = p->stop_fn;
        arg = p->stop_arg;
        p->stop_fn = NULL; /* once */
        uv_mutex_unlock(&p->lock);
        if (fn != NULL) fn(arg);
        uv_close((uv_handle_t *)&p->wake, NULL);
        uv_close((uv_handle_t *)&p->watch, NULL);
        uv_close((uv_handle_t *)&p->deadline, NULL);
        uv_close((uv_handle_t *)&p->tick, NULL);
    }
}

/* A peer that closed its socket reads as EOF (0) or an error; pipelined bytes
 * (a keep-alive client's next request) read as > 0 and are left in place. */
static int pool_peer_gone(int fd) {
    char c;
    ssize_t r = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    if (r == 0) return 1;
    return r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
}

/* Every task, waiting or running: a client that hung up cancels its task
 * (a waiting one ends in pool_fill's reap, a running one at its next poll). */
static void pool_watch_cb(uv_timer_t *h) {
    pool_t *p = h->data;
    int gone = 0;
    POOL_ASSERT_LOOP(p);
    uv_mutex_lock(&p->lock); /* watch_fd: see pool_unwatch() */
    for (pool_task_t *t = p->active; t != NULL; t = t->next) {
        if (t->watch_fd < 0 || t->client_gone) continue;
        if (pool_peer_gone(t->watch_fd)) {
            t->client_gone = 1;
            atomic_store(&t->cancel, 1);
            gone = 1;
        }
    }
    uv_mutex_unlock(&p->lock);
    if (gone || p->active != NULL) pool_fill(p); /* also ends tasks cancelled from outside */
}

/* Gives freed heap back to the system once the pool has been idle a while
 * after finishing work: glibc keeps freed memory in its arenas, and a
 * server that served a burst of big requests would otherwise stay at its
 * peak size. */
static void pool_trim(pool_t *p) {
#ifdef __GLIBC__
    if (p->active != NULL || p->idle_since_ns == 0 || p->finished == p->trimmed_at) return;
    if (search_now_ns() - p->idle_since_ns < (int64_t)TRIM_IDLE_MS * 1000000) return;
    p->trimmed_at = p->finished;
    malloc_trim(0);
#else
    (void)p;
#endif
}

static void pool_tick_cb(uv_timer_t *h) {
    pool_t *p = h->data;
    void (*fn)(void *);
    void *arg;
    POOL_ASSERT_LOOP(p);
    uv_mutex_lock(&p->lock);
    fn = p->tick_fn;
    arg = p->tick_arg;
    uv_mutex_unlock(&p->lock);
    if (fn != NULL) fn(arg);
    pool_trim(p);
}

static void pool_thread(void *arg) {
    pool_t *p = arg;
    p->loop_tid = uv_thread_self();
    uv_run(&p->loop, UV_RUN_DEFAULT);
}

/* === Public === */

int pool_new(pool_t **out, const config_t *cfg, metrics_t *metrics, budget_t *work) {
    char size[16];
    int rc;
    pool_t *p = calloc(1, sizeof *p);
    if (p == NULL) return -ENOMEM;
    p->threads = cfg->threads;
    p->bg_max = cfg->background_threads;
    if (p->bg_max == 0 || p->bg_max > p->threads) p->bg_max = p->threads;
    p->share = cfg->max_request_memory;
    p->work = work;
    p->limit = (long)cfg->threads + (long)cfg->max_queue;
    p->metrics = metrics;
    snprintf(size, sizeof size, "%u", cfg->threads);
    setenv("UV_THREADPOOL_SIZE", size, 1); /* read by libuv at its first queued work */
    if ((rc = uv_loop_init(&p->loop)) != 0) goto fail_loop;
    if ((rc = uv_mutex_init(&p->lock)) != 0) goto fail_mutex;
    if ((rc = uv_async_init(&p->loop, &p->wake, pool_async_cb)) != 0) goto fail_handles;
    p->wake.data = p;
    if ((rc = uv_timer_init(&p->loop, &p->watch)) != 0) goto fail_timer;
    p->watch.data = p;
    if ((rc = uv_timer_start(&p->watch, pool_watch_cb, WATCH_MS, WATCH_MS)) != 0) goto fail_timer;
    if ((rc = uv_timer_init(&p->loop, &p->deadline)) != 0) goto fail_timer;
    p->deadline.data = p;
    if ((rc = uv_timer_init(&p->loop, &p->tick)) != 0) goto fail_deadline;
    p->tick.data = p;
    if ((rc = uv_timer_start(&p->tick, pool_tick_cb, POOL_TICK_MS, POOL_TICK_MS)) != 0)
        goto fail_tick;
    if ((rc = uv_thread_create(&p->thread, pool_thread, p)) != 0) goto fail_tick;
    *out = p;
    return 0;

fail_tick:
    uv_close((uv_handle_t *)&p->tick, NULL);
fail_deadline:
    uv_close((uv_handle_t *)&p->deadline, NULL);
fail_timer:
    uv_close((uv_handle_t *)&p->watch, NULL);
    uv_close((uv_handle_t *)&p->wake, NULL);
    uv_run(&p->loop, UV_RUN_DEFAULT);
fail_handles:
    uv_mutex_destroy(&p->lock);
fail_mutex:
    uv_loop_close(&p->loop);
fail_loop:
    free(p);
    return rc;
}

budget_t *pool_budget(pool_t *p) { return p->work; }

static void pool_count_admit(pool_t *p) {
    atomic_fetch_add(&p->inflight, 1);
    atomic_fetch_add_explicit(&p->metrics->jobs_inflight, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->metrics->jobs_queued, 1, memory_order_relaxed);
}

static void pool_count_release(pool_t *p) {
    atomic_fetch_sub(&p->inflight, 1);
    atomic_fetch_sub_explicit(&p->metrics->jobs_inflight, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&p->metrics->jobs_queued, 1, memory_order_relaxed);
}

int pool_admit(pool_t *p) {
    long cur = atomic_load(&p->waiting);
    do {
        if (cur >= p->limit) {
            atomic_fetch_add_explicit(&p->metrics->jobs_rejected, 1, memory_order_relaxed);
            return -1;
        }
    } while (!atomic_compare_exchange_weak(&p->waiting, &cur, cur + 1));
    pool_count_admit(p);
    return 0;
}

void pool_release(pool_t *p) {
    atomic_fetch_sub(&p->waiting, 1);
    pool_count_release(p);
}

void pool_admit_background(pool_t *p) { pool_count_admit(p); }

void pool_release_background(pool_t *p) { pool_count_release(p); }

long pool_background_idle(pool_t *p) {
    POOL_ASSERT_LOOP(p);
    long share = (long)p->bg_max, idle = (long)p->threads - (long)p->fg_items;
    long tasks = atomic_load(&p->bg_tasks);
    if (idle < share) share = idle;
    return share > tasks ? share - tasks : 0;
}

void pool_on_tick(pool_t *p, void (*fn)(void *arg), void *arg) {
    uv_mutex_lock(&p->lock);
    p->tick_fn = fn;
    p->tick_arg = arg;
    uv_mutex_unlock(&p->lock);
}

void pool_on_stop(pool_t *p, void (*fn)(void *arg), void *arg) {
    uv_mutex_lock(&p->lock);
    p->stop_fn = fn;
    p->stop_arg = arg;
    uv_mutex_unlock(&p->lock);
}

struct uv_loop_s *pool_loop(pool_t *p) {
    POOL_ASSERT_LOOP(p);
    return &p->loop;
}

int pool_submit(pool_t *p, pool_task_t *t) {
    unsigned window = t->job->threads ? t->job->threads : 1;
    if (window > p->threads) window = p->threads;
    t->job->threads = window;
    t->slots = calloc(window, sizeof *t->slots);
    if (t->slots == NULL) {
        if (t->waits)
            pool_release(p);
        else
            pool_release_background(p);
        return -1;
    }
    t->pool = p;
    t->rc = 0;
    t->client_gone = 0;
    t->waited_out = 0;
    t->next_item = 0;
    t->again = 0;
    t->job->turn_ns = t->background && t->job->turns ? POOL_TURN_NS : 0;
    t->running = 0;
    t->stopping = 0;
    atomic_init(&t->cancel, 0);
    atomic_init(&t->started, 0);
    atomic_init(&t->live_nodes, 0);
    t->merged = 0;
    t->turns = 0;
    t->served = 0;
    budget_charge_init(&t->charge, p->work, p->share);
    budget_allocator_init(&t->alloc, &t->charge);
    t->ctl.cancel = &t->cancel;
    t->ctl.progress = &t->live_nodes;
    t->ctl.node_budget = 0;
    t->ctl.alloc = &t->alloc;
    t->ctl.deadline_ns = search_now_ns() + t->job->timeout_ms * 1000000;
    if (t->background) atomic_fetch_add(&p->bg_tasks, 1);
    uv_mutex_lock(&p->lock);
    t->pending_next = p->pending;
    p->pending = t;
    uv_mutex_unlock(&p->lock);
    uv_async_send(&p->wake);
    return 0;
}

void pool_unwatch(pool_t *p, pool_task_t *task) {
    uv_mutex_lock(&p->lock);
    task->watch_fd = -1;
    uv_mutex_unlock(&p->lock);
}

void pool_cancel_all(pool_t *p) {
    uv_mutex_lock(&p->lock);
    p->cancel_all = 1;
    uv_mutex_unlock(&p->lock);
    uv_async_send(&p->wake);
}

long pool_inflight(pool_t *p) { return atomic_load(&p->inflight); }

void pool_free(pool_t *p) {
    if (p == NULL) return;
    uv_mutex_lock(&p->lock);
    p->stop = 1;
    uv_mutex_unlock(&p->lock);
    uv_async_send(&p->wake);
    uv_thread_join(&p->thread);
    uv_loop_close(&p->loop);
    uv_mutex_destroy(&p->lock);
    free(p);
}
