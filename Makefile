# Copyright 2026 The uwv_hydro Authors
# SPDX-License-Identifier: Apache-2.0
#
# make demo   - run the main job (see README)
# make test   - linters + unit + integration tests (real rclpy / Fast DDS), then the
#               numerical tests again under another OpenBLAS kernel (tools/test_other_blas)
#               and in the Humble (Python 3.10) and Jazzy (Python 3.12) environments of
#               tools/other_pythons.txt (tools/test_other_python)
# make bench  - benchmarks (figures printed)
# make soak   - 1 simulated hour of the node at 1 kHz under sim time (SOAK_ARGS, e.g.
#               SOAK_ARGS='--sim-seconds 600'); RSS, loop overruns, odometry continuity
# make setup  - only bootstrap the environments (tools/bootstrap --other-pythons)
RUN := tools/run

.PHONY: setup test lint demo bench soak clean

setup:
	tools/bootstrap --other-pythons

test: setup
	$(RUN) python -m pytest test
	$(RUN) tools/test_other_blas
	tools/test_other_python

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
