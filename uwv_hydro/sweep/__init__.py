# Copyright 2026 The uwv_hydro Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Monte-Carlo sweeps: many runs of one vehicle with drawn coefficients, reduced to outputs.

``spec`` (the sweep specification YAML, checked; its hash keys the results),
``draws`` (every run's drawn values, a function of (seed, run index) alone),
``reductions`` (outputs accumulated step by step: final position, depth, turning
diameter, energy, broach), ``chunk_task`` (one chunk of runs in one BatchSimulator),
``manoeuvre_runs`` (a manoeuvre scenario's chunk: each run flies the manoeuvre),
``chunk_store`` (one Parquet file per finished chunk), ``dask_runner`` (chunks as
dask.distributed tasks, resumable) and ``summary`` (mean, std, percentiles).
dask, distributed and pyarrow are imported lazily (pip-only, requirements.txt).
"""
