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
The node and ArduSub SITL of tools/ardusub_sitl_flight.py, and the links to them.

:class:`Flight` starts the uwv_hydro node (``ardusub_input: sitl_json``) and ArduSub
(``--model JSON``), holds the MAVLink link to ArduSub and the ROS link to the node, and
pumps both; :func:`floating_depth` is where the vehicle starts (floating still).  The
flights themselves (the manoeuvres and SURFTRAK) are in tools/ardusub_sitl_flight.py.
"""
import math
import os
import pathlib
import re
import signal
import subprocess
import sys
import time

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
