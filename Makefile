# puzzled -- one flat Makefile (no recursive make).
#
#   make              build build/puzzled
#   make run          install missing packages, build, serve on 127.0.0.1:8080
#   make test         install missing packages, build, check layering, run every test
#   make test SANITIZE=1   the same suite under ASan + UBSan (objects in build/san)
#   make bench        benchmarks (reads ../shared/data when it is there)
#   make fuzz         libFuzzer on every api/ endpoint (clang; FUZZ_SECONDS, default 60)
#   make deps         apt-get install whatever Debian package is missing
#
# Objects go to $(BUILD); sanitizer builds use their own tree so the two never mix.

CC      ?= cc
BUILD   ?= build
SANITIZE ?= 0
ifeq ($(SANITIZE),1)
  BUILD := $(BUILD)/san
  SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

# Debian packages the build and the tests need (the Dockerfile installs the same list).
DEB_PKGS := build-essential pkg-config libmicrohttpd-dev libjansson-dev libuv1-dev check \
            libcurl4-openssl-dev clang-format
PKGS     := libmicrohttpd jansson libuv

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
SOLVER_SRC := solvers/nqueens/nqueens.c solvers/nqueens/xc.c solvers/nqueens/board.c \
              solvers/nqueens/heur.c solvers/nqueens/repair.c \
              solvers/sudoku/sudoku.c solvers/sudoku/bt.c solvers/sudoku/prop.c \
              solvers/sudoku/bestfirst.c solvers/sudoku/xc.c solvers/sudoku/sudoku9.c \
              solvers/sudoku/sudoku9_avx2.c solvers/sudoku/sudoku9_scalar.c \
              solvers/xcover/xcover.c solvers/xcover/dlx.c solvers/xcover/algx.c \
              solvers/killer/killer.c solvers/killer/bt.c solvers/killer/adv.c solvers/killer/derive.c
API_SRC    := api/problem.c api/request.c api/json_util.c api/xc_job.c api/nqueens_api.c api/sudoku_api.c api/sudoku_batch.c \
              api/xcover_api.c api/killer_api.c api/nqueens_board_api.c
SERVER_SRC := server/config.c server/metrics.c server/pool.c server/http.c \
              server/router.c server/healthcheck.c server/reqid.c
MAIN_SRC   := server/main.c
TEST_SRC   := tests/test_main.c tests/test_nqueens.c tests/test_api.c tests/test_config.c \
              tests/test_sudoku.c tests/test_sudoku9.c tests/test_sudoku_api.c tests/test_sudoku_batch.c tests/test_xcover.c tests/test_xcover_api.c tests/pentomino.c \
              tests/test_killer.c tests/test_killer_api.c tests/test_nqueens_more.c \
              tests/test_nqueens_board_api.c tests/job_harness.c tests/test_http.c \
              tests/http_client.c
FUZZ_SRC   := fuzz/fuzz_api.c fuzz/replay.c
BENCH_SRC  := bench/bench_nqueens.c bench/bench_sudoku.c bench/bench_xcover.c bench/bench9.c \
              bench/bench_killer.c bench/bench_nqueens_more.c bench/bench_http.c bench/bench9_http.c

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
SOLVER_OBJ := $(call obj,$(SOLVER_SRC))
API_OBJ    := $(call obj,$(API_SRC))
SERVER_OBJ := $(call obj,$(SERVER_SRC))
MAIN_OBJ   := $(call obj,$(MAIN_SRC))
TEST_OBJ   := $(call obj,$(TEST_SRC))
BENCH_OBJ  := $(call obj,$(BENCH_SRC))
FUZZ_OBJ   := $(call obj,$(FUZZ_SRC))
ALL_OBJ    := $(SOLVER_OBJ) $(API_OBJ) $(SERVER_OBJ) $(MAIN_OBJ) $(TEST_OBJ) $(BENCH_OBJ) $(FUZZ_OBJ)

PUZZLED    := $(BUILD)/puzzled
TEST_BIN   := $(BUILD)/tests/run_tests
BENCH_NQ   := $(BUILD)/bench/bench_nqueens
BENCH_SD   := $(BUILD)/bench/bench_sudoku
BENCH_XC   := $(BUILD)/bench/bench_xcover
BENCH_9    := $(BUILD)/bench/bench9
BENCH_9H   := $(BUILD)/bench/bench9_http
BENCH_KL   := $(BUILD)/bench/bench_killer
BENCH_NQ2  := $(BUILD)/bench/bench_nqueens_more
BENCH_HTTP := $(BUILD)/bench/bench_http
FUZZ_REPLAY := $(BUILD)/fuzz/replay

