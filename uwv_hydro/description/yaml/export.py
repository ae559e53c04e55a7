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
Write VehicleParams as a ROS 2 parameters-file YAML that the YAML loader reads back.

The output is a complete vehicle description (``<node>: ros__parameters: vehicle:``)
in the FLU convention, readable by :func:`uwv_hydro.description.loader.load_vehicle`
and by rcl's parameter-file parser:

* no nested lists: inertia as ``{ixx, iyy, izz, ixy, ixz, iyz}``; ``linear_drag``,
  ``added_mass`` and ``quadratic_drag`` as sparse maps with the dsros letters
  ``x y z r p h`` (only nonzero entries; an all-zero set as one explicit zero entry so
  the key stays present); points as flat [x, y, z] lists;
* every float has a decimal point (``1.0``, ``1.0e-05``): YAML 1.1 and rcl would
  otherwise read ``1`` as an integer and ``1e-05`` as a string;
* floats are written with ``repr`` so they read back bit-identical.

Round trip ``load(export(p)) == p`` holds for every physical field (inertial,
buoyancy, surface, coefficients, reference points, switches, semantics, names,
thrusters, sensors, fins).  Not representable in the YAML format, hence lost unless
``base`` is given:

* ``frames`` (fixed links from a URDF): with ``base='vehicle.urdf'`` the file says
  ``base: vehicle.urdf`` and the loader takes the frames from that file;
* ``source``, ``warnings`` (recomputed on load) and ``elements`` (what the source
  document held);
* a sensor's ``link`` without ``base``: written as a pose in the base link with the
  same frame name, so the sensor measures exactly as before;
* ``drag_velocity_point = None`` under ``semantics: dsros``: written as the resolved
  point, physically identical;
* ``thrusters``: written as the parameters that differ from the defaults, the joint
  pose as ``xyz`` and ``rpy`` in the base frame (the rpy may change the last bits).
