// geometry.js -- the shape of a Sudoku-like board, with no DOM: its cells
// (i = r*n + c), its regions (the boxes by default; any partition of the
// cells for a jigsaw), the units whose cells must differ (rows, columns,
// regions, and extra ones such as Killer-X's diagonals), each cell's peers,
// and the Killer cages.  The board view draws region outlines and
// decorations from it, the game checks entries against it, and pencil marks
// are pruned along its peers, so a variant that adds units or regions
// changes this object and nothing else.
//
// Cell and pair rules (Sudoku variants, variants.js) sit beside the units:
// parity[i] 'E' / 'O' limits a cell to even / odd values, a pair rule says
// two orthogonal neighbours differ by exactly 1 (a consecutive mark) or by
// more (every unmarked pair, with nonConsecutive).  tags[i] are the cell's
// extra classes for the board (' diag', ' win', ' even', ' odd').
//
// Invariants: region[i] is in 0..n-1 and each region has n cells; every unit
// holds n distinct cells; peers[i] never holds i; pairsOf[i] holds [j,
// consecutive] for every pair rule of i.

export class Geometry {
  // {n, rows, cols}: boxes of rows x cols (rows * cols = n), or
  // {n, regions}: region[i] for each cell.  extraUnits: arrays of cells.
  // parity: a string of n*n marks ('E', 'O', '.'); pairs: [[i, j], ...]
  // consecutive marks; nonConsecutive: every other neighbour pair differs
  // by more than 1.
  constructor({ n, rows, cols, regions = null, extraUnits = [], cages = [], tags = null, parity = null, pairs = [], nonConsecutive = false }) {
    this.n = n;
    this.boxRows = rows || 0;
    this.boxCols = cols || 0;
    const nn = n * n;
    this.region = new Int32Array(nn);
    for (let i = 0; i < nn; i++) {
      if (regions) this.region[i] = regions[i];
      else {
        const r = Math.floor(i / n);
        const c = i % n;
        this.region[i] = Math.floor(r / rows) * (n / cols) + Math.floor(c / cols);
      }
    }
    this.custom = !!regions;
    this.extraUnits = extraUnits.map((u) => Int32Array.from(u));
    this.units = [];
    for (let r = 0; r < n; r++) this.units.push(Int32Array.from({ length: n }, (_, c) => r * n + c));
    for (let c = 0; c < n; c++) this.units.push(Int32Array.from({ length: n }, (_, r) => r * n + c));
    const byRegion = Array.from({ length: n }, () => []);
    for (let i = 0; i < nn; i++) byRegion[this.region[i]].push(i);
    for (const cells of byRegion) this.units.push(Int32Array.from(cells));
    this.units.push(...this.extraUnits);
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
    this.setPairs(pairs, nonConsecutive);
    this.setCages(cages);
  }

  setPairs(marked, nonConsecutive) {
    const n = this.n;
    this.pairsOf = Array.from({ length: n * n }, () => []);
    this.pairRules = [];
    const key = (a, b) => Math.min(a, b) * n * n + Math.max(a, b);
    const marks = new Set(marked.map(([a, b]) => key(a, b)));
    const add = (a, b, consecutive) => {
      this.pairRules.push([a, b, consecutive]);
      this.pairsOf[a].push([b, consecutive]);
      this.pairsOf[b].push([a, consecutive]);
    };
    for (const [a, b] of marked) add(a, b, true);
    if (!nonConsecutive) return;
    for (let i = 0; i < n * n; i++) {
      for (const j of [i % n < n - 1 ? i + 1 : -1, i + n < n * n ? i + n : -1]) if (j >= 0 && !marks.has(key(i, j))) add(i, j, false);
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
    this.cages = cages || [];
    this.cageOf = new Int32Array(this.n * this.n).fill(-1);
    this.cages.forEach((cage, k) => {
      for (const [r, c] of cage.cells) {
        if (r >= 0 && c >= 0 && r < this.n && c < this.n) this.cageOf[r * this.n + c] = k;
      }
    });
  }

  rowOf(i) {
    return Math.floor(i / this.n);
  }

  colOf(i) {
    return i % this.n;
  }

  // Whether the cell right of / below i is in another region (a thick line).
  regionEdge(i, dir) {
    const n = this.n;
    const r = Math.floor(i / n);
    const c = i % n;
    if (dir === 'right') return c < n - 1 && this.region[i] !== this.region[i + 1];
    return r < n - 1 && this.region[i] !== this.region[i + n];
  }

  // Boxes alternate shades like a chess board; other regions are not shaded.
  shaded(i) {
    if (this.custom || !this.boxRows) return false;
    const r = Math.floor(i / this.n);
    const c = i % this.n;
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
      const cells = cage.cells.map(([r, c]) => r * this.n + c);
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
    return bad;
  }

  // Every cell filled and no rule broken.
  solvedBy(values) {
    return values.every(Boolean) && this.conflicts(values).size === 0;
  }
}
