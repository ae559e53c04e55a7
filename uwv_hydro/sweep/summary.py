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
The summary of a sweep: per output, mean, standard deviation and percentiles.

NaN values (a turning diameter where the run did not turn, a diverged run) are left
out and counted: ``n`` is the number of finite values.  A boolean output (broach) is
summarised as its probability (the mean) with the 95 % Wilson score interval
(Wilson 1927, "Probable inference, the law of succession, and statistical inference").
"""

import json
import math
from typing import Dict, List

import numpy as np

#: Percentiles reported.
PERCENTILES = (5.0, 50.0, 95.0)
#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def summarise(columns: Dict[str, np.ndarray], names: List[str]) -> List[dict]:
    """Return one summary dict per column of ``names``."""
    rows = []
    for name in names:
        values = np.asarray(columns[name])
        if values.dtype == bool:
            n = values.size
            p = float(values.mean()) if n else math.nan
            # Wilson score interval for a binomial proportion
            denom = 1.0 + Z95 ** 2 / n
            centre = (p + Z95 ** 2 / (2 * n)) / denom
            half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
            # at p = 0 (1) the bound is 0 (1) exactly; centre -+ half only rounds to it
            low = 0.0 if p == 0.0 else max(0.0, centre - half)
            high = 1.0 if p == 1.0 else min(1.0, centre + half)
            rows.append({'output': name, 'kind': 'probability', 'n': int(n), 'mean': p,
                         'ci95': [low, high]})
            continue
        values = values.astype(float)
        finite = values[np.isfinite(values)]
        row = {'output': name, 'kind': 'value', 'n': int(finite.size),
               'nan': int(values.size - finite.size)}
        if finite.size:
            row.update(mean=float(finite.mean()),
                       std=float(finite.std(ddof=1)) if finite.size > 1 else 0.0,
                       min=float(finite.min()), max=float(finite.max()))
            for q, v in zip(PERCENTILES, np.percentile(finite, PERCENTILES)):
                row['p%g' % q] = float(v)
        rows.append(row)
    return rows


def text(rows: List[dict]) -> List[str]:
    """Return the summary as aligned text lines."""
    w = max([18] + [len(r['output']) for r in rows])
    head = '%-*s %6s %12s %12s %12s %12s %12s' % (w, 'output', 'n', 'mean', 'std', 'p5',
                                                  'p50', 'p95')
    lines = [head]
    for r in rows:
        if r['kind'] == 'probability':
            lines.append('%-*s %6d %12.4g   probability, 95%% CI [%.4g, %.4g]'
                         % (w, r['output'], r['n'], r['mean'], *r['ci95']))
        elif r['n'] == 0:
            lines.append('%-*s %6d   (no finite value)' % (w, r['output'], 0))
        else:
            extra = '  (%d NaN)' % r['nan'] if r['nan'] else ''
            lines.append('%-*s %6d %12.4g %12.4g %12.4g %12.4g %12.4g%s'
                         % (w, r['output'], r['n'], r['mean'], r['std'], r['p5'], r['p50'],
                            r['p95'], extra))
    return lines


def write_json(rows: List[dict], path, **meta) -> None:
    """Write the summary (and ``meta``) as JSON."""
    with open(path, 'w') as f:
        json.dump(dict(meta, outputs=rows), f, indent=2, sort_keys=True)
        f.write('\n')
