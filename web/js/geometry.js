// geometry.js -- the shape of a Sudoku-like board, with no DOM: its cells
// (i = r*n + c), its regions (the boxes by default; any partition of the
// cells for a jigsaw), the units whose cells must differ (rows, columns,
// regions, and extra ones such as Killer-X's diagonals), each cell's peers,
// and the Killer cages.  The board view draws region outlines and
// decorations from it, the game checks entries against it, and pencil marks
// are pruned along its peers, so a variant that adds units or regions
// changes this object and nothing else.
//
// Invariants: region[i] is in 0..n-1 and each region has n cells; every unit
// holds n distinct cells; peers[i] never holds i.

export class Geometry {
  // {n, rows, cols}: boxes of rows x cols (rows * cols = n), or
  // {n, regions}: region[i] for each cell.  extraUnits: arrays of cells.
  constructor({ n, rows, cols, regions = null, extraUnits = [], cages = [] }) {
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
    this.setCages(cages);
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
    const all = this.n >= 31 ? -1 : (1 << this.n) - 1;
    return all & ~used;
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
