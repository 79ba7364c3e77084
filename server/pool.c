/* pool.c -- jobs from any thread, run on libuv's thread pool.
 *
 *   MHD thread                      loop thread                  workers
 *   ----------                      -----------                  -------
 *   pool_admit()  (atomic CAS)
 *   pool_submit() -> pending list -> async_cb: drain the whole
 *                  + uv_async_send    list, schedule each task
 *                                   schedule: uv_queue_work for  work_cb:
 *                                   up to job->threads items  -> job->run(item)
 *                                   after_cb: job->merge(item),
 *                                   schedule the next item or,
 *                                   when none run, done(task)
 *
 * uv_async_send is the only libuv call made off the loop thread; it may
 * coalesce wake-ups, so async_cb always drains the whole pending list.
 *
 * Fairness: a job never has more than job->threads items in libuv's FIFO
 * queue, and queues its next item only when one finishes.  A long count cut
 * into many subproblems therefore interleaves with other requests instead of
 * filling the queue ahead of them.
 *
 * Cancellation: each task has an atomic cancel flag in its search_ctl_t that
 * solvers poll.  It is raised by merge() (API_JOB_CANCEL), by
 * pool_cancel_all() (shutdown past the grace period) and by the watch timer,
 * which peeks at every running task's client socket every WATCH_MS: MHD does
 * not watch suspended connections, so without this a client that hangs up
 * would leave its search running until the deadline.
 *
 * Ownership and locking: the pending list is guarded by `lock`; the active
 * list, slots and task counters are touched only on the loop thread; the
 * admission counter is atomic.  Lock order: `lock` is a leaf (nothing else is
 * taken while holding it). */
#include "server/pool.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <uv.h>

#define WATCH_MS 100

struct pool_slot_s {
    uv_work_t work;
    pool_task_t *task;
    size_t item;
    int rc;
    int busy;
};

struct pool_s {
    uv_loop_t loop;
    uv_async_t wake;
    uv_timer_t watch;
    uv_thread_t thread;
    uv_mutex_t lock;
    pool_task_t *pending; /* guarded by lock; LIFO, reversed when drained */
    int stop;             /* guarded by lock */
    int cancel_all;       /* guarded by lock */
    pool_task_t *active;  /* loop thread only */
    uv_thread_t loop_tid; /* written by the loop thread before uv_run, read only there */
    atomic_long inflight;
    long limit;       /* constant */
    unsigned threads; /* constant */
    metrics_t *metrics;
    unsigned bg_inflight; /* background items queued or running; loop thread */
    uv_timer_t tick;
    void (*tick_fn)(void *); /* guarded by lock */
    void *tick_arg;          /* guarded by lock */
    void (*stop_fn)(void *); /* guarded by lock */
    void *stop_arg;          /* guarded by lock */
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
    pool_t *p = t->pool;
    int rc;

    if (!atomic_exchange(&t->started, 1))
        atomic_fetch_sub_explicit(&p->metrics->jobs_queued, 1, memory_order_relaxed);
    rc = search_check_now(&t->ctl, 0); /* cancelled or late before it began */
    if (rc == 0) rc = t->job->ops->run(t->job, slot->item, &t->ctl);
    slot->rc = rc;
}

/* === Loop side === */

static void pool_after_cb(uv_work_t *w, int status);

static void pool_finish(pool_task_t *t) {
    pool_t *p = t->pool;
    POOL_ASSERT_LOOP(p);
    assert(t->running == 0);
    if (t->prev)
        t->prev->next = t->next;
    else
        p->active = t->next;
    if (t->next) t->next->prev = t->prev;
    if (!atomic_exchange(&t->started, 1))
        atomic_fetch_sub_explicit(&p->metrics->jobs_queued, 1, memory_order_relaxed);
    free(t->slots);
    t->slots = NULL;
    atomic_fetch_sub(&p->inflight, 1);
    atomic_fetch_sub_explicit(&p->metrics->jobs_inflight, 1, memory_order_relaxed);
    t->done(t); /* may free t */
}

/* Queues the task's next item into a free slot of its window.  Returns 1
 * when queued, 0 when there is no free slot, nothing left to start, or the
 * queue failed (the task then stops with SEARCH_ENOMEM). */
