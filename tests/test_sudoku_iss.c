/* test_sudoku_iss.c -- ISS's text (api/sudoku_iss.c) read into a variant
 * request, and solved through POST /v1/sudoku/solve as text/x-iss.
 *
 * The reader: one string per ISS type (and per argument form) read into
 * the JSON written here by hand from ISS's source (js/sudoku_constraint.js,
 * js/solver/sudoku_builder.js at e373f98), four of ISS's own examples into
 * their JSON, the text forms (URLs, comments, grids of givens, layouts),
 * every malformed input named by its item and character, the renaming of
 * the JSON path's problems, and every allocation failing in turn.
 *
 * The facts: 28 of ISS's example puzzles (data/example_puzzles.js; ISS is
 * MIT-licensed, each puzzle is its setter's, named with its first link)
 * are read, and ISS's published solution is checked against every rule
 * read from the text by iss_holds(), written from ISS_FORMAT's rules and
 * not from the server's code; so a type read with the wrong cells, order
 * or sense fails here.  Then the server solves the quick ones (a search
 * bound by the request's deadline, set far above their time, never by a
 * timed assertion), each must be unique and ISS's solution, and validate
 * accepts every solution given as givens and refuses a grid with two
 * cells swapped, and the `puzzle` it answers for a text, sent back as
 * JSON, is judged the same. */
#include <check.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/grid_char.h"
#include "api/problem.h"
#include "api/sudoku_iss.h"
#include "server/guard.h"
#include "tests/fail_alloc.h"
#include "tests/http_client.h"

#define DOTS16 "................"
#define DOTS36 DOTS16 DOTS16 "...."
#define DOTS81 DOTS16 DOTS16 DOTS16 DOTS16 DOTS16 "."
#define BOX22  "\"box\":{\"rows\":2,\"cols\":2}"
#define BOX33  "\"box\":{\"rows\":3,\"cols\":3}"

/* === Reading ============================================================== */

/* text read into iss (initialised here); the read's code. */
static int iss_read(const char *text, size_t len, api_sudoku_iss_t *iss, api_problem_t *p) {
    api_sudoku_iss_init(iss);
    api_problem_init(p, API_EINVALID, "the request is not valid");
    return api_sudoku_iss_read(text, len, iss, p);
}

/* text reads into the JSON `want`. */
static void expect_body(const char *text, const char *want) {
    api_sudoku_iss_t iss;
    api_problem_t p;
    json_error_t e;
    json_t *w = json_loads(want, 0, &e);
    int rc = iss_read(text, strlen(text), &iss, &p);
    ck_assert_msg(w != NULL, "bad test JSON: %s (%s)", e.text, want);
    ck_assert_msg(rc == 0, "%s: rc %d, %s: %s", text, rc, p.nerrors ? p.errors[0].field : "",
                  p.nerrors ? p.errors[0].detail : p.detail);
    if (!json_equal(iss.body, w)) {
        char *got = json_dumps(iss.body, JSON_COMPACT | JSON_SORT_KEYS);
        char *exp = json_dumps(w, JSON_COMPACT | JSON_SORT_KEYS);
        ck_abort_msg("%s\n  read %s\n  want %s", text, got, exp);
    }
    json_decref(w);
    api_sudoku_iss_destroy(&iss);
}

/* text (len bytes) is refused, naming `field` with a detail holding
 * `words`. */
static void expect_error_n(const char *text, size_t len, const char *field, const char *words) {
    api_sudoku_iss_t iss;
    api_problem_t p;
    int rc = iss_read(text, len, &iss, &p), found = 0;
    ck_assert_msg(rc == API_EINVALID, "%.60s: rc %d, want a 400", text, rc);
    ck_assert_ptr_null(iss.body);
    for (size_t i = 0; i < p.nerrors; i++)
        found |= strcmp(p.errors[i].field, field) == 0 && strstr(p.errors[i].detail, words);
    ck_assert_msg(found, "%.60s: no error '%s' with '%s'; first: %s: %s", text, field, words,
                  p.nerrors ? p.errors[0].field : "-", p.nerrors ? p.errors[0].detail : "-");
    api_sudoku_iss_destroy(&iss);
}

static void expect_error(const char *text, const char *field, const char *words) {
    expect_error_n(text, strlen(text), field, words);
}

/* One string per type: ISS's argument orders, defaults and derived cells. */
static const struct {
    const char *text, *json;
} type_cases[] = {
    /* givens: ids in either case, a repeat of the same value kept */
    {".Shape~4x4.~R1C1_1~R4C4_4~r2c3_2.Given~R1C1_1", "{\"grid\":\"1.....2........4\"," BOX22 "}"},
    /* a cage's empty sum and 0 are no total; a sum may list a cell twice */
    {".Shape~4x4.Cage~3~R1C1~R1C2.Cage~~R2C1~R2C2.Cage~0~R3C1.Sum~5~R4C1~R4C2~R4C1",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"cage\",\"sum\":3,\"cells\":[[0,0],[0,1]]},"
     "{\"type\":\"cage\",\"sum\":null,\"cells\":[[1,0],[1,1]]},"
     "{\"type\":\"cage\",\"sum\":null,\"cells\":[[2,0]]},"
     "{\"type\":\"sum\",\"sum\":5,\"cells\":[[3,0],[3,1],[3,0]]}]}"},
    /* each little killer named by its diagonal's first cell: left edge down
     * right, top edge down left, right edge up left, bottom edge up right */
    {".Shape~4x4.LittleKiller~7~R1C1.LittleKiller~5~R1C3.LittleKiller~4~R2C4.LittleKiller~6~R4C2",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"little-killer\",\"sum\":7,\"cells\":[[0,0],[1,1],[2,2],[3,3]]},"
     "{\"type\":\"little-killer\",\"sum\":5,\"cells\":[[0,2],[1,1],[2,0]]},"
     "{\"type\":\"little-killer\",\"sum\":4,\"cells\":[[1,3],[0,2]]},"
     "{\"type\":\"little-killer\",\"sum\":6,\"cells\":[[3,1],[2,2],[1,3]]}]}"},
    /* outside clues: the sum first for a sandwich, the line first for the
     * others, whose clues are from the left or top, then the right or
     * bottom (an empty one is none) */
    {".Shape~4x4.Sandwich~0~R1.Sandwich~5~C4.XSum~R2~6~.XSum~C1~~7.Skyscraper~C2~1~3",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"sandwich\",\"row\":0,\"sum\":0},{\"type\":\"sandwich\",\"col\":3,\"sum\":5},"
     "{\"type\":\"x-sum\",\"side\":\"left\",\"sum\":6,\"cells\":[[1,0],[1,1],[1,2],[1,3]]},"
     "{\"type\":\"x-sum\",\"side\":\"bottom\",\"sum\":7,\"cells\":[[3,0],[2,0],[1,0],[0,0]]},"
     "{\"type\":\"skyscraper\",\"side\":\"top\",\"visible\":1,\"cells\":[[0,1],[1,1],[2,1],[3,1]]},"
     "{\"type\":\"skyscraper\",\"side\":\"bottom\",\"visible\":3,"
     "\"cells\":[[3,1],[2,1],[1,1],[0,1]]}]}"},
    {".Shape~4x4.Thermo~R1C1~R1C2~R2C2.Renban~R3C1~R3C2.Palindrome~R4C1~R4C2~R4C3"
     ".Between~R1C3~R2C3~R3C3.Zipper~R1C4~R2C4~R3C4",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"thermo\",\"cells\":[[0,0],[0,1],[1,1]]},"
     "{\"type\":\"renban\",\"cells\":[[2,0],[2,1]]},"
     "{\"type\":\"palindrome\",\"cells\":[[3,0],[3,1],[3,2]]},"
     "{\"type\":\"between\",\"cells\":[[0,2],[1,2],[2,2]]},"
     "{\"type\":\"zipper\",\"cells\":[[0,3],[1,3],[2,3]]}]}"},
    /* a whisper without a number is a German whisper (5) */
    {".Shape~4x4.Whisper~R1C1~R1C2.Whisper~2~R2C1~R2C2.Lockout~2~R3C1~R3C2~R3C3"
     ".Modular~3~R4C1~R4C2~R4C3",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"whisper\",\"difference\":5,\"cells\":[[0,0],[0,1]]},"
     "{\"type\":\"whisper\",\"difference\":2,\"cells\":[[1,0],[1,1]]},"
     "{\"type\":\"lockout\",\"min_diff\":2,\"cells\":[[2,0],[2,1],[2,2]]},"
     "{\"type\":\"modular\",\"mod\":3,\"cells\":[[3,0],[3,1],[3,2]]}]}"},
    {".Entropic~R1C1~R1C2~R1C3", "{\"grid\":\"" DOTS81 "\"," BOX33 ",\"constraints\":["
                                 "{\"type\":\"entropic\",\"cells\":[[0,0],[0,1],[0,2]]}]}"},
    /* LOOP, last, makes a sum line a loop */
    {".Shape~4x4.SumLine~5~R1C1~R1C2~R2C2~R2C1~LOOP.SumLine~5~R3C1~R3C2",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"sum-line\",\"sum\":5,\"loop\":true,\"cells\":[[0,0],[0,1],[1,1],[1,0]]},"
     "{\"type\":\"sum-line\",\"sum\":5,\"loop\":false,\"cells\":[[2,0],[2,1]]}]}"},
    /* a region sum line cut into its runs through the boxes; equal sums
     * split by '-' */
    {".Shape~4x4.RegionSumLine~R1C1~R1C2~R1C3~R2C3~R3C3.EqualSum~R1C1~R1C2~-~R2C1~-~R3C1~R3C2",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"region-sum-line\",\"cells\":[[0,0],[0,1],[0,2],[1,2],[2,2]],"
     "\"segments\":[[[0,0],[0,1]],[[0,2],[1,2]],[[2,2]]]},"
     "{\"type\":\"equal-sum\",\"segments\":[[[0,0],[0,1]],[[1,0]],[[2,0],[2,1]]]}]}"},
    /* the circle first; a double arrow's circles are its ends */
    {".Shape~4x4.Arrow~R1C1~R1C2~R1C3.DoubleArrow~R2C1~R3C1~R4C1~R4C2",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"arrow\",\"circle\":[0,0],\"line\":[[0,1],[0,2]]},"
     "{\"type\":\"double-arrow\",\"circles\":[[1,0],[3,1]],\"line\":[[2,0],[3,0]]}]}"},
    /* a pill's cells sorted into reading order */
    {".PillArrow~2~R1C2~R1C1~R2C1~R3C1.PillArrow~3~R3C3~R2C2~R1C1~R4C4",
     "{\"grid\":\"" DOTS81 "\"," BOX33 ",\"constraints\":["
     "{\"type\":\"pill-arrow\",\"pill\":[[0,0],[0,1]],\"line\":[[1,0],[2,0]]},"
     "{\"type\":\"pill-arrow\",\"pill\":[[0,0],[1,1],[2,2]],\"line\":[[3,3]]}]}"},
    /* a mark over several cells holds between each two neighbours of the
     * list, the earlier one first (greater-than: the greater) */
    {".Shape~4x4.WhiteDot~R1C1~R1C2.BlackDot~R2C1~R2C2~R3C2.X~R4C1~R4C2.V~R3C3~R3C4"
     ".GreaterThan~R1C4~R2C4~R1C3",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"kropki-white\",\"cells\":[[0,0],[0,1]]},"
     "{\"type\":\"kropki-black\",\"cells\":[[1,0],[1,1]]},"
     "{\"type\":\"kropki-black\",\"cells\":[[1,1],[2,1]]},"
     "{\"type\":\"x\",\"cells\":[[3,0],[3,1]]},{\"type\":\"v\",\"cells\":[[2,2],[2,3]]},"
     "{\"type\":\"greater-than\",\"cells\":[[0,3],[0,2]]},"
     "{\"type\":\"greater-than\",\"cells\":[[0,3],[1,3]]}]}"},
    /* Diagonal~1 is the anti-diagonal; ISS keeps each direction, Windoku
     * and the rules over the grid once */
    {".Shape~4x4.Diagonal~1.Diagonal~-1.Diagonal~1.Windoku.Windoku",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"diagonal\",\"which\":\"anti\",\"cells\":[[0,3],[1,2],[2,1],[3,0]]},"
     "{\"type\":\"diagonal\",\"which\":\"main\",\"cells\":[[0,0],[1,1],[2,2],[3,3]]},"
     "{\"type\":\"windoku\",\"windows\":[[[1,1],[2,1],[1,2],[2,2]]]}]}"},
    {".Shape~4x4.AntiKnight.AntiKing.AntiConsecutive.StrictKropki.StrictXV.DisjointSets.AntiKnight",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
     "{\"type\":\"anti-knight\"},{\"type\":\"anti-king\"},{\"type\":\"anti-consecutive\"},"
     "{\"type\":\"strict-kropki\"},{\"type\":\"strict-xv\"},{\"type\":\"disjoint-sets\"}]}"},
    /* without boxes: rows and columns (a 1 x n box), ISS's disjoint sets as
     * extra units, wherever NoBoxes stands */
    {".Shape~4x4.DisjointSets.NoBoxes",
     "{\"grid\":\"" DOTS16 "\",\"box\":{\"rows\":1,\"cols\":4},\"extra_units\":["
     "[[0,0],[0,2],[2,0],[2,2]],[[0,1],[0,3],[2,1],[2,3]],[[1,0],[1,2],[3,0],[3,2]],"
     "[[1,1],[1,3],[3,1],[3,3]]]}"},
    /* a jigsaw: regions without boxes, extra units beside them; pieces that
     * are not connected, or a layout with one odd piece (left out), as
     * extra units too */
    {".Shape~4x4.NoBoxes.Jigsaw~0001011122232333",
     "{\"grid\":\"" DOTS16 "\",\"variant\":\"jigsaw\","
     "\"regions\":[[0,0,0,1],[0,1,1,1],[2,2,2,3],[2,3,3,3]]}"},
    {".Shape~4x4.Jigsaw~4x4~0001011122232333",
     "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"extra_units\":[[[0,0],[0,1],[0,2],[1,0]],"
     "[[0,3],[1,1],[1,2],[1,3]],[[2,0],[2,1],[2,2],[3,0]],[[2,3],[3,1],[3,2],[3,3]]]}"},
    {".Shape~4x4.NoBoxes.Jigsaw~0101101023233232",
     "{\"grid\":\"" DOTS16 "\",\"box\":{\"rows\":1,\"cols\":4},\"extra_units\":["
     "[[0,0],[0,2],[1,1],[1,3]],[[0,1],[0,3],[1,0],[1,2]],[[2,0],[2,2],[3,1],[3,3]],"
     "[[2,1],[2,3],[3,0],[3,2]]]}"},
    {".Shape~4x4.NoBoxes.Jigsaw~0000111122222222",
     "{\"grid\":\"" DOTS16 "\",\"box\":{\"rows\":1,\"cols\":4},\"extra_units\":["
     "[[0,0],[0,1],[0,2],[0,3]],[[1,0],[1,1],[1,2],[1,3]]]}"},
    /* shapes: the values' range and the grid type spelt out; a prime n has
     * no boxes, and then no windows and no region sum line */
    {".Shape~6x6~1-6~Sudoku", "{\"grid\":\"" DOTS36 "\",\"box\":{\"rows\":2,\"cols\":3}}"},
    {".Shape~5x5~5.Windoku.RegionSumLine~R1C1~R1C2",
     "{\"grid\":\"" DOTS16 ".........\",\"box\":{\"rows\":1,\"cols\":5}}"},
};

