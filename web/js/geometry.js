// geometry.js -- the shape of a Sudoku-like board, with no DOM: its cells
// (i = r*width + c), its regions (the boxes by default; any partition of
// the cells for a jigsaw), the units whose cells must differ (rows,
// columns, regions, and extra ones such as Killer-X's diagonals), each
// cell's peers, and the Killer cages.  The board view draws region outlines
// and decorations from it, the game checks entries against it, and pencil
// marks are pruned along its peers, so a variant that adds units or regions
// changes this object and nothing else.
//
// One n x n grid is the board (width = height = n), or overlapping n x n
// grids (`grids`: their top-left cells, a Samurai's five) in a frame, their
// bounding box: a cell no grid covers is a hole (live[i] 0), in no unit,
// never played or drawn.  Each grid brings its rows, columns and boxes; a
// box two grids share is one unit and one region (the named layouts'
// boxes all lie on one lattice of the frame).
//
// Cell and pair rules (Sudoku variants, variants.js) sit beside the units:
// parity[i] 'E' / 'O' limits a cell to even / odd values, a pair rule says
// two orthogonal neighbours differ by exactly 1 (a consecutive mark) or by
// more (every unmarked pair, with nonConsecutive).  tags[i] are the cell's
// extra classes for the board (' diag', ' win', ' even', ' odd', ' tenth').
// check(values), when given, returns the cells other rules break (a
// Sudoku's constraints: constraints.js's brokenCells), added to conflicts.
//
// Invariants: region[i] is -1 on a hole, else a region id (0..n-1 on one
// grid) and each region has n cells; every unit holds n distinct live
// cells; peers[i] never holds i; pairsOf[i] holds [j, consecutive] for
// every pair rule of i.

export class Geometry {
  // {n, rows, cols}: boxes of rows x cols (rows * cols = n), or
  // {n, regions}: region[i] for each cell, or {n, rows, cols, grids}:
  // overlapping n x n grids at [row, col] of their frame.  extraUnits:
  // arrays of cells.  parity: a string of a mark per cell ('E', 'O', '.');
  // pairs: [[i, j], ...] consecutive marks; nonConsecutive: every other
  // neighbour pair differs by more than 1.
  constructor({ n, rows, cols, regions = null, grids = null, extraUnits = [], cages = [], tags = null, parity = null, pairs = [], nonConsecutive = false, check = null }) {
    this.n = n;
    this.boxRows = rows || 0;
    this.boxCols = cols || 0;
    this.height = grids ? Math.max(...grids.map(([r]) => r)) + n : n;
    this.width = grids ? Math.max(...grids.map(([, c]) => c)) + n : n;
    this.size = this.height * this.width;
    this.live = null; // every cell is live on one grid
    this.region = new Int32Array(this.size);
    this.custom = !!regions;
    this.units = [];
    if (grids) this.frameUnits(grids);
    else this.gridUnits(regions);
    this.liveCount = this.live ? this.live.reduce((a, b) => a + b, 0) : this.size;
    this.extraUnits = extraUnits.map((u) => Int32Array.from(u));
    this.units.push(...this.extraUnits);
    const nn = this.size;
    this.unitsOf = Array.from({ length: nn }, () => []);
    this.units.forEach((u, k) => {
      for (const i of u) this.unitsOf[i].push(k);
    });
    this.peers = [];
    for (let i = 0; i < nn; i++) {
      const set = new Set();
      for (const k of this.unitsOf[i]) for (const j of this.units[k]) set.add(j);
      set.delete(i);
      this.peers.push(Int32Array.from(set));
    }
    this.tags = tags;
    this.parity = parity;
    this.check = check;
    this.setPairs(pairs, nonConsecutive);
    this.setCages(cages);
  }

