# puzzled -- one flat Makefile (no recursive make).
#
#   make              build build/puzzled
#   make run          install missing packages, build, serve on 127.0.0.1:8080
#   make test         install missing packages, build, check layering, run every test
#   make check SUITE=name   one check suite alone (tests/test_main.c names them), in seconds
#   make test SANITIZE=1   the same suite under ASan + UBSan (objects in build/san)
#   make test SANITIZE=thread   the same suite under ThreadSanitizer (clang; build/tsan),
#                          servers included, halting at the first report
#   make bench        benchmarks (reads ../shared/data when it is there)
#   make bench-compare   puzzled next to the anchors (tdoku, N-Queens solvers, CaDiCaL,
#                     qqwing, nginx), built and run in the same run
#   make bench-cluster   cluster mode's cost: an n=18 count through Redis on 1 and 3 replicas
#   make bench-big    big Sudoku alone: cdcl against CaDiCaL (bench/compare/big.sh)
#   make fuzz         libFuzzer on every api/ endpoint, named on an input's first line
#                     (clang; FUZZ_SECONDS, default 60)
#   make deps         apt-get install whatever Debian package is missing
#   make test-container   build the Docker image and run it (docker, else podman)
#   make test-compose     deploy/compose.yaml up for real (docker compose, else podman-compose)
#   make test-deploy      nginx (deploy/) in front of three replicas, under load
#   make test-web     the web front end in a real browser (chromium + node; see tests/web/)
#   make lint         ESLint over web/ and the node tests (eslint.config.mjs)
#   make test-contract   openapi.yaml linted, held to the code's tables, its examples and the
#                     README tour run, the web front end's API calls type-checked, every
#                     answer the suites recorded (build/contract/) validated against it,
#                     /metrics through promtool
#
# Objects go to $(BUILD); sanitizer builds use their own tree so the two never mix.

CC      ?= cc
BUILD   ?= build
SANITIZE ?= 0
ifeq ($(SANITIZE),1)
  BUILD := $(BUILD)/san
  SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(SANITIZE),thread)
  CC := clang
  BUILD := $(BUILD)/tsan
  SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
endif
# Sanitized code runs 3-10x slower: stretch check's per-case time limits.
CK_MULT := $(if $(filter 0,$(SANITIZE)),1,3)
# Every process the tests start inherits these: the first report ends it with
# exit code 66, so a race inside a server fails the test that started it.
# tests/tsan.supp lists proven false positives inside libraries, each with why.
export TSAN_OPTIONS ?= halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp

# Debian packages: what building needs (the Dockerfile's build stage installs
# exactly this list, through `make deps-build`), what the tests add, and what
# the container and deployment tests add.  `make deps` installs the first two.
DEB_BUILD_PKGS := build-essential pkg-config libmicrohttpd-dev libjansson-dev libuv1-dev libhiredis-dev
DEB_TEST_PKGS  := check libcurl4-openssl-dev clang-format prometheus redis-server \
                  $(if $(filter thread,$(SANITIZE)),clang)
DEB_PKGS       := $(DEB_BUILD_PKGS) $(DEB_TEST_PKGS)
DEB_CONTAINER_PKGS := podman runc debootstrap podman-compose golang-github-containernetworking-plugin-dnsname
DEB_DEPLOY_PKGS    := nginx python3-yaml
DEB_BENCH_PKGS     := cadical
DEB_WEB_PKGS       := chromium nodejs:node npm:npm
PKGS     := libmicrohttpd jansson libuv hiredis

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) $(SAN_FLAGS) \
             -MMD -MP -I.
LDFLAGS ?=
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS) -pthread

# pkg-config is asked lazily (=, not :=) so that `make test` can install the
# packages first and still find them in the same run.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS))
TEST_CFLAGS = $(shell pkg-config --cflags check libcurl)
TEST_LIBS   = $(shell pkg-config --libs check libcurl)

# ---- sources: explicit lists, layered server -> api -> solvers -------------
SOLVER_SRC := solvers/search.c solvers/nqueens/nqueens.c solvers/nqueens/count.c solvers/nqueens/xc.c \
              solvers/nqueens/board.c \
              solvers/nqueens/heur.c solvers/nqueens/repair.c \
              solvers/sudoku/sudoku.c solvers/sudoku/bt.c solvers/sudoku/prop.c \
              solvers/sudoku/bestfirst.c solvers/sudoku/xc.c solvers/sudoku/sudoku9.c \
              solvers/sudoku/sat.c solvers/sudoku/cdcl.c solvers/sudoku/exchange.c \
              solvers/sudoku/sudoku9_avx2.c solvers/sudoku/sudoku9_scalar.c \
              solvers/sudoku/logic.c solvers/sudoku/fish.c solvers/sudoku/wings.c \
              solvers/sudoku/chains.c solvers/sudoku/trial.c solvers/sudoku/lines.c \
              solvers/sudoku/als.c solvers/sudoku/forcing.c \
              solvers/sudoku/generate.c \
              solvers/sudoku/model.c \
              solvers/xcover/xcover.c solvers/xcover/dlx.c solvers/xcover/algx.c \
              solvers/killer/killer.c solvers/killer/bt.c solvers/killer/adv.c solvers/killer/prop.c \
              solvers/killer/derive.c solvers/killer/generate.c solvers/killer/lcg.c \
              solvers/killer/lcg_prop.c