START_TEST(sudoku_iss_types) {
    for (size_t i = 0; i < sizeof type_cases / sizeof type_cases[0]; i++)
        expect_body(type_cases[i].text, type_cases[i].json);
}
END_TEST

/* Four of ISS's examples (data/example_puzzles.js, below) into their JSON,
 * written out from ISS's rules: Shape last ("6x6"), a jigsaw with NoBoxes,
 * both diagonals, little killers along ISS's diagonals. */
START_TEST(sudoku_iss_examples_read) {
    expect_body(/* "6x6", http://forum.enjoysudoku.com/6x6-su-dokus-how-hard-can-they-be-t2053.html
                 */
                ".~R1C5_4~R2C2_1~R2C4_3~R2C6_5~R3C4_2~R4C3_3~R5C1_6~R5C3_2~R5C5_5~R6C2_5.Shape~6x6",
                "{\"grid\":\"....4..1.3.5...2....3...6.2.5..5....\",\"box\":{\"rows\":2,\"cols\":3}"
                "}");
    expect_body(/* "Sudoku X",
                   http://forum.enjoysudoku.com/the-hardest-sudokus-new-thread-t6539-645.html */
                ".Diagonal~1.Diagonal~-1.~R1C3_1~R1C7_2~R2C3_2~R2C4_3~R2C9_4~R3C1_4~R4C1_5~R4C3_3"
                "~R4C8_6~R5C2_1~R5C9_5~R6C3_6~R7C5_7~R7C6_8~R8C5_9~R9C2_7~R9C6_1~R9C8_9",
                "{\"grid\":\"..1...2....23....44........5.3....6..1......5..6..........78......."
                "9.....7...1.9.\"," BOX33 ",\"constraints\":["
                "{\"type\":\"diagonal\",\"which\":\"anti\",\"cells\":[[0,8],[1,7],[2,6],[3,5],"
                "[4,4],[5,3],[6,2],[7,1],[8,0]]},"
                "{\"type\":\"diagonal\",\"which\":\"main\",\"cells\":[[0,0],[1,1],[2,2],[3,3],"
                "[4,4],[5,5],[6,6],[7,7],[8,8]]}]}");
    expect_body(/* "Jigsaw", https://www.youtube.com/watch?v=wuduuLVGKDQ */
                ".NoBoxes.Jigsaw~000000021453303021453333221453322221455566121445666111445566667"
                "488887777888887777.~R1C1_3~R1C9_7~R2C1_1~R2C9_5~R3C5_6~R3C6_8~R4C3_5~R4C5_1~R4C6"
                "_9~R5C4_9~R6C9_2~R7C1_8~R7C6_3~R8C4_2~R8C5_3~R8C6_5~R8C9_1~R9C8_9",
                "{\"grid\":\"3.......71.......5....68.....5.19......9.............28....3......"
                "235..1.......9.\",\"variant\":\"jigsaw\",\"regions\":[[0,0,0,0,0,0,0,1,2],"
                "[3,4,5,5,0,5,0,1,2],[3,4,5,5,5,5,1,1,2],[3,4,5,5,1,1,1,1,2],[3,4,4,4,6,6,2,1,2],"
                "[3,3,4,6,6,6,2,2,2],[3,3,4,4,6,6,6,6,7],[3,8,8,8,8,7,7,7,7],[8,8,8,8,8,7,7,7,7]]"
                "}");
    expect_body(/* "Little Killer Sudoku", https://www.youtube.com/watch?v=y4eKdI3ZJ78 */
                ".~R3C2_5~R3C7_2~R5C4_3~R5C5_7.LittleKiller~22~R1C1.LittleKiller~28~R2C1"
                ".LittleKiller~26~R3C1.LittleKiller~23~R1C5.LittleKiller~34~R1C7"
                ".LittleKiller~40~R1C8.LittleKiller~42~R1C9",
                "{\"grid\":\"...................5....2..............37............................."
                ".."
                ".........\"," BOX33 ",\"constraints\":["
                "{\"type\":\"little-killer\",\"sum\":22,\"cells\":[[0,0],[1,1],[2,2],[3,3],[4,4],"
                "[5,5],[6,6],[7,7],[8,8]]},"
                "{\"type\":\"little-killer\",\"sum\":28,\"cells\":[[1,0],[2,1],[3,2],[4,3],[5,4],"
                "[6,5],[7,6],[8,7]]},"
                "{\"type\":\"little-killer\",\"sum\":26,\"cells\":[[2,0],[3,1],[4,2],[5,3],[6,4],"
                "[7,5],[8,6]]},"
                "{\"type\":\"little-killer\",\"sum\":23,\"cells\":[[0,4],[1,3],[2,2],[3,1],[4,0]]},"
                "{\"type\":\"little-killer\",\"sum\":34,\"cells\":[[0,6],[1,5],[2,4],[3,3],[4,2],"
                "[5,1],[6,0]]},"
                "{\"type\":\"little-killer\",\"sum\":40,\"cells\":[[0,7],[1,6],[2,5],[3,4],[4,3],"
                "[5,2],[6,1],[7,0]]},"
                "{\"type\":\"little-killer\",\"sum\":42,\"cells\":[[0,8],[1,7],[2,6],[3,5],[4,4],"
                "[5,3],[6,2],[7,1],[8,0]]}]}");
}
END_TEST

/* The text around the items: a URL's q (percent escapes, '+', other
 * parameters, a fragment), blanks and '#' lines, and ISS's grids. */
