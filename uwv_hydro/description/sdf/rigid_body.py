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

"""The rigid body of an SDF model: inertials, the joint graph, lumped links."""
from typing import Dict, List, Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import matrix_to_quat
from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.name_checks import check_children
from uwv_hydro.description.provenance import RIGID_BODY_FIELDS, set_origin
from uwv_hydro.description.rigid_lumping import lump, LumpOverflow, part_in_base
from uwv_hydro.description.sdf.frames import FlatModel, Pose, read_pose
from uwv_hydro.description.xml_safe import element_error
from uwv_hydro.description.xml_values import float_text
from uwv_hydro.description.zero_range_joint import NOTE as ZERO_RANGE_NOTE, sdf_zero_range
from uwv_hydro.physics.body.vehicle_params import FixedFrame, VehicleParams

#: SDF //link/inertial (1.10 adds fluid_added_mass) and //inertial/inertia elements.
INERTIAL_CHILDREN = ('mass', 'pose', 'inertia', 'fluid_added_mass', 'density', 'auto')
INERTIA_CHILDREN = ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz')


_INERTIA_DEFAULTS = {'ixx': 1.0, 'iyy': 1.0, 'izz': 1.0, 'ixy': 0.0, 'ixz': 0.0, 'iyz': 0.0}

#: sdformat's <inertial><mass> default (inertial.sdf), used for a link without one.
SDF_DEFAULT_MASS = 1.0

#: sdformat's world gravity default (world.sdf: <gravity>0 0 -9.8</gravity>).
SDF_DEFAULT_GRAVITY = 9.8

#: Joint types that move (sdformat joint.sdf); 'fixed' is rigid, and a zero range.
MOVING_JOINT_TYPES = ('revolute', 'prismatic', 'continuous', 'ball', 'revolute2',
                      'universal', 'screw', 'gearbox')


def _inertial(flat: FlatModel, name: str, link: ET.Element, source: str,
              warnings: List[str]):
    """Return (mass, com, inertia about com in link axes, status, note) of a link."""
    inertial = link.find('inertial')
    if inertial is None:
        return (SDF_DEFAULT_MASS, np.zeros(3), np.eye(3), 'warned',
                'no <inertial>: sdformat default 1 kg, unit inertia (as gz-sim simulates)')
    check_children(inertial, INERTIAL_CHILDREN, source)
    status, note = 'read', ''
    mass_elem = inertial.find('mass')
    if mass_elem is None:
        mass, status = SDF_DEFAULT_MASS, 'warned'
        note = '<inertial> without <mass>: sdformat default 1 kg'
    else:
        mass = float_text(mass_elem, source)
    if (inertial.get('auto', 'false').strip().lower() in ('true', '1')):
        warnings.append('link %r: <inertial auto="true"> is not computed from the collisions '
                        'here; the <mass>/<inertia> written (or sdformat defaults) are used'
                        % name)
    pose_elem = inertial.find('pose')
    if pose_elem is not None and pose_elem.get('relative_to', '') not in ('', name.rpartition(
            '::')[2]):
        raise element_error('//inertial/pose relative_to=%r: sdformat requires the inertial '
                            'pose in its link frame' % pose_elem.get('relative_to'),
                            source, pose_elem)
    com, rot = read_pose(pose_elem, source)
    values = dict(_INERTIA_DEFAULTS)
    inertia_elem = inertial.find('inertia')
    if inertia_elem is not None:
        check_children(inertia_elem, INERTIA_CHILDREN, source)
        for child in inertia_elem:
            values[child.tag] = float_text(child, source)
    v = values
    inertia = np.array([[v['ixx'], v['ixy'], v['ixz']], [v['ixy'], v['iyy'], v['iyz']],
                        [v['ixz'], v['iyz'], v['izz']]])
    # SDF: <inertial><pose> rotates the inertia's axes: I_link = R I R^T
    return mass, com, rot @ inertia @ rot.T, status, note


def _joint_graph(flat: FlatModel, source: str):
    """Return {link: [(joint name, joint, other link)]} and the joints to the world."""
    graph: Dict[str, list] = {name: [] for name in flat.links}
    to_world = []
    for name, joint in flat.joints.items():
        scope = flat.scope_of(name)
        ends = []
        for tag in ('parent', 'child'):
            end = joint.find(tag)
            text = (end.text or '').strip() if end is not None else ''
            if not text:
                raise element_error('joint without <%s>' % tag, source, joint)
            ends.append(text if text == 'world' else flat.lookup(text, scope, end))
        if 'world' in ends:
            to_world.append((name, joint))
            continue
        parent, child = (_link_of(flat, e) for e in ends)
        if parent in graph and child in graph:
            graph[parent].append((name, joint, child))
            graph[child].append((name, joint, parent))
    return graph, to_world


def _link_of(flat: FlatModel, frame: str) -> str:
    """Return the link a frame is attached to (a link is its own); '' if unknown."""
    seen = set()
    while frame not in flat.links and frame not in seen:
        seen.add(frame)
        entry = flat._frames.get(frame)
        if entry is None or entry.element.tag != 'frame':
            return frame if frame in flat.links else ''
        attached = entry.element.get('attached_to', '')
        if not attached:
            return ''
        frame = flat.lookup(attached, entry.scope, entry.element)
    return frame if frame in flat.links else ''


def _sdf_rigid(joint: ET.Element, source: str) -> bool:
    """
    Return True for a fixed joint or a revolute/prismatic one held at q = lower = upper = 0.

    (:mod:`zero_range_joint`.)  A range held at another q still counts as moving, lumped
    at its declared (q = 0) pose, with a warning: the SDF link poses are not re-posed.
    """
    return joint.get('type', '') == 'fixed' or sdf_zero_range(joint, source) == 0.0


