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
Read uuv_simulator fin plugins (``libuuv_fin_ros_plugin.so``) in a URDF into Fins.

Elements as uuv_simulator's ``uuv_gazebo_plugins/src/FinPlugin.cc`` (``Load``) and
``LiftDragModel.cc`` read them, written by ``uuv_gazebo_ros_plugins/urdf/fin_snippets.xacro``::

    <plugin name="lauv_fin0_model" filename="libuuv_fin_ros_plugin.so">
      <dynamics><type>FirstOrder</type><timeConstant>0.1</timeConstant></dynamics>
      <liftdrag>
        <type>Quadratic</type>  or TwoLines (area fluid_density a0 alpha_stall cla ...)
        <lift_constant>5</lift_constant> <drag_constant>1</drag_constant> </liftdrag>
      <current_velocity_topic>..</current_velocity_topic> <fin_id>0</fin_id>
      <link_name>lauv/fin0</link_name>          the fin link (child of the joint)
      <joint_name>lauv/fin0_joint</joint_name>  revolute, <limit lower upper velocity>
    </plugin>

Geometry (FinPlugin::OnUpdate): the flow is the fin link's velocity projected on the
link's x-y plane (its z axis is the span), the angle of attack atan2(v_y, v_x) in the
link frame, lift along -z x v, drag along -v; the force acts at the link's centre of
mass.  In uwv_hydro's Fin terms: ``forward`` = link x, ``upward`` = -link y (so
atan2(-v.upward, v.forward) is uuv's angle and forward x upward = -z), ``axis`` the
joint axis, all at zero deflection in the base frame; Quadratic -> model ``quadratic``
(L = lift_constant alpha U^2, D = drag_constant alpha^2 U^2, LiftDragQuadratic::compute).
TwoLines -> model ``uuv_two_lines`` (LiftDragTwoLines::compute, physics/actuators/fins.py) with
its coefficients and its own ``fluid_density``.  ``<dynamics>`` FirstOrder
``timeConstant`` is the servo lag (ZeroOrder: none); the joint's ``<limit lower upper>``
bound the deflection and ``velocity="0"`` (uuv's snippets) means no rate limit: uuv
sets the joint position directly.  Topics and ``fin_id`` are uuv's ROS wiring (fins here
take the node's fin commands); the current comes from the node's current input.
"""
from typing import List
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.fins import check_fin, limit_value
from uwv_hydro.description.urdf_joint import joint_in_base, origin_of
from uwv_hydro.description.uuv.blocks import one, typed_block
from uwv_hydro.description.xml_safe import element_error
from uwv_hydro.physics.body.vehicle_params import Fin, VehicleParams

#: Elements of the plugin (FinPlugin.cc, FinROSPlugin.cc, fin_snippets.xacro).
UUV_FIN_KEYS = frozenset(('dynamics', 'liftdrag', 'link_name', 'joint_name', 'input_topic',
                          'output_topic', 'current_velocity_topic', 'fin_id',
                          'fluid_density'))
#: uuv's lift/drag models and their parameters (LiftDragModel.cc create()).
LIFTDRAG_TYPES = {
    'Quadratic': ('lift_constant', 'drag_constant'),
    'TwoLines': ('area', 'fluid_density', 'a0', 'alpha_stall', 'cla', 'cla_stall', 'cda',
                 'cda_stall'),
}
#: uuv's fin dynamics (Dynamics.cc) that a servo lag holds.
FIN_DYNAMICS = {'ZeroOrder': (), 'FirstOrder': ('timeConstant',)}


def is_uuv_fin_plugin(elem: ET.Element) -> bool:
    """Return True for a uuv_simulator fin <plugin> (ROS or plain)."""
    return elem.tag == 'plugin' and 'uuv_fin' in elem.get('filename', '')


def read_uuv_fins(root: ET.Element, params: VehicleParams, source: str) -> List[Fin]:
    """Return the Fins of every uuv_simulator fin plugin (records each)."""
    joints = {j.get('name', ''): j for j in root.findall('joint')}
    links = {e.get('name', ''): e for e in root.findall('link')}
    fins: List[Fin] = []
    for block in (e for e in root.iter('plugin') if is_uuv_fin_plugin(e)):
        notes = ['unknown element <%s> ignored (as uuv_simulator)' % c.tag for c in block
                 if c.tag not in UUV_FIN_KEYS]
        link_elem, joint_elem = (one(block, t, source) for t in ('link_name', 'joint_name'))
        if link_elem is None or joint_elem is None:
            raise element_error('a uuv_simulator fin needs <link_name> and <joint_name> (uuv '
                                'asserts them)', source, block)
        link, name = (link_elem.text or '').strip(), (joint_elem.text or '').strip()
        joint = joints.get(name)
        if joint is None:
            raise element_error('fin joint %r is not a joint of the robot' % name, source,
                                joint_elem)
        if joint.get('type') not in ('revolute', 'continuous'):
            raise element_error('fin joint %r must be revolute or continuous, not %r'
                                % (name, joint.get('type')), source, joint)
        child = joint.find('child')
        if child is None or child.get('link') != link:
            raise element_error('uuv fin <link_name> %r must be the child link of joint %r'
                                % (link, name), source, link_elem)
        # base <- fin link at zero deflection
        position, rotation, axis = joint_in_base(joint, params, source, 'fin')
        fin = Fin(name=name, source=source)
        fin.position = position
        inertial = links[link].find('inertial') if link in links else None
        # uuv applies the force at the link's centre of mass (AddRelativeForce)
        fin.cp = rotation @ (origin_of(inertial, source)[0] if inertial is not None
                             else np.zeros(3))
        fin.axis = rotation @ axis
        # uuv: angle of attack atan2(v_y, v_x) in the link, span along link z
        fin.forward = rotation @ np.array([1.0, 0.0, 0.0])
        fin.upward = rotation @ np.array([0.0, -1.0, 0.0])
        limit = joint.find('limit')
        if limit is not None:
            lower, upper = limit_value(limit, 'lower', source), limit_value(limit, 'upper', source)
            if joint.get('type') == 'revolute':
                fin.lower = 0.0 if lower is None else lower
                fin.upper = 0.0 if upper is None else upper
            velocity = limit_value(limit, 'velocity', source)
            # uuv sets the fin angle directly: velocity 0 (its snippets) means no limit
            if velocity is not None and velocity > 0.0:
                fin.velocity = velocity
        elif joint.get('type') == 'revolute':
            raise element_error('revolute fin joint %r needs <limit lower upper>' % name,
                                source, joint)
        dyn_kind, dyn, _ = typed_block(block, 'dynamics', FIN_DYNAMICS, source, 'fin',
                                       warnings=notes)
        fin.time_constant = dyn.get('timeConstant', 0.0)
        kind, values, _ = typed_block(block, 'liftdrag', LIFTDRAG_TYPES, source, 'fin',
                                      warnings=notes)
        if kind == 'Quadratic':
            fin.model = 'quadratic'
            fin.lift_constant = values['lift_constant']
            fin.drag_constant = values['drag_constant']
        else:
            fin.model = 'uuv_two_lines'
            for key in ('area', 'a0', 'alpha_stall', 'cla', 'cla_stall', 'cda', 'cda_stall',
                        'fluid_density'):
                setattr(fin, key, values[key])

        def error(key, reason, _name=name, _block=block):
            return element_error('uuv fin %s: %s' % (_name, reason), source, _block)
        fins.append(check_fin(fin, error))
        record(params, 'fin', name, where(source, block), 'warned' if notes else 'read',
               'uuv_simulator %s/%s -> %s fin' % (dyn_kind, kind, fin.model)
               + ''.join('; ' + n for n in notes))
        params.warnings.extend('uuv fin %s: %s' % (name, n) for n in notes)
    return fins