.PHONY: all run test bench bench9 fuzz fuzz-cover deps check-layers check-tables tables format format-check clean
all: $(PUZZLED)

# Goals that must see the packages installed first.
ifneq ($(filter run test bench bench9 deps,$(MAKECMDGOALS)),)
$(ALL_OBJ): | deps
endif

deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

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

$(BUILD)/fuzz/%.o: fuzz/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(BUILD)/bench/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) -c $< -o $@

$(PUZZLED): $(MAIN_OBJ) $(SERVER_OBJ) $(API_OBJ) $(SOLVER_OBJ)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) -lm

$(TEST_BIN): $(TEST_OBJ) $(SERVER_OBJ) $(API_OBJ) $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) $(TEST_LIBS) -lm

$(BENCH_NQ): $(BUILD)/bench/bench_nqueens.o $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm

$(BENCH_SD): $(BUILD)/bench/bench_sudoku.o $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm

$(BENCH_XC): $(BUILD)/bench/bench_xcover.o $(BUILD)/tests/pentomino.o $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm

$(BENCH_9): $(BUILD)/bench/bench9.o $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm

$(BENCH_9H): $(BUILD)/bench/bench9_http.o $(BUILD)/tests/http_client.o $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) $(TEST_LIBS) -lm

$(BENCH_KL): $(BUILD)/bench/bench_killer.o $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm

$(BENCH_NQ2): $(BUILD)/bench/bench_nqueens_more.o $(SOLVER_OBJ)
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) -lm

$(BENCH_HTTP): $(BUILD)/bench/bench_http.o $(BUILD)/tests/http_client.o
	@mkdir -p $(@D)
	$(CC) $^ -o $@ $(ALL_LDFLAGS) $(PKG_LIBS) $(TEST_LIBS) -lm

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
fuzz: deps
	@command -v clang >/dev/null 2>&1 || { echo "installing clang"; apt-get install -y clang >/dev/null; }
	@mkdir -p $(FUZZ_DIR)/corpus
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -O1 -g -I. $(PKG_CFLAGS) \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  fuzz/fuzz_api.c $(API_SRC) $(SOLVER_SRC) -o $(FUZZ_DIR)/fuzz_api $(PKG_LIBS) -lm -pthread
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

# solvers/ must stay pure (no HTTP/JSON/libuv, no I/O, no mutable globals) and
# api/ free of HTTP and libuv; see tests/check_layers.sh for what is checked.
check-layers: $(SOLVER_OBJ) $(API_OBJ)
	@sh tests/check_layers.sh $(BUILD)

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
BENCH_BIN  := $(BENCH_NQ) $(BENCH_NQ2) $(BENCH_SD) $(BENCH_XC) $(BENCH_9) $(BENCH_9H) $(BENCH_KL) $(BENCH_HTTP)

test: deps format-check check-layers check-tables $(PUZZLED) $(TEST_BIN) $(BENCH_BIN) $(FUZZ_REPLAY)
	@if [ "$(SANITIZE)" != 1 ]; then sh tests/check_dockerfile.sh $(PUZZLED); fi
	@sh tests/check_openapi.sh
	@sh tests/check_bench_killer.sh $(BENCH_KL)
	./$(FUZZ_REPLAY) fuzz/corpus fuzz/cover
	@rm -rf $(BUILD)/test-logs && mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(TEST_BIN)

# Each bench prints its own table; the data-driven ones read ../shared/data
# when it is there and say what they skipped when it is not.
bench: deps $(PUZZLED) $(BENCH_NQ) $(BENCH_NQ2) $(BENCH_SD) $(BENCH_XC) $(BENCH_KL) $(BENCH_HTTP)
	./$(BENCH_NQ)
	./$(BENCH_NQ2)
	./$(BENCH_SD)
	./$(BENCH_XC) -p gecode-89
	./$(BENCH_KL)
	@mkdir -p $(BUILD)/test-logs
	PUZZLED_BIN=./$(PUZZLED) PUZZLED_TEST_LOGS=$(BUILD)/test-logs ./$(BENCH_HTTP)

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