def lumped_joints_warning(moving: List[tuple], in_tree: bool = False) -> str:
    """Return the warning naming the joints (name, kind, child link) lumped at q = 0."""
    return ("joints that move are lumped at their zero position (the links' mass, volume "
            "and hydrodynamics count, as gz-sim simulates them; the joints' own motion and "
            'inertial coupling are left out%s): %s'
            % ('; their motion changes no hydro' if in_tree else '',
               ', '.join('%r (%s, link %r)' % m for m in moving)))


#: A pose offset beyond which an overflowing lump is blamed on the pose, not the
#: link's inertial: no part of a vehicle is 1000 km from its base.
FAR_M = 1e6


def _far_pose(flat: FlatModel, name: str) -> Optional[ET.Element]:
    """Return the <pose> of link ``name``'s chain with the largest offset beyond FAR_M."""
    far = [(float(np.max(np.abs(read_pose(e, flat.source)[0]))), i, e)
           for i, e in enumerate(flat.pose_elements(name))]
    far = [item for item in far if item[0] > FAR_M]
    return max(far)[2] if far else None


def _rigid_body(flat: FlatModel, base: str, link_poses: Dict[str, Pose], source: str,
                params_name: str, warnings: List[str],
                moving_out: Optional[List[tuple]] = None) -> VehicleParams:
    """
    Lump every link into the base frame; record links and joints.

    With ``moving_out`` the joints that move are listed there as (name, kind, child
    link) for the caller to warn about (a kinematic tree may keep them), else warned
    about here.
    """
    graph, to_world = _joint_graph(flat, source)
    reached = {base: ()}  # link -> moving joints on its path from the base
    stack = [base]
    while stack:
        here = stack.pop()
        for joint_name, joint, other in graph[here]:
            if other in reached:
                continue
            moving = not _sdf_rigid(joint, source)
            reached[other] = reached[here] + ((joint_name,) if moving else ())
            stack.append(other)
    parts, records = [], []
    if not any(link.find('inertial') is not None for link in flat.links.values()):
        raise element_error('model %r has no <inertial><mass> in any link' % flat.name,
                            source, flat.links[base])
    for name, link in flat.links.items():
        mass, com, inertia, status, note = _inertial(flat, name, link, source, warnings)
        p, rot = link_poses[name]
        parts.append(part_in_base(mass, com, inertia, p, rot))
        if name not in reached:
            status = 'warned'
            note = ('not connected to %r by joints: gz-sim simulates it as a separate body; '
                    'lumped here rigidly at its pose' % base)
            warnings.append('link %r is %s' % (name, note))
        elif not note:
            note = ('%g kg lumped into %r (%s)' % (mass, base, 'base link' if name == base
                    else 'rigid' if not reached[name] else 'at the zero position of joint %s'
                    % ', '.join(reached[name])))
        records.append((name, link, status, note))
    try:
        mass, com, inertia = lump(parts)
    except LumpOverflow as exc:
        name, link = records[exc.index][:2]
        culprit = _far_pose(flat, name)
        raise element_error('link %r lumped into %r: %s%s'
                            % (name, base, exc, '' if culprit is None else
                               ' (the <pose> here puts it more than %g m from the model '
                               'frame)' % FAR_M), source,
                            link if culprit is None else culprit) from None
    if mass <= 0.0:
        # the <mass> of the first link that makes it so (its line), else the model
        bad = [link for (_, link, _, _), part in zip(records, parts) if part[0] <= 0.0]
        mass_elem = bad[0].find('inertial/mass') if bad else None
        raise element_error('mass must be positive, got %g kg' % mass, source,
                            flat.element if mass_elem is None else mass_elem)
    params = VehicleParams(mass=mass, inertia=inertia, com=com, name=params_name,
                           base_frame=base, source=source)
    for name, link, status, note in records:
        record(params, 'link', name, where(source, link), status, note)
    moving = []
    for name, joint in flat.joints.items():
        kind = joint.get('type', '')
        if any(name == j for j, _ in to_world):
            note = 'fixes the model to the world: ignored (uwv_hydro simulates a free body)'
            record(params, 'joint', name, where(source, joint), 'warned', note)
            warnings.append('joint %r %s' % (name, note))
        elif kind == 'fixed':
            record(params, 'joint', name, where(source, joint), 'read', 'rigid: lumped')
        elif _sdf_rigid(joint, source):
            record(params, 'joint', name, where(source, joint), 'read',
                   (ZERO_RANGE_NOTE % kind) + ': lumped')
        else:
            child = joint.find('child')
            child_name = _link_of(flat, flat.lookup((child.text or '').strip(),
                                                    flat.scope_of(name), child))
            note = ('%s joint lumped at its zero position: its motion and inertial '
                    'coupling are left out' % (kind or 'untyped'))
            rest = sdf_zero_range(joint, source)
            if rest is not None:  # held at q != 0: the links keep their declared poses
                note += ('; its range is zero at q = %g, where gz-sim holds it: not '
                         're-posed here' % rest)
                warnings.append('joint %r: %s' % (name, note))
            record(params, 'joint', name, where(source, joint), 'warned', note)
            moving.append((name, kind or 'untyped', child_name))
    if moving_out is not None:
        moving_out.extend(moving)
    elif moving:
        warnings.append(lumped_joints_warning(moving))
    rigid = {n for n, joints in reached.items() if not joints and n != base}
    params.frames = {n: FixedFrame(translation=link_poses[n][0],
                                   rotation=matrix_to_quat(link_poses[n][1]))
                     for n in flat.links if n in rigid}
    set_origin(params, RIGID_BODY_FIELDS, '%s (SDF <inertial> of the %d links of model %s)'
               % (source, len(flat.links), flat.name))
    return params
