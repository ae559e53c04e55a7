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
Wrench mode over real DDS: odometry in, the core model's wrench out (to 1e-9).

The expected wrench is computed here with HydroModel from the same vehicle file the
node loads, so the test checks the node's plumbing (frames, quaternion order, weight
switch, current, world-frame rotation, lagged acceleration), not the physics.
"""
import re

from nodes.harness import diag_values, odometry_msg, Probe, REPO, start_node
import numpy as np
import pytest

pytestmark = pytest.mark.ros

VEHICLE = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')
NU = np.array([0.7, -0.2, 0.1, 0.05, -0.03, 0.2])
POSITION = np.array([1.0, 2.0, -20.0])
RPY = (0.1, -0.2, 0.3)


def _model():
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    return HydroModel(load_vehicle(VEHICLE))


def _odometry(nu, stamp_ns, position=POSITION, rpy=RPY):
    from uwv_hydro.physics.spatial.rotation import quat_from_rpy
    q = quat_from_rpy(*rpy)
    return odometry_msg(position, q, nu, stamp_ns), q


def _array(w):
    return np.array([w.force.x, w.force.y, w.force.z, w.torque.x, w.torque.y, w.torque.z])


@pytest.mark.parametrize('apply_weight,current', [(False, None), (True, [0.2, -0.1, 0.05])])
def test_wrench_equals_core_model(rclpy_context, spawn, tmp_path, apply_weight, current):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    params = {'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0,
              'apply_weight': apply_weight, 'publish_components': True}
    if current is not None:
        params['current'] = current
    proc, log = start_node(spawn, tmp_path, params)
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    world = probe.collect(WrenchStamped, 'hydro/wrench_world', keep=5)
    weight = probe.collect(WrenchStamped, 'hydro/components/weight', keep=5)
    pub = probe.publisher(Odometry, 'odometry')
    msg, q = _odometry(NU, 0)
    assert probe.spin_until(lambda: body and world and weight, timeout=60.0, proc=proc,
                            log=log, action=lambda: pub.publish(msg)), 'no wrench'
    wc = _model().wrench(NU, POSITION, q, None, current, engine_added_mass=True)
    expected = wc.total if apply_weight else wc.total - wc.components['weight']
    got = _array(body[-1].wrench)
    assert body[-1].header.frame_id == 'base_link'
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    assert np.any(np.abs(expected[3:]) > 1e-3), 'test state exercises no torque'
    rot = quat_to_matrix(q)
    np.testing.assert_allclose(_array(world[-1].wrench),
                               np.concatenate((rot @ expected[:3], rot @ expected[3:])),
                               rtol=0, atol=1e-9)
    assert world[-1].header.frame_id == 'odom'
    # components add up to the published total: weight is zero unless it is applied
    np.testing.assert_allclose(_array(weight[-1].wrench),
                               wc.components['weight'] if apply_weight else np.zeros(6),
                               rtol=0, atol=1e-9)
    probe.close()


def test_lagged_added_mass_uses_the_filtered_acceleration(rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from uwv_hydro.physics.hydro.added_mass import LaggedAcceleration
    alpha = 0.4
    proc, log = start_node(spawn, tmp_path, {
        'vehicle_file': VEHICLE, 'mode': 'wrench', 'rate_hz': 50.0, 'added_mass': 'lagged',
        'acceleration_alpha': alpha, 'odometry_timeout': 600.0})
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    pub = probe.publisher(Odometry, 'odometry')
    assert probe.spin_until(lambda: pub.get_subscription_count() > 0, timeout=30.0,
                            proc=proc, log=log)
    nu2 = NU + np.array([0.05, 0.02, -0.01, 0.01, 0.0, -0.02])
    est = LaggedAcceleration(alpha)
    model = _model()
    expected = None
    for nu, stamp in ((NU, 10 ** 9), (nu2, 10 ** 9 + 10 ** 8)):
        msg, q = _odometry(nu, stamp)
        nu_dot = est.update(nu, stamp * 1e-9)
        wc = model.wrench(nu, POSITION, q, nu_dot)
        expected = wc.total - wc.components['weight']
        pub.publish(msg)

        def matches(expected=expected):
            return body and np.allclose(_array(body[-1].wrench), expected, rtol=0, atol=1e-9)

        assert probe.spin_until(matches, timeout=30.0, proc=proc, log=log), (
            'wrench %s, expected %s' % (_array(body[-1].wrench) if body else None, expected))
    assert np.any(np.abs(model.wrench(nu2, POSITION, q, est.update(nu2, 1.1)).components[
        'added_mass']) > 1e-6), 'the test vehicle has no added mass'
    probe.close()


def test_non_finite_odometry_is_dropped_and_counted(rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    proc, log = start_node(spawn, tmp_path, {'vehicle_file': VEHICLE, 'mode': 'wrench',
                                             'rate_hz': 50.0, 'diagnostics_period': 0.2,
                                             'odometry_timeout': 600.0})
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=5)
    pub = probe.publisher(Odometry, 'odometry')
    good, q = _odometry(NU, 0)
    assert probe.spin_until(lambda: body, timeout=60.0, proc=proc, log=log,
                            action=lambda: pub.publish(good))
    bad, _ = _odometry(NU, 0)
    bad.twist.twist.linear.x = float('nan')
    inf, _ = _odometry(NU, 0, position=[0.0, float('inf'), -3.0])

    def dropped():
        if not diags:
            return 0
        return int(diag_values(diags[-1], 'dropped messages').get('non_finite', 0))

    def send_bad():
        pub.publish(bad)
        pub.publish(inf)

    assert probe.spin_until(lambda: dropped() >= 10, timeout=30.0, proc=proc, log=log,
                            action=send_bad), 'non_finite drops not counted'
    del body[:]
    assert probe.spin_until(lambda: body, timeout=30.0, proc=proc, log=log)
    wc = _model().wrench(NU, POSITION, q, engine_added_mass=True)
    np.testing.assert_allclose(_array(body[-1].wrench), wc.total - wc.components['weight'],
                               rtol=0, atol=1e-9)
    assert 'non_finite' in open(log).read()
    assert proc.poll() is None
    probe.close()


def test_runtime_parameters_apply_and_read_only_ones_are_refused(
        rclpy_context, spawn, tmp_path):
    from geometry_msgs.msg import WrenchStamped
    from nav_msgs.msg import Odometry
    from rcl_interfaces.msg import Parameter, ParameterType, ParameterValue
    from rcl_interfaces.srv import SetParameters
    proc, log = start_node(spawn, tmp_path, {'vehicle_file': VEHICLE, 'mode': 'wrench',
                                             'rate_hz': 50.0})
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    pub = probe.publisher(Odometry, 'odometry')
    msg, q = _odometry(NU, 0)
    client = probe.node.create_client(SetParameters, 'uwv_hydro/set_parameters')
    assert probe.spin_until(lambda: body and client.service_is_ready(), timeout=60.0,
                            proc=proc, log=log, action=lambda: pub.publish(msg))

    def set_parameter(name, value):
        if isinstance(value, bool):
            pv = ParameterValue(type=ParameterType.PARAMETER_BOOL, bool_value=value)
        elif isinstance(value, float):
            pv = ParameterValue(type=ParameterType.PARAMETER_DOUBLE, double_value=value)
        else:
            pv = ParameterValue(type=ParameterType.PARAMETER_DOUBLE_ARRAY,
                                double_array_value=value)
        future = client.call_async(SetParameters.Request(
            parameters=[Parameter(name=name, value=pv)]))
        assert probe.spin_until(future.done, timeout=30.0, proc=proc, log=log)
        return future.result().results[0]

    assert not set_parameter('rate_hz', 10.0).successful  # read-only
    assert not set_parameter('current', [1.0, 2.0]).successful  # needs 3 values
    assert set_parameter('apply_weight', True).successful
    assert set_parameter('current', [0.3, 0.0, -0.1]).successful
    wc = _model().wrench(NU, POSITION, q, None, [0.3, 0.0, -0.1], engine_added_mass=True)

    def updated():
        return np.allclose(_array(body[-1].wrench), wc.total, rtol=0, atol=1e-9)

    assert probe.spin_until(updated, timeout=30.0, proc=proc, log=log,
                            action=lambda: pub.publish(msg)), 'parameters not applied'
    probe.close()


def test_yaml_vehicle_file_extends_robot_description_and_current_topic(
        rclpy_context, spawn, tmp_path):
    """URDF rigid body + frames from robot_description, hydro coefficients from YAML."""
    from geometry_msgs.msg import Vector3Stamped, WrenchStamped
    from nav_msgs.msg import Odometry
    from nodes.harness import analytic_vehicle_urdf
    from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    yaml_file = tmp_path / 'hydro.yaml'
    yaml_file.write_text('uwv_hydro:\n  ros__parameters:\n    vehicle:\n'
                         '      buoyancy_mass: 1.5\n      cob: [0.0, 0.0, 0.1]\n'
                         '      quadratic_drag: {xxx: 9.0, yyy: 3.0}\n'
                         '      added_mass: [0.5, 0.7, 0.9, 0.01, 0.02, 0.03]\n')
    urdf = analytic_vehicle_urdf()
    params = load_vehicle(str(yaml_file), base=load_vehicle_string(urdf))
    assert params.mass == 1.0 and 'thruster_stern' in params.frames
    proc, log = start_node(spawn, tmp_path, {'robot_description': urdf,
                                             'vehicle_file': str(yaml_file),
                                             'mode': 'wrench', 'rate_hz': 50.0})
    probe = Probe(rclpy_context)
    body = probe.collect(WrenchStamped, 'hydro/wrench', keep=5)
    pub = probe.publisher(Odometry, 'odometry')
    current_pub = probe.publisher(Vector3Stamped, 'current')
    msg, q = _odometry(NU, 0)
    current = Vector3Stamped()
    current.vector.x, current.vector.y, current.vector.z = 0.4, -0.2, 0.0
    wc = HydroModel(params).wrench(NU, POSITION, q, None, [0.4, -0.2, 0.0],
                                   engine_added_mass=True)
    expected = wc.total - wc.components['weight']

    def publish():
        pub.publish(msg)
        current_pub.publish(current)

    assert probe.spin_until(
        lambda: body and np.allclose(_array(body[-1].wrench), expected, rtol=0, atol=1e-9),
        timeout=60.0, proc=proc, log=log, action=publish), (
        'wrench %s, expected %s' % (_array(body[-1].wrench) if body else None, expected))
    # the start-up log names the source of every vehicle field
    text = open(log).read()
    from_yaml = next(line for line in text.splitlines()
                     if 'vehicle fields from %s' % yaml_file in line)
    assert 'quadratic_drag' in from_yaml and 'added_mass' in from_yaml
    assert not re.search(r'\bmass \(line', from_yaml)  # the rigid body is the URDF's
    assert 'vehicle fields defaults:' in text and 'linear_drag' in text
    probe.close()
