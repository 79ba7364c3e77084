#!/bin/sh
# bench/compare/constraints.sh -- puzzled next to sigh's Interactive Sudoku
# Solver (ISS, its solver core under node) on the variant puzzles of a file
# in ISS_FORMAT (issue 36), in the same run, one thread each.
#
#   bench/compare/constraints.sh       (from anywhere; make bench-compare runs it)
#   CONSTRAINTS_FILE=/work/shared/data/variants/iss_constraints.jsonl REPS=1 CAP=30 \
#       bench/compare/constraints.sh   (from a worktree, where ../shared is absent)
#
# Puzzles: every record of CONSTRAINTS_FILE (default
# ../shared/data/variants/iss_constraints.jsonl; the format:
# ../shared/data/variants/ISS_FORMAT.md; any file in it will do).  Two
# questions, each its own table: the first solution (max_solutions 1), and
# uniqueness (max_solutions 2: two found, or the search exhausted).
#   puzzled   the real server, build/puzzled --threads 1 on a free loopback
#             port; each record's request is the one bench_constraints_http
#             builds (-o writes them); POSTed one at a time with curl, which
#             gives the client's wall time (the table's figure: what a user
#             waits for); the answer's stats.elapsed_ms is shown beside it;
#             timeout_ms CAP s
#   ISS       the record turned into ISS's constraint text (by the harness,
#             with ISS's own classes and serializers), then parsed, built
#             (its optimizer) and solved in one node process a round, each
#             puzzle timed alone (wall) and stopped at CAP s; the harness
#             solves one classic puzzle first, untimed, so its engine is
#             compiled as in a page that has solved before (a handler's code
#             is compiled by the first puzzle that uses it: a puzzle run
#             alone can take longer than in the whole file); it is written
#             to build/anchors/constraints/iss_constraints.mjs
# Both answers are judged against the file: the first solution must be the
# file's (any solution when the file says the puzzle is not unique), and
# uniqueness must agree with the file's `unique` (null is not judged).
# Before the rounds, every record whose `source` names an entry of ISS's own
# data is checked: ISS's text for it and ours must parse to the same
# constraints ("conversion check").
# Each figure is the best of REPS rounds; within a round one program runs all
# the puzzles, then the other, the order alternating by round.  Tables: a
# line per puzzle (puzzled ms, its elapsed_ms, ISS ms, ratio puzzled / ISS,
# the search nodes of both, ">N" where stopped: figures the machine's load
# does not change; "!" past 2x), then per constraint type (the puzzles having it; jigsaw
# regions and strict-kropki / strict-xv count as types): count, median and
# worst of both, how many puzzles puzzled is more than 2x behind on, and
# whether puzzled's median is ahead (types with at least 5 puzzles); last a
# summary line "constraints vs ISS: ...".  >CAP: stopped at CAP.
#
# Anchors are looked for, never required: ISS from ISS_SRC (a directory
# holding its js/), else build/anchors/constraints/iss (kept from an earlier
# run), else the git mirror the search tools' fetch leaves
# (/work/.mirror/sigh+Interactive-Sudoku-Solver/repo, or ISS_GIT), copied
# with git archive; nothing of it is committed.  Without ISS (or node) the
# puzzled side still runs and its column stands alone.
#
# Environment: CONSTRAINTS_FILE, DATA (collections, default ../shared/data:
# the file is DATA/variants/iss_constraints.jsonl), REPS (3), CAP (seconds a
# solve, 60).
set -u
here=$(pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
file=${CONSTRAINTS_FILE:-${DATA:-$root/../shared/data}/variants/iss_constraints.jsonl}
case $file in /*) ;; *) [ -f "$here/$file" ] && file=$here/$file ;; esac
reps=${REPS:-3}
cap=${CAP:-60}
out=build/anchors/constraints
bench=build/bench/bench_constraints_http
bin=build/puzzled

if [ ! -f "$file" ]; then
    echo "constraints.sh: $file is missing: nothing to compare (set CONSTRAINTS_FILE; see ../shared/data/README.md)"
    exit 0
fi
for t in python3 curl; do
    command -v $t > /dev/null 2>&1 || { echo "constraints.sh: $t is not installed: nothing to compare"; exit 0; }
done
make --no-print-directory -s "$bench" "$bin" || { echo "constraints.sh: cannot build $bench and $bin" >&2; exit 2; }
rm -rf "$out/req.first" "$out/req.unique" "$out/iss_in" "$out/res"
mkdir -p "$out/req.first" "$out/req.unique" "$out/iss_in" "$out/res/ans"
./$bench -f "$file" -o "$out/req.first" -m 1 -p "$cap" > /dev/null
./$bench -f "$file" -o "$out/req.unique" -m 2 -p "$cap" > /dev/null

# === the anchor ============================================================
. bench/compare/lib/iss.sh
find_iss "$out" constraints.sh
cat > "$out/iss_constraints.mjs" <<'EOF'
// iss_constraints.mjs -- sigh's Interactive Sudoku Solver on the records of
// a file in ISS_FORMAT (../shared/data/variants/ISS_FORMAT.md), written by
// bench/compare/constraints.sh; not part of puzzled.
//   node iss_constraints.mjs ISS_ROOT text  FILE.jsonl DIR
//        each record's ISS constraint text to DIR/<id>.iss
//   node iss_constraints.mjs ISS_ROOT check FILE.jsonl
//        each record whose `source` names an entry of ISS's own data: the
//        constraints of that entry's text against those of ours
//   node iss_constraints.mjs ISS_ROOT solve MAX_SOLUTIONS CAP_MS FILE.iss ...
//        per file: id, wall ms, CPU ms (parse, build and solve: what a user
//        waits for), solutions found (up to MAX_SOLUTIONS), exhausted 0/1,
//        capped 0/1 (stopped at CAP_MS), the first solution (base 36) or -,
//        search nodes and backtracks (ISS's counters, where it stopped)
// The text is made with ISS's own classes (their constructors and
// serializers, its cell ids and outside-clue lookups), so it is the text
// ISS itself would write; a type with no ISS counterpart is an error.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
globalThis.self = globalThis;
globalThis.VERSION_PARAM = '';
const [root, cmd, ...args] = process.argv.slice(2);
const url = (p) => pathToFileURL(root + p).href;
const { SudokuConstraint: SC } = await import(url('/js/sudoku_constraint.js'));
const { CellGeometry } = await import(url('/js/cell_geometry.js'));
const { SudokuParser } = await import(url('/js/sudoku_parser.js'));
const { SudokuBuilder } = await import(url('/js/solver/sudoku_builder.js'));

const safeName = (id) => id.replace(/[^A-Za-z0-9.-]/g, '_');
const sameSets = (a, b) => a.length === b.length &&
  a.every((x, i) => x === b[i]);
const sortedKeys = (sets) => sets.map(s => [...s].sort((x, y) => x - y).join(',')).sort();

// One record -> ISS constraint text.
function toIss(rec) {
  const n = rec.size;
  const g = CellGeometry.fromShapeSpec(`${n}x${n}`);
  const id = ([r, c]) => g.makeCellId(r, c);
  const ids = (cells) => cells.map(id);
  const idx = ([r, c]) => r * n + c;
  const out = [];
  const put = (c) => out.push(c.toString());
  const allDifferent = (cells) => put(new SC.AllDifferent(...ids(cells)));
  put(new SC.Shape(`${n}x${n}`)); // '' for 9x9
  const [bh, bw] = CellGeometry.boxDimsForSize(n, n, n);
  const box = rec.box;
  if (!box || box[0] !== bh || box[1] !== bw) {
    put(new SC.NoBoxes());
    if (box) { // boxes ISS does not draw itself: one all-different each
      for (let r0 = 0; r0 < n; r0 += box[0])
        for (let c0 = 0; c0 < n; c0 += box[1]) {
          const cells = [];
          for (let r = 0; r < box[0]; r++)
            for (let c = 0; c < box[1]; c++) cells.push([r0 + r, c0 + c]);
          allDifferent(cells);
        }
    }
  }
  if (rec.regions) {
    const pieces = new Map();
    rec.regions.forEach((row, r) => row.forEach((k, c) => {
      if (!pieces.has(k)) pieces.set(k, []);
      pieces.get(k).push(id([r, c]));
    }));
    out.push(SC.Jigsaw.serialize(
      [...pieces.values()].map(cells => new SC.Jigsaw(g.name, ...cells))));
  }
  if (rec.givens.length)
    out.push(SC.Given.serialize(rec.givens.map(([r, c, v]) => new SC.Given(id([r, c]), v))));
  const line = { thermo: SC.Thermo, renban: SC.Renban, palindrome: SC.Palindrome,
    between: SC.Between, zipper: SC.Zipper, 'region-sum-line': SC.RegionSumLine,
    entropic: SC.Entropic, x: SC.X, v: SC.V, 'kropki-white': SC.WhiteDot,
    'kropki-black': SC.BlackDot, 'greater-than': SC.GreaterThan };
  const global = { 'anti-knight': SC.AntiKnight, 'anti-king': SC.AntiKing,
    'anti-consecutive': SC.AntiConsecutive, 'disjoint-sets': SC.DisjointSets };
  for (const k of rec.constraints) {
    const t = k.type;
    if (line[t]) {
      put(new line[t](...ids(k.cells)));
      continue;
    }
    if (global[t]) {
      put(new global[t]());
      continue;
    }
    switch (t) {
      case 'cage': put(new SC.Cage(k.sum ?? 0, ...ids(k.cells))); break; // 0: no total
      case 'sum': put(new SC.Sum(k.sum, ...ids(k.cells))); break;
      case 'little-killer': put(SC.LittleKiller.fromCells(k.sum, ids(k.cells), g)); break;
      case 'x-sum': put(SC.XSum.fromCells(k.sum, ids(k.cells), g)); break;
      case 'skyscraper': put(SC.Skyscraper.fromCells(k.visible, ids(k.cells), g)); break;
      case 'sandwich': {
        const cells = [];
        for (let i = 0; i < n; i++) cells.push(k.row !== undefined ? [k.row, i] : [i, k.col]);
        put(SC.Sandwich.fromCells(k.sum, ids(cells), g));
        break;
      }
      case 'arrow': {
        const circle = Array.isArray(k.circle[0]) ? k.circle : [k.circle]; // [[r, c]] or [r, c]
        if (circle.length !== 1) throw new Error('an arrow circle of several cells');
        put(new SC.Arrow(id(circle[0]), ...ids(k.line)));
        break;
      }
      case 'double-arrow': // ISS: the circles are the line's ends
        put(new SC.DoubleArrow(id(k.circles[0]), ...ids(k.line), id(k.circles[1])));
        break;
      case 'pill-arrow': put(new SC.PillArrow(k.pill.length, ...ids(k.pill), ...ids(k.line))); break;
      case 'whisper': put(new SC.Whisper(k.difference, ...ids(k.cells))); break;
      case 'lockout': put(new SC.Lockout(k.min_diff, ...ids(k.cells))); break;
      case 'modular': put(new SC.Modular(k.mod, ...ids(k.cells))); break;
      case 'sum-line': put(new SC.SumLine(k.sum, ...ids(k.cells), ...(k.loop ? ['LOOP'] : []))); break;
      case 'equal-sum': put(new SC.EqualSum(...k.segments.map(ids))); break;
      case 'diagonal': {
        // ISS: Diagonal~-1 is the main diagonal, Diagonal~1 the anti-diagonal
        const dir = k.which === 'main' ? -1 : 1, want = [];
        for (let i = 0; i < n; i++) want.push(dir < 0 ? [i, i] : [i, n - 1 - i]);
        if (sameSets(sortedKeys([k.cells.map(idx)]), sortedKeys([want.map(idx)])))
          put(new SC.Diagonal(dir));
        else allDifferent(k.cells);
        break;
      }
      case 'windoku': // ISS's Windoku is its standard windows; others: all-different each
        if (sameSets(sortedKeys(k.windows.map(w => w.map(idx))), sortedKeys(SC.Windoku.regions(g))))
          put(new SC.Windoku());
        else k.windows.forEach(allDifferent);
        break;
      default: throw new Error(`type '${t}' has no ISS conversion here`);
    }
  }
  for (const s of rec.strict || []) {
    if (s === 'kropki') put(new SC.StrictKropki());
    else if (s === 'xv') put(new SC.StrictXV());
    else throw new Error(`strict '${s}' has no ISS conversion here`);
  }
  return out.join('');
}

const records = (file) => readFileSync(file, 'utf8').split('\n')
  .filter(l => l.trim()).map(l => JSON.parse(l));

if (cmd === 'text') {
  const [file, dir] = args;
  let bad = 0;
  for (const rec of records(file)) {
    try {
      writeFileSync(`${dir}/${safeName(rec.id)}.iss`, toIss(rec) + '\n');
    } catch (e) {
      console.log(`${rec.id}: no ISS text: ${e.message}`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
}

if (cmd === 'check') {
  // The constraints of a text as a sorted list of keys: cells of a cage,
  // sum, region or all-different sorted, marks on several cells split into
  // their adjacent pairs, the pill of a pill arrow sorted (ISS reads it in
  // reading order), givens one a key.
  const keys = (text) => {
    const con = SudokuParser.parseText(text);
    const g = con.getGeometry();
    const out = [];
    const cid = (c) => g.parseCellId(c).cellIndex;
    con.forEachTopLevel(c => {
      const t = c.type;
      if (t === 'Shape' && c.shapeSpec === '9x9') return;
      if (['WhiteDot', 'BlackDot', 'X', 'V', 'GreaterThan'].includes(t)) {
        for (const [a, b] of c.adjacentPairs(g))
          out.push(`${t}~${t === 'GreaterThan' ? [a, b] : [a, b].sort((x, y) => x - y)}`);
      } else if (['Cage', 'Sum', 'AllDifferent'].includes(t)) {
        const cells = c.cells.map(cid).sort((x, y) => x - y);
        out.push(`${t}~${c.sum ?? ''}~${cells}`);
      } else if (t === 'Jigsaw') {
        out.push(`${t}~${c.cells.map(cid).sort((x, y) => x - y)}`);
      } else if (t === 'PillArrow') {
        const pill = c.cells.slice(0, c.pillSize).map(cid).sort((x, y) => x - y);
        out.push(`${t}~${pill}~${c.cells.slice(c.pillSize).map(cid)}`);
      } else if (t === 'Given') {
        out.push(`Given~${cid(c.cell)}~${c.values}`);
      } else {
        out.push(c.toString().toUpperCase()); // ISS reads r1c2 as R1C2
      }
    });
    return out.sort();
  };
  const { PUZZLE_INDEX } = await import(url('/data/example_puzzles.js'));
  const coll = await import(url('/data/collections.js'));
  let same = 0, differ = 0, none = 0;
  for (const rec of records(args[0])) {
    const m = /^ISS data\/(example_puzzles|collections)\.js (.*)$/.exec(rec.source || '');
    let cfg = null;
    if (m) {
      const e = /^([A-Z0-9_]+) entry (\d+)$/.exec(m[2]);
      if (e && coll[e[1]]?.configFor) cfg = coll[e[1]].configFor(coll[e[1]][+e[2] - 1]);
      else if (PUZZLE_INDEX.has(m[2])) cfg = { ...PUZZLE_INDEX.get(m[2]) };
    }
    if (!cfg || typeof cfg.input !== 'string') {
      none++;
      continue;
    }
    try {
      const a = keys(cfg.input), b = keys(toIss(rec));
      const sa = new Map(), sb = new Map();
      a.forEach(k => sa.set(k, (sa.get(k) || 0) + 1));
      b.forEach(k => sb.set(k, (sb.get(k) || 0) + 1));
      const onlyA = [...sa].filter(([k, v]) => (sb.get(k) || 0) < v).map(([k]) => k);
      const onlyB = [...sb].filter(([k, v]) => (sa.get(k) || 0) < v).map(([k]) => k);
      if (onlyA.length || onlyB.length) {
        differ++;
        console.log(`  ${rec.id}: ISS's text only: ${onlyA.slice(0, 3).join(' ').slice(0, 200)}` +
          ` | ours only: ${onlyB.slice(0, 3).join(' ').slice(0, 200)}`);
      } else {
        same++;
      }
    } catch (err) {
      differ++;
      console.log(`  ${rec.id}: ${err.message}`);
    }
  }
  console.log(`conversion check: ${same} records have the same constraints as ISS's own ` +
    `text, ${differ} differ, ${none} have no ISS entry to compare with`);
  process.exit(0);
}

if (cmd === 'solve') {
  const [maxsol, capms, ...files] = args;
  let internal = null; // the last solve's, for its counters after a cap
  const solve = (text, deadline) => {
    internal = null;
    const solver = SudokuBuilder.build(
      SudokuBuilder.resolveConstraint(SudokuParser.parseText(text)));
    internal = solver._internalSolver;
    const cells = solver._geometry.numGridCells;
    let count = 0, first = null;
    // polled every 1024 search steps; throwing is how the search is stopped
    internal.setProgressCallback(() => {
      if (performance.now() > deadline) throw new Error('cap');
    }, 10);
    internal.run({ maxSolutions: +maxsol }, (grid) => {
      if (count++ === 0) first = grid.slice(0, cells);
    });
    const exhausted = internal.state === internal.constructor.STATE_EXHAUSTED ? 1 : 0;
    const { nodesSearched, backtracks } = internal.counters;
    return { count, exhausted, first, nodes: `${nodesSearched} ${backtracks}` };
  };
  // a classic puzzle first, untimed: ISS's engine compiled, as in a page
  // that has solved before (its per-puzzle tables are not kept)
  solve('.~R1C1_8~R2C3_3~R2C4_6~R3C2_7~R3C5_9~R3C7_2~R4C2_5~R4C6_7~R5C5_4~R5C6_5' +
    '~R5C7_7~R6C4_1~R6C8_3~R7C3_1~R7C8_6~R7C9_8~R8C3_8~R8C4_5~R8C8_1~R9C2_9~R9C7_4',
    Infinity);
  for (const f of files) {
    const name = f.replace(/.*\//, '').replace(/\.iss$/, '');
    const text = readFileSync(f, 'utf8').trim();
    const c0 = process.cpuUsage(), t0 = performance.now();
    let r, capped = 0;
    try {
      r = solve(text, t0 + +capms);
    } catch (e) {
      if (e.message !== 'cap') {
        console.log(`${name} - - - - - error:${e.message.replace(/\s+/g, '_').slice(0, 80)}`);
        continue;
      }
      const k = internal?.counters;
      r = { count: 0, exhausted: 0, first: null, nodes: k ? `${k.nodesSearched} ${k.backtracks}` : '- -' };
      capped = 1;
    }
    const wall = performance.now() - t0, cu = process.cpuUsage(c0);
    const sol = r.first ? Array.from(r.first, b => (32 - Math.clz32(b)).toString(36)).join('') : '-';
    console.log(`${name} ${wall.toFixed(3)} ${((cu.user + cu.system) / 1000).toFixed(3)} ` +
      `${r.count} ${r.exhausted} ${capped} ${sol.toUpperCase()} ${r.nodes}`);
  }
  process.exit(0);
}
console.error('usage: node iss_constraints.mjs ISS_ROOT text|check|solve ...');
process.exit(2);
EOF
cat > "$out/table.py" <<'EOF'
# table.py -- the tables of bench/compare/constraints.sh (written by it;
# not part of puzzled).
#   python3 table.py FILE.jsonl RESDIR CAP_S REPS
# Reads RESDIR/puzzled.MODE ("round id http_code client_s" a request, the
# answer in RESDIR/ans/MODE.ROUND.ID.json) and RESDIR/iss.MODE ("round id
# wall_ms cpu_ms count exhausted capped solution nodes backtracks", or
# "round id - ... error:X")
# for MODE first and unique; prints per puzzle, per type and a summary line.
import json
import os
import re
import sys

path, res, cap_s, reps = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
INF = float("inf")  # stopped at CAP


def safe(i):
    return re.sub(r"[^A-Za-z0-9.-]", "_", i)


recs = []
with open(path) as f:
    for line in f:
        if line.strip():
            recs.append(json.loads(line))


def types_of(rec):
    t = sorted({c.get("type", "?") for c in rec.get("constraints", [])})
    if rec.get("regions"):
        t.append("jigsaw")
    t += ["strict-" + s for s in rec.get("strict") or []]
    return t or ["(givens only)"]


def judge_puzzled(rec, mode, ans):
    """(state, note): state 'ok', 'cap', 'wrong' or 'err'."""
    if ans is None:
        return "err", "no answer"
    if ans.get("status") == "timeout":
        return "cap", ""
    if "type" in ans and "status" not in ans:  # a problem+json
        return "err", (ans.get("detail") or ans.get("title") or "?")[:60]
    sols = ans.get("solutions") or ([ans["solution"]] if ans.get("solution") else [])
    want = (rec.get("solution") or "").upper()
    if not sols:
        return "wrong", "no solution (status %s)" % ans.get("status")
    if rec.get("unique") is not False and want and want not in [s.upper() for s in sols]:
        return "wrong", "a solution that is not the file's"
    if mode == "unique" and rec.get("unique") is not None:
        if not ans.get("complete"):
            return "cap", ""
        if ans.get("unique") is not rec["unique"]:
            return "wrong", "unique %s, the file says %s" % (ans.get("unique"), rec["unique"])
    return "ok", ""


def judge_iss(rec, mode, f):
    if f[2] == "-":
        return "err", f[-1][:60]
    count, exhausted, capped, sol = int(f[4]), int(f[5]), int(f[6]), f[7]
    if capped:
        return "cap", ""
    want = (rec.get("solution") or "").upper()
    if count == 0:
        return "wrong", "no solution"
    if want and sol != want:
        if rec.get("unique") is not False:
            return "wrong", "first solution is not the file's"
        note = "first solution is not the file's (the file says not unique)"
    else:
        note = ""
    if mode == "unique" and rec.get("unique") is not None:
        if count < 2 and not exhausted:
            return "cap", ""
        if (count == 1) is not rec["unique"]:
            return "wrong", "found %d, the file says unique %s" % (count, rec["unique"])
    return "ok", note


def load(mode):
    """{(prog, id): [(state, ms, srv_ms, note, nodes), ...]} over rounds."""
    out = {}
    byid = {safe(r["id"]): r for r in recs}
    try:
        with open(os.path.join(res, "puzzled." + mode)) as f:
            for line in f:
                rnd, i, code, secs = line.split()
                ans = None
                try:
                    with open(os.path.join(res, "ans", "%s.%s.%s.json" % (mode, rnd, i))) as a:
                        ans = json.load(a)
                except (OSError, ValueError):
                    pass
                if i not in byid:
                    continue
                st, note = judge_puzzled(byid[i], mode, ans)
                if st == "err" and code != "200":
                    note = "HTTP %s %s" % (code, note)
                srv = (ans or {}).get("stats", {}).get("elapsed_ms")
                ms = float(secs) * 1000
                nodes = (ans or {}).get("stats", {}).get("nodes")
                out.setdefault(("p", i), []).append((st, ms, srv, note, nodes))
    except OSError:
        pass
    try:
        with open(os.path.join(res, "iss." + mode)) as f:
            for line in f:
                fl = line.split()
                if len(fl) < 8 or fl[1] not in byid:
                    continue
                st, note = judge_iss(byid[fl[1]], mode, fl)
                ms = float(fl[2]) if fl[2] != "-" else None
                nodes = int(fl[8]) if len(fl) > 8 and fl[8].isdigit() else None
                out.setdefault(("i", fl[1]), []).append((st, ms, None, note, nodes))
    except OSError:
        pass
    return out


def best(runs):
    """(value, srv, nodes, notes): the best time of the rounds answered
    right, INF when every such round stopped at CAP, "wrong" or "err" when
    none was answered right, None when there was no run; nodes: the search
    nodes of that round (">N" where it stopped)."""
    if not runs:
        return None, None, None, []
    done = [r for r in runs if r[0] == "ok"]
    notes = sorted({r[3] for r in runs if r[3]})
    if done:
        b = min(done, key=lambda r: r[1])
        return b[1], b[2], knum(b[4]), notes
    caps = [r for r in runs if r[0] == "cap"]
    if caps:
        n = max((r[4] for r in caps if r[4] is not None), default=None)
        return INF, None, ">" + knum(n) if n is not None else None, notes
    return ("wrong" if any(r[0] == "wrong" for r in runs) else "err"), None, None, notes


def knum(n):
    if n is None:
        return None
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return "%.1f%s" % (n / div, suf)
    return str(n)


def fmt(v, w=10):
    if v is None or isinstance(v, str):
        return "%*s" % (w, v or "-")
    if v == INF:
        return "%*s" % (w, ">CAP")
    return "%*.1f" % (w, v) if v >= 10 else "%*.2f" % (w, v)


def ratio(p, i):
    if not isinstance(p, float) or not isinstance(i, float) or (p == INF and i == INF):
        return "-", None
    if p == INF:
        return ">", INF
    if i == INF:
        return "<", 0.0
    r = p / i if i > 0 else INF
    return "%.2f" % r, r


def median_worst(vals):
    v = sorted(x for x in vals if isinstance(x, float))
    if not v:
        return None, None
    return v[(len(v) - 1) // 2], v[-1]


summary = []
for mode, title in (("first", "first solution (max_solutions 1)"),
                    ("unique", "uniqueness (max_solutions 2: two found, or the search exhausted)")):
    data = load(mode)
    rows = []
    print()
    print("== %s: ms, best of %s; puzzled = client wall (srv = its elapsed_ms), "
          "ISS = parse + build + solve; ratio = puzzled / ISS; nodes: each one's search "
          "nodes" % (title, reps))
    print("%-44s %10s %9s %10s %7s %7s %7s  %s" % ("puzzle", "puzzled", "(srv)", "ISS", "ratio",
                                                 "nodes", "(ISS)", "types"))
    wrong = []
    bad = {"p": 0, "i": 0}  # puzzles with a wrong or failed answer in some round
    for rec in recs:
        i = safe(rec["id"])
        p, srv, pk, pn = best(data.get(("p", i), []))
        s, _, sk, sn = best(data.get(("i", i), []))
        for prog in bad:
            bad[prog] += any(r[0] in ("wrong", "err") for r in data.get((prog, i), []))
        rs, rv = ratio(p, s)
        rows.append((rec, p, s, rv))
        flag = " !" if rv is not None and rv > 2 else ""
        print("%-44s %s %s %s %7s %7s %7s  %s%s" % (rec["id"][:44], fmt(p), fmt(srv, 9), fmt(s),
                                                    rs, pk or "-", sk or "-",
                                                    ",".join(types_of(rec)), flag))
        for n in pn:
            wrong.append("  puzzled %s: %s" % (rec["id"], n))
        for n in sn:
            wrong.append("  ISS %s: %s" % (rec["id"], n))
    if wrong:
        print("-- answers judged wrong or failed, and notes (a wrong round is not timed):")
        print("\n".join(wrong))
    print("-- per type (the puzzles having it): ms median / worst; >2x = puzzles where puzzled "
          "takes more than twice ISS's time (or stopped at CAP where ISS did not)")
    print("%-20s %4s %21s %21s %4s  %s" % ("type", "n", "puzzled med / worst", "ISS med / worst",
                                          ">2x", "verdict"))
    types = sorted({t for rec in recs for t in types_of(rec)})
    ahead = eligible = 0
    for t in types + ["(all)"]:
        sel = [r for r in rows if t == "(all)" or t in types_of(r[0])]
        pm, pw = median_worst([r[1] for r in sel])
        im, iw = median_worst([r[2] for r in sel])
        behind = sum(1 for r in sel if r[3] is not None and r[3] > 2)
        if len(sel) < 5:
            verdict = "(fewer than 5)"
        elif pm is None or im is None:
            verdict = "-"
        else:
            verdict = "ahead" if pm < im else "BEHIND"
            if t != "(all)":
                eligible += 1
                ahead += pm < im
        print("%-20s %4d %10s /%10s %10s /%10s %4d  %s" % (t[:20], len(sel), fmt(pm), fmt(pw),
                                                        fmt(im), fmt(iw), behind, verdict))
    behind = [r for r in rows if r[3] is not None and r[3] > 2]
    capped = [r for r in rows if r[1] == INF and isinstance(r[2], float) and r[2] != INF]
    summary.append("%s: ahead on %d of %d types with >= 5 puzzles, %d puzzles > 2x behind "
                   "(%d stopped at CAP where ISS solved), wrong or failed: puzzled %d, ISS %d"
                   % (mode, ahead, eligible, len(behind), len(capped), bad["p"], bad["i"]))
print()
print("constraints vs ISS: %d puzzles, cap %g s, best of %s | %s" % (len(recs), cap_s, reps,
                                                                    " | ".join(summary)))
EOF
n=$(find "$out/req.first" -name "*.json" | wc -l)
echo "constraints.sh: $n puzzles of $file, best of $reps, cap $cap s, one thread each"
if [ -n "$iss" ]; then
    node "$out/iss_constraints.mjs" "$iss" text "$file" "$out/iss_in" |
        sed 's/^/constraints.sh: /'
    node "$out/iss_constraints.mjs" "$iss" check "$file" 2>&1 | sed 's/^/constraints.sh: /'
fi

# === the server ============================================================
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
./$bin --port "$port" --threads 1 --timeout-ms $((cap * 1000)) 2> "$out/res/puzzled.log" &
spid=$!
trap 'kill "$spid" 2> /dev/null' EXIT
trap 'exit 130' INT TERM
up=0
for _ in $(seq 100); do
    curl -fs "http://127.0.0.1:$port/healthz" > /dev/null 2>&1 && { up=1; break; }
    sleep 0.05
done
[ "$up" = 1 ] || { echo "constraints.sh: the server did not start (see $out/res/puzzled.log)" >&2; exit 2; }
url=http://127.0.0.1:$port/v1/sudoku/solve

# === one round of each program =============================================
puzzled_round() { # puzzled_round MODE ROUND: "round id http_code seconds" lines
    for f in "$out/req.$1"/*.json; do
        id=$(basename "$f" .json)
        t=$(curl -s -o "$out/res/ans/$1.$2.$id.json" -w '%{http_code} %{time_total}' \
            --max-time $((cap + 30)) -H 'Content-Type: application/json' --data-binary @"$f" "$url")
        echo "$2 $id $t"
    done >> "$out/res/puzzled.$1"
}
iss_round() { # iss_round MODE ROUND: "round id wall cpu count exhausted capped solution nodes backtracks" lines
    [ -n "$iss" ] || return 0
    m=1
    [ "$1" = unique ] && m=2
    # shellcheck disable=SC2046
    timeout $((cap * (n + 2) + 60)) node "$out/iss_constraints.mjs" "$iss" solve "$m" $((cap * 1000)) \
        $(ls "$out/iss_in"/*.iss) 2>> "$out/res/iss.err" | awk -v r="$2" '{print r, $0}' >> "$out/res/iss.$1"
}
for mode in first unique; do
    r=1
    while [ "$r" -le "$reps" ]; do
        if [ $((r % 2)) = 1 ]; then
            puzzled_round "$mode" "$r"
            iss_round "$mode" "$r"
        else
            iss_round "$mode" "$r"
            puzzled_round "$mode" "$r"
        fi
        r=$((r + 1))
    done
done
[ -s "$out/res/iss.err" ] && sed 's/^/constraints.sh: ISS: /' "$out/res/iss.err" | head -5

# === the tables ============================================================
python3 "$out/table.py" "$file" "$out/res" "$cap" "$reps"
