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
/diagnostics content: input rates and ages, drop counts, watchdog, update-loop health.

:class:`DiagnosticsReport` takes a plain snapshot of the node (a dict, under the state
lock) and publishes it; :func:`build_statuses` turns a snapshot into DiagnosticStatus
messages, so the layout is testable without a running node.
"""
import time
from typing import Dict, List

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from uwv_hydro.modes.messages import msg_conversions as conv

OK = DiagnosticStatus.OK
WARN = DiagnosticStatus.WARN
ERROR = DiagnosticStatus.ERROR
STALE = DiagnosticStatus.STALE


def _kv(key: str, value) -> KeyValue:
    if isinstance(value, float):
        value = '%.6g' % value
    return KeyValue(key=key, value=str(value))


def _status(name: str, hardware_id: str, level, message: str, values: Dict) -> DiagnosticStatus:
    return DiagnosticStatus(level=level, name=name, message=message, hardware_id=hardware_id,
                            values=[_kv(k, v) for k, v in values.items()])


def _lagging(loop: Dict) -> bool:
    """Return whether the simulated time is a period or more behind the clock."""
    # the lag is whole periods: over half of one is at least one
    return loop.get('simulated_lag_s', 0.0) > 0.5 / loop.get('nominal_rate_hz', float('inf'))


def build_statuses(prefix: str, vehicle: str, snap: Dict) -> List[DiagnosticStatus]:
    """
    Return the statuses of one snapshot.

    ``snap`` keys: ``loop`` (dict; ``clock_stalled`` / ``clock_silent_s`` under sim
    time), ``drops`` (reason -> count), ``inputs`` (name -> {rate_hz, age_s (node
    clock), age_wall_s (monotonic), count, drops, state, values...}), ``watchdog``
    (topic -> state)
    and ``events`` (dict of counters such as clock resets).
    """
    out = []
    loop = snap['loop']
    level = OK
    message = 'running'
    if loop.get('clock_stalled'):
        level, message = WARN, 'clock stalled: /clock silent for %.3g s of wall time' % (
            loop.get('clock_silent_s', 0.0))
    elif loop.get('simulated_time_factor', 1.0) < 1.0 or _lagging(loop):
        # falling behind, or behind and catching up (simulate_mode.py): the stamps are
        # that far behind the clock until the lag is back under one period
        level, message = WARN, ('simulation behind the clock: real-time factor %.3g, the '
                                'simulated time %.3g s behind%s' % (
                                    loop.get('simulated_time_factor', 1.0),
                                    loop['simulated_lag_s'],
                                    ', catching up' if loop.get('simulated_time_factor', 1.0)
                                    > 1.0 else ''))
    elif loop.get('ticks', 0) == 0:
        level, message = WARN, 'no update yet (waiting for the clock?)'
    elif loop.get('overruns_recent', 0) > 0:
        level, message = WARN, 'update loop overruns'
    values = dict(loop)
    values.update(snap.get('events', {}))
    out.append(_status(prefix + ': update loop', vehicle, level, message, values))

    drops = snap['drops']
    total = sum(drops.values())
    level = WARN if snap.get('drops_recent', 0) else OK
    out.append(_status(prefix + ': dropped messages', vehicle, level,
                       '%d dropped' % total if total else 'none dropped',
                       dict(drops, total=total)))

    for name, info in sorted(snap['inputs'].items()):
        age = info.get('age_s')
        state = info.get('state', 'ok' if age is not None else 'waiting')
        level = {'ok': OK, 'waiting': OK, 'stale': WARN}.get(state, WARN)
        wall_age = info.get('age_wall_s')
        values = {'state': state, 'rate_hz': info.get('rate_hz', 0.0),
                  'age_s': 'never' if age is None else age,
                  'age_wall_s': 'never' if wall_age is None else wall_age,
                  'count': info.get('count', 0)}
        values.update(info.get('drops', {}))
        values.update(info.get('values', {}))  # input-specific figures (e.g. thrust)
        out.append(_status('%s: input %s' % (prefix, name), vehicle, level, state, values))

    watchdog = snap.get('watchdog', {})
    if watchdog:
        stale = sorted(t for t, s in watchdog.items() if s == 'stale')
        level = WARN if stale else OK
        message = ('stale: ' + ', '.join(stale)) if stale else 'all thrust inputs fresh or idle'
        out.append(_status(prefix + ': thrust watchdog', vehicle, level, message,
                           dict(watchdog)))
    fins = snap.get('fins')
    if fins:
        stale = sorted(n for n, f in fins['fins'].items() if f['state'] == 'stale')
        values = {'on_timeout': fins['on_timeout'], 'timeout_s': fins['timeout_s'],
                  'rejected': fins['rejected'], 'clamped': fins['clamped']}
        for name, fin in sorted(fins['fins'].items()):
            values.update({name + '.state': fin['state'], name + '.command_rad': fin['command'],
                           name + '.angle_rad': fin['angle']})
        message = ('stale (%s): %s' % (fins['on_timeout'], ', '.join(stale)) if stale
                   else 'all fin commands fresh or idle')
        out.append(_status(prefix + ': fin servos', vehicle, WARN if stale else OK, message,
                           values))
    joints = snap.get('joints')
    if joints:
        values = {'rejected': snap.get('joints_rejected', 0)}
        for name, joint in sorted(joints.items()):
            values.update({name + '.' + key: value for key, value in joint.items()})
        out.append(_status(prefix + ': moving joints', vehicle, OK,
                           '%d moving joints' % len(joints), values))
    for name, info in sorted(snap.get('sensors', {}).items()):
        # a DVL without bottom lock warns; a submerged GPS without a fix is expected
        # (and one whose message package is missing: sensor_io.py)
        level = WARN if info['state'] in ('no_lock', 'unavailable') else OK
        out.append(_status('%s: sensor %s' % (prefix, name), vehicle, level, info['state'],
                           info))
    return out


class DiagnosticsReport:
    """The node's /diagnostics: counters since the last report, rates over its window."""

    def __init__(self, node):
        self.node = node
        self.pub = node.create_publisher(DiagnosticArray, '/diagnostics', 10)
        self._wall = time.monotonic()
        self._node_ns = node.now_ns()
        self._ticks = self._overruns = self._drops = 0

    def snapshot(self) -> Dict:
        """Return the plain-data snapshot of the node (call it holding the state lock)."""
        node = self.node
        wall = time.monotonic()
        window = max(wall - self._wall, 1e-9)
        self._wall = wall
        now = node.now_ns()
        wall_ns = time.monotonic_ns()
        by_source = node.drops.by_source()
        inputs = {}
        for name, stats in node.inputs.items():
            inputs[name] = {'count': stats.count, 'rate_hz': stats.window_count / window,
                            'age_s': None if stats.last_ns is None
                            else (now - stats.last_ns) * 1e-9,
                            'age_wall_s': None if stats.last_wall_ns is None
                            else (wall_ns - stats.last_wall_ns) * 1e-9,
                            'drops': by_source.get(name, {})}
            stats.window_count = 0
        loop = dict(node.loop_stats)
        # measured over the last window of wall time; the nominal rate beside it
        loop['rate_hz'] = (loop['ticks'] - self._ticks) / window
        loop['nominal_rate_hz'] = node.cfg['rate_hz']
        # what this rclpy offered (executor_choice.py) and what the node cannot publish
        loop['executor'] = node.executor_name
        loop['executor_reason'] = node.executor_reason
        if node.unavailable_outputs:
            loop['unavailable_outputs'] = '; '.join(node.unavailable_outputs)
        loop.update(node.cycle_meter.window())
        self._ticks = loop['ticks']
        if node.sim_time and 0 < self._node_ns <= now:  # /clock running, not jumped back
            loop['real_time_factor'] = (now - self._node_ns) * 1e-9 / window
        self._node_ns = now
        loop['overruns_recent'] = loop['overruns'] - self._overruns
        self._overruns = loop['overruns']
        total_drops = node.drops.total()
        snap = {'loop': loop, 'drops': node.drops.by_reason(), 'inputs': inputs,
                'events': dict(node.events), 'drops_recent': total_drops - self._drops}
        self._drops = total_drops
        for part in node.parts:
            part.snapshot(snap)
        return snap

    def publish(self) -> None:
        """Publish a report now."""
        profile = self.node.profile  # the debug cycle profile (cycle_profile.py) or None
        if profile is not None:
            profile.enter('diagnostics')
        # only the snapshot (plain data) holds the state lock: building and publishing
        # the messages (~2 ms of Python here) must not hold up the update cycle
        with self.node.lock:
            snap = self.snapshot()
        if profile is not None:  # its percentiles: numpy sorts, outside the state lock
            snap['loop'].update(profile.window())
        msg = DiagnosticArray()
        # the node's clock: the physics time under ArduPilot SITL (node/sitl_json_io.py)
        conv.ns_to_stamp(msg.header.stamp, self.node.now_ns())
        msg.status = build_statuses(self.node.get_fully_qualified_name(),
                                    self.node.vehicle.name, snap)
        self.pub.publish(msg)
        if profile is not None:
            profile.leave()