START_TEST(sudoku_iss_forms) {
    char big[257];
    char want[400];
    expect_body("https://sigh.github.io/Interactive-Sudoku-Solver/?mode=all&q=.Shape%7E4x4"
                ".Cage%7E3%7ER1C1%7ER1C2+.~R2C2_4&q=.Quad#.Quad",
                "{\"grid\":\".....4.........."
                "\"," BOX22 ",\"constraints\":["
                "{\"type\":\"cage\",\"sum\":3,\"cells\":[[0,0],[0,1]]}]}");
    expect_body("  ?q=.Shape%7e4x4%0A%23.Quad%0A.~R1C1_2", "{\"grid\":\"2..............."
                                                           "\"," BOX22 "}");
    expect_body("# a comment line\n.Shape~4x4\n  .Thermo~R1C1~\n  R1C2\n#.Quad\n",
                "{\"grid\":\"" DOTS16 "\"," BOX22 ",\"constraints\":["
                "{\"type\":\"thermo\",\"cells\":[[0,0],[0,1]]}]}");
    /* grids: digits (any one character for empty cells), '=', a layout, givens then a
     * layout; from 10x10 on ISS's letters, A = 1 */
    expect_body("1002 0000 0000 0004", "{\"grid\":\"1..2...........4\"," BOX22 "}");
    expect_body("=0001011122232333", "{\"grid\":\"...1.11122232333\"," BOX22 "}");
    expect_body("0001011122232333", "{\"grid\":\"" DOTS16 "\",\"variant\":\"jigsaw\","
                                    "\"regions\":[[0,0,0,1],[0,1,1,1],[2,2,2,3],[2,3,3,3]]}");
    expect_body("1..2...........4 aaababbbccc0c000",
                "{\"grid\":\"1..2...........4\",\"variant\":\"jigsaw\","
                "\"regions\":[[0,0,0,1],[0,1,1,1],[2,2,2,3],[2,3,3,3]]}");
    memset(big, '.', 256);
    big[0] = 'P', big[255] = 'A', big[256] = '\0';
    snprintf(want, sizeof want, "{\"grid\":\"G%.254s1\",\"box\":{\"rows\":4,\"cols\":4}}", big + 1);
    expect_body(big, want);
    /* a '.' alone is ISS's empty 9x9 */
    expect_body(".", "{\"grid\":\"" DOTS81 "\"," BOX33 "}");
}
END_TEST

/* Every malformed text is a 400 naming the item and the character (in
 * the body as sent) and, for an item, its ISS type. */
START_TEST(sudoku_iss_bad_text) {
    static const struct {
        const char *text, *field, *words;
    } cases[] = {
        /* types ISS has that are not read, and names ISS does not have */
        {".Shape~4x4.Quad~R1C1~1", "item 2 at character 12",
         "'Quad' is an ISS type this server does not read"},
        {".Foo~1", "item 1 at character 2", "'Foo' is not an ISS constraint type"},
        {".Or.Thermo~R1C1~R1C2.End", "item 3 at character 22", "'End' is an ISS type"},
        /* cells: malformed, off the grid */
        {".Thermo~R1C1~R1CX", "item 1 at character 14", "Thermo: 'R1CX' is not a cell"},
        {".Shape~4x4.Thermo~R1C1~R5C1", "item 2 at character 24",
         "'R5C1' is not a cell R<row>C<col> of the 4x4 grid"},
        /* numbers: overflow, trailing junk, out of range */
        {".Cage~99999999999999999999~R1C1~R1C2", "item 1 at character 7", "is over 1000000"},
        {".~R1C1_99999999999999999999", "item 1 at character 8", "is not a value from 1 to 9"},
        {".Cage~10x~R1C1~R1C2", "item 1 at character 7", "'10x' is not a number"},
        {".~R1C1_5x", "item 1 at character 8", "'5x' is not a value from 1 to 9"},
        {".~R1C1_05", "item 1 at character 8", "'05' is not a value from 1 to 9"},
        {".Diagonal~1~2", "item 1 at character 1", "takes 1 (the anti-diagonal)"},
        {".Diagonal~0", "item 1 at character 11", "1 is the anti-diagonal, -1 the main one"},
        {".AntiKnight~x", "item 1 at character 1", "takes no arguments"},
        {".~R1C1_1_2", "item 1 at character 3", "pencil marks are not read"},
        {".~R1C1", "item 1 at character 3", "names no value"},
        {".~R1C1_1~R1C1_2", "item 1 at character 10", "R1C1 is given twice, as 1 and 2"},
        {".Sum~0_=_1_-1~R1C1~R1C2", "item 1 at character 6", "coefficients"},
        {".LittleKiller~10~R5C5", "item 1 at character 18", "no diagonal clue starts at 'R5C5'"},
        {".XSum~R1~0", "item 1 at character 10", "a clue of 0"},
        {".XSum~R10~5", "item 1 at character 7", "'R10' is not a row R1..R9"},
        {".Sandwich~5~C01", "item 1 at character 13", "'C01' is not a row R1..R9"},
        {".Sandwich~1~R1.Sandwich~2~R1", "item 2 at character 27", "a second clue at 'R1'"},
        {".Shape~6x9", "item 1 at character 8", "a 6x9 grid"},
        {".Shape~9x9~0-8", "item 1 at character 12", "values '0-8'"},
        {".Shape~9x9~~Raw", "item 1 at character 13", "only Sudoku grids"},
        {".Shape~3x3", "item 1 at character 8", "a 3x3 grid"},
        {".Shape~9x9.Shape~6x6", "item 2 at character 18", "a second Shape"},
        {".Shape~6x6.Entropic~R1C1~R1C2", "item 2 at character 11", "9x9 grids only"},
        {".DoubleArrow~R1C1~R1C2", "item 1 at character 1", "a circle, a line and a circle"},
        {".Arrow~R1C1", "item 1 at character 1", "its circle and a line"},
        {".PillArrow~4~R1C1~R1C2~R1C3", "item 1 at character 12", "a pill of 4 digits"},
        {".PillArrow~2~R1C2~R2C1~R3C1", "item 1 at character 1", "neighbours in reading order"},
        {".WhiteDot~R1C1~R3C3", "item 1 at character 1", "no two of its cells are orthogonal"},
        {".Thermo", "item 1 at character 1", "lists no cells"},
        {".Jigsaw~0001", "item 1 at character 9", "a layout of 4 labels"},
        {".Shape~4x4.NoBoxes.Jigsaw~0000011111222223", "item 3 at character 27",
         "pieces are not 4 cells each"},
        /* the text as a whole */
        {"https://x.org/?mode=1#q=.~R1C1_1", "body", "without a q parameter"},
        {"?q=.~R1C1_5%2", "character 12", "starts no %XX escape"},
        {"?q=%", "character 4", "starts no %XX escape"},
        {"  \n\t", "body", "empty"},
        {"hello", "character 1", "not ISS text"},
        {"1.2-............", "character 4", "'-' and another character both stand"},
        {"1|2|3", "character 1", "separators are not read"},
        {"=1.2-", "character 1", "'=' starts a grid"},
        {"3x3::k:6150:6150", "character 1", "long killer format"},
        /* "Killing with flowers", ISS data/example_puzzles.js,
         * http://forum.enjoysudoku.com/killing-with-flowers-t36181-15.html#p279032 */
        {"S<J<<O<<KJ^<<^<^>^^<N<<<J^Q^S^O>>^^^>^W^<<^>^^O^<<^T^J^^^>>>^>^>^ML<S<<^^>^<^<<^<",
         "character 1", "short killer format"},
    };
    static char text[API_SUDOKU_ISS_MAX_BYTES + 2];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(cases[i].text, cases[i].field, cases[i].words);
    /* bounds: the text's bytes, its items */
    memset(text, '.', sizeof text);
    expect_error_n(text, API_SUDOKU_ISS_MAX_BYTES + 1, "body", "at most 65536 are read");
    expect_error_n(text, API_SUDOKU_ISS_MAX_ITEMS + 1, "body", "4097 items: at most 4096");
    /* 9 x 9 x 9 digits: pencil marks; 16x16 written in our digits, not ISS's letters */
    for (int k = 0; k < 729; k++)
        text[k] = (char)('1' + k % 9);
    expect_error_n(text, 729, "character 1", "pencil marks are not read");
    memset(text, '.', 256);
    text[0] = '1';
    expect_error_n(text, 256, "character 2", "ISS writes values as letters");
}
END_TEST

/* The JSON path's problems, back in the text: a constraint's field names
 * its item, a given's cell names the given, the options are the query's,
 * the rest the body's. */
START_TEST(sudoku_iss_rename) {
    static const char text[] = ".Shape~4x4.~R1C2_3.Cage~50~R1C1~R2C1";
    api_sudoku_iss_t iss;
    api_problem_t p;
    ck_assert_int_eq(iss_read(text, strlen(text), &iss, &p), 0);
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    api_problem_add(&p, "body", "constraints[0].sum", "must be an integer from 3 to 7");
    api_problem_add(&p, "body", "grid[0][1]", "3 repeats in row 1");
    api_problem_add(&p, "body", "max_solutions", "at most 2");
    api_problem_add(&p, "body", "constraints", "too many");
    api_problem_add(&p, "body", "box", "no");
    api_problem_add(&p, "query", "timeout_ms", "x");
    api_sudoku_iss_rename(&iss, &p);
    ck_assert_str_eq(p.errors[0].field, "item 3 at character 19");
    ck_assert_str_eq(p.errors[0].detail,
                     "Cage, read as constraints[0].sum: must be an integer from 3 to 7");
    ck_assert_str_eq(p.errors[1].field, "item 2 at character 13");
    ck_assert_str_eq(p.errors[1].detail, "Given R1C2, read as grid[0][1]: 3 repeats in row 1");
    ck_assert_str_eq(p.errors[2].in, "query");
    ck_assert_str_eq(p.errors[2].field, "max_solutions");
    ck_assert_str_eq(p.errors[3].in, "body");
    ck_assert_str_eq(p.errors[3].field, "body");
    ck_assert_str_eq(p.errors[3].detail, "read as constraints: too many");
    ck_assert_str_eq(p.errors[4].in, "query"); /* box is a query parameter too */
    ck_assert_str_eq(p.errors[5].in, "query");
    ck_assert_str_eq(p.errors[5].detail, "x");
    api_sudoku_iss_destroy(&iss);
    /* a request not made from ISS's text keeps its names */
    api_sudoku_iss_init(&iss);
    api_problem_init(&p, API_EINVALID, "the request is not valid");
    api_problem_add(&p, "body", "constraints[0].sum", "must be an integer from 3 to 7");
    api_sudoku_iss_rename(&iss, &p);
    ck_assert_str_eq(p.errors[0].field, "constraints[0].sum");
}
END_TEST

/* Every allocation of a read failing in turn: API_ENOMEM and a 503, the
 * struct left empty, nothing leaked (the sanitizers' leak check); the
 * first read that runs clean reads what an unarmed one reads. */
