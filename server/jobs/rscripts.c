/* rscripts.c -- the cluster's Lua scripts, and the key layout they share.
 *
 * Keys (P = --redis-prefix, "puzzled:" by default):
 *
 *   P seq                 INCR counter: a job's seq (creation order, cursors)
 *   P jobs                ZSET id -> seq: every record
 *   P live                ZSET id -> seq: records not ended (the sweeper's list)
 *   P ended               ZSET "<st>:<id>" -> finished ms: eviction and expiry
 *                         order; the member carries the status so that the
 *                         counts can be kept after the record itself expired
 *   P active              ZSET id -> seq: split jobs with work items to take
 *   P list:<token>        ZSET id -> seq: the records made with that job-list
 *                         token (GET /v1/jobs lists one token's jobs)
 *   P counts              HASH status number -> records (the metrics gauge)
 *   P job:<id>            HASH the record (fields below)
 *   P job:<id>:result     STRING the answer, once the job ended
 *   P job:<id>:req        HASH the request, for replicas that rebuild the job:
 *                         m, path, q (key NUL value NUL ...), ct, acc, body,
 *                         thr, tmo, lines (the creator's limits)
 *   P job:<id>:items      STREAM of work: an entry holds items a to b - 1 (at
 *                         most 4096 entries per job, so that a count cut into
 *                         45,129 items costs Redis 4,096 entries); a = -1 is
 *                         "merge the results"; consumer group "w"
 *   P job:<id>:res        HASH item index -> the item's encoded result
 *   P replica:<name>      STRING, expires 5 s after the replica's last beat
 *   channel P events      "p <id>" progress, "d <id>" ended, "c <id>" cancel
 *                         requested, "w <id>" work items published
 *
 * Record fields: seq, st (job_status_t as a digit), m, path, cr, sa, fi
 * (created, started, finished: Unix ms), unit, done, total, nodes, el, eta,
 * rs, rt (result status and type), own (the replica running a job that is
 * not split), dist ("1": split into items), ni, nd (its items, and those
 * merged: done/total are progress units), cx ("1": cancel requested), tmo
 * (the job's deadline in ms from its start), lev (last progress event, ms),
 * lt (the job-list token it was made with),
 * r:<replica> (items that replica merged), rec (items reclaimed), dup (items
 * that arrived twice and were merged once).
 *
 * Every key of a record has a TTL: while the job lives, its deadline plus
 * --job-ttl-s (a record whose replicas all vanished still goes); once it
 * ended, --job-ttl-s from its end, as in the embedded store. */
#include "server/jobs/rscripts.h"

/* Shared by the scripts that delete records: drop("<st>:<id>"). */
#define RS_DROP                                                                                    \
    "local function drop(m)\n"                                                                     \
    "  local st, jid = string.match(m, '^(%d):(.*)$')\n"                                           \
    "  local k = P..'job:'..jid\n"                                                                 \
    "  local lt = redis.call('HGET', k, 'lt')\n"                                                   \
    "  if lt then redis.call('ZREM', P..'list:'..lt, jid) end\n"                                   \
    "  redis.call('DEL', k, k..':result', k..':req', k..':items', k..':res')\n"                    \
    "  redis.call('ZREM', P..'jobs', jid)\n"                                                       \
    "  redis.call('ZREM', P..'live', jid)\n"                                                       \
    "  redis.call('ZREM', P..'active', jid)\n"                                                     \
    "  redis.call('ZREM', P..'ended', m)\n"                                                        \
    "  redis.call('HINCRBY', P..'counts', st, -1)\n"                                               \
    "end\n"

/* Status change bookkeeping: counts by status. */
#define RS_RECOUNT                                                                                 \
    "local function recount(old, new)\n"                                                           \
    "  if old ~= new then\n"                                                                       \
    "    redis.call('HINCRBY', P..'counts', old, -1)\n"                                            \
    "    redis.call('HINCRBY', P..'counts', new, 1)\n"                                             \
    "  end\n"                                                                                      \
    "end\n"

