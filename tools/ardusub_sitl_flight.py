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


r"""
Fly the real ArduSub (SITL, ``--model JSON``) against the uwv_hydro node and report.

Not part of the test suite (CI cannot build ArduPilot): run it on a machine where
ArduSub SITL is built (doc/guide/ardusub_sitl.md ("Start it")) and pymavlink importable::

    tools/run python tools/ardusub_sitl_flight.py --ardusub ARDUPILOT/build/sitl/bin/ardusub \\
        --ardupilot ARDUPILOT --vehicle bluerov2 --json

It starts the node (``ardusub_input: sitl_json``, the vehicle's config file) and ArduSub
(``--model JSON``, the frame's default parameters: sub.parm or sub-6dof.parm), sets
``BARO_SPEC_GRAV`` so that ArduSub's SITL barometer (sea water of 1024 kg/m^3) reads the
true depth, arms through MAVLink and flies with MANUAL_CONTROL sticks:

1. MANUAL, full forward stick: the steady forward speed and the largest pitch and roll;
   (``JS_GAIN_DEFAULT`` 1 by default here: ArduSub's 0.5 halves every stick);
2. ALT_HOLD: down to ``--depth``, stick released, the depth held (the node's depth from
   its odometry; ArduSub's estimate from GLOBAL_POSITION_INT and its barometer's from
   SCALED_PRESSURE) and their differences; the vehicle starts floating still at its
   equilibrium (simulated first), as a BlueROV2 switched on at the surface;
3. STABILIZE: full yaw stick, then released: the yaw rate under the stick and after;
4. optionally ``--soak`` seconds of physics time at ``--speedup``: the lock-step
   counters of the node's /diagnostics (gaps, repeats, resets) and its real-time factor.

With ``--surftrak`` it flies SURFTRAK over a sloping seabed instead: it writes an ESRI
ASCII grid (and its .prj, the transverse Mercator on the home position) of the plane
z = -``--seabed-depth`` + ``--seabed-slope`` x (ENU, rising eastwards for a positive
slope) in a temporary directory, gives it to the node (``seabed_file``: the replies then
carry ``rng_1``) and ArduSub a downward SITL rangefinder (``RNGFND1_TYPE`` 100,
``RNGFND1_ORIENT`` 25, ``RNGFND1_MIN`` / ``RNGFND1_MAX``), arms, goes down in ALT_HOLD to
``--surftrak-depth``, switches to SURFTRAK (mode 21), waits ``--hold-settle-s`` and
flies ``--surftrak-s`` of physics time east with the forward stick ``--surftrak-stick``
(of 1000), logging the altitude above the plane from the node's odometry (its truth)
and ArduSub's rangefinder (RANGEFINDER, DISTANCE_SENSOR): the altitude's mean and
largest deviation from ArduSub's rangefinder target (its STATUSTEXT "rangefinder target
is ... meters").  ``--surftrak-log FILE`` writes the samples as CSV.

Prints one JSON document (``--json``) or a table.
"""
import argparse
import json
import math
import os
import pathlib
import re
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
VEHICLES = {'bluerov2': ('ardusub_bluerov2.yaml', 'sub.parm'),
            'bluerov2_heavy': ('ardusub_bluerov2_heavy.yaml', 'sub-6dof.parm')}
#: ArduSub's SITL barometer sees sea water of 1024 kg/m^3 (AP_Baro::SimpleUnderWaterAtmosphere,
#: g = 9.80665) and the firmware divides by 9800 Pa/m times BARO_SPEC_GRAV (AP_Baro.cpp).
SITL_SPEC_GRAV = 1024.0 * 9.80665 / 9800.0
#: SITL's sea-level air pressure (Pa): what its barometer reads at the surface.
SURFACE_PA = 101325.0
#: ArduSub's mode numbers pymavlink may not know (ArduSub/mode.h: SURFTRAK = 21).
SUB_MODES = {'SURFTRAK': 21}


def _quat_rpy(q):
    """Return roll, pitch, yaw (rad) of a quaternion [w, x, y, z] (ZYX)."""
    w, x, y, z = q
    roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = math.asin(max(-1.0, min(1.0, 2 * (w * y - z * x))))
    yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return roll, pitch, yaw