START_TEST(sudoku_iss_allocation_failures) {
    static const char *const texts[] = {
        ".Shape~4x4.~R1C2_3.Cage~5~R1C1~R2C1.LittleKiller~7~R1C1.XSum~R2~6~5.Sandwich~0~R1"
        ".RegionSumLine~R1C1~R1C2~R1C3.EqualSum~R1C1~-~R2C2.PillArrow~2~R3C1~R3C2~R4C1"
        ".BlackDot~R2C1~R2C2~R3C2.Diagonal~1.Windoku.AntiKing.DisjointSets.NoBoxes"
        ".Jigsaw~0101101023233232.DoubleArrow~R1C1~R2C1~R3C1.SumLine~5~R1C1~R1C2~LOOP",
        "?q=.Shape%7E4x4.NoBoxes.Jigsaw%7E0001011122232333.Arrow%7ER1C1%7ER1C2",
        "1..2...........4 aaababbbccc0c000",
    };
    guard_install(); /* jansson's allocations through the failing malloc too */
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        api_sudoku_iss_t want, iss;
        api_problem_t p;
        int clean = 0;
        ck_assert_int_eq(iss_read(texts[t], strlen(texts[t]), &want, &p), 0);
        for (long k = 1; k < 100000 && !clean; k++) {
            int rc;
            api_sudoku_iss_init(&iss);
            api_problem_init(&p, API_EINVALID, "the request is not valid");
            fa_arm(k);
            rc = api_sudoku_iss_read(texts[t], strlen(texts[t]), &iss, &p);
            fa_disarm();
            if (!fa_fired()) {
                ck_assert_int_eq(rc, 0);
                ck_assert(json_equal(iss.body, want.body));
                clean = 1;
            } else {
                ck_assert_msg(rc == API_ENOMEM, "text %zu, allocation %ld: rc %d", t, k, rc);
                ck_assert_int_eq(p.code, API_ENOMEM);
                ck_assert_ptr_null(iss.body);
                ck_assert_ptr_null(iss.cons_at);
                ck_assert(!iss.used);
            }
            api_sudoku_iss_destroy(&iss);
        }
        ck_assert_msg(clean, "text %zu never read clean", t);
        api_sudoku_iss_destroy(&want);
    }
}
END_TEST

/* === ISS's rules, checked on a grid ======================================== */

/* What follows checks a full grid against a request read from ISS's text,
 * rule by rule as ISS_FORMAT states them (../shared/data/variants/
 * ISS_FORMAT.md), with none of the server's code: rows, columns, boxes,
 * regions, extra units, and every constraint. */

typedef struct grid_s {
    int n, v[256];
    json_t *body;
} grid_t;

static int cell_of(const grid_t *g, json_t *c) {
    return (int)json_integer_value(json_array_get(c, 0)) * g->n +
           (int)json_integer_value(json_array_get(c, 1));
}

/* The values of a list of cells into out; how many. */
static int values_of(const grid_t *g, json_t *list, int *out) {
    size_t i;
    json_t *c;
    json_array_foreach(list, i, c) out[i] = g->v[cell_of(g, c)];
    return (int)json_array_size(list);
}

static int all_distinct(const int *v, int len) {
    for (int i = 0; i < len; i++)
        for (int j = i + 1; j < len; j++)
            if (v[i] == v[j]) return 0;
    return 1;
}

static int total(const int *v, int from, int to) {
    int s = 0;
    for (int i = from; i < to; i++)
        s += v[i];
    return s;
}

static int num(json_t *c, const char *key) {
    return (int)json_integer_value(json_object_get(c, key));
}

/* Whether a sum line's cells split into runs that each add up to s (a
 * loop's runs may start anywhere). */
static int runs_hold(const int *v, int len, int s, int loop) {
    for (int from = 0; from < (loop ? len : 1); from++) {
        int run = 0, k;
        for (k = 0; k < len && run <= s; k++)
            if ((run += v[(from + k) % len]) == s) run = 0;
        if (k == len && run == 0) return 1;
    }
    return 0;
}

/* Whether a pair (a, b) is listed by a constraint of one of the types. */
static int marked(const grid_t *g, int a, int b, const char *t1, const char *t2) {
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(g->body, "constraints"), i, c) {
        const char *t = json_string_value(json_object_get(c, "type"));
        json_t *cells = json_object_get(c, "cells");
        int x, y;
        if (strcmp(t, t1) != 0 && strcmp(t, t2) != 0) continue;
        x = cell_of(g, json_array_get(cells, 0)), y = cell_of(g, json_array_get(cells, 1));
        if ((x == a && y == b) || (x == b && y == a)) return 1;
    }
    return 0;
}

/* The rules over the whole grid: every pair at one of the steps keeps rel. */
static int steps_hold(const grid_t *g, const int (*steps)[2], int nsteps, int rel) {
    int n = g->n;
    for (int c = 0; c < n * n; c++)
        for (int s = 0; s < nsteps; s++) {
            int r = c / n + steps[s][0], k = c % n + steps[s][1], a = g->v[c], b, o;
            if (r < 0 || r >= n || k < 0 || k >= n) continue;
            o = r * n + k, b = g->v[o];
            if (rel == 0 && a == b) return 0;
            if (rel == 1 && abs(a - b) == 1) return 0;
            if (rel == 2 && !marked(g, c, o, "kropki-white", "kropki-black") &&
                (abs(a - b) == 1 || a == 2 * b || b == 2 * a))
                return 0;
            if (rel == 3 && !marked(g, c, o, "x", "v") && (a + b == 5 || a + b == 10)) return 0;
        }
    return 1;
}

/* The constraints of a line of cells (thermo, whisper, ...). */
static int line_holds(const char *t, json_t *c, const int *v, int len) {
    int lo = v[0] < v[len - 1] ? v[0] : v[len - 1], hi = v[0] < v[len - 1] ? v[len - 1] : v[0];
    if (strcmp(t, "thermo") == 0) {
        for (int i = 1; i < len; i++)
            if (v[i] <= v[i - 1]) return 0;
    } else if (strcmp(t, "whisper") == 0) {
        for (int i = 1; i < len; i++)
            if (abs(v[i] - v[i - 1]) < num(c, "difference")) return 0;
    } else if (strcmp(t, "renban") == 0) {
        int mn = v[0], mx = v[0];
        for (int i = 1; i < len; i++)
            mn = v[i] < mn ? v[i] : mn, mx = v[i] > mx ? v[i] : mx;
        return all_distinct(v, len) && mx - mn == len - 1;
    } else if (strcmp(t, "palindrome") == 0) {
        for (int i = 0; i < len; i++)
            if (v[i] != v[len - 1 - i]) return 0;
    } else if (strcmp(t, "between") == 0 || strcmp(t, "lockout") == 0) {
        int between = t[0] == 'b';
        if (!between && hi - lo < num(c, "min_diff")) return 0;
        for (int i = 1; i < len - 1; i++)
            if (between ? !(v[i] > lo && v[i] < hi) : (v[i] >= lo && v[i] <= hi)) return 0;
    } else if (strcmp(t, "modular") == 0 || strcmp(t, "entropic") == 0) {
        int m = t[0] == 'm' ? num(c, "mod") : 3;
        for (int i = 0; i < len; i++)
            for (int j = i + 1; j < len && j < i + m; j++)
                if (t[0] == 'm' ? v[i] % m == v[j] % m : (v[i] - 1) / 3 == (v[j] - 1) / 3) return 0;
    } else if (strcmp(t, "zipper") == 0) {
        int want = len % 2 ? v[len / 2] : v[0] + v[len - 1];
        for (int i = 0; i < len / 2; i++)
            if (v[i] + v[len - 1 - i] != want) return 0;
    } else if (strcmp(t, "sum-line") == 0) {
        return runs_hold(v, len, num(c, "sum"), json_is_true(json_object_get(c, "loop")));
    } else if (strcmp(t, "x-sum") == 0) {
        return v[0] <= len && total(v, 0, v[0]) == num(c, "sum");
    } else if (strcmp(t, "skyscraper") == 0) {
        int seen = 0, tallest = 0;
        for (int i = 0; i < len; i++)
            if (v[i] > tallest) tallest = v[i], seen++;
        return seen == num(c, "visible");
    } else {
        return -1; /* not a line */
    }
    return 1;
}

/* The constraints of sums, marks and units. */
static int sum_holds(const grid_t *g, const char *t, json_t *c, const int *v, int len) {
    int w[256], k;
    if (strcmp(t, "cage") == 0) {
        json_t *s = json_object_get(c, "sum");
        return all_distinct(v, len) && (json_is_null(s) || total(v, 0, len) == num(c, "sum"));
    }
    if (strcmp(t, "sum") == 0 || strcmp(t, "little-killer") == 0)
        return total(v, 0, len) == num(c, "sum");
    if (strcmp(t, "kropki-white") == 0) return abs(v[0] - v[1]) == 1;
    if (strcmp(t, "kropki-black") == 0) return v[0] == 2 * v[1] || v[1] == 2 * v[0];
    if (strcmp(t, "x") == 0) return v[0] + v[1] == 10;
    if (strcmp(t, "v") == 0) return v[0] + v[1] == 5;
    if (strcmp(t, "greater-than") == 0) return v[0] > v[1];
    if (strcmp(t, "diagonal") == 0) return all_distinct(v, len) && len == g->n;
    if (strcmp(t, "arrow") == 0 || strcmp(t, "double-arrow") == 0 || strcmp(t, "pill-arrow") == 0) {
        int head = 0, line = values_of(g, json_object_get(c, "line"), w);
        if (t[0] == 'a')
            head = g->v[cell_of(g, json_object_get(c, "circle"))];
        else if (t[0] == 'd')
            head = total(w, line, line + values_of(g, json_object_get(c, "circles"), w + line));
        else
            for (int i = 0, p = values_of(g, json_object_get(c, "pill"), w + line); i < p; i++)
                head = head * 10 + w[line + i];
        return head == total(w, 0, line);
    }
    if (strcmp(t, "sandwich") == 0) {
        int line = json_object_get(c, "row") ? num(c, "row") : num(c, "col"), a = -1, b = -1;
        for (k = 0; k < g->n; k++) {
            int x = json_object_get(c, "row") ? g->v[line * g->n + k] : g->v[k * g->n + line];
            w[k] = x;
            if ((x == 1 || x == g->n) && a < 0)
                a = k;
            else if (x == 1 || x == g->n)
                b = k;
        }
        return total(w, a + 1, b) == num(c, "sum");
    }
    return -1;
}