"""

import dataclasses
import math
from typing import Iterable, List, Optional

import numpy as np
from transforms3d.euler import mat2euler, quat2euler

from uwv_hydro.description.conventions import DSROS_LETTERS
from uwv_hydro.description.fins import FIN_NUMBER_KEYS, FIN_VECTOR_KEYS
from uwv_hydro.description.sensor_export import sensor_tree
from uwv_hydro.description.yaml_safe import yaml_string
from uwv_hydro.physics.actuators.thruster_spec import (
    DSROS_TERMS, ThrusterSpec, UUV_CONVERSIONS, UUV_DYNAMICS)
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.sensing.sensors import sensor_body_mount, sensor_mount
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: Fields that the YAML format cannot carry (see the module docstring).
NOT_EXPORTED = ('frames', 'source', 'warnings', 'origins', 'coefficient_labels', 'elements')


def yaml_float(value: float) -> str:
    """Return a YAML/rcl float literal that reads back bit-identical (always with a '.')."""
    value = float(value)
    if not np.isfinite(value):
        raise ValueError('cannot export a non-finite number %r' % (value,))
    if value == 0.0:
        # -0.0 and 0.0 compare equal; write the plain form
        return '0.0'
    text = repr(value)
    mantissa, e, exponent = text.partition('e')
    if '.' not in mantissa:
        mantissa += '.0'
    return mantissa + (e + exponent if e else '')


def _flow_list(values: Iterable[float]) -> str:
    # nested lists (a DVL's beam vectors) as nested flow lists
    return '[' + ', '.join(_flow_list(v) if isinstance(v, (list, tuple)) else yaml_float(v)
                           for v in values) + ']'


def _sparse(array: np.ndarray, order: int) -> List[str]:
    """Return ``tag: value`` lines for the nonzero entries (one zero entry if none)."""
    arr = np.asarray(array, float).reshape((6,) * order)
    lines = []
    for idx in zip(*np.nonzero(arr)):
        tag = ''.join(DSROS_LETTERS[i] for i in idx)
        lines.append('%s: %s' % (tag, yaml_float(arr[idx])))
    if not lines:
        lines.append('%s: 0.0' % (DSROS_LETTERS[0] * order))
    return lines


def vehicle_lines(params: VehicleParams, base: Optional[str] = None) -> List[str]:
    """Return the ``vehicle:`` mapping body as YAML lines (no indentation)."""
    p = params
    i = np.asarray(p.inertia, float)
    lines = ['name: %s' % yaml_string(p.name),
             'base_frame: %s' % yaml_string(p.base_frame)]
    if base is not None:
        lines.append('base: %s' % yaml_string(base))
    if p.allow_nonphysical:
        lines.append('allow_nonphysical: true')
    lines += [
        'convention: "flu"',
        'semantics: %s' % yaml_string(p.semantics),
        'mass: %s' % yaml_float(p.mass),
        'inertia: {ixx: %s, iyy: %s, izz: %s, ixy: %s, ixz: %s, iyz: %s}' % tuple(
            yaml_float(v) for v in (i[0, 0], i[1, 1], i[2, 2], i[0, 1], i[0, 2], i[1, 2])),
        'com: %s' % _flow_list(np.asarray(p.com, float).reshape(3)),
        'buoyancy_mass: %s' % yaml_float(p.buoyancy_mass),
        'cob: %s' % _flow_list(np.asarray(p.cob, float).reshape(3)),
        'gravity: %s' % yaml_float(p.gravity),
        'fluid_density: %s' % yaml_float(p.fluid_density),
        'acceleration_alpha: %s' % yaml_float(p.acceleration_alpha),
        'coriolis: %s' % ('true' if p.coriolis else 'false'),
        'added_mass_coriolis: %s' % ('true' if p.added_mass_coriolis else 'false'),
        'damping: %s' % yaml_string(p.damping),
        'surface:',
        '  out_of_water_depth: %s' % yaml_float(p.surface.out_of_water_depth),
        '  fully_submerged_depth: %s' % yaml_float(p.surface.fully_submerged_depth),
        '  scale_factor: %s' % yaml_float(p.surface.scale_factor),
        '  model: %s' % yaml_string(p.surface.model),
    ]
    if p.drag_center is not None:
        lines.append('drag_center: %s' % _flow_list(np.asarray(p.drag_center, float)))
    # Written explicitly so semantics: dsros does not re-default them to the CoM;
    # an unset velocity point under origin semantics stays unset (None)
    if p.drag_velocity_point is not None or p.semantics == 'dsros':
        lines.append('drag_velocity_point: %s'
                     % _flow_list(p.resolved_drag_velocity_point().reshape(3)))
    lines.append('added_mass_point: %s'
                 % _flow_list(np.asarray(p.added_mass_point, float).reshape(3)))
    for key, order in (('linear_drag', 2), ('quadratic_drag', 3), ('added_mass', 2)):
        lines.append('%s:' % key)
        lines += ['  ' + line for line in _sparse(getattr(p, key), order)]
    for key, order in (('forward_speed_drag', 2), ('signed_quadratic_drag', 3)):
        if np.any(getattr(p, key)):
            lines.append('%s:' % key)
            lines += ['  ' + line for line in _sparse(getattr(p, key), order)]
    if p.thrusters:
        lines.append('thrusters:')
        lines += ['  ' + line for spec in p.thrusters
                  for line in thruster_lines(spec, p.tree if base is None else None)]
    if p.sensors:
        # Without the base description the links are gone: mounts become poses in the base
        # (a link of a moving body stays: the tree below keeps it)
        trees = {s.name: sensor_tree(s, None if base is not None or sensor_body_mount(s, p)[0]
                                     else sensor_mount(s, p))
                 for s in p.sensors}
        lines += ['sensors:'] + ['  ' + line for line in _tree_lines(trees)]
    # the tree comes from one file: with a base description it is that file's
    tree = link_tree_lines(p.tree) if base is None else []
    return lines + _fin_lines(p.fins) + _hull_lines(p.hull) + tree


def _origin_text(position, rotation) -> str:
    """Return ``{xyz: [..], rpy: [..]}`` of a pose (URDF rpy: static axes x, y, z)."""
    return '{xyz: %s, rpy: %s}' % (_flow_list(np.asarray(position, float)),
                                   _flow_list(mat2euler(np.asarray(rotation, float), 'sxyz')))


def _part_lines(part) -> List[str]:
    """Return a link part's hydro keys (no indentation), at the ``origin`` semantics."""
    lines = ['buoyancy_mass: %s' % yaml_float(part.buoyancy_mass),
             'cob: %s' % _flow_list(np.asarray(part.cob, float)),
             'drag_center: %s' % _flow_list(np.asarray(part.drag_center, float)),
             'drag_velocity_point: %s' % _flow_list(np.asarray(part.drag_velocity_point,
                                                               float))]
    if part.surface is not None:
        lines += ['surface:'] + ['  %s: %s' % (k, yaml_string(v) if k == 'model'
                                               else yaml_float(v))
                                 for k, v in (('out_of_water_depth',
                                               part.surface.out_of_water_depth),
                                              ('fully_submerged_depth',
                                               part.surface.fully_submerged_depth),
                                              ('scale_factor', part.surface.scale_factor),
                                              ('model', part.surface.model))]
    for key, order in (('linear_drag', 2), ('quadratic_drag', 3), ('added_mass', 2)):
        if np.any(getattr(part, key)):
            coefficients = _sparse(getattr(part, key), order)
            lines += ['%s:' % key] + ['  ' + line for line in coefficients]
    return lines