# api/: what the endpoints share, then the endpoint files, whose order is
# the order of api_endpoints[] (see the generated list below).
API_SRC    := api/problem.c api/json_dump.c api/request.c api/json_util.c api/json_scan.c \
              api/json_writer.c api/opts.c api/endpoint.c api/xc_job.c api/sudoku_iss.c \
              api/nqueens_api.c api/nqueens_board_api.c \
              api/sudoku_variant.c api/sudoku_variant_api.c api/sudoku_api.c api/sudoku_batch.c \
              api/sudoku_logic_api.c api/killer_api.c api/xcover_api.c api/generate_api.c
SERVER_SRC := server/log.c server/config.c server/metrics.c server/budget.c server/pool.c \
              server/guard.c server/healthcheck.c \
              server/http/http.c server/http/router.c server/http/static.c server/http/reqid.c \
              server/jobs/jobs.c server/jobs/jobstore_mem.c server/jobs/jobstore_redis.c \
              server/jobs/cluster.c server/jobs/rconn.c server/jobs/rconn_url.c server/jobs/rscripts.c
MAIN_SRC   := server/main.c
# The test runner: one suite file per module, in the order the runner runs
# them (the collected list, below), then its main and the helpers.
TEST_SRC   := tests/test_nqueens.c tests/test_api.c tests/test_config.c tests/test_sudoku.c \
              tests/test_cdcl.c tests/test_sudoku9.c tests/test_sudoku_api.c tests/test_sudoku_batch.c \
              tests/test_xcover.c tests/test_xcover_api.c tests/test_killer.c tests/test_killer_lcg.c \
              tests/test_killer_api.c tests/test_nqueens_board.c tests/test_nqueens_api.c \
              tests/test_static.c tests/test_logic.c tests/test_logic_lines.c tests/test_generate.c \
              tests/test_variants.c tests/test_killer_logic_http.c \
              tests/test_variants_http.c tests/test_sudoku_iss.c tests/test_http.c tests/test_nomem.c \
              tests/test_fair.c tests/test_jobs.c tests/test_cluster.c \
              tests/test_main.c tests/job_harness.c tests/job_client.c tests/http_client.c \
              tests/http_check.c tests/fail_alloc.c tests/redis_harness.c tests/contract/record.c \
              tests/sudoku_fixtures.c tests/pentomino.c tests/killer_gen.c
DEPLOY_SRC := tests/deploy/load.c tests/deploy/idle.c
FUZZ_SRC   := fuzz/fuzz_api.c fuzz/replay.c
SOAK_SRC   := tests/soak.c
GEN_SRC    := tools/gen_killer.c tools/gen_sudoku.c tools/api_tables.c
BENCH_SRC  := bench/bench_nqueens.c bench/bench_nqueens_board.c bench/bench_sudoku.c bench/bench9.c \
              bench/bench_big.c bench/bench_logic.c bench/bench_killer.c bench/bench_xcover.c \
              bench/bench_http.c bench/bench9_http.c bench/bench_fair.c bench/bench_variants.c \
              bench/janko.c bench/janko2json.c bench/bench_variants_http.c \
              bench/bench_constraints_http.c

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
SOLVER_GEN := $(BUILD)/gen/search_codes.c
SOLVER_OBJ := $(call obj,$(SOLVER_SRC)) $(SOLVER_GEN:.c=.o)
API_GEN    := $(BUILD)/gen/api_endpoints.c
API_OBJ    := $(call obj,$(API_SRC)) $(API_GEN:.c=.o)
WEB_OBJ    := $(BUILD)/gen/web_assets.o
SERVER_OBJ := $(call obj,$(SERVER_SRC)) $(WEB_OBJ)
MAIN_OBJ   := $(call obj,$(MAIN_SRC))
TEST_GEN   := $(BUILD)/gen/test_suites.c
TEST_OBJ   := $(call obj,$(TEST_SRC)) $(TEST_GEN:.c=.o)
BENCH_OBJ  := $(call obj,$(BENCH_SRC))
FUZZ_OBJ   := $(call obj,$(FUZZ_SRC))
GEN_OBJ    := $(call obj,$(GEN_SRC))
DEPLOY_OBJ := $(call obj,$(DEPLOY_SRC))
SOAK_OBJ   := $(call obj,$(SOAK_SRC))
# The libcurl helpers with the exchange recorder (tests/contract/record.c).
HTTP_CLIENT_OBJ := $(BUILD)/tests/http_client.o $(BUILD)/tests/contract/record.o
ALL_OBJ    := $(SOLVER_OBJ) $(API_OBJ) $(SERVER_OBJ) $(MAIN_OBJ) $(TEST_OBJ) $(BENCH_OBJ) $(FUZZ_OBJ) $(GEN_OBJ) \
              $(SOAK_OBJ) $(DEPLOY_OBJ)