static int pool_queue_one(pool_t *p, pool_task_t *t) {
    POOL_ASSERT_LOOP(p);
    if (t->stopping || t->next_item >= t->job->nitems) return 0;
    for (unsigned s = 0; s < t->job->threads; s++) {
        pool_slot_t *slot = &t->slots[s];
        if (slot->busy) continue;
        slot->busy = 1;
        slot->task = t;
        slot->item = t->next_item++;
        slot->rc = 0;
        slot->work.data = slot;
        if (uv_queue_work(&p->loop, &slot->work, pool_work_cb, pool_after_cb) != 0) {
            slot->busy = 0;
            t->stopping = 1;
            if (t->rc == 0) t->rc = SEARCH_ENOMEM;
            return 0;
        }
        t->running++;
        if (t->background) p->bg_inflight++;
        return 1;
    }
    return 0;
}

/* Finishes the task when nothing runs and nothing is left to start (a
 * background task waiting for its turn is not finished).  Returns 1 when it
 * finished: t is gone. */
static int pool_maybe_finish(pool_task_t *t) {
    if (t->running != 0 || (!t->stopping && t->next_item < t->job->nitems)) return 0;
    pool_finish(t);
    return 1;
}

/* Background tasks share --threads item slots, handed out one item at a
 * time to the task with the fewest items running (then the fewest turns so
 * far): three async counts interleave, and together they never keep more
 * than one item a worker in libuv's queue ahead of a request that waits. */
static void pool_fill_background(pool_t *p) {
    POOL_ASSERT_LOOP(p);
    while (p->bg_inflight < p->threads) {
        pool_task_t *best = NULL;
        for (pool_task_t *t = p->active; t != NULL; t = t->next)
            if (t->background && !t->stopping && t->next_item < t->job->nitems &&
                t->running < t->job->threads &&
                (best == NULL || t->running < best->running ||
                 (t->running == best->running && t->turns < best->turns)))
                best = t;
        if (best == NULL) return;
        if (!pool_queue_one(p, best)) {
            pool_maybe_finish(best); /* the queue failed: it stopped */
            continue;
        }
        best->turns++;
    }
}

/* Queues items while the task's window has room (background tasks take
 * their turns instead), or finishes it. */
static void pool_schedule(pool_task_t *t) {
    pool_t *p = t->pool;
    POOL_ASSERT_LOOP(p);
    if (t->background) {
        if (!pool_maybe_finish(t)) pool_fill_background(p);
        return;
    }
    while (pool_queue_one(p, t)) {
    }
    pool_maybe_finish(t);
}

static void pool_after_cb(uv_work_t *w, int status) {
    pool_slot_t *slot = w->data;
    pool_task_t *t = slot->task;
    int rc = status == UV_ECANCELED ? SEARCH_CANCELLED : slot->rc;
    int action;

    POOL_ASSERT_LOOP(t->pool);
    assert(slot->busy && t->running > 0);
    slot->busy = 0;
    t->running--;
    if (rc < 0) {
        if (t->rc == 0) t->rc = rc;
        t->stopping = 1;
    }
    action = t->job->ops->merge(t->job, slot->item, rc);
    t->merged++;
    if (action != API_JOB_CONTINUE) t->stopping = 1;
    if (action == API_JOB_CANCEL) atomic_store(&t->cancel, 1);
    if (t->progress) t->progress(t);
    if (t->background) {
        pool_t *p = t->pool;
        p->bg_inflight--;
        pool_maybe_finish(t); /* t may be gone */
        pool_fill_background(p);
        return;
    }
    pool_schedule(t); /* refills the window, or finishes the task */
}

static void pool_activate(pool_t *p, pool_task_t *t) {
    POOL_ASSERT_LOOP(p);
    t->prev = NULL;
    t->next = p->active;
    if (p->active) p->active->prev = t;
    p->active = t;
    pool_schedule(t);
}