def _kept_parent(body, link: str, kept) -> str:
    """Return ``link`` or the nearest link above it in ``body`` that has an entry."""
    while link != body.name and link not in kept:
        link = body.parents.get(link, body.name)
    return link


def _in_link(tree, body: str, link: str, pose):
    """Return a pose given in the body frame in the frame of its ``link``."""
    p_l, r_l = tree.link_in_body(body, link)
    # T_link^-1 T: R = R_l^T R, p = R_l^T (p - p_l)
    return r_l.T @ (np.asarray(pose[0], float) - p_l), r_l.T @ np.asarray(pose[1], float)


def link_tree_lines(tree) -> List[str]:
    """
    Return the ``links:`` and ``joints:`` sections of a kinematic tree ([] for None).

    One entry per body, named for its root link, with the body's lumped inertial and
    the root link's hydro; each other link of a body is an entry of zero mass (its hydro,
    or empty) on a fixed joint (``fixed_<link>``).  Joints hang from their parent link
    of the description, so TF keeps its layout and every frame through the file.  Infinite
    limits are left out (the YAML default).
    """
    if tree is None:
        return []
    links, joints = ['links:'], ['joints:']
    for body in tree.bodies.values():
        parts = {part.link: part for part in body.parts}
        inertia = np.asarray(body.inertia, float)
        links += ['  %s:' % yaml_string(body.name),
                  '    mass: %s' % yaml_float(body.mass),
                  '    com: %s' % _flow_list(np.asarray(body.com, float)),
                  '    inertia: {ixx: %s, iyy: %s, izz: %s, ixy: %s, ixz: %s, iyz: %s}'
                  % tuple(yaml_float(v) for v in (inertia[0, 0], inertia[1, 1],
                                                  inertia[2, 2], inertia[0, 1],
                                                  inertia[0, 2], inertia[1, 2]))]
        if body.name in parts:
            links += ['    ' + line for line in _part_lines(parts[body.name])]
        for link, pose in body.links.items():
            if link == body.name:
                continue
            parent = _kept_parent(body, body.parents.get(link, body.name), body.links)
            # a link with no hydro keeps its entry (empty): its frame stays in TF
            lines = _part_lines(parts[link]) if link in parts else []
            links += ['  %s:%s' % (yaml_string(link), '' if lines else ' {}')]
            links += ['    ' + line for line in lines]
            joints += ['  %s:' % yaml_string('fixed_' + link), '    type: fixed',
                       '    parent: %s' % yaml_string(parent),
                       '    child: %s' % yaml_string(link),
                       '    origin: %s' % _origin_text(*_in_link(tree, body.name, parent, pose))]
    for joint in tree.joints:
        body = tree.bodies[joint.parent]
        parent = _kept_parent(body, tree.parent_link(joint), body.links)
        joints += ['  %s:' % yaml_string(joint.name), '    type: %s' % yaml_string(joint.kind),
                   '    parent: %s' % yaml_string(parent),
                   '    child: %s' % yaml_string(joint.child),
                   '    origin: %s' % _origin_text(*_in_link(
                       tree, joint.parent, parent,
                       (joint.origin_position, joint.origin_rotation))),
                   '    child_origin: %s' % _origin_text(joint.child_position,
                                                         joint.child_rotation),
                   '    axis: %s' % _flow_list(np.asarray(joint.axis, float))]
        limits = ['%s: %s' % (key, yaml_float(getattr(joint, key)))
                  for key in ('lower', 'upper', 'velocity', 'effort')
                  if np.isfinite(getattr(joint, key))
                  and not (joint.kind == 'continuous' and key in ('lower', 'upper'))]
        if limits:
            joints.append('    limits: {%s}' % ', '.join(limits))
    return links + joints


def _hull_lines(hull) -> List[str]:
    """Return the ``hull:`` mapping (no indentation), [] without a hull."""
    if hull is None:
        return []
    profile = np.column_stack([hull.stations, hull.diameters]).reshape(-1)
    lines = ['hull:', '  profile: %s' % _flow_list(profile),
             '  model: %s' % yaml_string(hull.model)]
    for key in ('c_yd_beta', 'x_cp', 'cd_crossflow', 'lift_diameter'):
        if getattr(hull, key) is not None:
            lines.append('  %s: %s' % (key, yaml_float(getattr(hull, key))))
    return lines + ['  strips: %s' % yaml_float(float(hull.strips))]