PUZZLED    := $(BUILD)/puzzled
TEST_BIN   := $(BUILD)/tests/run_tests
BENCH_NQ   := $(BUILD)/bench/bench_nqueens
BENCH_NQ2  := $(BUILD)/bench/bench_nqueens_board
BENCH_SD   := $(BUILD)/bench/bench_sudoku
BENCH_XC   := $(BUILD)/bench/bench_xcover
BENCH_9    := $(BUILD)/bench/bench9
BENCH_KL   := $(BUILD)/bench/bench_killer
BENCH_BIG  := $(BUILD)/bench/bench_big
BENCH_LG   := $(BUILD)/bench/bench_logic
BENCH_9H   := $(BUILD)/bench/bench9_http
BENCH_HTTP := $(BUILD)/bench/bench_http
BENCH_FAIR := $(BUILD)/bench/bench_fair
BENCH_SOLVER_BIN := $(BENCH_NQ) $(BENCH_NQ2) $(BENCH_SD) $(BENCH_XC) $(BENCH_9) $(BENCH_KL) \
                    $(BENCH_BIG) $(BENCH_LG)
BENCH_HTTP_BIN   := $(BENCH_9H) $(BENCH_HTTP) $(BENCH_FAIR)
GEN_BIN    := $(BUILD)/tools/gen_killer $(BUILD)/tools/gen_sudoku
API_TABLES := $(BUILD)/tools/api_tables
BENCH_VAR  := $(BUILD)/bench/bench_variants
JANKO2JSON := $(BUILD)/bench/janko2json
BENCH_VARH := $(BUILD)/bench/bench_variants_http
BENCH_CONS := $(BUILD)/bench/bench_constraints_http
FUZZ_REPLAY := $(BUILD)/fuzz/replay
LOAD_BIN   := $(BUILD)/tests/deploy/load
IDLE_BIN   := $(BUILD)/tests/deploy/idle
SOAK_BIN   := $(BUILD)/tests/soak

.PHONY: bench-variants bench-constraints bench-compare bench-cluster soak test-abuse check-nomem-cover check all run test test-web test-contract deps-web bench \
        bench9 bench-big fuzz fuzz-cover deps deps-bench \
        deps-build deps-container deps-deploy test-container test-compose test-deploy check-layers \
        check-tables tables lint \
        format format-check clean FORCE
all: $(PUZZLED)

# Goals that must see the packages installed first.
ifneq ($(filter run test bench bench9 deps test-deploy,$(MAKECMDGOALS)),)
$(ALL_OBJ): | deps
endif

# $(call apt_install,PACKAGES): apt-get install those not installed yet, with
# sudo when not root.  An entry PKG:COMMAND counts as installed when COMMAND
# runs (node and npm: a machine's newer Node.js is kept); any other entry
# when dpkg says so.  The one place that calls apt-get.
apt_install = @missing=""; for p in $(1); do \
	  pkg=$${p%%:*}; cmd=$${p\#*:}; \
	  if [ "$$cmd" != "$$p" ]; then command -v "$$cmd" >/dev/null 2>&1 && continue; \
	  else dpkg-query -W -f='$${Status}' "$$pkg" 2>/dev/null | grep -q 'ok installed' && continue; fi; \
	  missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

deps:
	$(call apt_install,$(DEB_PKGS))
deps-build:
	$(call apt_install,$(DEB_BUILD_PKGS))
deps-container:
	$(call apt_install,$(DEB_CONTAINER_PKGS))
deps-deploy:
	$(call apt_install,$(DEB_DEPLOY_PKGS))
deps-bench:
	$(call apt_install,$(DEB_BENCH_PKGS))

$(BUILD)/solvers/%.o: solvers/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The AVX2 build of the 9x9 solver (sudoku9_avx2.c includes sudoku9.c); the
# program picks it at run time on CPUs that have these (x86-64 compilers only).
S9_AVX2_FLAGS := $(if $(findstring x86_64,$(shell $(CC) -dumpmachine)),-mavx2 -mbmi -mbmi2 -mpopcnt)
$(BUILD)/solvers/sudoku/sudoku9_avx2.o: ALL_CFLAGS += $(S9_AVX2_FLAGS)

$(BUILD)/api/%.o: api/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(BUILD)/server/%.o: server/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) -c $< -o $@

# ---- the web front end, compiled in ------------------------------------------
# web/ becomes one C file of byte arrays (server/http/static.h: static_assets[]),
# so the binary, and the Docker image that copies only the binary, serves the
# front end with nothing beside it.  Each file is also compressed here (gzip
# -9 -n: no name or time inside, so the bytes and their ETag are the same on
# every build) and its gzip form kept when smaller: the server sends those
# bytes to clients that take gzip and never compresses at run time.
# web_files.txt changes only when the list of files does, so deleting a file
# rebuilds the table too.
WEB_FILES := $(shell find web -type f ! -name '.*' 2>/dev/null | LC_ALL=C sort)
$(BUILD)/gen/web_files.txt: FORCE
	@mkdir -p $(@D)
	@echo '$(WEB_FILES)' | cmp -s - $@ || echo '$(WEB_FILES)' > $@

