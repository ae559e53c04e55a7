# Copyright 2026 The uwv_hydro Authors
# SPDX-License-Identifier: Apache-2.0
#
# make demo   - run the main job (see README)
# make test   - linters + unit + integration tests (real rclpy / Fast DDS), then the
#               numerical tests again under another OpenBLAS kernel (tools/test_other_blas)
# make bench  - benchmarks (figures printed)
# make soak   - 1 simulated hour of the node at 1 kHz under sim time (SOAK_ARGS, e.g.
#               SOAK_ARGS='--sim-seconds 600'); RSS, loop overruns, odometry continuity
# make setup  - only bootstrap the environment (tools/bootstrap)
RUN := tools/run

.PHONY: setup test lint demo bench soak clean

setup:
	tools/bootstrap

test: setup
	$(RUN) python -m pytest test
	$(RUN) tools/test_other_blas

lint: setup
	$(RUN) python -m pytest test -m linter

demo: setup
	$(RUN) uwv-hydro demo $(DEMO_ARGS)

bench: setup
	$(RUN) python benchmarks/run.py $(BENCH_ARGS)

soak: setup
	$(RUN) python soak/run_soak.py $(SOAK_ARGS)

clean:
	rm -rf build install log .deps .pytest_cache