/* The rules of constraint c on g: 1 kept, 0 broken. */
static int holds(const grid_t *g, json_t *c) {
    const char *t = json_string_value(json_object_get(c, "type"));
    int v[512], len = values_of(g, json_object_get(c, "cells"), v), rc;
    static const int knight[8][2] = {{1, 2},  {2, 1},  {-1, 2},  {-2, 1},
                                     {1, -2}, {2, -1}, {-1, -2}, {-2, -1}},
                     king[8][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1},
                                   {0, 1}, {1, 0},  {0, -1}, {-1, 0}};
    json_t *seg;
    size_t i;
    if (strcmp(t, "region-sum-line") == 0 || strcmp(t, "equal-sum") == 0 ||
        strcmp(t, "windoku") == 0) {
        int first = -1, w[256];
        json_array_foreach(json_object_get(c, t[0] == 'w' ? "windows" : "segments"), i, seg) {
            int k = values_of(g, seg, w);
            if (t[0] == 'w' ? !all_distinct(w, k) : first >= 0 && total(w, 0, k) != first) return 0;
            first = total(w, 0, k);
        }
        return first >= 0;
    }
    if (strcmp(t, "anti-knight") == 0) return steps_hold(g, knight, 8, 0);
    if (strcmp(t, "anti-king") == 0) return steps_hold(g, king, 8, 0);
    if (strcmp(t, "anti-consecutive") == 0) return steps_hold(g, king + 4, 4, 1);
    if (strcmp(t, "strict-kropki") == 0) return steps_hold(g, king + 4, 4, 2);
    if (strcmp(t, "strict-xv") == 0) return steps_hold(g, king + 4, 4, 3);
    if (strcmp(t, "disjoint-sets") == 0) {
        int bh = num(json_object_get(g->body, "box"), "rows"), bw = g->n / bh;
        for (int at = 0; at < g->n; at++) {
            int w[64];
            for (int b = 0; b < g->n; b++)
                w[b] =
                    g->v[(b / (g->n / bw) * bh + at / bw) * g->n + b % (g->n / bw) * bw + at % bw];
            if (!all_distinct(w, g->n)) return 0;
        }
        return 1;
    }
    if ((rc = len > 0 ? line_holds(t, c, v, len) : -1) >= 0) return rc;
    if ((rc = sum_holds(g, t, c, v, len)) >= 0) return rc;
    ck_abort_msg("no rule for type %s", t);
    return 0;
}

/* Whether a full grid keeps the units: rows, columns, boxes, regions,
 * extra units. */
static int units_hold(const grid_t *g) {
    json_t *box = json_object_get(g->body, "box"), *regions = json_object_get(g->body, "regions"),
           *u;
    int n = g->n, bh = box ? num(box, "rows") : 0, bw = box ? num(box, "cols") : 0, w[64];
    size_t i;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int l = j + 1; l < n; l++)
                if (g->v[k * n + j] == g->v[k * n + l] || g->v[j * n + k] == g->v[l * n + k] ||
                    (bh > 0 &&
                     g->v[(k / (n / bw) * bh + j / bw) * n + k % (n / bw) * bw + j % bw] ==
                         g->v[(k / (n / bw) * bh + l / bw) * n + k % (n / bw) * bw + l % bw]))
                    return 0;
    for (int a = 0; regions != NULL && a < n * n; a++)
        for (int b = a + 1; b < n * n; b++)
            if (json_integer_value(
                    json_array_get(json_array_get(regions, (size_t)(a / n)), (size_t)(a % n))) ==
                    json_integer_value(json_array_get(json_array_get(regions, (size_t)(b / n)),
                                                      (size_t)(b % n))) &&
                g->v[a] == g->v[b])
                return 0;
    json_array_foreach(json_object_get(g->body, "extra_units"), i,
                       u) if (!all_distinct(w, values_of(g, u, w))) return 0;
    return 1;
}

/* sol (ISS's characters: 1-9 up to 9x9, then A = 1 ...) into g->v. */
static void grid_from_iss(grid_t *g, const char *sol) {
    for (int c = 0; c < g->n * g->n; c++)
        g->v[c] = g->n < 10 ? sol[c] - '0' : sol[c] - 'A' + 1;
}

/* The server's grid (1-9, then A = 10 ...) into g->v. */
static void grid_from_ours(grid_t *g, const char *sol) {
    for (int c = 0; c < g->n * g->n; c++)
        g->v[c] = api_grid_char_value(sol[c]);
}

/* Whether g keeps the givens, the units and every constraint of its body;
 * names the first broken one in why. */
static int grid_holds(const grid_t *g, char *why, size_t cap) {
    const char *givens = json_string_value(json_object_get(g->body, "grid"));
    json_t *c;
    size_t k;
    for (int i = 0; i < g->n * g->n; i++)
        if (givens[i] != '.' && api_grid_char_value(givens[i]) != g->v[i]) {
            snprintf(why, cap, "the given at [%d][%d]", i / g->n, i % g->n);
            return 0;
        }
    if (!units_hold(g)) {
        snprintf(why, cap, "a row, column, box or region");
        return 0;
    }
    json_array_foreach(json_object_get(g->body, "constraints"), k, c) if (!holds(g, c)) {
        snprintf(why, cap, "constraints[%zu] (%s)", k,
                 json_string_value(json_object_get(c, "type")));
        return 0;
    }
    return 1;
}

/* === ISS's examples ======================================================== */

/* From sigh/Interactive-Sudoku-Solver@e373f98, data/example_puzzles.js
 * (MIT): each puzzle's name in ISS, its first link (its setter's page or a
 * video of it), its text as ISS writes it, and ISS's solution (1-9; A = 1
 * from 10x10 on).  `solve`: quick enough for every test run (under a
 * second here); the other two are ISS's hard ones, checked without
 * solving. */
