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
Bootstrap resamples of a fit as dask.distributed tasks (``fit --bootstrap N``).

Chunks of resample indices, each one task ``resample_estimates(regression, seed,
start, stop)`` (the regression scattered to the workers once); the estimates are put
back in index order, so the result is the serial one whatever the split.
"""

import numpy as np

from uwv_hydro.sysid.bootstrap import resample_estimates


def run_bootstrap(regression, count: int, seed: int = 0, chunk: int = 25,
                  client=None, on_chunk=None) -> np.ndarray:
    """Return the (count, p) resampled estimates; on ``client``'s cluster when given."""
    ranges = [(s, min(s + chunk, count)) for s in range(0, count, chunk)]
    out = np.empty((count, regression.phi.shape[2]))
    if client is None:
        for start, stop in ranges:
            out[start:stop] = resample_estimates(regression, seed, start, stop)
            if on_chunk is not None:
                on_chunk(stop - start)
        return out
    from distributed import as_completed
    remote = client.scatter(regression, broadcast=True)
    futures = {client.submit(resample_estimates, remote, seed, start, stop,
                             pure=False): (start, stop) for start, stop in ranges}
    for future in as_completed(futures):
        start, stop = futures[future]
        out[start:stop] = future.result()
        future.release()
        if on_chunk is not None:
            on_chunk(stop - start)
    return out