static void pool_cancel_active(pool_t *p) {
    POOL_ASSERT_LOOP(p);
    for (pool_task_t *t = p->active; t != NULL; t = t->next)
        atomic_store(&t->cancel, 1);
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
    while (rev) {
        pool_task_t *next = rev->pending_next;
        pool_activate(p, rev);
        rev = next;
    }
    if (cancel_all) pool_cancel_active(p);
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

static void pool_watch_cb(uv_timer_t *h) {
    pool_t *p = h->data;
    POOL_ASSERT_LOOP(p);
    for (pool_task_t *t = p->active; t != NULL; t = t->next) {
        if (t->watch_fd < 0 || t->client_gone) continue;
        if (pool_peer_gone(t->watch_fd)) {
            t->client_gone = 1;
            atomic_store(&t->cancel, 1);
        }
    }
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
}

static void pool_thread(void *arg) {
    pool_t *p = arg;
    p->loop_tid = uv_thread_self();
    uv_run(&p->loop, UV_RUN_DEFAULT);
}

/* === Public === */

int pool_new(pool_t **out, unsigned threads, unsigned max_queue, metrics_t *metrics) {
    char size[16];
    int rc;
    pool_t *p = calloc(1, sizeof *p);
    if (p == NULL) return -ENOMEM;
    p->threads = threads;
    p->limit = (long)threads + (long)max_queue;
    p->metrics = metrics;
    snprintf(size, sizeof size, "%u", threads);
    setenv("UV_THREADPOOL_SIZE", size, 1); /* read by libuv at its first queued work */
    if ((rc = uv_loop_init(&p->loop)) != 0) goto fail_loop;
    if ((rc = uv_mutex_init(&p->lock)) != 0) goto fail_mutex;
    if ((rc = uv_async_init(&p->loop, &p->wake, pool_async_cb)) != 0) goto fail_handles;
    p->wake.data = p;
    if ((rc = uv_timer_init(&p->loop, &p->watch)) != 0) goto fail_timer;
    p->watch.data = p;
    if ((rc = uv_timer_start(&p->watch, pool_watch_cb, WATCH_MS, WATCH_MS)) != 0) goto fail_timer;
    if ((rc = uv_timer_init(&p->loop, &p->tick)) != 0) goto fail_timer;
    p->tick.data = p;
    if ((rc = uv_timer_start(&p->tick, pool_tick_cb, POOL_TICK_MS, POOL_TICK_MS)) != 0)
        goto fail_tick;
    if ((rc = uv_thread_create(&p->thread, pool_thread, p)) != 0) goto fail_tick;
    *out = p;
    return 0;

fail_tick:
    uv_close((uv_handle_t *)&p->tick, NULL);
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

int pool_admit(pool_t *p) {
    long cur = atomic_load(&p->inflight);
    do {
        if (cur >= p->limit) {
            atomic_fetch_add_explicit(&p->metrics->jobs_rejected, 1, memory_order_relaxed);
            return -1;
        }
    } while (!atomic_compare_exchange_weak(&p->inflight, &cur, cur + 1));
    atomic_fetch_add_explicit(&p->metrics->jobs_inflight, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->metrics->jobs_queued, 1, memory_order_relaxed);
    return 0;
}

void pool_admit_background(pool_t *p) {
    atomic_fetch_add(&p->inflight, 1);
    atomic_fetch_add_explicit(&p->metrics->jobs_inflight, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->metrics->jobs_queued, 1, memory_order_relaxed);
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

void pool_release(pool_t *p) {
    atomic_fetch_sub(&p->inflight, 1);
    atomic_fetch_sub_explicit(&p->metrics->jobs_inflight, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&p->metrics->jobs_queued, 1, memory_order_relaxed);
}

int pool_submit(pool_t *p, pool_task_t *t) {
    unsigned window = t->job->threads ? t->job->threads : 1;
    if (window > p->threads) window = p->threads;
    t->job->threads = window;
    t->slots = calloc(window, sizeof *t->slots);
    if (t->slots == NULL) {
        pool_release(p);
        return -1;
    }
    t->pool = p;
    t->rc = 0;
    t->client_gone = 0;
    t->next_item = 0;
    t->running = 0;
    t->stopping = 0;
    atomic_init(&t->cancel, 0);
    atomic_init(&t->started, 0);
    atomic_init(&t->live_nodes, 0);
    t->merged = 0;
    t->turns = 0;
    t->ctl.cancel = &t->cancel;
    t->ctl.progress = &t->live_nodes;
    t->ctl.node_budget = 0;
    t->ctl.deadline_ns = search_now_ns() + t->job->timeout_ms * 1000000;
    uv_mutex_lock(&p->lock);
    t->pending_next = p->pending;
    p->pending = t;
    uv_mutex_unlock(&p->lock);
    uv_async_send(&p->wake);
    return 0;
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
