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
PNG plots (matplotlib, Agg backend).

Trajectories, body velocities, wrench components and system-identification fits.

Recorded data is drawn solid and predictions dashed when both are given.
"""

from typing import Dict, Optional

import numpy as np

from uwv_hydro.sysid.regressors import AXIS_FORCE_UNITS, AXIS_NAMES

_WRENCH_LABELS = ('Fx', 'Fy', 'Fz', 'Tx', 'Ty', 'Tz')


def pyplot():
    """Return matplotlib.pyplot on the Agg backend (no display needed)."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def save_figure(fig, path, title: str = '', rect=None) -> None:
    """Give ``fig`` its title, lay it out (within ``rect``), write it as a PNG, close it."""
    if title:
        fig.suptitle(title)
    fig.tight_layout(rect=rect)
    fig.savefig(path, dpi=90)
    pyplot().close(fig)


def plot_trajectory(trajectory, path, reference=None, title: str = '',
                    labels=('simulated', 'recorded')) -> None:
    """
    Plot x-y track, depth vs time and body velocities to a PNG.

    ``reference`` (another Trajectory, e.g. recorded odometry) is overlaid when given.
    """
    plt = pyplot()
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    series = [(trajectory, labels[0], '-')]
    if reference is not None:
        series = [(reference, labels[1], '-'), (trajectory, labels[0], '--')]
    ax_xy, ax_depth, ax_lin, ax_ang = axes.ravel()
    for traj, label, style in series:
        ax_xy.plot(traj.position[:, 0], traj.position[:, 1], style, label=label)
        ax_depth.plot(traj.t, -traj.position[:, 2], style, label=label)
        for i, name in enumerate(('u', 'v', 'w')):
            ax_lin.plot(traj.t, traj.twist[:, i], style, label='%s %s' % (name, label))
        for i, name in enumerate(('p', 'q', 'r')):
            ax_ang.plot(traj.t, traj.twist[:, 3 + i], style, label='%s %s' % (name, label))
    ax_xy.set(xlabel='x east [m]', ylabel='y north [m]', title='track (ENU)')
    ax_xy.axis('equal')
    ax_depth.set(xlabel='t [s]', ylabel='depth [m]', title='depth')
    ax_depth.invert_yaxis()
    ax_lin.set(xlabel='t [s]', ylabel='[m/s]', title='body linear velocity (FLU)')
    ax_ang.set(xlabel='t [s]', ylabel='[rad/s]', title='body angular velocity (FLU)')
    for ax in axes.ravel():
        ax.grid(True)
        ax.legend(fontsize='small')
    save_figure(fig, path, title)


#: The hydrostatic terms: in a panel where they are ten times the rest, they and the total
#: go on a second (right) axis so that the hydrodynamic terms stay readable.
_HYDROSTATIC = ('weight', 'buoyancy')


def plot_wrenches(t: np.ndarray, components: Dict[str, np.ndarray], path,
                  title: str = '', total: Optional[np.ndarray] = None) -> None:
    """Plot each wrench component's forces and torques vs time to a PNG (legend aside)."""
    plt = pyplot()
    fig, axes = plt.subplots(2, 3, figsize=(15, 7), sharex=True)
    names = ('Fx [N]', 'Fy [N]', 'Fz [N]', 'Tx [N m]', 'Ty [N m]', 'Tz [N m]')
    series = {name: np.asarray(values) for name, values in components.items()}
    # a term that is zero throughout (the weight a simulator applies, say) is named, not drawn
    zero = [name for name, values in series.items() if not np.any(values)]
    series = {name: values for name, values in series.items() if name not in zero}
    colours = {name: 'C%d' % (k % 10) for k, name in enumerate(components)}
    handles = {}
    for i, ax in enumerate(axes.ravel()):
        def peak(keys):
            return max([float(np.max(np.abs(series[k][:, i]))) for k in keys
                        if series[k].size] or [0.0])
        static = [k for k in series if k in _HYDROSTATIC]
        big, small = peak(static), peak([k for k in series if k not in _HYDROSTATIC])
        right = ax.twinx() if big > 10.0 * small > 0.0 else ax
        for name, values in series.items():
            target = right if name in static else ax
            handles.setdefault(name, target.plot(t, values[:, i], color=colours[name],
                                                 label=name)[0])
        if total is not None:
            handles.setdefault('total', right.plot(t, np.asarray(total)[:, i], 'k--',
                                                   label='total')[0])
        ax.set(title=names[i], xlabel='t [s]')
        if right is not ax:
            ax.set_ylabel('hydrodynamic terms')
            right.set_ylabel('%s, total (right axis)' % ', '.join(static))
        ax.grid(True)
    legend = fig.legend(list(handles.values()), list(handles), loc='center right',
                        fontsize='small', title='zero throughout:\n%s' % '\n'.join(zero)
                        if zero else None, title_fontsize='x-small')
    legend.get_title().set_multialignment('left')
    save_figure(fig, path, title, rect=(0.0, 0.0, 0.87, 1.0))


def plot_fit(result, path, title: str = '') -> None:
    """Plot measured vs predicted hydrodynamic wrench per axis and the validation run."""
    plt = pyplot()
    r = result
    fig, axes = plt.subplots(3, 3, figsize=(15, 10))
    flat = axes.ravel()
    for a in range(6):
        ax = flat[a]
        ax.plot(r.t, r.measured[:, a], '-', lw=1.0, label='measured')
        ax.plot(r.t, r.predicted[:, a], '--', lw=1.0, label='fitted model')
        ax.set(title='%s hydrodynamic %s [%s] (R^2 %.4f)'
               % (AXIS_NAMES[a], _WRENCH_LABELS[a], AXIS_FORCE_UNITS[a], r.r_squared[a]),
               xlabel='t [s]')
    v = r.validation
    if v is not None:
        series = ((v.recorded, 'recorded', '-'), (v.predicted, 'fitted model', '--'))
        if r.prior_validation is not None:
            series += ((r.prior_validation.predicted, 'description', ':'),)
        for traj, label, style in series:
            for i, name in enumerate('xyz'):
                flat[6].plot(traj.t, traj.position[:, i], style, label='%s %s' % (name, label))
            for i, name in enumerate('uvw'):
                flat[7].plot(traj.t, traj.twist[:, i], style, label='%s %s' % (name, label))
            for i, name in enumerate('pqr'):
                flat[8].plot(traj.t, traj.twist[:, 3 + i], style,
                             label='%s %s' % (name, label))
        flat[6].set(title='validation: position (ENU) [m]', xlabel='t [s]')
        flat[7].set(title='validation: body linear velocity [m/s]', xlabel='t [s]')
        flat[8].set(title='validation: body angular velocity [rad/s]', xlabel='t [s]')
    else:
        for ax in flat[6:]:
            ax.set_visible(False)
    for ax in flat:
        ax.grid(True)
        ax.legend(fontsize='x-small')
    save_figure(fig, path, title)