$(BUILD)/gen/web_assets.c: $(WEB_FILES) $(BUILD)/gen/web_files.txt server/http/static.h
	@mkdir -p $(@D)
	@set -e; i=0; { \
	  echo '/* Generated from web/ by the Makefile; do not edit. */'; \
	  echo '#include "server/http/static.h"'; \
	  for f in $(WEB_FILES); do \
	    case "$$f" in *[!A-Za-z0-9._/-]*) echo "web/: unusable file name '$$f'" >&2; exit 1;; esac; \
	    echo "static const unsigned char f$$i[] = {"; \
	    od -An -v -tx1 "$$f" | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	    echo '0};'; \
	    gzip -9 -n -c "$$f" > $@.gz; \
	    if [ $$(wc -c < $@.gz) -lt $$(wc -c < "$$f") ]; then \
	      echo "static const unsigned char g$$i[] = {"; \
	      od -An -v -tx1 $@.gz | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	      echo '0};'; \
	      echo "#define G$$i g$$i, sizeof g$$i - 1"; \
	    else echo "#define G$$i 0, 0"; fi; \
	    i=$$((i + 1)); \
	  done; \
	  echo 'const static_asset_t static_assets[] = {'; i=0; \
	  for f in $(WEB_FILES); do \
	    echo "    {\"$${f#web}\", f$$i, sizeof f$$i - 1, G$$i},"; i=$$((i + 1)); \
	  done; \
	  echo '    {0, 0, 0, 0, 0}};'; \
	  echo "const size_t static_nassets = $$i;"; \
	} > $@.tmp && mv $@.tmp $@ && rm -f $@.gz
	@echo "embedded $(words $(WEB_FILES)) files of web/ in $@ (with their gzip forms)"

# ---- the list of endpoints, collected -----------------------------------------
# api_endpoints[] (api/endpoint.h) is every `const api_endpoint_t api_ep_...
# = {` defined at the start of a line of API_SRC, in API_SRC's order and each
# file's: an endpoint is listed by being defined, with no list to edit.
# api_handovers[] likewise every `const api_handover_t api_ho_... = {`.
$(API_GEN): $(API_SRC) Makefile
	@mkdir -p $(@D)
	@set -e; syms=$$(sed -n 's/^const api_endpoint_t \(api_ep_[a-z0-9_]*\) = {.*/\1/p' $(API_SRC)); \
	hos=$$(sed -n 's/^const api_handover_t \(api_ho_[a-z0-9_]*\) = {.*/\1/p' $(API_SRC)); \
	{ echo '/* Generated from the api_ep_* and api_ho_* definitions of API_SRC by the Makefile; do not edit. */'; \
	  echo '#include "api/endpoint.h"'; echo; \
	  for s in $$syms; do echo "extern const api_endpoint_t $$s;"; done; \
	  for s in $$hos; do echo "extern const api_handover_t $$s;"; done; echo; \
	  echo 'const api_endpoint_t *const api_endpoints[] = {'; \
	  for s in $$syms; do echo "    &$$s,"; done; \
	  echo '    NULL};'; echo; \
	  echo 'const api_handover_t *const api_handovers[] = {'; \
	  for s in $$hos; do echo "    &$$s,"; done; \
	  echo '    NULL};'; } > $@.tmp && mv $@.tmp $@

# search_code_tables[] (solvers/search.h) lists every result-code table,
# `const search_code_t <puzzle>_codes[] = {` at the start of a line of
# SOLVER_SRC: a puzzle names its codes where it defines them.
$(SOLVER_GEN): $(SOLVER_SRC) Makefile
	@mkdir -p $(@D)
	@set -e; syms=$$(sed -n 's/^const search_code_t \([a-z0-9_]*_codes\)\[\] = {.*/\1/p' $(SOLVER_SRC)); \
	{ echo '/* Generated from the *_codes tables of SOLVER_SRC by the Makefile; do not edit. */'; \
	  echo '#include "solvers/search.h"'; echo; \
	  for s in $$syms; do echo "extern const search_code_t $$s[];"; done; echo; \
	  echo 'const search_code_t *const search_code_tables[] = {'; \
	  for s in $$syms; do echo "    $$s,"; done; \
	  echo '    NULL};'; } > $@.tmp && mv $@.tmp $@