static const struct {
    const char *name;
    int solve;
    const char *text, *solution;
} examples[] = {
    /* "Sudoku X", http://forum.enjoysudoku.com/the-hardest-sudokus-new-thread-t6539-645.html */
    {"Sudoku X", 1,
     ".Diagonal~1.Diagonal~-1.~R1C3_1~R1C7_2~R2C3_2~R2C4_3~R2C9_4~R3C1_4~R4C1_5~R4C3_3~R4C8_6~R5"
     "C2_1~R5C9_5~R6C3_6~R7C5_7~R7C6_8~R8C5_9~R9C2_7~R9C6_1~R9C8_9",
     "681945237792316584435827619523784961817639425946152873369478152158293746274561398"},
    /* "X-Windoku",
       http://forum.enjoysudoku.com/x-sudoku-extreme-t34714-30.html?hilit=windoku#p309418 */
    {"X-Windoku", 1,
     ".Diagonal~1.Diagonal~-1.Windoku.~R1C8_1~R2C5_2~R2C9_3~R4C1_4~R4C6_3~R5C5_5~R5C9_6~R6C5_1~R"
     "7C6_7~R7C7_8~R8C5_6~R9C5_3~R9C6_2",
     "932674518678521943541398267469283751217459386853716429326147895794865132185932674"},
    /* "6x6", http://forum.enjoysudoku.com/6x6-su-dokus-how-hard-can-they-be-t2053.html */
    {"6x6", 1, ".~R1C5_4~R2C2_1~R2C4_3~R2C6_5~R3C4_2~R4C3_3~R5C1_6~R5C3_2~R5C5_5~R6C2_5.Shape~6x6",
     "325146416325541263263514632451154632"},
    /* "Jigsaw", https://www.youtube.com/watch?v=wuduuLVGKDQ */
    {"Jigsaw", 1,
     ".NoBoxes.Jigsaw~00000002145330302145333322145332222145556612144566611144556666748888777788"
     "8887777.~R1C1_3~R1C9_7~R2C1_1~R2C9_5~R3C5_6~R3C6_8~R4C3_5~R4C5_1~R4C6_9~R5C4_9~R6C9_2~R7C1"
     "_8~R7C6_3~R8C4_2~R8C5_3~R8C6_5~R8C9_1~R9C8_9",
     "364891527189374265542168739625719843213987456937456182876523914498235671751642398"},
    /* "16x16: Jigsaw", http://forum.enjoysudoku.com/16x16-jigsaw-sudoku-t38676.html#p300550 */
    {"16x16: Jigsaw", 1,
     "..E..K..MI....P.K....P....L.MF.B....HM.D....O..FJI.....KG.DB.C.O.OD...NAE.HM.K..........P."
     "I....GIF.HL.B....AC..JCE.P...L.M............I.O...P.HDN..IM....E.PB.DCD....G.P..........A."
     "CI.OHF...JL.E.F.GA.HI.....OKF..N....A.PL....H.PJ.C....M....I.C....MI..K..G.. AAAAABBBBBCDD"
     "DDDAAEAABBBBBCDDDDDAAEAAABBFCCDDDDGAAEBBBBFFCCCDDGGHHEEEEEEFCCCIGGGHHHEEEEEFFCCIGGGHHHHEFE"
     "FFICCIGGGHHHHHFFFIICCIIGGHJJHJJFFIIIIIIKGJJJJJFFLIIKKKKKGJJJJJJLLLLLKKKKKJMLLLLLLLNLLKKKKM"
     "MLMNNNNNNOPPPPKMMMMMNNOOOOOPPPPMMMMNNNOOOOOPPPPMMMNNNNOOOOOPPPP",
     "OLECFKGBMIJHNDPAKNHADPCEJOLIMFGBGPIBHMADCNEJOLKFJIMLNHFKGPDBECAOBODGPFNAECHMJKILLDNEJOKCPA"
     "IFHMBGIFGHLDBMNKOACPEJCEJPABOLDMGKFINHMJCKELIFOBAGPNHDNAKIMJHGLEFPBODCDHBFOGJPKLNCIAMEPKAM"
     "CIEOHFBDGJLNEMFDGAPHIJCNLBOKFBONIEDJAGPLKHCMHGPJKCLNBDMOAEFIACLOBNMIFHKEDGJP"},
    /* "Thermo", https://www.youtube.com/watch?v=lgJYOuVk910 */
    {"Thermo", 1,
     ".~R1C2_4~R1C8_1~R2C1_2~R2C9_6~R8C1_9~R8C9_2~R9C2_1~R9C8_9.Thermo~R9C4~R8C3~R7C2~R6C1~R5C2~"
     "R4C3.Thermo~R4C1~R3C2~R2C3~R1C4~R2C5~R3C6.Thermo~R1C6~R2C7~R3C8~R4C9~R5C8~R6C7.Thermo~R6C9"
     "~R7C8~R8C7~R9C6~R8C5~R7C4",
     "847632519295471386631598247129743865486259173753816924368924751974185632512367498"},
    /* "German Whispers", https://www.youtube.com/watch?v=nH3vat8z9uM */
    {"German Whispers", 1,
     ".Whisper~R8C1~R7C1~R7C2~R8C3~R9C3~R9C2.Whisper~R9C6~R8C7~R7C7~R7C8~R6C9~R5C8.Whisper~R6C3~"
     "R5C2~R4C3~R3C4~R2C5~R1C6~R1C7~R2C8~R3C8~R4C7~R5C6~R6C6~R7C6~R8C5~R7C4.Whisper~R4C5~R4C6~R3"
     "C7.~R1C5_1~R2C2_5~R5C1_6~R5C9_9~R7C3_3~R8C8_3~R9C1_5~R9C5_3",
     "796413852352689417184275693247591386615348279839762541923857164478126935561934728"},
    /* "Arrow", https://sugarroad.blogspot.com/search/label/sudoku */
    {"Arrow", 1,
     ".Arrow~R1C5~R2C4~R3C3~R4C2~R5C1.Arrow~R3C7~R2C6~R3C5~R4C4~R5C3.Arrow~R6C2~R7C3~R6C4~R5C5~R"
     "4C6.Arrow~R7C4~R7C5~R7C6.Arrow~R6C7~R5C7~R4C7.Arrow~R5C9~R6C8~R7C7~R8C6~R9C5.~R1C2_6~R1C9_"
     "9~R2C1_9~R8C9_3~R9C1_4~R9C8_7",
     "167584329985362417342719856718293645253647198694158732571936284829471563436825971"},
    /* "Double arrow", https://sudokupad.app/v2m1f8gtlp */
    {"Double arrow", 1,
     ".DoubleArrow~R1C4~R1C5~R1C6~R1C7.DoubleArrow~R2C3~R2C4~R2C5~R2C6.DoubleArrow~R3C2~R3C3~R3C"
     "4~R3C5.DoubleArrow~R4C1~R4C2~R4C3~R4C4.DoubleArrow~R4C5~R5C5~R6C5.DoubleArrow~R6C6~R6C7~R6"
     "C8~R6C9.DoubleArrow~R7C5~R7C6~R7C7~R7C8.DoubleArrow~R8C4~R8C5~R8C6~R8C7.DoubleArrow~R9C3~R"
     "9C4~R9C5~R9C6.~R9C1_3~R4C1_1~R4C4_5~R3C2_2~R2C3_3~R1C4_4~R1C7_8~R2C6_7~R3C5_6~R6C6_9~R6C9_"
     "1~R7C5_8~R8C4_7~R9C3_6~R9C6_4~R8C7_4~R7C8_1",
     "561493872493827165827165943142538697689271354735649281954382716218756439376914528"},
    /* "Pill Arrow Sudoku", https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=0007D1 */
    {"Pill Arrow Sudoku", 1,
     ".PillArrow~2~R1C3~R1C2~R1C1~R2C1~R3C1.PillArrow~2~R1C8~R1C7~R1C6~R1C5~R1C4.PillArrow~2~R2C"
     "7~R2C6~R2C5~R2C4~R2C3.PillArrow~2~R4C1~R5C1~R6C1~R7C1~R8C1.PillArrow~2~R3C2~R4C2~R5C2~R6C2"
     "~R7C2.PillArrow~2~R9C1~R9C2~R9C3~R9C4~R9C5.PillArrow~2~R5C9~R4C9~R3C9~R2C9~R1C9.PillArrow~"
     "2~R8C6~R9C6~R9C7~R9C8~R9C9.Arrow~R3C3~R4C4~R5C5.Arrow~R7C3~R6C4~R5C5~R4C6.Arrow~R3C8~R4C7.",
     "514896237679231485328745196235684971491327658786159342967418523853962714142573869"},
    /* "Little Killer Sudoku", https://www.youtube.com/watch?v=y4eKdI3ZJ78 */
    {"Little Killer Sudoku", 1,
     ".~R3C2_5~R3C7_2~R5C4_3~R5C5_7.LittleKiller~22~R1C1.LittleKiller~28~R2C1.LittleKiller~26~R3"
     "C1.LittleKiller~23~R1C5.LittleKiller~34~R1C7.LittleKiller~40~R1C8.LittleKiller~42~R1C9",
     "198235764427968531653714289732186945541379826986542173865421397279653418314897652"},
    /* "Skyscraper", https://www.youtube.com/watch?v=rLlZA5ZND00 */
    {"Skyscraper", 1,
     ".~R1C1_1~R1C6_2~R1C9_8~R3C1_3~R3C4_6~R3C7_4~R5C1_5~R5C3_2~R5C6_3~R7C1_7~R7C4_8~R7C7_2~R9C9"
     "_6~R9C6_4~R9C1_9.Skyscraper~C5~5.Skyscraper~R2~2.Skyscraper~R4~4.Skyscraper~R6~6.Skyscrape"
     "r~R8~8",
     "147932658826145937359678412678419325592783164413256789765891243234567891981324576"},
    /* "X-Sum", https://www.youtube.com/watch?v=fnCzYnsC4Ow */
    {"X-Sum", 1,
     ".XSum~C2~27~27.XSum~C4~11~11.XSum~C6~21~.XSum~C7~16~16.XSum~R2~8~8.XSum~R4~17~17.XSum~R6~3"
     "0~30.XSum~R8~28~28.",
     "856214379341975862792863541417529683985631724623487195274156938539748216168392457"},
    /* "Between 1 and 9 Sudoku", https://www.youtube.com/watch?v=2wfR6QIvNn4&t=4s */
    {"Between 1 and 9 Sudoku", 1,
     ".Sandwich~8~C1.Sandwich~4~C2.Sandwich~17~C3.Sandwich~35~C4.Sandwich~14~C5.Sandwich~13~C6.S"
     "andwich~3~C7.Sandwich~10~C8.Sandwich~25~C9.Sandwich~4~R1.Sandwich~33~R2.Sandwich~20~R3.San"
     "dwich~17~R4.Sandwich~26~R5.Sandwich~10~R6.Sandwich~16~R7.Sandwich~24~R8.Sandwich~0~R9.~R3C"
     "3_1~R5C5_5~R7C7_9",
     "236941875954378612871625439182439756397856124645217398413562987569783241728194563"},
    /* "Merry X/V-mas", https://www.youtube.com/watch?v=VL6qPIWAmBs */
    {"Merry X/V-mas", 1,
     ".StrictXV .Whisper~5~R1C1~R2C2~R3C3 .Whisper~5~R3C1~R2C2~R1C3 .Whisper~5~R6C2~R5C2~R4C2~R5"
     "C3~R4C4~R5C4~R6C4 .Whisper~5~R6C7~R5C7~R6C6~R5C5~R4C6~R5C7 .Whisper~5~R6C9~R6C8~R7C8~R8C9~"
     "R9C8~R8C7 .Whisper~5~R1C5~R2C6~R3C7~R2C7~R1C8",
     "162795483897134256354862971429317568578926134613458792936271845781543629245689317"},
    /* "XV Kropki Sudoku", https://www.youtube.com/watch?v=TT-6BfDeCdc */
    {"XV Kropki Sudoku", 1,
     ".X~R2C1~R2C2.X~R3C1~R3C2.X~R1C8~R1C7.X~R2C7~R2C8.X~R7C8~R8C8.X~R7C9~R8C9.X~R8C3~R9C3.X~R8C"
     "2~R9C2.X~R5C4~R5C5.V~R8C2~R8C3.V~R8C8~R8C9.V~R2C1~R3C1.V~R1C7~R2C7.BlackDot~R2C5~R2C6.Blac"
     "kDot~R4C6~R5C6.BlackDot~R5C6~R6C6.BlackDot~R3C1~R4C1.WhiteDot~R3C3~R3C2.WhiteDot~R4C3~R5C3"
     ".WhiteDot~R8C4~R8C5.WhiteDot~R8C6~R8C7.WhiteDot~R5C2~R6C2",
     "195287463284536197376149825657912384918374256423658719532461978741895632869723541"},
    /* "I just like colours", https://www.youtube.com/watch?v=WcxLHy4Wfuw */
    {"I just like colours", 1,
     ".AntiKing .AntiKnight .AntiConsecutive .BlackDot~R2C2~R2C3 .BlackDot~R3C5~R3C6 .BlackDot~R"
     "1C8~R1C9 .BlackDot~R2C7~R3C7 .BlackDot~R4C5~R5C5 .BlackDot~R5C3~R5C4 .BlackDot~R1C4~R2C4 ."
     "BlackDot~R6C1~R7C1 .BlackDot~R7C1~R7C2 .BlackDot~R8C4~R8C5 .BlackDot~R7C6~R8C6 .BlackDot~R"
     "6C6~R6C7 .BlackDot~R5C8~R6C8 .BlackDot~R3C9~R4C9 .BlackDot~R8C9~R9C9 .BlackDot~R9C7~R9C8 ."
     "StrictKropki",
     "372615948948372615615948372837261594594837261261594837483726159159483726726159483"},
    /* "Fortress", https://sudokupad.app/N7fqrL2gtD */
    {"Fortress", 1,
     ".~R1C1_4~R1C4_1~R1C6_2~R3C6_4~R3C4_3~R4C3_8~R6C1_7~R7C4_6~R7C6_7~R9C6_9~R9C4_8~R9C9_2~R6C9"
     "_3~R4C7_1~R3C7_7.GreaterThan~R1C8~R2C8~R1C7~R1C9.GreaterThan~R2C5~R2C4~R1C5~R2C6~R3C5.Grea"
     "terThan~R5C8~R4C8~R5C9~R6C8~R5C7.GreaterThan~R4C5~R3C5~R4C4~R4C6~R5C5.GreaterThan~R6C5~R5C"
     "5~R6C4~R6C6~R7C5.GreaterThan~R8C5~R7C5~R8C4~R8C6~R9C5.GreaterThan~R9C2~R8C2~R9C1~R9C3.Grea"
     "terThan~R5C2~R5C1~R4C2~R5C3~R6C2.GreaterThan~R4C1~R4C2~R3C1~R5C1",
     "437182596681795324295364718328576149164938275759241863843627951912453687576819432"},
    /* "10 Lines", https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=0009MN */
    {"10 Lines", 1,
     ".SumLine~10~R1C3~R1C2~R1C1~R2C1~R3C1.SumLine~10~R3C4~R3C3~R3C2~R2C2~R2C3~R1C4.SumLine~10~R"
     "1C5~R1C6~R2C6~R3C6.SumLine~10~R1C7~R2C7~R3C7~R3C8~R3C9.SumLine~10~R4C4~R3C5~R4C6~R5C7.SumL"
     "ine~10~R7C1~R6C1~R6C2~R6C3.SumLine~10~R8C2~R7C2~R7C3~R7C4.SumLine~10~R6C6~R7C5~R8C4~R9C3.S"
     "umLine~10~R9C5~R9C6~R8C6~R7C6.SumLine~10~R8C7~R7C8~R7C9~R6C8~R6C7.SumLine~10~R4C5~R5C6~R6C"
     "5~R5C4~LOOP.",
     "582437619136592478479168532768241953925683147341975286297354861814726395653819724"},
    /* "Lockout Lines (DSM 23 Quali Training)",
       https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=000CM1 */
    {"Lockout Lines (DSM 23 Quali Training)", 1,
     ".Lockout~4~R1C2~R2C2~R3C2~R4C2.Lockout~4~R4C2~R3C3~R2C3~R1C2.Lockout~4~R2C5~R2C4~R3C4~R3C5"
     "~R4C5~R4C4.Lockout~4~R4C6~R3C6~R2C6~R1C6~R2C7~R1C8~R2C8~R3C8~R4C8.Lockout~4~R6C3~R6C4~R7C4"
     "~R7C3~R8C3~R8C4.Lockout~4~R8C5~R8C6~R8C7~R7C6~R6C7~R6C6~R6C5.~R3C1_2~R3C9_8~R5C4_5~R6C1_3~"
     "R9C7_9~R9C2_1",
     "563814729489752316271693548627189453148536297395427861934271685752968134816345972"},
    /* "Sudoku Variants Series (013) - Palindrome Sudoku",
       https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?chlang=en&id=0001WP */
    {"Sudoku Variants Series (013) - Palindrome Sudoku", 1,
     ".Palindrome~R7C1~R6C2~R5C1~R4C2~R3C3~R2C4~R1C5~R2C6~R1C7.Palindrome~R9C3~R8C4~R9C5~R8C6~R7"
     "C7~R6C8~R5C9~R4C8~R3C9.Palindrome~R7C4~R7C5~R7C6~R6C7~R5C7~R4C7.Palindrome~R3C6~R3C5~R3C4~"
     "R4C3~R5C3~R6C3.~R1C1_6~R1C9_5~R2C3_8~R2C5_5~R2C7_9~R4C1_8~R4C5_1~R4C9_3~R5C5_4~R6C5_2~R8C1"
     "_9~R8C3_7~R8C7_8~R8C9_2~R9C2_5~R9C8_6",
     "694178235128453976375296481842619753719345628536827149283761594967534812451982367"},
    /* "Sudoku Variants Series (173) - Between Lines Sudoku",
       https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?chlang=en&id=0002KO */
    {"Sudoku Variants Series (173) - Between Lines Sudoku", 1,
     ".Between~R9C5~R8C6~R7C7~R6C8~R5C9.Between~R9C3~R8C4~R7C5~R6C6~R5C7~R4C8~R3C9.Between~R1C9~"
     "R2C8~R3C7~R4C6~R5C5~R6C4~R7C3~R8C2~R9C1.Between~R5C1~R4C2~R3C3~R2C4~R1C5.Between~R7C1~R6C2"
     "~R5C3~R4C4~R3C5~R2C6~R1C7.~R1C2_9~R2C1_2~R2C7_1~R4C3_6~R4C5_7~R4C8_5~R5C2_3~R5C8_8~R6C5_5~"
     "R6C7_2~R8C3_9~R8C9_8~R9C8_1",
     "697531842258497163314862579846273951532149786971658234125386497469715328783924615"},
    /* "\", https://www.youtube.com/watch?v=XouRUgRsVSA */
    {"\\", 1,
     ".Renban~R4C8~R4C9~R5C9~R6C9.Renban~R7C9~R8C9~R9C9~R9C8.Renban~R6C7~R7C7~R8C7~R8C6.Renban~R"
     "2C6~R1C6~R1C5~R1C4.Renban~R2C1~R1C1~R1C2~R1C3.Renban~R2C3~R2C4~R3C4~R4C4.Renban~R5C5~R5C6~"
     "R6C6~R7C6.Renban~R5C4~R5C3~R6C3~R7C3.Renban~R3C1~R4C1~R5C1~R5C2.Renban~R7C1~R8C1~R9C1~R9C2"
     ".Renban~R7C4~R8C4~R9C4~R9C3.~R3C7_1.BlackDot~R2C9~R3C9.BlackDot~R1C7~R1C8.BlackDot~R3C6~R3"
     "C5.BlackDot~R4C7~R5C7",
     "132769845496518723758342196815473269963285417274196358521937684389624571647851932"},
    /* "The Zip that Zips the Zips", https://www.youtube.com/watch?v=qP_oxUzGD5g */
    {"The Zip that Zips the Zips", 1,
     ".Zipper~R1C2~R1C1~R2C1~R2C2~R3C2~R3C1~R4C1~R5C1~R4C2.Zipper~R2C3~R1C3~R1C4~R2C4~R3C4.Zippe"
     "r~R2C6~R3C5~R3C6~R2C7~R1C6~R1C5.Zipper~R9C3~R8C2~R7C1~R6C1~R5C2~R4C3~R4C4~R5C4~R6C3.Zipper"
     "~R8C3~R7C3~R6C4~R6C5~R5C5~R4C5~R4C6~R5C6~R6C6~R6C7~R6C8~R6C9.Zipper~R5C7~R5C8~R4C7~R3C7~R2"
     "C8.Zipper~R7C5~R7C6~R8C6~R8C7~R7C7~R7C8~R7C9~R8C9~R9C9~R9C8~R9C7~R9C6~R9C5~R8C5.",
     "354897126672451839189632574231564987597328641846719352415973268968245713723186495"},
    /* "Modular Lines 1", https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=0009I1 */
    {"Modular Lines 1", 1,
     ".Modular~3~R2C5~R2C4~R2C3~R2C2~R3C2~R4C2~R5C2.Modular~3~R7C1~R8C1~R8C2~R7C2.Modular~3~R4C3"
     "~R5C3~R6C3~R7C3~R8C3~R9C3~R9C2.Modular~3~R6C4~R5C4~R4C4~R4C5~R4C6~R5C6~R6C6.Modular~3~R5C8"
     "~R6C8~R7C8~R8C8~R8C7~R8C6~R8C5.Modular~3~R3C8~R2C8~R2C9~R3C9.Modular~3~R1C9~R1C8~R1C7~R2C7"
     "~R3C7~R4C7~R5C7~R6C7.Cage~21~R1C1~R1C2~R2C2~R2C1.Cage~22~R4C1~R5C1~R6C1.Cage~3~R4C4~R4C3.C"
     "age~3~R6C3~R6C4.Cage~10~R6C5~R7C5~R8C5.Cage~22~R2C5~R3C5~R4C5.Cage~7~R4C6~R4C7.Cage~8~R6C6"
     "~R6C7.Cage~15~R4C9~R5C9~R6C9.Cage~13~R8C8~R8C9~R9C9~R9C8.",
     "359427168764891523128356974972183456536974812841265397415632789293718645687549231"},
    /* "Magic square", https://www.youtube.com/watch?v=hAyZ9K2EBF0 */
    {"Magic square", 1,
     ".AntiKnight.Diagonal~1.Diagonal~-1.EqualSum~R4C4~R4C5~R4C6~-~R5C4~R5C5~R5C6~-~R6C4~R6C5~R6"
     "C6~-~R4C4~R5C4~R6C4~-~R4C5~R5C5~R6C5~-~R4C6~R5C6~R6C6~-~R4C4~R5C5~R6C6~-~R4C6~R5C5~R6C4.~R"
     "4C1_3~R4C2_8~R4C3_4~R9C9_2",
     "843567219275913846619428375384672951726159483951834627537286194462791538198345762"},
    /* "Raw Spaghetti", https://www.youtube.com/watch?v=7UZKP82Em14 */
    {"Raw Spaghetti", 0,
     ".RegionSumLine~R1C2~R2C2~R3C2~R4C2~R5C2.RegionSumLine~R1C3~R2C4~R3C5.RegionSumLine~R6C1~R7"
     "C1~R8C1.RegionSumLine~R7C2~R6C3~R5C4~R4C5~R3C6~R2C7~R1C8.RegionSumLine~R2C8~R3C7~R4C6~R5C5"
     "~R6C4~R7C3~R8C2.RegionSumLine~R3C8~R4C7~R5C6~R6C5~R7C4~R8C3~R9C2.RegionSumLine~R3C9~R4C8~R"
     "5C7~R6C6~R7C5~R8C4~R9C3.RegionSumLine~R5C9~R6C8~R7C7~R8C6~R9C5.",
     "847925163965137284312468579693854712421376895758219346586743921274591638139682457"},
    /* "The Barbed Cross",
       https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?chlang=en&id=0006TM */
    {"The Barbed Cross", 0,
     ".DisjointSets.LittleKiller~62~R1C9.LittleKiller~33~R1C1.LittleKiller~12~R1C3.LittleKiller~"
     "14~R3C9.LittleKiller~21~R9C7.LittleKiller~36~R9C5.LittleKiller~8~R7C1.LittleKiller~9~R1C2.",
     "325784169719625483684319725843297651592861347167543298478932516236158974951476832"},
};
#define NEXAMPLES (sizeof examples / sizeof examples[0])

