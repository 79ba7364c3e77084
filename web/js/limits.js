// limits.js -- the API's limits that the pages show, check or offer, in one
// place.  Every number here is read off openapi.yaml (the README repeats
// them); tests/web/limits.test.mjs compares each with the document, so a
// hint on the page cannot drift from what the server answers.

export const LIMITS = {
  sudoku: {
    minN: 4,
    maxN: 64, // POST /v1/sudoku/solve: 4x4 .. 64x64 (grids as arrays, or CSV)
    maxStringN: 35, // string grids: '1'-'9' then 'A'-'Z'
    maxSolutions: 10000,
    generateMinN: 4,
    generateMaxN: 25,
    batchMaxSolutions: 2,
  },
  killer: {
    minN: 4,
    maxN: 36,
    generateSizes: [4, 6, 9, 16],
    generateTop4: 'medium', // "4x4 above medium" is a 422: the 4x4 levels stop there
    maxSolutions: 10000,
  },
  queens: {
    boardMaxN: 64, // GET /v1/nqueens/solve backtracking, /v1/nqueens/solutions
    countMaxN: 27,
    solutionsMaxN: 64,
    solutionsTotalMaxN: 16, // `total` is given up to here
    solutionsMaxLimit: 1000,
    minConflictsMinN: 4, // "minconflicts needs n >= 4"
    maxN: 10000000,
    traceMaxN: 10000,
  },
  cover: {
    maxSolutions: 10000,
  },
};

// "from 1 to 10,000": the words every hint and local check use.
export const range = (lo, hi) => `${lo.toLocaleString('en-US')} to ${hi.toLocaleString('en-US')}`;
