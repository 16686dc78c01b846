#!/usr/bin/env bash
# `make check` and `make check-ci`: the sanitized and fuzzed checks (docs/reliability.md,
# "Sanitizers and fuzzing"). Steps (CHECK_STEPS):
#
#   tests    The C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer with leak detection,
#            in their own build folder (GCC, RelWithDebInfo, no Python module, benchmarks or viewer
#            bundle). `make check` only.
#   readers  The readers' tests (scene files, FCLIB files, law arguments, checkpoints: ctest label
#            `readers`), built in the fuzz build folder below, so under ASan + UBSan with no other
#            build. `make check-ci` only (`tests` runs them too).
#   fuzz     The fuzz targets of tests/fuzz (clang + libFuzzer + ASan + UBSan, in another build
#            folder): each replays its checked-in corpus tests/fuzz/corpus/NAME, then fuzzes for
#            FUZZ_TIME seconds from it with a fixed seed.
#
# Any sanitizer report, leak, crash, hang (FUZZ_TIMEOUT seconds for one input), test failure or
# fuzzer finding fails the run; a fuzzer's input that fails is kept under FUZZ_BUILD/artifacts/.
#
# Environment: CHECK_BUILD (build-check), FUZZ_BUILD (build-fuzz), FUZZ_TIME (60 s per target),
# FUZZ_TARGETS ("scene fclib law checkpoint"), FUZZ_TIMEOUT (10 s), JOBS (nproc), CHECK_STEPS
# ("tests fuzz"; `make check-ci`: "readers fuzz" with FUZZ_TIME 20).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

CHECK_BUILD=${CHECK_BUILD:-build-check}
FUZZ_BUILD=${FUZZ_BUILD:-build-fuzz}
FUZZ_TIME=${FUZZ_TIME:-60}
FUZZ_TARGETS=${FUZZ_TARGETS:-scene fclib law checkpoint}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
JOBS=${JOBS:-$(nproc)}
CHECK_STEPS=${CHECK_STEPS:-tests fuzz}

sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# Reports: leaks on, every UBSan report fatal with its stack; the suppressions (third-party code
# only) say why each is there.
export ASAN_OPTIONS="detect_leaks=1:check_initialization_order=1:strict_init_order=1"
export LSAN_OPTIONS="suppressions=$root/tests/sanitizer/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

step() { printf '\n== make check: %s (%s)\n' "$*" "$(date +%T)"; }

# The fuzz build folder (clang, COULOMB_FUZZ): the fuzz targets and the readers' tests.
configure_fuzz() {
  if [[ ! -f $FUZZ_BUILD/CMakeCache.txt ]]; then
    cmake -S . -B "$FUZZ_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
      -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCOULOMB_FUZZ=ON
  fi
}

for s in $CHECK_STEPS; do
  case $s in
  tests)
    step "C++ tests under ASan + UBSan ($CHECK_BUILD)"
    if [[ ! -f $CHECK_BUILD/CMakeCache.txt ]]; then
      cmake -S . -B "$CHECK_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
        -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
        -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" \
        -DCOULOMB_BUILD_BENCH=OFF -DCOULOMB_BUILD_PYTHON=OFF -DCOULOMB_BUILD_VIEWER=OFF
    fi
    cmake --build "$CHECK_BUILD" -j "$JOBS"
    # The package test builds a consumer against the installed (instrumented) libraries: it takes
    # the sanitizer flags from the environment like any first CMake configuration.
    (cd "$CHECK_BUILD" && CFLAGS="$sanitize" CXXFLAGS="$sanitize" LDFLAGS="$sanitize" \
      ctest --output-on-failure -j "$JOBS")
    ;;
  readers)
    step "the readers' tests under ASan + UBSan ($FUZZ_BUILD)"
    configure_fuzz
    cmake --build "$FUZZ_BUILD" -j "$JOBS" --target reader_tests
    (cd "$FUZZ_BUILD" && ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" \
      ctest --output-on-failure -j "$JOBS" -L readers)
    ;;
  fuzz)
    step "fuzz targets ($FUZZ_BUILD): ${FUZZ_TARGETS}"
    configure_fuzz
    targets=()
    for t in $FUZZ_TARGETS; do targets+=("fuzz_$t"); done
    cmake --build "$FUZZ_BUILD" -j "$JOBS" --target "${targets[@]}"
    for t in $FUZZ_TARGETS; do
      exe=$FUZZ_BUILD/tests/fuzz/fuzz_$t
      seeds=tests/fuzz/corpus/$t
      work=$FUZZ_BUILD/corpus/$t        # what this run adds; emptied each run
      artifacts=$FUZZ_BUILD/artifacts/$t
      rm -rf "$work"
      mkdir -p "$work" "$artifacts"
      step "fuzz_$t: replay of $seeds ($(find "$seeds" -type f | wc -l) inputs)"
      ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0" "$exe" -runs=0 -timeout="$FUZZ_TIMEOUT" -artifact_prefix="$artifacts/" "$seeds"
      step "fuzz_$t: ${FUZZ_TIME} s, -seed=1"
      log=$FUZZ_BUILD/fuzz_$t.log
      status=0
      # The FCLIB reader runs libhdf5, uninstrumented. It has no frame pointers: its leak
      # suppressions (lsan.supp) need the slow unwinder. It allocates sizes read from the file and
      # handles a failed allocation as an error: ASan returns NULL where glibc would, instead of
      # aborting (our own code allocates with new, which then throws std::bad_alloc, a finding).
      extra=""
      [[ $t == fclib ]] && extra=":fast_unwind_on_malloc=0:allocator_may_return_null=1"
      ASAN_OPTIONS="$ASAN_OPTIONS$extra" "$exe" -seed=1 -max_total_time="$FUZZ_TIME" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "$seeds" >"$log" 2>&1 ||
        status=$?
      grep -E '^(stat::|INFO: seed corpus|#[0-9]+ +(INITED|DONE))' "$log" || true
      if ((status != 0)); then
        tail -n 60 "$log"
        echo "make check: fuzz_$t failed (status $status): log $log, input under $artifacts/" >&2
        exit 1
      fi
    done
    ;;
  *)
    echo "make check: unknown step '$s' (CHECK_STEPS takes tests, readers and fuzz)" >&2
    exit 2
    ;;
  esac
done
step "passed"
