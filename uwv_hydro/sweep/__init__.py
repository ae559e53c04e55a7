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

The specification (checked, hashed), the draws (a function of seed and run index), the
reductions, chunks of runs (batched, or manoeuvre flights) as Dask tasks on a local or
given cluster, one Parquet file per finished chunk (resumable), the summary, and the
bootstrap of ``fit``.  dask, distributed and pyarrow are imported lazily (pip-only).
"""