/* Every example reads, and ISS's solution keeps every rule read from its
 * text: the cells, order and sense of each type are ISS's. */
START_TEST(sudoku_iss_examples_hold) {
    for (size_t e = 0; e < NEXAMPLES; e++) {
        api_sudoku_iss_t iss;
        api_problem_t p;
        grid_t g;
        char why[96];
        int rc = iss_read(examples[e].text, strlen(examples[e].text), &iss, &p);
        ck_assert_msg(rc == 0, "%s: rc %d (%s: %s)", examples[e].name, rc,
                      p.nerrors ? p.errors[0].field : "", p.nerrors ? p.errors[0].detail : "");
        g.n = iss.n;
        g.body = iss.body;
        ck_assert_uint_eq(strlen(examples[e].solution), (size_t)(g.n * g.n));
        grid_from_iss(&g, examples[e].solution);
        ck_assert_msg(grid_holds(&g, why, sizeof why), "%s: ISS's solution breaks %s",
                      examples[e].name, why);
        /* and a grid with two cells of a row swapped breaks a rule */
        g.v[0] ^= g.v[1], g.v[1] ^= g.v[0], g.v[0] ^= g.v[1];
        ck_assert_msg(!grid_holds(&g, why, sizeof why), "%s: a wrong grid passes",
                      examples[e].name);
        api_sudoku_iss_destroy(&iss);
    }
}
END_TEST

/* === Through the server ==================================================== */

static tsrv_t srv;

static void srv_up(void) {
    static const char *const args[] = {"--threads", "2", "--timeout-ms", "300000", NULL};
    ck_assert_int_eq(tsrv_start(&srv, args, NULL), 0);
}

static void srv_down(void) { tsrv_stop(&srv, SIGTERM, 10000); }

/* POSTs text as text/x-iss to path?query; the answer. */
static hresp_t ipost(const char *path, const char *query, const char *text, size_t len) {
    char url[256];
    const char *headers[2] = {"Content-Type: " API_SUDOKU_ISS_MEDIA, NULL};
    hresp_t r;
    CURL *c = curl_easy_init();
    snprintf(url, sizeof url, "%s%s%s", srv.base, path, query);
    http_do(c, "POST", url, text, len, headers, &r);
    curl_easy_cleanup(c);
    return r;
}