  // One n x n grid: its rows, columns and regions (boxes, or a jigsaw's).
  gridUnits(regions) {
    const { n, boxRows: rows, boxCols: cols } = this;
    for (let i = 0; i < n * n; i++) {
      if (regions) this.region[i] = regions[i];
      else this.region[i] = Math.floor(Math.floor(i / n) / rows) * (n / cols) + Math.floor((i % n) / cols);
    }
    for (let r = 0; r < n; r++) this.units.push(Int32Array.from({ length: n }, (_, c) => r * n + c));
    for (let c = 0; c < n; c++) this.units.push(Int32Array.from({ length: n }, (_, r) => r * n + c));
    const byRegion = Array.from({ length: n }, () => []);
    for (let i = 0; i < n * n; i++) byRegion[this.region[i]].push(i);
    for (const cells of byRegion) this.units.push(Int32Array.from(cells));
  }

  // Overlapping grids: each one's rows, columns and boxes; a shared box
  // (the same first cell) is kept once.
  frameUnits(grids) {
    const { n, width: w, boxRows: rows, boxCols: cols } = this;
    this.live = new Uint8Array(this.size);
    this.region.fill(-1);
    const boxOf = new Map(); // first cell -> region id
    for (const [r0, c0] of grids) {
      for (let a = 0; a < n; a++) {
        this.units.push(Int32Array.from({ length: n }, (_, b) => (r0 + a) * w + c0 + b));
        this.units.push(Int32Array.from({ length: n }, (_, b) => (r0 + b) * w + c0 + a));
      }
      for (let br = 0; br < n; br += rows) {
        for (let bc = 0; bc < n; bc += cols) {
          const cells = [];
          for (let a = 0; a < rows; a++) for (let b = 0; b < cols; b++) cells.push((r0 + br + a) * w + c0 + bc + b);
          if (boxOf.has(cells[0])) continue;
          boxOf.set(cells[0], boxOf.size);
          for (const i of cells) {
            this.region[i] = boxOf.get(cells[0]);
            this.live[i] = 1;
          }
          this.units.push(Int32Array.from(cells));
        }
      }
    }
  }

  // Whether cell i is played (not a hole of a layout's frame).
  isLive(i) {
    return !this.live || this.live[i] === 1;
  }

  // The first live cell in reading order.
  firstLive() {
    return this.live ? this.live.indexOf(1) : 0;
  }

  setPairs(marked, nonConsecutive) {
    const { size, width: w } = this;
    this.pairsOf = Array.from({ length: size }, () => []);
    this.pairRules = [];
    const key = (a, b) => Math.min(a, b) * size + Math.max(a, b);
    const marks = new Set(marked.map(([a, b]) => key(a, b)));
    const add = (a, b, consecutive) => {
      this.pairRules.push([a, b, consecutive]);
      this.pairsOf[a].push([b, consecutive]);
      this.pairsOf[b].push([a, consecutive]);
    };
    for (const [a, b] of marked) add(a, b, true);
    if (!nonConsecutive) return;
    for (let i = 0; i < size; i++) {
      if (!this.isLive(i)) continue;
      for (const j of [i % w < w - 1 ? i + 1 : -1, i + w < size ? i + w : -1]) if (j >= 0 && this.isLive(j) && !marks.has(key(i, j))) add(i, j, false);
    }
  }

  // Whether value v may stand in cell i by its parity mark.
  parityAllows(i, v) {
    const m = this.parity ? this.parity[i] : '.';
    return m === 'E' ? v % 2 === 0 : m === 'O' ? v % 2 === 1 : true;
  }

  // Whether values a and b keep a pair rule.
  static pairKept(a, b, consecutive) {
    return consecutive ? Math.abs(a - b) === 1 : Math.abs(a - b) !== 1;
  }

  // A square box shape, or the diagonals of Killer-X.
  static diagonals(n) {
    return [
      Array.from({ length: n }, (_, k) => k * n + k),
      Array.from({ length: n }, (_, k) => k * n + (n - 1 - k)),
    ];
  }

