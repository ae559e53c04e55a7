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

"""Histograms of a sweep's outputs (PNG, matplotlib Agg)."""

import math
import pathlib

import numpy as np

from uwv_hydro.cli.plotting import pyplot, save_figure

#: Units of the output columns (axis labels).
UNITS = {'final_x': 'm', 'final_y': 'm', 'final_z': 'm', 'max_depth': 'm',
         'depth_overshoot': 'm', 'turning_diameter': 'm', 'energy': 'J'}


def unit(name: str) -> str:
    """Return the unit of an output column (a manoeuvre figure's is in its name)."""
    if name in UNITS:
        return UNITS[name]
    base = name.split('_at_')[0]
    for suffix, text in (('_m_s', 'm/s'), ('_deg_s', 'deg/s'), ('_rpm', 'rpm'),
                         ('_deg', 'deg'), ('_m', 'm'), ('_s', 's')):
        if base.endswith(suffix):
            return text
    return '-'


def plot_histograms(columns, names, out_dir, title: str = '') -> pathlib.Path:
    """Write ``out_dir/histograms.png``: one histogram per output; return its path."""
    plt = pyplot()
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    cols = min(3, len(names))
    rows = int(math.ceil(len(names) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax, name in zip(axes.ravel(), names):
        values = np.asarray(columns[name])
        if values.dtype == bool:
            counts = [int(np.sum(~values)), int(np.sum(values))]
            ax.bar(['no', 'yes'], counts)
            ax.set_title('%s: p = %.3g' % (name, values.mean() if values.size else math.nan))
            continue
        finite = values[np.isfinite(values)]
        if finite.size:
            ax.hist(finite, bins=min(50, max(5, int(np.sqrt(finite.size)))))
            mean = float(np.mean(finite))
            ax.axvline(mean, color='k', linestyle='--', linewidth=1,
                       label='mean %.3g%s' % (mean, '' if unit(name) == '-'
                                              else ' ' + unit(name)))
            ax.legend(fontsize='x-small')
        nan = values.size - finite.size
        ax.set_title(name + (' (%d NaN)' % nan if nan else ''))
        ax.set_xlabel('%s [%s]' % (name, unit(name)))
        ax.set_ylabel('runs')
    for ax in axes.ravel()[len(names):]:
        ax.set_visible(False)
    path = out_dir / 'histograms.png'
    save_figure(fig, path, title)
    return path