def floating_depth(config, seconds=60.0):
    """Return the depth (m) the vehicle floats at: simulated from the surface until still."""
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.simulate_mode import SimulateMode
    mode = SimulateMode(load_vehicle(config), dt=0.01)
    mode.advance(0)
    for k in range(1, int(seconds / 0.01) + 1):
        mode.advance(k * 10_000_000)
    return -mode.x[2]


class Flight:
    """The node, ArduSub and the MAVLink and ROS links to them."""

    def __init__(self, args, workdir, node_params=(), ap_params=()):
        """Start the node (``node_params``: more 'name:=value') and ArduSub (more lines)."""
        self.args = args
        self.ap_params = list(ap_params)
        config = str(ROOT / 'config' / VEHICLES[args.vehicle][0])
        env = dict(os.environ)
        # ArduSub takes the pressure at boot as zero depth: the vehicle starts floating still
        # at its equilibrium, as a BlueROV2 does when it is switched on at the surface
        self.floating_depth = floating_depth(config)
        self.node_log = open(os.path.join(workdir, 'node.log'), 'w')
        self.ap = None
        self.ros = None
        self.node = subprocess.Popen(
            [sys.executable, '-m', 'uwv_hydro.node.main', '--ros-args', '--params-file', config,
             '-p', 'vehicle_file:=' + config, '-p', 'ardusub_input:=sitl_json',
             '-p', 'rate_hz:=1200.0', '-p', 'sitl_json_port:=%d' % args.port,
             '-p', 'diagnostics_period:=1.0',
             '-p', 'initial_position:=[0.0, 0.0, %.6f]' % -self.floating_depth]
            + [arg for param in node_params for arg in ('-p', param)],
            stdout=self.node_log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            self._start(args, workdir)
        except BaseException:
            self.close()  # nothing left running, no port left bound
            raise

    def _start(self, args, workdir):
        """Connect to the node's topics, start ArduSub and its MAVLink link."""
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray
        from nav_msgs.msg import Odometry
        rclpy.init()
        self.rclpy = rclpy
        self.ros = rclpy.create_node('ardusub_sitl_flight')
        self.odom = None
        self.diag = {}
        self.ros.create_subscription(Odometry, 'odometry', self._on_odom, 50)
        self.ros.create_subscription(DiagnosticArray, '/diagnostics', self._on_diag, 10)
        time.sleep(args.node_start_s)
        parm = os.path.join(args.ardupilot, 'Tools', 'autotest', 'default_params',
                            VEHICLES[args.vehicle][1])
        # read at boot: the depth scale of the barometer and the pilot's stick gain
        extra = os.path.join(workdir, 'uwv_hydro.parm')
        with open(extra, 'w') as out:
            out.write('BARO_SPEC_GRAV %.6f\nJS_GAIN_DEFAULT %g\n' % (SITL_SPEC_GRAV, args.gain))
            out.writelines(line + '\n' for line in self.ap_params)
        parm += ',' + extra
        self.ap_log = open(os.path.join(workdir, 'ardusub.log'), 'w')
        self.ap = subprocess.Popen(
            [args.ardusub, '--model', 'JSON', '--speedup', str(args.speedup), '-I0', '-w',
             '--defaults', parm, '--home', args.home, '--sim-port-out', str(args.port)],
            cwd=workdir, stdout=self.ap_log, stderr=subprocess.STDOUT, start_new_session=True)
        from pymavlink import mavutil
        self.mavutil = mavutil
        self.mav = None
        deadline = time.time() + 60
        while self.mav is None and time.time() < deadline:
            if self.ap.poll() is not None:
                raise RuntimeError('ArduSub (%s) exited with code %d before its MAVLink port '
                                   'opened (see %s)' % (args.ardusub, self.ap.returncode,
                                                        self.ap_log.name))
            try:
                self.mav = mavutil.mavlink_connection('tcp:127.0.0.1:5760', source_system=255)
            except OSError:
                time.sleep(0.5)
        if self.mav is None:
            raise RuntimeError('ArduSub (%s) opened no MAVLink port on tcp:127.0.0.1:5760 in '
                               '60 s (see %s)' % (args.ardusub, self.ap_log.name))
        self.mav.wait_heartbeat(timeout=60)
        self.mav.mav.request_data_stream_send(self.mav.target_system, self.mav.target_component,
                                              mavutil.mavlink.MAV_DATA_STREAM_ALL, 20, 1)
        self.ap_depth = None
        self.ap_baro_depth = None
        self.ap_time_ms = 0
        self.ap_range = None  # RANGEFINDER distance (m)
        self.ap_distance = None  # DISTANCE_SENSOR current_distance (m)
        self.range_target = None  # SURFTRAK's "rangefinder target is X meters"
        self.texts = []
        self.sticks = (0, 0, 500, 0)

    # ------------------------------------------------------------------ links
    def _on_odom(self, msg):
        p, q, v = msg.pose.pose.position, msg.pose.pose.orientation, msg.twist.twist
        t = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        self.odom = (t, -p.z, _quat_rpy((q.w, q.x, q.y, q.z)), v.linear.x, v.angular.z)
        self.odom_xy = (p.x, p.y)

    def _on_diag(self, msg):
        for status in msg.status:
            if 'sitl_json' in status.name:
                self.diag = {kv.key: kv.value for kv in status.values}

    def pump(self, seconds):
        """Spin ROS, read MAVLink and send the sticks for ``seconds`` of wall time."""
        end = time.time() + seconds
        last_stick = 0.0
        while time.time() < end:
            self.rclpy.spin_once(self.ros, timeout_sec=0.005)
            while True:
                m = self.mav.recv_match(blocking=False)
                if m is None:
                    break
                kind = m.get_type()
                if kind == 'GLOBAL_POSITION_INT':  # ArduSub's estimate (EKF), below home
                    self.ap_depth = -m.relative_alt * 1e-3
                    self.ap_time_ms = m.time_boot_ms
                elif kind == 'SCALED_PRESSURE':  # its barometer: depth as the firmware
                    # converts it, (p - p_surface) / (9800 Pa/m BARO_SPEC_GRAV) (AP_Baro.cpp)
                    self.ap_baro_depth = (m.press_abs * 100.0 - SURFACE_PA) / (
                        9800.0 * SITL_SPEC_GRAV)
                elif kind == 'RANGEFINDER':  # ArduSub's rangefinder 1, m
                    self.ap_range = m.distance
                elif kind == 'DISTANCE_SENSOR' and m.id == 0:  # the same, cm
                    self.ap_distance = m.current_distance * 0.01
                elif kind == 'STATUSTEXT':
                    self.texts.append(m.text)
                    target = re.match(r'rangefinder target is ([-+0-9.]+) meters', m.text)
                    if target:
                        self.range_target = float(target.group(1))
                    if self.args.verbose:
                        print('ardusub:', m.text, file=sys.stderr)
            if time.time() - last_stick > 0.05:
                last_stick = time.time()
                x, y, z, r = self.sticks
                self.mav.mav.manual_control_send(self.mav.target_system, x, y, z, r, 0)

    def sim_time(self):
        """Return the node's physics time (s) of its latest odometry."""
        return self.odom[0] if self.odom else 0.0

    def run_for(self, sim_seconds, sample=None):
        """Pump until ``sim_seconds`` of physics time passed; call sample() every pump."""
        start = self.sim_time()
        while self.sim_time() - start < sim_seconds:
            self.pump(0.02)
            if sample is not None and self.odom is not None:
                sample()

    def set_mode(self, name):
        # pymavlink's table of ArduSub modes may lack the newer ones
        self.mav.set_mode(self.mav.mode_mapping().get(name) or SUB_MODES[name])
        self.pump(0.5)

    def arm(self):
        deadline = time.time() + 120
        while time.time() < deadline:
            self.mav.arducopter_arm()
            self.pump(1.0)
            if self.mav.motors_armed():
                return
        raise RuntimeError('ArduSub did not arm (see ardusub.log)')

    def close(self):
        """Stop ArduSub and the node (whichever started) and the ROS link."""
        for proc in (self.ap, self.node):
            if proc is None:
                continue
            try:
                os.killpg(proc.pid, signal.SIGINT)
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
            except ProcessLookupError:
                pass
        if self.ros is not None:
            self.ros.destroy_node()
            self.rclpy.shutdown()
            self.ros = None


def write_slope(path, origin, depth, slope, x_range=(-50.0, 200.0), half_y=50.0, step=1.0):
    """
    Write the plane z = -depth + slope x (ENU, m) as an ESRI ASCII grid and its .prj.

    The .prj is the transverse Mercator on ``origin`` (lat, lon): the grid's coordinates
    are the world's east and north (doc/guide/seabed.md).
    """
    x = np.arange(x_range[0], x_range[1] + step / 2, step)
    y = np.arange(-half_y, half_y + step / 2, step)
    with open(path, 'w') as out:
        out.write('ncols %d\nnrows %d\nxllcenter %r\nyllcenter %r\ncellsize %r\n'
                  % (len(x), len(y), float(x[0]), float(y[0]), float(step)))
        row = ' '.join(repr(float(-depth + slope * xi)) for xi in x)
        out.writelines(row + '\n' for _ in y)  # rows north to south: all alike
    with open(os.path.splitext(path)[0] + '.prj', 'w') as out:
        out.write('+proj=tmerc +lat_0=%r +lon_0=%r +k=1 +x_0=0 +y_0=0 +ellps=WGS84 '
                  '+units=m +no_defs' % tuple(origin))


def _stats(values):
    values = np.asarray(values, dtype=float)
    return {'mean': float(np.mean(values)), 'min': float(np.min(values)),
            'max': float(np.max(values)), 'rms': float(np.sqrt(np.mean(values ** 2)))}


def fly_surftrak(args):
    """Fly SURFTRAK over a sloping seabed; return the figures."""
    out = {'vehicle': args.vehicle, 'speedup': args.speedup, 'seabed': {
        'depth_at_origin_m': args.seabed_depth, 'slope': args.seabed_slope}}
    origin = [float(v) for v in args.home.split(',')[:2]]

    def seabed_z(x):  # the plane written to the grid (ENU elevation, m)
        return -args.seabed_depth + args.seabed_slope * x
    with tempfile.TemporaryDirectory() as workdir:
        grid = os.path.join(workdir, 'slope.asc')
        write_slope(grid, origin, args.seabed_depth, args.seabed_slope)
        node_params = ['seabed_file:=' + grid, 'seabed_origin:=%r,%r' % tuple(origin),
                       'sitl_json_rangefinder_max:=%r' % args.rangefinder_max]
        ap_params = ['RNGFND1_TYPE 100', 'RNGFND1_ORIENT 25', 'RNGFND1_MIN %g' % 0.3,
                     'RNGFND1_MAX %g' % args.rangefinder_max]
        out['ardusub_parameters'] = ap_params
        f = Flight(args, workdir, node_params, ap_params)
        try:
            f.pump(args.settle_s)
            f.set_mode('MANUAL')
            f.arm()
            f.set_mode('ALT_HOLD')
            f.sticks = (0, 0, 0, 0)  # full down
            f.run_for(0.5)
            while f.odom[1] < args.surftrak_depth:
                f.pump(0.02)
            f.sticks = (0, 0, 500, 0)
            f.run_for(args.hold_settle_s)
            f.range_target = None
            f.set_mode('SURFTRAK')
            f.run_for(args.hold_settle_s)
            if f.range_target is None:
                raise RuntimeError('SURFTRAK set no rangefinder target (ArduSub said: %s)'
                                   % ' | '.join(f.texts[-5:]))
            samples = []

            def sample():
                x, y = f.odom_xy
                samples.append((f.odom[0], x, y, f.odom[1], -f.odom[1] - seabed_z(x),
                                f.ap_range if f.ap_range is not None else math.nan,
                                f.ap_distance if f.ap_distance is not None else math.nan,
                                math.degrees(f.odom[2][1]), f.range_target))
            f.run_for(args.hold_s, sample)  # still: the hold
            n_still = len(samples)
            f.sticks = (args.surftrak_stick, 0, 500, 0)
            f.run_for(args.surftrak_s, sample)
            f.sticks = (0, 0, 500, 0)
            f.pump(2.5)
            out['lock_step'] = f.diag
            out['ardusub_rangefinder_messages'] = [t for t in f.texts if 'range' in t]
        finally:
            f.close()
    a = np.array(samples, dtype=float)
    target = a[0, 8]
    still, moving = a[:n_still], a[n_still:]
    out['target_altitude_m'] = target
    out['hold_still'] = {'seconds': float(still[-1, 0] - still[0, 0]),
                         'altitude_minus_target_m': _stats(still[:, 4] - target)}
    out['forward'] = {
        'seconds': float(moving[-1, 0] - moving[0, 0]),
        'distance_east_m': float(moving[-1, 1] - moving[0, 1]),
        'seabed_rise_m': float(seabed_z(moving[-1, 1]) - seabed_z(moving[0, 1])),
        'depth_m': [float(moving[0, 3]), float(moving[-1, 3])],
        'altitude_minus_target_m': _stats(moving[:, 4] - target),
        'max_abs_deviation_m': float(np.max(np.abs(moving[:, 4] - target))),
        'max_pitch_deg': float(np.max(np.abs(moving[:, 7]))),
        'target_changes': int(np.count_nonzero(np.diff(a[:, 8]))),
    }
    seen = a[np.isfinite(a[:, 5])]
    if len(seen):
        out['ardusub_rangefinder_minus_altitude_m'] = _stats(seen[:, 5] - seen[:, 4])
    if args.surftrak_log:
        np.savetxt(args.surftrak_log, a, delimiter=',', header='t_s,x_m,y_m,depth_m,'
                   'altitude_m,ardusub_range_m,ardusub_distance_sensor_m,pitch_deg,'
                   'target_m', comments='')
    return out


def fly(args):
    """Fly the sequence; return the figures."""
    if args.surftrak:
        return fly_surftrak(args)
    out = {'vehicle': args.vehicle, 'speedup': args.speedup}
    with tempfile.TemporaryDirectory() as workdir:
        f = Flight(args, workdir)
        try:
            f.pump(args.settle_s)
            out['floating_depth_m'] = f.floating_depth
            f.set_mode('MANUAL')
            f.arm()
            # 1. MANUAL, full forward stick
            f.sticks = (1000, 0, 500, 0)
            speeds, tilt = [], [0.0]

            def forward():
                speeds.append((f.odom[0], f.odom[3]))
                tilt.append(max(abs(f.odom[2][0]), abs(f.odom[2][1])))
            f.run_for(args.forward_s, forward)
            t_end = speeds[-1][0]
            tail = [u for t, u in speeds if t > t_end - 5.0]
            out['manual_forward'] = {'speed_m_s': float(np.mean(tail)),
                                     'max_tilt_deg': math.degrees(max(tilt))}
            f.sticks = (0, 0, 500, 0)
            f.run_for(10.0)
            # 2. ALT_HOLD at a depth
            f.set_mode('ALT_HOLD')
            f.sticks = (0, 0, 0, 0)  # full down
            f.run_for(0.5)
            while f.odom[1] < args.depth:
                f.pump(0.02)
            f.sticks = (0, 0, 500, 0)
            f.run_for(args.hold_settle_s)
            depths, diffs, baro = [], [], []

            def hold():
                depths.append(f.odom[1])
                if f.ap_depth is not None:
                    diffs.append(f.ap_depth - f.odom[1])
                if f.ap_baro_depth is not None:
                    baro.append(f.ap_baro_depth - f.odom[1])
            f.run_for(args.hold_s, hold)
            out['alt_hold'] = {'mean_depth_m': float(np.mean(depths)),
                               'max_deviation_m': float(np.max(np.abs(
                                   np.array(depths) - np.mean(depths)))),
                               'ardusub_minus_node_m': [float(np.min(diffs)),
                                                        float(np.max(diffs))],
                               'ardusub_baro_minus_node_m': [float(np.min(baro)),
                                                             float(np.max(baro))]}
            # 3. STABILIZE, yaw stick then released
            f.set_mode('STABILIZE')
            f.sticks = (0, 0, 500, 1000)
            rates = []
            f.run_for(args.yaw_s, lambda: rates.append((f.odom[0], f.odom[4])))
            t_end = rates[-1][0]
            stick_rate = np.mean([r for t, r in rates if t > t_end - 2.0])
            f.sticks = (0, 0, 500, 0)
            after = []
            f.run_for(args.release_s, lambda: after.append((f.odom[0], f.odom[4], f.odom[2][2])))
            t_end = after[-1][0]
            tail = [(r, y) for t, r, y in after if t > t_end - 5.0]
            out['stabilize_yaw'] = {
                'stick_yaw_rate_deg_s': math.degrees(abs(stick_rate)),
                'released_yaw_rate_deg_s': math.degrees(max(abs(r) for r, _ in tail)),
                'released_heading_drift_deg_in_5_s': math.degrees(
                    abs(math.remainder(tail[-1][1] - tail[0][1], 2 * math.pi)))}
            if args.soak > 0:
                f.run_for(args.soak)
            f.pump(2.5)  # one more /diagnostics report
            out['lock_step'] = f.diag
        finally:
            f.close()
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--ardusub', required=True, help='the ardusub SITL binary')
    p.add_argument('--ardupilot', required=True, help='the ArduPilot source tree (its '
                   'Tools/autotest/default_params)')
    p.add_argument('--vehicle', choices=sorted(VEHICLES), default='bluerov2')
    p.add_argument('--port', type=int, default=9002)
    p.add_argument('--speedup', type=float, default=1.0)
    p.add_argument('--home', default='33.810313,-118.393867,0,185')
    p.add_argument('--depth', type=float, default=5.0, help='ALT_HOLD depth (m)')
    p.add_argument('--forward-s', type=float, default=30.0)
    p.add_argument('--hold-settle-s', type=float, default=10.0)
    p.add_argument('--hold-s', type=float, default=30.0)
    p.add_argument('--yaw-s', type=float, default=10.0)
    p.add_argument('--release-s', type=float, default=20.0)
    p.add_argument('--gain', type=float, default=1.0, help='JS_GAIN_DEFAULT: the stick '
                   "gain at boot (ArduSub's default 0.5 halves every stick)")
    p.add_argument('--soak', type=float, default=0.0, help='physics seconds more, then '
                   'the lock-step counters')
    p.add_argument('--settle-s', type=float, default=15.0, help='wall seconds for the EKF')
    p.add_argument('--node-start-s', type=float, default=4.0)
    p.add_argument('--surftrak', action='store_true', help='fly SURFTRAK over a sloping '
                   'seabed instead (the module docstring)')
    p.add_argument('--seabed-depth', type=float, default=20.0, help='--surftrak: the '
                   "seabed's depth below the start (m)")
    p.add_argument('--seabed-slope', type=float, default=0.1, help='--surftrak: its rise '
                   'per metre east')
    p.add_argument('--surftrak-depth', type=float, default=12.0, help='--surftrak: the '
                   'depth SURFTRAK starts at (m)')
    p.add_argument('--surftrak-stick', type=int, default=500, help='--surftrak: the '
                   'forward stick (of 1000) over the slope')
    p.add_argument('--surftrak-s', type=float, default=60.0, help='--surftrak: physics '
                   'seconds over the slope')
    p.add_argument('--rangefinder-max', type=float, default=30.0, help='--surftrak: '
                   'RNGFND1_MAX and the beam of the node (m)')
    p.add_argument('--surftrak-log', help='--surftrak: write the samples to this CSV file')
    p.add_argument('--json', action='store_true')
    p.add_argument('--verbose', action='store_true')
    args = p.parse_args(argv)
    # checked before anything starts: a wrong path names itself, and leaves nothing running
    if not os.path.isfile(args.ardusub) or not os.access(args.ardusub, os.X_OK):
        p.error('--ardusub %s: no such executable (the ArduSub SITL binary, '
                'ARDUPILOT/build/sitl/bin/ardusub)' % args.ardusub)
    parm = os.path.join(args.ardupilot, 'Tools', 'autotest', 'default_params',
                        VEHICLES[args.vehicle][1])
    if not os.path.isfile(parm):
        p.error('--ardupilot %s: no %s (the ArduPilot source tree)' % (args.ardupilot, parm))
    try:
        import pymavlink  # noqa: F401
    except ImportError:
        p.error('pymavlink is not importable (pip install pymavlink)')
    try:
        out = fly(args)
    except (OSError, RuntimeError) as exc:
        print('%s: error: %s' % (p.prog, exc), file=sys.stderr)
        return 1
    print(json.dumps(out, indent=2) if args.json else out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