  setCages(cages) {
    const w = this.width;
    this.cages = cages || [];
    this.cageOf = new Int32Array(this.size).fill(-1);
    this.cages.forEach((cage, k) => {
      for (const [r, c] of cage.cells) {
        if (r >= 0 && c >= 0 && r < this.height && c < w) this.cageOf[r * w + c] = k;
      }
    });
  }

  rowOf(i) {
    return Math.floor(i / this.width);
  }

  colOf(i) {
    return i % this.width;
  }

  // Whether the cell right of / below i is in another region (a thick
  // line); a hole is no region, so a grid's outline is drawn too.
  regionEdge(i, dir) {
    const w = this.width;
    const r = Math.floor(i / w);
    const c = i % w;
    if (dir === 'right') return c < w - 1 && this.region[i] !== this.region[i + 1];
    return r < this.height - 1 && this.region[i] !== this.region[i + w];
  }

  // On a frame, whether live cell i lies on its grids' outline on that
  // side ('up', 'left', 'right', 'down'): the frame's edge or a hole.
  outline(i, dir) {
    const w = this.width;
    const r = Math.floor(i / w);
    const c = i % w;
    const [dr, dc] = { up: [-1, 0], left: [0, -1], right: [0, 1], down: [1, 0] }[dir];
    const rr = r + dr;
    const cc = c + dc;
    return rr < 0 || cc < 0 || rr >= this.height || cc >= w || !this.isLive(rr * w + cc);
  }

  // Boxes alternate shades like a chess board; other regions are not shaded.
  shaded(i) {
    if (this.custom || !this.boxRows || !this.isLive(i)) return false;
    const r = Math.floor(i / this.width);
    const c = i % this.width;
    return (Math.floor(r / this.boxRows) + Math.floor(c / this.boxCols)) % 2 === 1;
  }

  // Candidate bits (bit v-1) the placed peers leave to cell i.
  candidates(values, i) {
    let used = 0;
    for (const p of this.peers[i]) if (values[p]) used |= 1 << (values[p] - 1);
    let out = (this.n >= 31 ? -1 : (1 << this.n) - 1) & ~used;
    for (let v = 1; v <= this.n; v++) {
      if (!(out & (1 << (v - 1)))) continue;
      const ok = this.parityAllows(i, v) && this.pairsOf[i].every(([j, consecutive]) => !values[j] || Geometry.pairKept(v, values[j], consecutive));
      if (!ok) out &= ~(1 << (v - 1));
    }
    return out;
  }

  // The cells whose value repeats in one of their units.
  conflicts(values) {
    const bad = new Set();
    for (const u of this.units) {
      const seen = new Map();
      for (const i of u) {
        const v = values[i];
        if (!v) continue;
        if (seen.has(v)) {
          bad.add(i);
          bad.add(seen.get(v));
        } else seen.set(v, i);
      }
    }
    values.forEach((v, i) => {
      if (v && !this.parityAllows(i, v)) bad.add(i);
    });
    for (const [a, b, consecutive] of this.pairRules) {
      if (values[a] && values[b] && !Geometry.pairKept(values[a], values[b], consecutive)) {
        bad.add(a);
        bad.add(b);
      }
    }
    for (const cage of this.cages) {
      const cells = cage.cells.map(([r, c]) => r * this.width + c);
      const vs = cells.map((i) => values[i]);
      const seen = new Map();
      cells.forEach((i, k) => {
        if (!vs[k]) return;
        if (seen.has(vs[k])) {
          bad.add(i);
          bad.add(seen.get(vs[k]));
        } else seen.set(vs[k], i);
      });
      const sum = vs.reduce((a, b) => a + b, 0);
      const full = vs.every(Boolean);
      if (sum > cage.sum || (full && sum !== cage.sum)) for (const i of cells) bad.add(i);
    }
    if (this.check) for (const i of this.check(values)) bad.add(i);
    return bad;
  }

  // Every live cell filled and no rule broken.
  solvedBy(values) {
    return values.every((v, i) => v || !this.isLive(i)) && this.conflicts(values).size === 0;
  }
}
