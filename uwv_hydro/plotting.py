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
PNG plots (matplotlib, Agg backend): trajectories, body velocities, wrench components.

Recorded data is drawn solid and predictions dashed when both are given.
"""

from typing import Dict, Optional

import numpy as np


def pyplot():
    """Return matplotlib.pyplot on the Agg backend (no display needed)."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    return plt


def save_figure(fig, path, title: str = '') -> None:
    """Give ``fig`` its title, lay it out, write it as a PNG and close it."""
    if title:
        fig.suptitle(title)
    fig.tight_layout()
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


def plot_wrenches(t: np.ndarray, components: Dict[str, np.ndarray], path,
                  title: str = '', total: Optional[np.ndarray] = None) -> None:
    """Plot each wrench component's forces and torques vs time to a PNG."""
    plt = pyplot()
    fig, axes = plt.subplots(2, 3, figsize=(14, 7), sharex=True)
    names = ('Fx [N]', 'Fy [N]', 'Fz [N]', 'Tx [N m]', 'Ty [N m]', 'Tz [N m]')
    for i, ax in enumerate(axes.ravel()):
        for comp, values in components.items():
            ax.plot(t, np.asarray(values)[:, i], label=comp)
        if total is not None:
            ax.plot(t, np.asarray(total)[:, i], 'k--', label='total')
        ax.set(title=names[i], xlabel='t [s]')
        ax.grid(True)
    axes[0, 0].legend(fontsize='small')
    save_figure(fig, path, title)
