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
The node-probe helpers node_probe.py and node_links_probe.py share.

The ROS domain of a probe and its node (:func:`probe_domain`), a process's CPU time
(:func:`process_cpu_s`) and the update loop's cycle figures of the node's /diagnostics
(:func:`cycle_figures`).
"""

import os
import pathlib

import numpy as np

#: The update loop's cycle figures in /diagnostics (microseconds).
CYCLE_KEYS = ('cycle_cpu_p50_us', 'cycle_cpu_p99_us', 'cycle_wall_p50_us', 'cycle_wall_p99_us')


def probe_domain():
    """Return (ROS domain id, environment) for a node and its probe, apart from others."""
    domain = 120 + os.getpid() % 80
    env = dict(os.environ, ROS_DOMAIN_ID=str(domain),
               ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST')
    return domain, env


def process_cpu_s(pid):
    """Return the user + system CPU seconds of process ``pid`` (every thread)."""
    fields = pathlib.Path('/proc/%d/stat' % pid).read_text().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def cycle_figures(diags):
    """Return (median over the windows of each cycle figure, the loop windows)."""
    windows = [{kv.key: kv.value for kv in status.values}
               for msg in diags for status in msg.status if 'update loop' in status.name]
    cycle = {k: float(np.median([float(w[k]) for w in windows if k in w]))
             for k in CYCLE_KEYS if any(k in w for w in windows)}
    return cycle, windows
