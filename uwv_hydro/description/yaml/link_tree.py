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
The ``links:`` and ``joints:`` sections: a vehicle whose links move, in YAML.

The top-level keys stay the vehicle lumped at zero joint positions (what a rigid
consumer uses); ``links:`` gives each link's OWN inertial and hydro and ``joints:``
how they hang together (URDF conventions: the child link frame is the joint frame)::

    links:
      base_link: {mass: 50.0, inertia: {ixx: 5.0, iyy: 8.0, izz: 8.0}, volume: 0.05}
      upper_arm: {mass: 3.0, volume: 0.002, quadratic_drag: [1, 4, 4, 0, 0.1, 0.1]}
    joints:
      shoulder:
        type: revolute           # revolute, continuous, prismatic or fixed
        parent: base_link
        child: upper_arm
        origin: {xyz: [0.5, 0.0, -0.2], rpy: [0.0, 0.0, 0.0]}   # in the parent link
        axis: [0.0, 0.0, 1.0]                                    # default [1, 0, 0]
        limits: {lower: -1.5, upper: 1.5, velocity: 0.5, effort: 100.0}  # default none

Link keys are the vehicle keys' (about the link origin); per link ``drag_center`` and
``drag_velocity_point`` default to the link origin (gz-sim's convention, the
``origin`` semantics), whereas the top-level ones default to the CoM and the drag
centre (:mod:`uwv_hydro.description.yaml.params`).  Joint keys: ``type``, ``parent``,
``child``, ``origin``, ``axis``, ``limits`` (``lower == upper`` makes a joint rigid
there) and ``child_origin`` (the child link in the joint frame, as SDF joints give it).
Top-level ``mass``/``inertia``/``com`` may be left out: they are the links' lumped at
q = 0 (Steiner); when given they must agree with it (a mismatch is an error naming
both).  The kinematic tree (:mod:`uwv_hydro.description.tree_builder`) is kept when a
moving joint carries links with hydro; links with hydro on fixed joints only would be
lost: an error.  FLU only, and not with ``base:``.  Keys: doc/reference/link_tree.md.
"""
from typing import Any, Dict, List

import numpy as np

from uwv_hydro.description.conventions import rpy_to_matrix
from uwv_hydro.description.name_checks import unknown_reason
from uwv_hydro.description.rigid_lumping import lump, LumpOverflow, part_in_base
from uwv_hydro.description.tree_builder import build_tree, JointSpec, tree_warning
from uwv_hydro.description.yaml.values import (
    _Ctx, _inertia, _number, _point, _vector3, coefficient_array, SURFACE_KEYS)
from uwv_hydro.description.zero_range_joint import rigid_motion
from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart
from uwv_hydro.physics.body.vehicle_params import SurfaceTransition, VehicleParams
from uwv_hydro.physics.spatial.unit_vector import unit_vector

LINK_KEYS = ('mass', 'com', 'inertia', 'volume', 'buoyancy_mass', 'cob', 'surface',
             'linear_drag', 'quadratic_drag', 'added_mass', 'drag_center',
             'drag_velocity_point')
JOINT_KEYS = ('type', 'parent', 'child', 'origin', 'axis', 'limits', 'child_origin')
JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed')
ORIGIN_KEYS = ('xyz', 'rpy')
LIMIT_KEYS = ('lower', 'upper', 'velocity', 'effort')
#: Relative agreement asked of top-level mass / com / inertia with the links' lumped.
LUMPED_TOLERANCE = 1e-9


def _mapping(value: Any, key: str, ctx: _Ctx, known) -> dict:
    if not isinstance(value, dict):
        raise ctx.error(key, 'expected a mapping')
    for sub in value:
        if sub not in known:
            raise ctx.error('%s.%s' % (key, sub), unknown_reason('key', sub, known))
    return value


def _sub(ctx: _Ctx, value: dict, key: str) -> _Ctx:
    """Return a context for the entries of ``value`` (the mapping at dotted ``key``)."""
    return _Ctx(ctx.source, value, ctx.prefix + key + '.')


def _link(name: str, value: Any, ctx: _Ctx, density: float):
    """Return ((mass, com, inertia), LinkHydroPart) of one ``links:`` entry."""
    key = 'links.%s' % name
    entry = _mapping(value, key, ctx, LINK_KEYS)
    sub = _sub(ctx, entry, key)
    mass = _number(entry['mass'], 'mass', sub) if 'mass' in entry else 0.0
    if mass < 0.0:
        raise sub.error('mass', 'mass must not be negative, got %g kg' % mass)
    com = _vector3(entry['com'], 'com', sub) if 'com' in entry else np.zeros(3)
    inertia = _inertia(entry['inertia'], sub) if 'inertia' in entry else np.zeros((3, 3))
    part = LinkHydroPart(link=name, where=ctx.where(key) + ': ' + ctx.prefix + key)
    if 'volume' in entry and 'buoyancy_mass' in entry:
        raise sub.error('volume', "give 'buoyancy_mass' or 'volume', not both")
    if 'buoyancy_mass' in entry:
        part.buoyancy_mass = _number(entry['buoyancy_mass'], 'buoyancy_mass', sub)
    if 'volume' in entry:
        part.buoyancy_mass = _number(entry['volume'], 'volume', sub) * density
    if 'cob' in entry:
        part.cob = _vector3(entry['cob'], 'cob', sub)
    if 'surface' in entry:
        surf = _mapping(entry['surface'], 'surface', sub, SURFACE_KEYS)
        defaults = SurfaceTransition()
        values = {k: getattr(defaults, k) for k in SURFACE_KEYS}
        values.update({k: v if k == 'model' else _number(v, 'surface.' + k, sub)
                       for k, v in surf.items()})
        part.surface = SurfaceTransition(**values)
    for field, order in (('linear_drag', 2), ('added_mass', 2), ('quadratic_drag', 3)):
        if field in entry:
            setattr(part, field, coefficient_array(entry[field], field, order, sub))
    for field in ('drag_center', 'drag_velocity_point'):
        if field in entry:
            point = _point(entry[field], field, sub)
            if isinstance(point, str):
                point = {'com': com, 'origin': np.zeros(3),
                         'drag_center': part.drag_center}[point]
            setattr(part, field, np.array(point, float))
    return (mass, com, inertia), part


def _origin(entry: dict, key: str, ctx: _Ctx):
    """Return (xyz, R) of an ``{xyz, rpy}`` entry (identity when absent; rpy as URDF's)."""
    if key not in entry:
        return np.zeros(3), np.eye(3)
    origin = _mapping(entry[key], key, ctx, ORIGIN_KEYS)
    sub = _sub(ctx, origin, key)
    xyz = _vector3(origin['xyz'], 'xyz', sub) if 'xyz' in origin else np.zeros(3)
    rot = rpy_to_matrix(_vector3(origin['rpy'], 'rpy', sub)) if 'rpy' in origin else np.eye(3)
    return xyz, rot


def _joint(name: str, value: Any, ctx: _Ctx, links: Dict[str, Any]) -> JointSpec:
    """Return the JointSpec of one ``joints:`` entry."""
    key = 'joints.%s' % name
    entry = _mapping(value, key, ctx, JOINT_KEYS)
    sub = _sub(ctx, entry, key)
    for needed in ('type', 'parent', 'child'):
        if needed not in entry:
            raise ctx.error(key, "joint %r needs '%s'" % (name, needed))
    kind = entry['type']
    if kind not in JOINT_TYPES:
        raise sub.error('type', 'joint type %r: expected one of %s'
                        % (kind, ', '.join(JOINT_TYPES)))
    for end in ('parent', 'child'):
        if not isinstance(entry[end], str) or entry[end] not in links:
            raise sub.error(end, '%s link %r is not in links: (%s)'
                            % (end, entry[end], ', '.join(links)))
    xyz, rot = _origin(entry, 'origin', sub)
    child_xyz, child_rot = _origin(entry, 'child_origin', sub)
    axis = _vector3(entry['axis'], 'axis', sub) if 'axis' in entry else np.eye(3)[0]
    if kind != 'fixed' and unit_vector(axis) is None:
        raise sub.error('axis', 'joint axis is zero')
    limits = {'lower': -np.inf, 'upper': np.inf, 'velocity': np.inf, 'effort': np.inf}
    if 'limits' in entry:
        given = _mapping(entry['limits'], 'limits', sub, LIMIT_KEYS)
        lsub = _sub(sub, given, 'limits')
        limits.update({k: _number(v, k, lsub) for k, v in given.items()})
        if limits['lower'] > limits['upper']:
            raise sub.error('limits', 'lower limit %g is above upper limit %g'
                            % (limits['lower'], limits['upper']))
        for k in ('velocity', 'effort'):
            if not limits[k] > 0.0:
                raise lsub.error(k, '%s limit must be positive (leave it out for none)' % k)
    rigid = None
    if kind == 'fixed' or (kind != 'continuous' and limits['lower'] == limits['upper']):
        rigid = (xyz, rot)
        if kind != 'fixed':  # a zero range holds it at q = lower = upper
            t, r = rigid_motion(kind, axis, limits['lower'])
            rigid = (xyz + rot @ t, rot @ r)  # T_origin T_motion(q)
        # ... T_child: the child link in the joint frame
        rigid = (rigid[0] + rigid[1] @ child_xyz, rigid[1] @ child_rot)
    if kind == 'continuous':
        limits['lower'], limits['upper'] = -np.inf, np.inf
    return JointSpec(name=name, kind=kind, parent=entry['parent'], child=entry['child'],
                     origin_position=xyz, origin_rotation=rot, axis=axis, rigid=rigid,
                     child_position=child_xyz, child_rotation=child_rot,
                     where=ctx.where(key) + ': ' + ctx.prefix + key, **limits)


def _check_lumped(vehicle: dict, params: VehicleParams, lumped, ctx: _Ctx) -> None:
    """Check the top-level rigid body against the links' lumped one (or take it)."""
    mass, com, inertia = lumped
    given = {'mass': params.mass, 'com': np.asarray(params.com, float),
             'inertia': np.asarray(params.inertia, float)}
    ours = {'mass': mass, 'com': com, 'inertia': inertia}
    scale = {'mass': mass, 'com': 1.0, 'inertia': max(np.abs(inertia).max(), 1e-300)}
    for key in ('mass', 'com', 'inertia'):
        if key not in vehicle:
            setattr(params, key, ours[key])
        elif not np.allclose(given[key], ours[key], rtol=LUMPED_TOLERANCE,
                             atol=LUMPED_TOLERANCE * scale[key]):
            raise ctx.error(key, "top-level %s %s is not the links' lumped at zero joint "
                            "positions, %s (leave it out to take the links')"
                            % (key, np.round(given[key], 9).tolist(),
                               np.round(ours[key], 9).tolist()))


def read_link_tree(vehicle: dict, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``links:`` and ``joints:`` into ``params.tree`` and its lumped rigid body."""
    if 'base' in vehicle:
        raise ctx.error('links', "links: and joints: are not read with 'base': give the "
                        'tree in one file')
    if ctx.frd:
        raise ctx.error('links', "links: and joints: are FLU: 'convention: frd' is not "
                        'read with them')
    for needed in ('links', 'joints'):
        if needed not in vehicle:
            raise ctx.error(needed, "'links' and 'joints' go together: '%s' is missing"
                            % needed)
    if not isinstance(vehicle['links'], dict) or not vehicle['links']:
        raise ctx.error('links', 'expected a mapping of link names')
    links = {str(name): value for name, value in vehicle['links'].items()}
    base = params.base_frame
    if base not in links:
        raise ctx.error('links', 'the base link %r (base_frame) is not in links: (%s)'
                        % (base, ', '.join(map(str, links))))
    inertials, parts = {}, {}
    for name, value in links.items():
        inertials[name], part = _link(name, value, ctx, params.fluid_density)
        if any(key in value for key in LINK_KEYS[3:]):  # an entry with no hydro key: none
            parts[name] = part
    joints = vehicle['joints']
    if not isinstance(joints, dict):
        raise ctx.error('joints', 'expected a mapping of joint names')
    specs: List[JointSpec] = [_joint(str(name), value, ctx, links)
                              for name, value in joints.items()]
    parents: Dict[str, str] = {}
    for spec in specs:
        if spec.child == base:
            raise ctx.error('joints.%s.child' % spec.name, 'the base link %r cannot be a '
                            "joint's child" % base)
        if spec.child in parents:
            raise ctx.error('joints.%s.child' % spec.name, 'link %r is the child of joints '
                            '%r and %r' % (spec.child, parents[spec.child], spec.name))
        parents[spec.child] = spec.name
    result = build_tree(base, specs, inertials, parts)
    unreached = [name for name in links if name not in result.zero_poses]
    if unreached:
        raise ctx.error('joints', 'links %s are not joined to the base link %r'
                        % (', '.join(map(repr, unreached)), base))
    try:
        lumped = lump(part_in_base(*inertials[n], *result.zero_poses[n]) for n in links)
    except LumpOverflow as exc:
        raise ctx.error('links.%s' % list(links)[exc.index], 'lumped at the zero pose: %s'
                        % exc) from None
    _check_lumped(vehicle, params, lumped, ctx)
    if result.tree is None:
        wet = [n for n, p in parts.items() if p.carries_hydro()]
        if wet:
            raise ctx.error('links', 'links %s carry hydro but no joint that moves carries '
                            'them (or only buoyancy on the axis of a joint that turns '
                            'them): one rigid body, give it in the top-level keys'
                            % ', '.join(map(repr, wet)))
        moving = [s.name for s in specs if s.rigid is None]
        if moving:
            params.warnings.append('joints %s move but their motion changes no hydro: '
                                   'lumped at their zero position'
                                   % ', '.join(map(repr, moving)))
        return
    params.tree = result.tree
    params.warnings.extend(tree_warning(result))


def read_links(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``links:`` (with ``joints:``, :func:`read_link_tree`)."""
    read_link_tree(ctx.mapping, ctx, params)


def read_joints(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``joints:`` alone: an error (``links:`` reads both)."""
    if 'links' not in ctx.mapping:
        read_link_tree(ctx.mapping, ctx, params)