/* The answer's JSON when its status is `status`. */
static json_t *ijson(const hresp_t *r, long status) {
    json_t *j;
    ck_assert_msg(r->status == status, "status %ld, want %ld: %.300s", r->status, status, r->body);
    j = json_loads(r->body, 0, NULL);
    ck_assert_msg(j != NULL, "not JSON: %.300s", r->body);
    return j;
}

/* The quick examples solved: unique, ISS's solution, and (checked here)
 * their givens and every rule read from the text. */
START_TEST(sudoku_iss_http_solve) {
    for (size_t e = 0; e < NEXAMPLES; e++) {
        api_sudoku_iss_t iss;
        api_problem_t p;
        grid_t g, want;
        char why[96];
        hresp_t r;
        json_t *a;
        if (!examples[e].solve) continue;
        ck_assert_int_eq(iss_read(examples[e].text, strlen(examples[e].text), &iss, &p), 0);
        r = ipost("/v1/sudoku/solve", "?max_solutions=2", examples[e].text,
                  strlen(examples[e].text));
        a = ijson(&r, 200);
        ck_assert_msg(strcmp(json_string_value(json_object_get(a, "status")), "solved") == 0 &&
                          json_is_true(json_object_get(a, "unique")),
                      "%s: %.200s", examples[e].name, r.body);
        g.n = want.n = iss.n;
        g.body = want.body = iss.body;
        grid_from_ours(&g, json_string_value(json_object_get(a, "solution")));
        grid_from_iss(&want, examples[e].solution);
        ck_assert_msg(memcmp(g.v, want.v, sizeof(int) * (size_t)(g.n * g.n)) == 0,
                      "%s: not ISS's solution: %s", examples[e].name,
                      json_string_value(json_object_get(a, "solution")));
        ck_assert_msg(grid_holds(&g, why, sizeof why), "%s: the answer breaks %s", examples[e].name,
                      why);
        json_decref(a);
        hresp_free(&r);
        api_sudoku_iss_destroy(&iss);
    }
}
END_TEST

/* Every example with ISS's solution given in full is valid and complete
 * (the hard ones included); with two cells of a row swapped (two that the
 * text leaves empty) it is not.  A grid form gets the solution as its
 * grid, a constraint string the solution's givens after its own. */
/* The `puzzle` a validate of ISS's text answers, sent back as JSON, is
 * judged as the text was: the same rules, read once by the server. */
static void ivalidate_json(const json_t *answer, int valid, const char *name) {
    const char *headers[2] = {"Content-Type: application/json", NULL};
    json_t *puzzle = json_object_get(answer, "puzzle"), *a;
    char url[256], *body;
    hresp_t r;
    CURL *c;
    ck_assert_msg(json_is_object(puzzle) && json_is_string(json_object_get(puzzle, "grid")),
                  "%s: no puzzle in the answer", name);
    ck_assert_ptr_nonnull(body = json_dumps(puzzle, JSON_COMPACT));
    snprintf(url, sizeof url, "%s/v1/sudoku/validate", srv.base);
    c = curl_easy_init();
    http_do(c, "POST", url, body, strlen(body), headers, &r);
    curl_easy_cleanup(c);
    a = ijson(&r, 200);
    ck_assert_msg(json_is_true(json_object_get(a, "valid")) == valid &&
                      json_is_true(json_object_get(a, "complete")) == valid,
                  "%s as JSON: %.300s", name, r.body);
    ck_assert_ptr_null(json_object_get(a, "puzzle")); /* only a text's answer has it */
    json_decref(a);
    hresp_free(&r);
    free(body);
}

START_TEST(sudoku_iss_http_validate) {
    for (size_t e = 0; e < NEXAMPLES; e++) {
        size_t len = strlen(examples[e].text), nn = strlen(examples[e].solution);
        char *text = malloc(len + 10 * nn + 8), sol[257];
        const char *givens;
        api_sudoku_iss_t iss;
        api_problem_t p;
        int n = 1, swap_at = -1;
        ck_assert_int_eq(iss_read(examples[e].text, len, &iss, &p), 0);
        givens = json_string_value(json_object_get(iss.body, "grid"));
        while (n * n < (int)nn)
            n++;
        for (int c = 0; c < n * n && swap_at < 0; c++)
            if (c % n < n - 1 && givens[c] == '.' && givens[c + 1] == '.') swap_at = c;
        ck_assert_int_ge(swap_at, 0);
        for (int swap = 0; swap < 2; swap++) {
            size_t at = 0;
            hresp_t r;
            json_t *a;
            memcpy(sol, examples[e].solution, nn + 1);
            if (swap)
                sol[swap_at] = examples[e].solution[swap_at + 1],
                sol[swap_at + 1] = examples[e].solution[swap_at];
            if (strchr(examples[e].text, '~') == NULL) { /* a grid, then maybe a layout */
                at = (size_t)sprintf(text, "%s%s", sol, examples[e].text + nn);
            } else {
                at = (size_t)sprintf(text, "%s.", examples[e].text);
                for (int c = 0; c < n * n; c++)
                    at += (size_t)sprintf(text + at, "~R%cC%c_%d", "123456789abcdefg"[c / n],
                                          "123456789abcdefg"[c % n],
                                          n < 10 ? sol[c] - '0' : sol[c] - 'A' + 1);
            }
            r = ipost("/v1/sudoku/validate", "", text, at);
            a = ijson(&r, 200);
            ck_assert_msg(json_is_true(json_object_get(a, "valid")) == !swap &&
                              json_is_true(json_object_get(a, "complete")) == !swap,
                          "%s%s: %.300s", examples[e].name, swap ? ", two cells swapped" : "",
                          r.body);
            ivalidate_json(a, !swap, examples[e].name);
            json_decref(a);
            hresp_free(&r);
        }
        api_sudoku_iss_destroy(&iss);
        free(text);
    }
}
END_TEST

/* A problem of `status`, application/problem+json, naming `field` (in
 * `in`) with `words` in its detail. */
static void iproblem(const char *path, const char *query, const char *text, long status,
                     const char *in, const char *field, const char *words) {
    hresp_t r = ipost(path, query, text, strlen(text));
    json_t *a = ijson(&r, status), *e;
    char ct[128];
    size_t i;
    int found = 0;
    ck_assert(hresp_header(&r, "Content-Type", ct, sizeof ct));
    ck_assert_str_eq(ct, "application/problem+json");
    json_array_foreach(json_object_get(a, "errors"), i, e) {
        const char *f = json_string_value(json_object_get(e, "field"));
        const char *d = json_string_value(json_object_get(e, "detail"));
        found |= strcmp(json_string_value(json_object_get(e, "in")), in) == 0 &&
                 strcmp(f, field) == 0 && strstr(d, words) != NULL;
    }
    ck_assert_msg(found, "no %s '%s' with '%s': %s", in, field, words, r.body);
    json_decref(a);
    hresp_free(&r);
}

/* What the server answers for bad ISS text and bad options: the text's
 * places, the JSON path's problems renamed to them, the options named as
 * query parameters; a URL; the media type where it is not taken. */
START_TEST(sudoku_iss_http_problems) {
    static const char url[] =
        "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.Shape%7E4x4.~R1C1_1.Thermo"
        "%7ER1C1%7ER1C2%7ER1C3%7ER1C4&mode=all";
    hresp_t r;
    json_t *a;
    iproblem("/v1/sudoku/solve", "", ".Shape~4x4.Quad~R1C1~1", 400, "body",
             "item 2 at character 12", "'Quad' is an ISS type this server does not read");
    iproblem("/v1/sudoku/solve", "", ".Thermo~R1C1~R1CX", 400, "body", "item 1 at character 14",
             "'R1CX' is not a cell");
    iproblem("/v1/sudoku/solve", "", ".Cage~99999999999999999999~R1C1", 400, "body",
             "item 1 at character 7", "is over 1000000");
    /* the JSON reader's range, named in the text */
    iproblem("/v1/sudoku/solve", "", ".Shape~4x4.Cage~50~R1C1~R1C2", 400, "body",
             "item 2 at character 11", "Cage, read as constraints[0].sum: must be an integer");
    /* the givens' conflict (422), named as the givens */
    iproblem("/v1/sudoku/solve", "", ".Shape~4x4.~R1C1_1~R1C4_1", 422, "body",
             "item 2 at character 20", "Given R1C4, read as grid[0][3]: 1 repeats in row 1");
    /* the options: the query's, named there */
    iproblem("/v1/sudoku/solve", "?max_solutions=0", ".Shape~4x4", 400, "query", "max_solutions",
             "must be from 1");
    iproblem("/v1/sudoku/solve", "?threads=2", ".Shape~4x4", 400, "query", "threads", "one thread");
    iproblem("/v1/sudoku/solve", "?box=2x2", ".Shape~4x4", 400, "query", "box", "gives the boxes");
    iproblem("/v1/sudoku/solve", "?method=dlx", ".Shape~4x4.Thermo~R1C1~R1C2", 422, "query",
             "method", "propagation engine only");
    iproblem("/v1/sudoku/validate", "?nope=1", ".Shape~4x4.Foo", 400, "query", "nope",
             "unknown parameter");
    iproblem("/v1/sudoku/validate", "?nope=1", ".Shape~4x4.Foo", 400, "body",
             "item 2 at character 12", "'Foo' is not an ISS constraint type");
    /* a URL, options beside it */
    r = ipost("/v1/sudoku/solve", "?max_solutions=2&method=propagation&timeout_ms=60000", url,
              strlen(url));
    a = ijson(&r, 200);
    ck_assert_str_eq(json_string_value(json_object_get(a, "status")), "multiple");
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(a, "stats"), "method")),
                     "propagation");
    json_decref(a);
    hresp_free(&r);
    /* the endpoints that take no ISS text: 415, listing what they take */
    iproblem("/v1/sudoku/grade", "", ".Shape~4x4", 415, "header", "Content-Type", "text/x-iss");
}
END_TEST

Suite *sudoku_iss_suite(void);
Suite *sudoku_iss_suite(void) {
    Suite *s = suite_create("sudoku_iss");
    TCase *tc = tcase_create("read"), *th = tcase_create("http");
    tcase_add_test(tc, sudoku_iss_types);
    tcase_add_test(tc, sudoku_iss_examples_read);
    tcase_add_test(tc, sudoku_iss_forms);
    tcase_add_test(tc, sudoku_iss_bad_text);
    tcase_add_test(tc, sudoku_iss_rename);
    tcase_add_test(tc, sudoku_iss_allocation_failures);
    tcase_add_test(tc, sudoku_iss_examples_hold);
    suite_add_tcase(s, tc);
    tcase_set_timeout(th, 300);
    tcase_add_unchecked_fixture(th, srv_up, srv_down);
    tcase_add_test(th, sudoku_iss_http_solve);
    tcase_add_test(th, sudoku_iss_http_validate);
    tcase_add_test(th, sudoku_iss_http_problems);
    suite_add_tcase(s, th);
    return s;
}
