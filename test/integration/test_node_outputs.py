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
Secondary outputs: /tf_static frames, hydro/markers, component topics, /diagnostics layout.

Builders are checked directly (no DDS); one node run checks the topics and QoS.
"""
from nodes.harness import analytic_vehicle_urdf, diag_values, Probe, REPO, start_node
import numpy as np
import pytest
from required_modules import require

VEHICLE = str(REPO / 'urdf' / 'dsros_vehicle.urdf.xacro')


def _vehicle():
    from uwv_hydro.description.loader import load_vehicle
    return load_vehicle(VEHICLE)


def test_marker_builder_geometry_and_arrows():
    require('geometry_msgs')
    from uwv_hydro.node.markers import MarkerBuilder
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    from uwv_hydro.physics.body.inertia import box_inertia, rotate_inertia
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    from visualization_msgs.msg import Marker
    params = _vehicle()
    builder = MarkerBuilder(params, 'ns/base_link')
    wc = HydroModel(params).wrench([1.0, 0, 0, 0, 0, 0.1])
    markers = builder.build(_stamp(), wc.components)
    by_text = {m.text: m for m in markers if m.text}
    assert {'com', 'cob', 'drag', 'buoyancy', 'weight', 'drag_force', 'total'} <= set(by_text)
    assert all(m.header.frame_id == 'ns/base_link' for m in markers)
    assert len({m.id for m in markers}) == len(markers)
    com = by_text['com'].pose.position
    assert (com.x, com.y, com.z) == tuple(float(v) for v in params.com)
    (box,) = [m for m in markers if m.type == Marker.CUBE]
    o = box.pose.orientation
    rot = quat_to_matrix([o.w, o.x, o.y, o.z])
    size = [box.scale.x, box.scale.y, box.scale.z]
    # the box of equivalent inertia has the vehicle's inertia about the CoM
    np.testing.assert_allclose(rotate_inertia(box_inertia(params.mass, size), rot),
                               params.inertia, rtol=1e-6, atol=1e-6 * np.max(params.inertia))
    buoy = by_text['buoyancy']
    start, end = (np.array([p.x, p.y, p.z]) for p in buoy.points)
    np.testing.assert_allclose(start, params.cob)
    direction = (end - start) / builder.force_scale
    np.testing.assert_allclose(direction, wc.components['buoyancy'][:3], atol=1e-9)
    assert direction[2] > 0.0, 'buoyancy points up'


def _stamp():
    from builtin_interfaces.msg import Time
    return Time(sec=1, nanosec=2)


def test_diagnostics_statuses_layout():
    require('diagnostic_msgs')
    from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus
    from uwv_hydro.node.diagnostics import build_statuses
    snap = {'loop': {'ticks': 10, 'overruns': 1, 'overruns_recent': 1},
            'drops': {'non_finite': 2, 'stale_stamp': 0}, 'drops_recent': 2,
            'inputs': {'thrust': {'count': 3, 'rate_hz': 10.0, 'age_s': 0.1, 'state': 'ok',
                                  'drops': {'non_finite': 2}},
                       'current': {'count': 0, 'rate_hz': 0.0, 'age_s': None}},
            'watchdog': {'thrust': 'stale', 'thrust2': 'ok'}, 'events': {'clock_resets': 4}}
    msg = DiagnosticArray(status=build_statuses('/uwv_hydro', 'veh', snap))
    loop = diag_values(msg, 'update loop')
    assert loop['overruns'] == '1' and loop['clock_resets'] == '4'
    assert diag_values(msg, 'dropped messages')['non_finite'] == '2'
    assert diag_values(msg, 'input thrust')['non_finite'] == '2'
    assert diag_values(msg, 'input current')['age_s'] == 'never'
    levels = {s.name: s.level for s in msg.status}
    assert levels['/uwv_hydro: thrust watchdog'] == DiagnosticStatus.WARN
    assert levels['/uwv_hydro: update loop'] == DiagnosticStatus.WARN


@pytest.mark.ros
def test_static_frames_markers_components_and_diagnostics_topics(
        rclpy_context, spawn, tmp_path):
    from diagnostic_msgs.msg import DiagnosticArray
    from geometry_msgs.msg import WrenchStamped
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from tf2_msgs.msg import TFMessage
    from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
    from visualization_msgs.msg import MarkerArray
    proc, log = start_node(spawn, tmp_path, {
        'robot_description': analytic_vehicle_urdf(), 'mode': 'simulate', 'rate_hz': 50.0,
        'initial_position': [0.0, 0.0, -5.0], 'publish_components': True,
        'publish_static_frames': True, 'frame_prefix': 'v/', 'marker_rate_hz': 20.0,
        'diagnostics_period': 0.2})
    probe = Probe(rclpy_context)
    static_qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                            durability=DurabilityPolicy.TRANSIENT_LOCAL)
    # a late joiner still gets the static frames (transient local)
    assert probe.spin_until(lambda: probe.node.count_publishers('/tf_static') > 0,
                            timeout=30.0, proc=proc, log=log)
    probe.spin_for(0.5)
    static = probe.collect(TFMessage, '/tf_static', qos=static_qos)
    markers = probe.collect(MarkerArray, 'hydro/markers', keep=2)
    diags = probe.collect(DiagnosticArray, '/diagnostics', keep=2)
    components = {n: probe.collect(WrenchStamped, 'hydro/components/' + n, keep=2)
                  for n in COMPONENT_NAMES}
    assert probe.spin_until(
        lambda: static and markers and diags and all(components.values()), timeout=60.0,
        proc=proc, log=log), 'missing: %s' % [n for n, v in dict(
            static=static, markers=markers, diags=diags, **components).items() if not v]
    children = {t.child_frame_id: t for t in static[0].transforms}
    assert set(children) == {'v/base_link_com', 'v/base_link_cob', 'v/base_link_drag_center'}
    assert all(t.header.frame_id == 'v/base_link' for t in children.values())
    assert all(m.header.frame_id == 'v/base_link' for m in markers[-1].markers)
    weight = components['weight'][-1].wrench.force.z
    buoyancy = components['buoyancy'][-1].wrench.force.z
    assert weight == pytest.approx(-9.8) and buoyancy == pytest.approx(9.8)  # URDF: 9.8
    values = diag_values(diags[-1], 'update loop')
    assert int(values['ticks']) > 0
    assert diag_values(diags[-1], 'input thrust')['age_s'] == 'never'
    probe.close()