def _fin_lines(fins) -> List[str]:
    """Return the ``fins:`` mapping (no indentation), [] without fins."""
    lines = ['fins:'] if fins else []
    for fin in fins:
        lines += ['  %s:' % yaml_string(fin.name), '    model: %s' % yaml_string(fin.model)]
        lines += ['    %s: %s' % (key, _flow_list(np.asarray(getattr(fin, key), float)))
                  for key in FIN_VECTOR_KEYS]
        # An infinite servo rate limit is the default (YAML numbers must be finite), and
        # so is a fluid_density of 0 (the vehicle's)
        lines += ['    %s: %s' % (key, yaml_float(getattr(fin, key)))
                  for key in FIN_NUMBER_KEYS if np.isfinite(getattr(fin, key))
                  and (key != 'fluid_density' or fin.fluid_density > 0.0)]
    return lines


def thruster_lines(spec: ThrusterSpec, tree=None) -> List[str]:
    """
    Return the ``<joint>:`` mapping of one thruster as YAML lines (no indentation).

    A thruster on a moving body of ``tree`` gets that body as its ``parent``, its pose in
    the body frame (its base-frame pose is the one at zero joint positions).
    """
    # URDF rpy: static axes x, y, z (transforms3d 'sxyz')
    lines = ['%s:' % yaml_string(spec.joint_name),
             '  xyz: %s' % _flow_list(spec.translation),
             '  rpy: %s' % _flow_list(quat2euler(spec.rotation, 'sxyz')),
             '  axis: %s' % _flow_list(spec.axis)]
    if spec.body and tree is not None:
        rotation = quat_to_matrix(np.asarray(spec.rotation, float))
        position, rotation = tree.in_body(spec.body, spec.point(), rotation)
        lines[1:3] = ['  parent: %s' % yaml_string(spec.body),
                      '  xyz: %s' % _flow_list(position),
                      '  rpy: %s' % _flow_list(mat2euler(rotation, 'sxyz'))]
    for f in dataclasses.fields(ThrusterSpec):
        value = getattr(spec, f.name)
        if f.name in ('joint_name', 'translation', 'rotation', 'axis', 'dynamics_terms',
                      'conversion_terms', 'body') or value == f.default \
                or (isinstance(value, float) and math.isinf(value)):
            continue
        if isinstance(value, bool):
            text = 'true' if value else 'false'
        elif isinstance(value, int):
            text = str(value)
        elif f.name in ('dynamics_type', 'conversion_type'):
            # uuv_simulator's block: {type: ..., its parameters}
            block = f.name[:-len('_type')]
            names = (UUV_DYNAMICS if block == 'dynamics' else UUV_CONVERSIONS)[value]
            lines.append('  %s: {type: %s, %s}' % (block, yaml_string(value), ', '.join(
                '%s: %s' % (n, yaml_float(v))
                for n, v in zip(names, getattr(spec, block + '_terms')))))
            continue
        elif isinstance(value, str):
            text = yaml_string(value)
        elif f.name in ('dsros_forward', 'dsros_reverse'):
            text = '{%s}' % ', '.join('%s: %s' % (term, yaml_float(v))
                                      for term, v in zip(DSROS_TERMS, value))
        elif isinstance(value, tuple):
            text = _flow_list(value)
        else:
            text = yaml_float(value)
        lines.append('  %s: %s' % (f.name, text))
    return lines


def _tree_lines(tree: dict) -> List[str]:
    """Return YAML lines of a nested mapping of numbers, strings, bools and number lists."""
    lines = []
    for key, value in tree.items():
        if isinstance(value, dict):
            lines.append('%s:' % key)
            lines += ['  ' + line for line in _tree_lines(value)]
        elif isinstance(value, bool):
            lines.append('%s: %s' % (key, 'true' if value else 'false'))
        elif isinstance(value, int):
            lines.append('%s: %d' % (key, value))
        elif isinstance(value, str):
            lines.append('%s: %s' % (key, yaml_string(value)))
        elif isinstance(value, (list, tuple)):
            lines.append('%s: %s' % (key, _flow_list(value)))
        else:
            lines.append('%s: %s' % (key, yaml_float(value)))
    return lines


def export_yaml(params: VehicleParams, node: str = 'uwv_hydro', base: Optional[str] = None,
                comments: Iterable[str] = ()) -> str:
    """
    Return the params-file YAML text of ``params``.

    ``node`` is the node-name key (``/**`` matches any node); ``base`` an optional path
    (relative to the written file) of a description to take the URDF ``frames`` from;
    ``comments`` lines are written as ``#`` comments at the top.
    """
    out = ['# %s' % c if c else '#' for c in comments]
    out += ['%s:' % (yaml_string(node) if node.startswith('/') else node),
            '  ros__parameters:',
            '    vehicle:']
    out += ['      ' + line for line in vehicle_lines(params, base)]
    return '\n'.join(out) + '\n'


def write_yaml(params: VehicleParams, path, **kwargs) -> None:
    """Write :func:`export_yaml` of ``params`` to ``path``."""
    with open(path, 'w', newline='\n') as f:
        f.write(export_yaml(params, **kwargs))