# test_suites[] (tests/test_main.c runs them) lists every `Suite *x_suite(void) {`
# at the start of a line of TEST_SRC: a test file's suites run by existing.
$(TEST_GEN): $(TEST_SRC) Makefile
	@mkdir -p $(@D)
	@set -e; syms=$$(sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void) {.*/\1/p' $(TEST_SRC)); \
	{ echo '/* Generated from the *_suite functions of TEST_SRC by the Makefile; do not edit. */'; \
	  echo '#include <check.h>'; echo '#include <stddef.h>'; echo; \
	  for s in $$syms; do echo "Suite *$$s(void);"; done; echo; \
	  echo 'Suite *(*const test_suites[])(void) = {'; \
	  for s in $$syms; do echo "    $$s,"; done; \
	  echo '    NULL};'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(BUILD)/fuzz/%.o: fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(BUILD)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(PUZZLED): $(MAIN_OBJ) $(SERVER_OBJ) $(API_OBJ) $(SOLVER_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

# The test binary's allocations go through tests/fail_alloc.c, which can fail
# any one of them (tests/test_nomem.c walks every endpoint that way).
TEST_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(TEST_BIN): $(TEST_OBJ) $(SERVER_OBJ) $(API_OBJ) $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(TEST_WRAP) $(PKG_LIBS) $(TEST_LIBS) -lm

# Benchmarks: each bench/X.c is one program.  Those that measure solvers
# link the solvers; those that measure the server through HTTP link the
# libcurl helpers (and bench9_http the solvers too, to check its answers).
$(BENCH_SOLVER_BIN): $(BUILD)/bench/%: $(BUILD)/bench/%.o $(SOLVER_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm
$(BENCH_XC): $(BUILD)/tests/pentomino.o
$(BENCH_HTTP_BIN): $(BUILD)/bench/%: $(BUILD)/bench/%.o $(HTTP_CLIENT_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) $(TEST_LIBS) -lm
$(BENCH_9H): $(SOLVER_OBJ)

# The API as the code has it, as JSON (tools/api_tables.c): every route, and
# every endpoint's table; tests/contract/tables.test.mjs holds openapi.yaml
# to it.
$(API_TABLES): $(BUILD)/tools/api_tables.o $(BUILD)/server/http/router.o $(API_OBJ) $(SOLVER_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

# The fixture generators (tools/gen_*.c): built by `make test` so that
# -Werror catches them drifting from the solvers; run by hand (their heads
# say with which arguments each fixture file was made).
$(GEN_BIN): $(BUILD)/tools/%: $(BUILD)/tools/%.o $(SOLVER_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm

# The variants bench reads requests through api/sudoku_variant.c, as the
# endpoints will: it links the api objects and jansson; janko2json turns
# janko.at's collections into its JSON lines.
$(BENCH_VAR): $(BUILD)/bench/bench_variants.o $(BUILD)/bench/janko.o $(API_OBJ) $(SOLVER_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) -lm
$(BENCH_VARH): $(BUILD)/bench/bench_variants_http.o $(BUILD)/bench/janko.o $(HTTP_CLIENT_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) $(TEST_LIBS) -lm
$(BENCH_CONS): $(BUILD)/bench/bench_constraints_http.o $(HTTP_CLIENT_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) $(TEST_LIBS) -lm
$(JANKO2JSON): $(BUILD)/bench/janko2json.o $(BUILD)/bench/janko.o
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(shell pkg-config --libs jansson)

# The fuzz entry point with a plain main() that replays files: `make test`
# runs fuzz/corpus and fuzz/cover through it (under ASan/UBSan with
# SANITIZE=1).
$(FUZZ_REPLAY): $(FUZZ_OBJ) $(API_OBJ) $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

# libFuzzer, ASan and UBSan with clang, on its own objects (build/fuzz-lf);
# new inputs go to build/fuzz-lf/corpus, crashes to build/fuzz-lf/.  Copy an
# input worth keeping into fuzz/corpus and `make test` replays it for good.
# fuzz/cover is the smallest set of the fuzzer's inputs that reaches every
# edge it reached (last refreshed after 20 minutes, 1.03 M runs: 3,500
# edges): refresh it with `make fuzz-cover` after a long run.
FUZZ_SECONDS ?= 60
FUZZ_DIR := build/fuzz-lf
fuzz: deps $(API_GEN) $(SOLVER_GEN)
	$(call apt_install,clang:clang)
	@mkdir -p $(FUZZ_DIR)/corpus
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O1 -g -I. $(PKG_CFLAGS) \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  fuzz/fuzz_api.c $(API_SRC) $(API_GEN) $(SOLVER_SRC) $(SOLVER_GEN) -o $(FUZZ_DIR)/fuzz_api $(PKG_LIBS) -lm -pthread
	$(FUZZ_DIR)/fuzz_api -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus fuzz/corpus fuzz/cover

fuzz-cover:
	@test -x $(FUZZ_DIR)/fuzz_api || { echo "run make fuzz first"; exit 1; }
	rm -rf $(FUZZ_DIR)/cover && mkdir -p $(FUZZ_DIR)/cover && cp fuzz/corpus/* $(FUZZ_DIR)/cover/
	$(FUZZ_DIR)/fuzz_api -set_cover_merge=1 -use_counters=0 $(FUZZ_DIR)/cover fuzz/cover $(FUZZ_DIR)/corpus
	rm -rf fuzz/cover && mkdir -p fuzz/cover
	for f in $(FUZZ_DIR)/cover/*; do test -e fuzz/corpus/$$(basename $$f) || cp $$f fuzz/cover/; done

# The 9x9 solver's const tables (solvers/sudoku/sudoku9_tables.h) are written
# by a host tool from their definitions: `make tables` rewrites the header,
# `make test` checks that the committed one is what the tool writes.
GEN_S9 := $(BUILD)/tools/gen_sudoku9_tables
$(GEN_S9): tools/gen_sudoku9_tables.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $< -o $@ $(ALL_LDFLAGS)
tables: $(GEN_S9)
	./$(GEN_S9) > solvers/sudoku/sudoku9_tables.h
check-tables: $(GEN_S9)
	@./$(GEN_S9) > $(BUILD)/sudoku9_tables.h
	@cmp -s $(BUILD)/sudoku9_tables.h solvers/sudoku/sudoku9_tables.h || \
	  { echo "solvers/sudoku/sudoku9_tables.h differs from what tools/gen_sudoku9_tables.c writes (make tables)"; exit 1; }

# The deployment test's clients (tests/deploy/): the load (libcurl multi,
# jansson) and the idle crowd (plain sockets).
$(LOAD_BIN): $(BUILD)/tests/deploy/load.o $(BUILD)/tests/contract/record.o
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(shell pkg-config --libs jansson libcurl)

$(IDLE_BIN): $(BUILD)/tests/deploy/idle.o
	$(CC) $^ -o $@ $(ALL_LDFLAGS)

# A mixed load with client hang-ups and half-sent requests against a real
# server for SOAK_SECONDS; with SANITIZE=thread, TSan watches every hand-off
# (.ci/run runs that for 60 s).
SOAK_SECONDS ?= 60
$(SOAK_BIN): $(SOAK_OBJ) $(HTTP_CLIENT_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(TEST_LIBS)
soak: deps $(PUZZLED) $(SOAK_BIN)
	@rm -rf $(BUILD)/contract-soak && mkdir -p $(BUILD)/contract-soak $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs \
	  PUZZLED_CONTRACT_DIR=$(CURDIR)/$(BUILD)/contract-soak PUZZLED_CONTRACT_LIMIT=20000 ./$(SOAK_BIN) $(SOAK_SECONDS)
	$(call contract_validate,$(BUILD)/contract-soak)

# Every attack on the shared service at once for ABUSE_SECONDS against one
# server with its default budgets: peak RSS under RSS_BUDGET_MB (512), the
# work budget never passed, no 5xx but 503, and the idle size back after it
# (tests/abuse/abuse.sh; .ci/run runs it for 30 s).
ABUSE_SECONDS ?= 60
test-abuse: deps $(PUZZLED)
	$(call apt_install,wrk)
	@mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ABUSE_SECONDS=$(ABUSE_SECONDS) \
	  bash tests/abuse/abuse.sh

# The allocation-failure walks reach every out-of-memory answer in api/
# (gcov build in build/cov; .ci/run runs it).
check-nomem-cover: deps
	@sh tools/check_nomem_cover.sh

# solvers/ must stay pure (no HTTP/JSON/libuv, no I/O, no mutable globals) and
# api/ free of HTTP and libuv; see tools/check_layers.sh for what is checked.
check-layers: $(SOLVER_OBJ) $(API_OBJ)
	@sh tools/check_layers.sh $(BUILD)

# The declared style (.clang-format) is checked, not hoped for: every C file
# under git must be a fixed point of clang-format.  `make format` rewrites them.
C_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null || find solvers api server tests bench fuzz -name '*.[ch]')
format:
	clang-format -i $(C_FILES)
format-check: deps
	@clang-format --dry-run --Werror $(C_FILES) && echo "format-check: $(words $(C_FILES)) files clean"

run: deps $(PUZZLED)
	./$(PUZZLED)

# The benches are built (not run) too, so that -Werror catches them
# drifting from the code they measure.
BENCH_BIN  := $(BENCH_SOLVER_BIN) $(BENCH_HTTP_BIN) $(BENCH_VAR) $(BENCH_VARH) $(BENCH_CONS) \
              $(JANKO2JSON)

# make test runs the browser suite (test-web) always, as the README says.
# WEB_TESTS=0 leaves it out, loudly: .ci/run does so for its two sanitizer
# runs only, to stay inside CI's 30 minutes on 2 cores (the suite takes 4-5
# minutes under each sanitizer).  What it drives in the server -- the API
# and the static files -- the C suites, the contract suite and the soak
# drive under both sanitizers too; what it tests of its own is the page,
# which no sanitizer looks at.
WEB_TESTS ?= 1

test: deps deps-web format-check check-layers check-tables $(PUZZLED) $(TEST_BIN) $(BENCH_BIN) \
      $(GEN_BIN) $(FUZZ_REPLAY) $(SOAK_BIN) $(LOAD_BIN) $(IDLE_BIN)
	@if [ "$(SANITIZE)" = 0 ]; then sh tools/check_dockerfile.sh $(PUZZLED); fi
	@sh tools/check_includes.sh server api
	@sh tools/check_codes.sh
	@sh tools/check_funcs.sh
	@sh tools/check_bench_killer.sh $(BENCH_KL)
	./$(FUZZ_REPLAY) --all-endpoints fuzz/corpus fuzz/cover
	@rm -rf $(BUILD)/test-logs $(CONTRACT_DIR) && mkdir -p $(BUILD)/test-logs $(CONTRACT_DIR)/libcurl
	CK_TIMEOUT_MULTIPLIER=$(CK_MULT) PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs \
	  PUZZLED_CONTRACT_DIR=$(CURDIR)/$(CONTRACT_DIR)/libcurl ./$(TEST_BIN)
	$(if $(filter 1,$(WEB_TESTS)),PUZZLED_CONTRACT_DIR=$(CURDIR)/$(CONTRACT_DIR)/web $(MAKE) --no-print-directory test-web,\
	  @echo "test-web: NOT RUN in this make test (WEB_TESTS=$(WEB_TESTS)); make test WEB_TESTS=1 runs it")
	@$(MAKE) --no-print-directory test-contract
	@$(MAKE) --no-print-directory lint

# ---- ESLint over web/ and the node tests (eslint.config.mjs; npm, pinned) -----
lint:
	@command -v node >/dev/null 2>&1 || { echo "lint: needs node and npm (make deps-web installs them)"; exit 1; }
	@test -d node_modules/eslint -a -d node_modules/globals || npm ci --no-audit --no-fund
	./node_modules/.bin/eslint --max-warnings 0 .

# One check suite (or all of them) alone, without the rest of `make test`:
# `make check SUITE=killer_api` (CASE=... narrows it to one test case).  The
# suites are named in tests/test_main.c.
check: $(PUZZLED) $(TEST_BIN)
	@mkdir -p $(BUILD)/test-logs
	$(if $(SUITE),CK_RUN_SUITE=$(SUITE)) $(if $(CASE),CK_RUN_CASE=$(CASE)) CK_TIMEOUT_MULTIPLIER=$(CK_MULT) \
	  PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(TEST_BIN)

# ---- the web front end in a real browser ------------------------------------
# Debian's chromium driven by playwright-core (npm, pinned in
# package-lock.json) under node's own test runner, against the real binary
# (this build's: under SANITIZE=1 the ASan/UBSan one).  Screenshots of every
# page go to $(BUILD)/web-shots.  deps-web installs what is missing: the
# Debian packages (node and npm only when absent: a machine's newer Node.js
# is kept), then `npm ci` from the lock file when node_modules is missing or
# older than the lock file.  `make test` runs it first: every suite runs,
# the browser's too, or the run fails saying what could not be installed.
CHROMIUM ?= /usr/bin/chromium
deps-web:
	$(call apt_install,$(DEB_WEB_PKGS))
	@[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
	@[ -x "$(CHROMIUM)" ] || { echo "deps-web: $(CHROMIUM) is missing after the install" >&2; exit 1; }

test-web: $(PUZZLED)
	@test -d node_modules/playwright-core || npm ci --no-audit --no-fund
	@mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs PUZZLED_WEB_SHOTS=$(BUILD)/web-shots \
	  CHROMIUM=$(CHROMIUM) node --test --test-concurrency=1 tests/web/

# ---- the API contract (tests/contract/) -------------------------------------
# The suites above record every exchange they make (PUZZLED_CONTRACT_DIR:
# tests/contract/record.c for libcurl, record.mjs for node and the browser)
# under $(CONTRACT_DIR); then: redocly lints openapi.yaml (redocly.yaml: the
# recommended rules, a warning fails), tables.test.mjs holds it to what
# tools/api_tables prints (every route, every endpoint's options table:
# names, types, ranges, defaults, enums, media types), node's test runner checks every
# example in it, drives every operation from the document (2xx from its
# example request, every documented 4xx provoked; /metrics through promtool
# after), runs the README's tour and type-checks the web front end's API
# calls against types generated from it; last, validate.mjs checks every
# recorded answer (and every accepted request) against openapi.yaml and
# fails on a route or a documented 4xx no test provoked.  Its per-route
# tally lands in $(CONTRACT_DIR)/summary.txt.  Under sanitizers only what
# depends on the binary runs again (the operations driven, then
# validate.mjs): the lint, the examples, the tour and the type check read
# documents, not memory.
CONTRACT_DOCS  := $(if $(filter 0,$(SANITIZE)),1)
CONTRACT_DIR   := $(BUILD)/contract
CONTRACT_TESTS := tests/contract/provoke.test.mjs $(if $(CONTRACT_DOCS),tests/contract/examples.test.mjs \
                  tests/contract/tour.test.mjs tests/contract/typecheck.test.mjs \
                  tests/contract/tables.test.mjs)
NODE_DEPS_OK   = test -d node_modules/@redocly/cli -a -d node_modules/ajv -a -d node_modules/typescript \
                   -a -d node_modules/openapi-typescript -a -d node_modules/yaml -a -d node_modules/playwright-core
# $(call contract_validate,DIR): the recorded answers of DIR against openapi.yaml (no coverage asked).
contract_validate = @if command -v node >/dev/null 2>&1 && $(NODE_DEPS_OK); then \
	  node tests/contract/validate.mjs $(1); \
	else echo "contract: $(1) not validated (needs node and npm ci: make deps-web)"; fi

test-contract: $(PUZZLED) $(API_TABLES)
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || \
	  { echo "test-contract: needs node and npm (make deps-web installs them)"; exit 1; }
	@$(NODE_DEPS_OK) || npm ci --no-audit --no-fund
	$(if $(CONTRACT_DOCS),REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true ./node_modules/.bin/redocly lint openapi.yaml --format=summary)
	@rm -rf $(CONTRACT_DIR)/contract && mkdir -p $(CONTRACT_DIR)/contract $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs PUZZLED_CONTRACT_DIR=$(CURDIR)/$(CONTRACT_DIR)/contract \
	  PUZZLED_API_TABLES=./$(API_TABLES) node --test --test-concurrency=1 $(CONTRACT_TESTS)
	node tests/contract/validate.mjs --coverage --summary $(CONTRACT_DIR)/summary.txt $(CONTRACT_DIR)

# The Docker image, built and run (tests/container/test_container.sh): docker
# when its engine runs, else podman (installed here when missing).
test-container:
	@if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then :; \
	 else $(MAKE) --no-print-directory deps-container; fi
	bash tests/container/test_container.sh

# deploy/compose.yaml brought up for real (docker compose, else podman-compose).
test-compose:
	@if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then :; \
	 else $(MAKE) --no-print-directory deps-container; fi
	bash tests/container/test_compose.sh

# nginx (deploy/nginx.conf.in) in front of three replicas, under load, with a
# crash and a rolling restart (tests/deploy/test_deploy.sh).  SANITIZE=1
# runs the replicas built with ASan/UBSan.
test-deploy: deps deps-deploy $(PUZZLED) $(LOAD_BIN) $(IDLE_BIN)
	@rm -rf $(BUILD)/contract-deploy && mkdir -p $(BUILD)/contract-deploy
	PUZZLED_BIN=./$(PUZZLED) LOAD_BIN=./$(LOAD_BIN) IDLE_BIN=./$(IDLE_BIN) \
	  PUZZLED_CONTRACT_DIR=$(CURDIR)/$(BUILD)/contract-deploy PUZZLED_CONTRACT_LIMIT=20000 bash tests/deploy/test_deploy.sh
	$(call contract_validate,$(BUILD)/contract-deploy)

# The janko.at variant collections (bench/bench_variants.c; any folder of
# *Sudoku.jsonl files in that format).
VARIANTS_DIR ?= $(if $(wildcard ../shared/data/variants),../shared/data/variants,/work/shared/data/variants)

# Every puzzle of every janko file in VARIANTS_DIR through the HTTP API of a
# server it starts (bench/bench_variants_http.c), each answer checked
# against the file's solution; the last line is
#   variants: N solved, W wrong, U not proved unique, S skipped
bench-variants: deps $(PUZZLED) $(BENCH_VARH)
	@mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(BENCH_VARH) -d $(VARIANTS_DIR)

# Every puzzle of a file in ISS_FORMAT (sigh's Interactive Sudoku Solver's
# examples) through the HTTP API of a server it starts
# (bench/bench_constraints_http.c); per constraint type, and last
#   constraints: N solved, W wrong, U uniqueness wrong, S unsupported
CONSTRAINTS_FILE ?= $(VARIANTS_DIR)/iss_constraints.jsonl
bench-constraints: deps $(PUZZLED) $(BENCH_CONS)
	@mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(BENCH_CONS) -f $(CONSTRAINTS_FILE)

# Each bench prints its own table; the data-driven ones read ../shared/data
# when it is there and say what they skipped when it is not.
bench: deps $(PUZZLED) $(BENCH_NQ) $(BENCH_NQ2) $(BENCH_SD) $(BENCH_XC) $(BENCH_KL) $(BENCH_HTTP) \
       $(BENCH_LG) $(BENCH_FAIR) $(BENCH_VAR)
	./$(BENCH_NQ)
	./$(BENCH_NQ2)
	./$(BENCH_SD)
	./$(BENCH_XC) -p gecode-89
	./$(BENCH_KL)
	@mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(BENCH_HTTP)
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(BENCH_FAIR)
	$(call apt_install,qqwing:qqwing)
	./$(BENCH_LG)
	./$(BENCH_VAR) -q -d $(VARIANTS_DIR)

# puzzled next to the public programs it is measured against, built and run
# in the same run on this machine (interleaved, best of 3): every
# bench/compare/*.sh present (9x9 Sudoku vs tdoku, N-Queens vs the
# constellations solver and takaken, min-conflicts vs FrozenVoid's NQ.c, big
# Sudoku vs CaDiCaL, generation vs qqwing, HTTP vs nginx).  Each script says
# which anchors it found and which are missing; none fails for a missing one.
BENCH_COMPARE_PKGS := wrk nginx qqwing cadical
bench-compare: deps $(PUZZLED) $(BENCH_BIN)
	$(call apt_install,$(BENCH_COMPARE_PKGS))
	@for s in bench/compare/*.sh; do 	  echo; echo "==== $$s"; bash $$s || echo "bench-compare: $$s failed ($$?)"; 	done

# Cluster mode against the synchronous count on this machine (redis-server,
# replicas on free loopback ports; N and ROUNDS: bench/bench_cluster.sh).
BENCH_CLUSTER_N ?= 18
bench-cluster: deps $(PUZZLED)
	PUZZLED_BIN=./$(PUZZLED) sh bench/bench_cluster.sh $(BENCH_CLUSTER_N) 3

# Big Sudoku: the cdcl method on 2 threads against CaDiCaL (installed here,
# a bench-only package) on the shared minimal 25x25, same run, best of 3
# (bench/compare/big.sh; REPS, THREADS, TIMEOUT, DATA in the environment).
bench-big: deps deps-bench $(BENCH_BIG)
	sh bench/compare/big.sh

# 9x9 speed: every file of ../shared/data/sudoku9 (or FILES=...), fast solver
# in both modes next to the other methods, single-threaded; then the same
# files through POST /v1/sudoku/batch on a loopback server.
FILES ?= $(sort $(wildcard ../shared/data/sudoku9/*))
bench9: deps $(PUZZLED) $(BENCH_9) $(BENCH_9H)
	./$(BENCH_9) $(FILES)
	@mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(BENCH_9H) $(FILES)

clean:
	rm -rf build

-include $(ALL_OBJ:.o=.d)