const char *const rscripts_src[RSCRIPT_COUNT_] = {
    /* ADD: P id max cutoff pttl nitems per nreq [req pairs] [record pairs]
     * -> seq, or -2 when full of records that have not ended.  Ended records
     * past the cutoff go first; then, at --max-jobs, the oldest ended one.
     * With nitems > 0, the items go out in entries of `per`. */
    [RSCRIPT_ADD] = "local P, id = ARGV[1], ARGV[2]\n"
                    "local max, cutoff, pttl = tonumber(ARGV[3]), ARGV[4], ARGV[5]\n"
                    "local nitems, per, nreq = tonumber(ARGV[6]), tonumber(ARGV[7]), "
                    "tonumber(ARGV[8])\n" RS_DROP
                    "for _, m in ipairs(redis.call('ZRANGEBYSCORE', P..'ended', '-inf', "
                    "'('..cutoff)) do drop(m) end\n"
                    "if redis.call('ZCARD', P..'jobs') >= max then\n"
                    "  local o = redis.call('ZRANGE', P..'ended', 0, 0)\n"
                    "  if #o == 0 then return -2 end\n"
                    "  drop(o[1])\n"
                    "end\n"
                    "local seq = redis.call('INCR', P..'seq')\n"
                    "local k = P..'job:'..id\n"
                    "redis.call('HSET', k, 'seq', seq, unpack(ARGV, 9 + 2 * nreq))\n"
                    "redis.call('PEXPIRE', k, pttl)\n"
                    "redis.call('ZADD', P..'jobs', seq, id)\n"
                    "redis.call('ZADD', P..'live', seq, id)\n"
                    "local lt = redis.call('HGET', k, 'lt')\n"
                    "if lt then\n"
                    "  redis.call('ZADD', P..'list:'..lt, seq, id)\n"
                    "  redis.call('PEXPIRE', P..'list:'..lt, pttl)\n"
                    "end\n"
                    "redis.call('HINCRBY', P..'counts', redis.call('HGET', k, 'st'), 1)\n"
                    "if nitems > 0 then\n"
                    "  redis.call('HSET', k..':req', unpack(ARGV, 9, 8 + 2 * nreq))\n"
                    "  redis.call('PEXPIRE', k..':req', pttl)\n"
                    "  local items = k..':items'\n"
                    "  redis.call('XGROUP', 'CREATE', items, 'w', '$', 'MKSTREAM')\n"
                    "  for a = 0, nitems - 1, per do\n"
                    "    redis.call('XADD', items, '*', 'a', a, 'b', math.min(a + per, nitems))\n"
                    "  end\n"
                    "  redis.call('PEXPIRE', items, pttl)\n"
                    "  redis.call('ZADD', P..'active', seq, id)\n"
                    "  redis.call('PUBLISH', P..'events', 'w '..id)\n"
                    "end\n"
                    "return seq\n",

    /* PUT: P id [record pairs] -> -1 gone, 2 already ended (ignored), 1 done
     * and a cancel is requested, 0 done. */
    [RSCRIPT_PUT] = "local P, id = ARGV[1], ARGV[2]\n" RS_RECOUNT "local k = P..'job:'..id\n"
                    "local old = redis.call('HGET', k, 'st')\n"
                    "if not old then return -1 end\n"
                    "if tonumber(old) >= 2 then return 2 end\n"
                    "redis.call('HSET', k, unpack(ARGV, 3))\n"
                    "recount(old, redis.call('HGET', k, 'st'))\n"
                    "redis.call('PUBLISH', P..'events', 'p '..id)\n"
                    "if redis.call('HGET', k, 'cx') == '1' then return 1 end\n"
                    "return 0\n",

    /* END: P id ttl result hasresult [record pairs, st among them] -> -1
     * gone, 0 ended before (nothing changes), 1 ended now.  The work items
     * and their results go; the record and its result live --job-ttl-s. */
    [RSCRIPT_END] =
        "local P, id, ttl = ARGV[1], ARGV[2], ARGV[3]\n" RS_RECOUNT "local k = P..'job:'..id\n"
        "local old = redis.call('HGET', k, 'st')\n"
        "if not old then return -1 end\n"
        "if tonumber(old) >= 2 then return 0 end\n"
        "redis.call('HSET', k, unpack(ARGV, 6))\n"
        "local new = redis.call('HGET', k, 'st')\n"
        "recount(old, new)\n"
        "if ARGV[5] == '1' then redis.call('SET', k..':result', ARGV[4], 'PX', ttl) end\n"
        "redis.call('DEL', k..':items', k..':res', k..':req')\n"
        "redis.call('PEXPIRE', k, ttl)\n"
        "redis.call('ZREM', P..'live', id)\n"
        "redis.call('ZREM', P..'active', id)\n"
        "redis.call('ZADD', P..'ended', redis.call('HGET', k, 'fi'), new..':'..id)\n"
        "if new == '4' then redis.call('PUBLISH', P..'events', 'c '..id) end\n"
        "redis.call('PUBLISH', P..'events', 'd '..id)\n"
        "return 1\n",

    /* REMOVE: P id -> -1 gone, 1 removed. */
    [RSCRIPT_REMOVE] = "local P, id = ARGV[1], ARGV[2]\n" RS_DROP
                       "local st = redis.call('HGET', P..'job:'..id, 'st')\n"
                       "if not st then return -1 end\n"
                       "drop(st..':'..id)\n"
                       "return 1\n",

    /* EXPIRE: P cutoff -> how many ended records were dropped. */
    [RSCRIPT_EXPIRE] = "local P, cutoff = ARGV[1], ARGV[2]\n" RS_DROP
                       "local old = redis.call('ZRANGEBYSCORE', P..'ended', '-inf', '('..cutoff)\n"
                       "for _, m in ipairs(old) do drop(m) end\n"
                       "return #old\n",

    /* TOUCH: P id now -> nil when gone, else {st, sa, tmo, cx, total, req
     * pairs...}; a queued split job starts running here. */
    [RSCRIPT_TOUCH] =
        "local P, id, now = ARGV[1], ARGV[2], ARGV[3]\n" RS_RECOUNT "local k = P..'job:'..id\n"
        "local st = redis.call('HGET', k, 'st')\n"
        "if not st then return false end\n"
        "if st == '0' then\n"
        "  redis.call('HSET', k, 'st', '1', 'sa', now)\n"
        "  recount('0', '1')\n"
        "  redis.call('PUBLISH', P..'events', 'p '..id)\n"
        "end\n"
        "local out = redis.call('HMGET', k, 'st', 'sa', 'tmo', 'cx', 'total')\n"
        "for _, v in ipairs(redis.call('HGETALL', k..':req')) do\n"
        "  table.insert(out, v)\n"
        "end\n"
        "return out\n",

    /* COMMIT: P id entry replica now n [item bytes nodes units] x n ->
     * {merged, duplicates, items done, items}, or {-1, ...} gone, {-2, ...}
     * the job ended.  Each item's result goes in with HSETNX: one that is in
     * already (its entry ran twice: a replica thought dead was not) counts
     * once, and only as a duplicate.  nd/ni count items (the set is complete
     * at nd = ni); done/total are the job's progress units (subproblems,
     * lines).  The entry is acknowledged and deleted in every case; the
     * commit that completes the set queues the merge entry (a = -1), which a
     * replica then takes like any other (so a replica that dies while
     * merging leaves it to the next). */
    [RSCRIPT_COMMIT] =
        "local P, id, entry, replica = ARGV[1], ARGV[2], ARGV[3], ARGV[4]\n"
        "local now, n = tonumber(ARGV[5]), tonumber(ARGV[6])\n"
        "local k = P..'job:'..id\n"
        "local items = k..':items'\n"
        "local st = redis.call('HGET', k, 'st')\n"
        "if not st then return {-1, 0, 0, 0} end\n"
        "redis.call('XACK', items, 'w', entry)\n"
        "redis.call('XDEL', items, entry)\n"
        "if tonumber(st) >= 2 then return {-2, 0, 0, 0} end\n"
        "local res = k..':res'\n"
        "local new, dups, nodes, units = 0, 0, 0, 0\n"
        "for j = 0, n - 1 do\n"
        "  if redis.call('HSETNX', res, ARGV[7 + 4 * j], ARGV[8 + 4 * j]) == 1 then\n"
        "    new = new + 1\n"
        "    nodes = nodes + tonumber(ARGV[9 + 4 * j])\n"
        "    units = units + tonumber(ARGV[10 + 4 * j])\n"
        "  else\n"
        "    dups = dups + 1\n"
        "  end\n"
        "end\n"
        "local nd\n"
        "if new > 0 then\n"
        "  nd = redis.call('HINCRBY', k, 'nd', new)\n"
        "  redis.call('HINCRBY', k, 'done', units)\n"
        "  redis.call('HINCRBY', k, 'nodes', nodes)\n"
        "  redis.call('HINCRBY', k, 'r:'..replica, new)\n"
        "  redis.call('PEXPIRE', res, redis.call('PTTL', k))\n"
        "else\n"
        "  nd = tonumber(redis.call('HGET', k, 'nd'))\n"
        "end\n"
        "if dups > 0 then redis.call('HINCRBY', k, 'dup', dups) end\n"
        "local ni = tonumber(redis.call('HGET', k, 'ni'))\n"
        "local el = now - (tonumber(redis.call('HGET', k, 'sa')) or now)\n"
        "local f, eta = nd / ni, -1\n"
        "if f >= 1 then eta = 0 elseif f >= 0.03 then eta = math.floor(el * (1 - f) / f) end\n"
        "redis.call('HSET', k, 'el', el, 'eta', eta)\n"
        "if new > 0 and nd == ni then redis.call('XADD', items, '*', 'a', -1, 'b', 0) end\n"
        "local lev = tonumber(redis.call('HGET', k, 'lev')) or 0\n"
        "if now - lev >= 250 or nd == ni then\n"
        "  redis.call('HSET', k, 'lev', now)\n"
        "  redis.call('PUBLISH', P..'events', 'p '..id)\n"
        "end\n"
        "return {new, dups, nd, ni}\n",

    /* RECLAIM: P id replica claim_ms count -> the entries taken over
     * ([[entry, [field, value...]], ...]), counted in the record's rec. */
    [RSCRIPT_RECLAIM] = "local P, id = ARGV[1], ARGV[2]\n"
                        "local k = P..'job:'..id\n"
                        "if redis.call('EXISTS', k..':items') == 0 then return {} end\n"
                        "local r = redis.call('XAUTOCLAIM', k..':items', 'w', ARGV[3], ARGV[4], "
                        "'0-0', 'COUNT', ARGV[5])\n"
                        "if #r[2] > 0 then redis.call('HINCRBY', k, 'rec', #r[2]) end\n"
                        "return r[2]\n",

    /* REQUEUE: P id entry a b -> 1 when the entry's items went back to the
     * end of the job's list (a new entry), 0 when the job no longer runs. */
    [RSCRIPT_REQUEUE] = "local P, id, entry = ARGV[1], ARGV[2], ARGV[3]\n"
                        "local k = P..'job:'..id\n"
                        "local items = k..':items'\n"
                        "if redis.call('EXISTS', items) == 0 then return 0 end\n"
                        "redis.call('XACK', items, 'w', entry)\n"
                        "redis.call('XDEL', items, entry)\n"
                        "if redis.call('HGET', k, 'st') ~= '1' then return 0 end\n"
                        "redis.call('XADD', items, '*', 'a', ARGV[4], 'b', ARGV[5])\n"
                        "redis.call('PUBLISH', P..'events', 'w '..id)\n"
                        "return 1\n",

    /* CANCEL: P id -> {code, dist}: -1 gone, 0 ended already, 1 requested
     * (cx set, "c <id>" sent to every replica). */
    [RSCRIPT_CANCEL] = "local P, id = ARGV[1], ARGV[2]\n"
                       "local k = P..'job:'..id\n"
                       "local v = redis.call('HMGET', k, 'st', 'dist')\n"
                       "if not v[1] then return {-1, 0} end\n"
                       "local dist = tonumber(v[2] or '0')\n"
                       "if tonumber(v[1]) >= 2 then return {0, dist} end\n"
                       "redis.call('HSET', k, 'cx', '1')\n"
                       "redis.call('PUBLISH', P..'events', 'c '..id)\n"
                       "return {1, dist}\n",

    /* SWEEP: P -> ids of live jobs that are not split and whose replica's
     * beat has expired (the caller ends them as failed); live entries whose
     * record has expired leave the indexes. */
    [RSCRIPT_SWEEP] = "local P = ARGV[1]\n"
                      "local dead = {}\n"
                      "for _, id in ipairs(redis.call('ZRANGE', P..'live', 0, 199)) do\n"
                      "  local v = redis.call('HMGET', P..'job:'..id, 'own', 'dist', 'st')\n"
                      "  if not v[3] then\n"
                      "    redis.call('ZREM', P..'live', id)\n"
                      "    redis.call('ZREM', P..'active', id)\n"
                      "    redis.call('ZREM', P..'jobs', id)\n"
                      "  elseif v[2] ~= '1' and v[1] and "
                      "redis.call('EXISTS', P..'replica:'..v[1]) == 0 then\n"
                      "    table.insert(dead, id)\n"
                      "  end\n"
                      "end\n"
                      "return dead\n",
};
