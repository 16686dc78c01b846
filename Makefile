# coulomb — quick start: `make run`, then `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test check check-ci format clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: deps $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	$(BUILD)/src/cli/coulomb run

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Sanitized tests and fuzzing (docs/reliability.md): build-check (ASan + UBSan) and build-fuzz
# (clang, libFuzzer); FUZZ_TIME seconds per fuzz target.
check:
	@COULOMB_CHECK=1 scripts/install-deps.sh
	JOBS=$(JOBS) scripts/check.sh

# The reduced check CI runs after make test: only build-fuzz/ (clang, ASan + UBSan), the readers'
# tests there, then every fuzz target's corpus replayed and CI_FUZZ_TIME seconds of fuzzing each.
CI_FUZZ_TIME ?= 20
check-ci:
	@COULOMB_CHECK=1 scripts/install-deps.sh
	CHECK_STEPS="readers fuzz" FUZZ_TIME=$(CI_FUZZ_TIME) JOBS=$(JOBS) scripts/check.sh

format:
	@command -v clang-format >/dev/null || { echo "make format: clang-format is not installed (apt-get install clang-format)"; exit 1; }
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	rm -rf $(BUILD)
