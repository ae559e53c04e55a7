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
Write a vehicle's rigid body and added mass as SDF for gz-sim (inverse of the reader).

What gz-sim integrates itself when the node runs in wrench mode with
``added_mass: implicit``: the link's ``<inertial>`` (mass, centre of mass, inertia
about the CoM) with ``<fluid_added_mass>`` (SDF 1.10+, honoured by the DART engine).
The SDF loader reads the output back to the same M_RB and M_A (tested).

* ``<fluid_added_mass>`` is symmetric and expressed about the link origin (SDF fluid
  added-mass proposal), with the letters ``x y z p q r`` (p = roll, r = yaw).  A
  vehicle whose M_A is referred to another point (a dsros block refers it to the CoM)
  is moved to the origin first: M_A,o = H(r)^T M_A H(r).  An asymmetric M_A cannot be
  written and is an error naming the pair.
* Inertia products are written as the matrix elements (``ixy`` = I[0, 1]), as the
  loaders read them; floats with ``repr`` so they read back bit-identical.
* The model carries gz-sim's OdometryPublisher (``dimensions`` 3, odometry of the
  model = the link, which sits at the model origin); a world adds Physics (DART),
  ApplyLinkWrench, SceneBroadcaster and UserCommands and the vehicle's gravity.
  Buoyancy and drag come from the node: no Buoyancy or Hydrodynamics system is added
  (they would count those terms twice).
"""
from typing import Optional, Sequence
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.conventions import SDF_LETTERS
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.physics.body.inertia import equivalent_box, InertiaError
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.spatial.point_transform import transfer_matrix
from uwv_hydro.physics.spatial.rotation import matrix_to_quat, quat_to_rpy

#: SDF version written (``<fluid_added_mass>`` needs 1.10 or newer).
SDF_VERSION = '1.10'
#: Default world name of :func:`export_sdf` worlds.
DEFAULT_WORLD_NAME = 'uwv_hydro'
#: Default physics step (s): 1 kHz, the node's rate_hz in the gz-sim launch file.
DEFAULT_STEP_SIZE = 0.001
#: Default initial position of the model in the world (m, ENU): 20 m deep.
DEFAULT_POSITION = (0.0, 0.0, -20.0)
#: Relative tolerance of the M_A symmetry check.
SYMMETRY_TOLERANCE = 1e-9


def number(value: float) -> str:
    """Return the SDF text of a float that reads back bit-identical."""
    value = float(value)
    if not np.isfinite(value):
        raise DescriptionError('cannot export the non-finite number %r' % value)
    return repr(value + 0.0)  # + 0.0 turns -0.0 into 0.0


def _numbers(values: Sequence[float]) -> str:
    return ' '.join(number(v) for v in values)


def fluid_added_mass(params: VehicleParams) -> np.ndarray:
    """
    Return the symmetric 6x6 M_A about the link origin that ``<fluid_added_mass>`` holds.

    Raises DescriptionError when M_A is not symmetric (SDF stores 21 elements).
    """
    # Fossen's H(r), MSS Hmtrx: M_A,o = H(r)^T M_A,r H(r)
    m_a = transfer_matrix(params.added_mass, params.added_mass_point)
    scale = max(1.0, float(np.max(np.abs(m_a))))
    asym = np.abs(m_a - m_a.T)
    if np.max(asym) > SYMMETRY_TOLERANCE * scale:
        i, j = np.unravel_index(int(np.argmax(asym)), asym.shape)
        tag = SDF_LETTERS[i] + SDF_LETTERS[j]
        raise DescriptionError(
            'added mass is not symmetric about the link origin (%s = %r, %s = %r); SDF '
            '<fluid_added_mass> holds a symmetric matrix only'
            % (tag, float(m_a[i, j]), tag[::-1], float(m_a[j, i])),
            params.source, 'added_mass')
    return 0.5 * (m_a + m_a.T)


def inertia_matrix(params: VehicleParams) -> np.ndarray:
    """Return the symmetric 3x3 inertia about the CoM that ``<inertia>`` holds."""
    i = np.asarray(params.inertia, float)
    return 0.5 * (i + i.T)


def _sub(parent: ET.Element, tag: str, text: Optional[str] = None, **attrib) -> ET.Element:
    elem = ET.SubElement(parent, tag, attrib)
    if text is not None:
        elem.text = text
    return elem


def inertial_element(params: VehicleParams) -> ET.Element:
    """Return the ``<inertial>`` element: mass, CoM pose, inertia, fluid_added_mass."""
    inertial = ET.Element('inertial')
    _sub(inertial, 'mass', number(params.mass))
    _sub(inertial, 'pose', _numbers(list(np.asarray(params.com, float)) + [0.0, 0.0, 0.0]))
    inertia = _sub(inertial, 'inertia')
    i = inertia_matrix(params)
    for name, (r, c) in (('ixx', (0, 0)), ('ixy', (0, 1)), ('ixz', (0, 2)),
                         ('iyy', (1, 1)), ('iyz', (1, 2)), ('izz', (2, 2))):
        _sub(inertia, name, number(i[r, c]))
    fam = _sub(inertial, 'fluid_added_mass')
    m_a = fluid_added_mass(params)
    for r in range(6):
        for c in range(r, 6):
            _sub(fam, SDF_LETTERS[r] + SDF_LETTERS[c], number(m_a[r, c]))
    return inertial


def _hull_visual(link: ET.Element, params: VehicleParams) -> None:
    """Add a visual box of the vehicle's equivalent inertia (a picture, no physics)."""
    try:
        size, axes = equivalent_box(params.mass, inertia_matrix(params))
    except InertiaError:
        return
    if np.linalg.det(axes) < 0.0:  # principal axes as a proper rotation (body <- box)
        axes = axes * np.array([1.0, 1.0, -1.0])
    rpy = quat_to_rpy(matrix_to_quat(axes))
    visual = _sub(link, 'visual', name='hull')
    _sub(visual, 'pose', _numbers(list(np.asarray(params.com, float)) + list(rpy)))
    box = _sub(_sub(visual, 'geometry'), 'box')
    _sub(box, 'size', _numbers(np.round(np.maximum(size, 1e-3), 3)))  # a picture: mm


def model_element(params: VehicleParams, model_name: Optional[str] = None,
                  position: Sequence[float] = DEFAULT_POSITION,
                  step_size: float = DEFAULT_STEP_SIZE,
                  odom_frame: str = 'odom') -> ET.Element:
    """Return the ``<model>``: one link with the inertial, a hull visual, odometry."""
    model = ET.Element('model', name=model_name or params.name)
    _sub(model, 'pose', _numbers(list(position) + [0.0, 0.0, 0.0]))
    link = _sub(model, 'link', name=params.base_frame)
    link.append(inertial_element(params))
    _hull_visual(link, params)
    odom = _sub(model, 'plugin', filename='gz-sim-odometry-publisher-system',
                name='gz::sim::systems::OdometryPublisher')
    _sub(odom, 'dimensions', '3')
    _sub(odom, 'odom_frame', odom_frame)
    _sub(odom, 'robot_base_frame', params.base_frame)
    _sub(odom, 'odom_publish_frequency', number(1.0 / step_size))
    return model


def world_element(params: VehicleParams, model: ET.Element,
                  world_name: str = DEFAULT_WORLD_NAME,
                  step_size: float = DEFAULT_STEP_SIZE, seabed: Optional[ET.Element] = None,
                  datum: Optional[Sequence[float]] = None) -> ET.Element:
    """
    Return a ``<world>`` holding ``model``, DART physics and ApplyLinkWrench.

    ``seabed``: a heightmap model (:mod:`uwv_hydro.description.sdf.heightmap_export`),
    added with DART's Bullet collision detector (gz-sim's heightmap worlds use it: with
    ODE bodies pass through heightmaps, gz-sim#1714); ``datum`` (lat, lon): the world's
    ``<spherical_coordinates>``.
    """
    world = ET.Element('world', name=world_name)
    physics = _sub(world, 'physics', name='%gms' % (step_size * 1e3), type='ignored')
    _sub(physics, 'max_step_size', number(step_size))
    _sub(physics, 'real_time_factor', '1.0')
    if seabed is not None:
        _sub(_sub(physics, 'dart'), 'collision_detector', 'bullet')
    if datum is not None:
        sc = _sub(world, 'spherical_coordinates')
        _sub(sc, 'surface_model', 'EARTH_WGS84')
        _sub(sc, 'world_frame_orientation', 'ENU')
        _sub(sc, 'latitude_deg', number(datum[0]))
        _sub(sc, 'longitude_deg', number(datum[1]))
        _sub(sc, 'elevation', '0.0')
        _sub(sc, 'heading_deg', '0.0')
    _sub(world, 'gravity', _numbers((0.0, 0.0, -params.gravity)))
    phys = _sub(world, 'plugin', filename='gz-sim-physics-system',
                name='gz::sim::systems::Physics')
    # fluid_added_mass is honoured by the DART engine
    _sub(_sub(phys, 'engine'), 'filename', 'gz-physics-dartsim-plugin')
    wrench = _sub(world, 'plugin', filename='gz-sim-apply-link-wrench-system',
                  name='gz::sim::systems::ApplyLinkWrench')
    _sub(wrench, 'verbose', 'false')  # else one debug line per wrench and step
    _sub(world, 'plugin', filename='gz-sim-scene-broadcaster-system',
         name='gz::sim::systems::SceneBroadcaster')
    _sub(world, 'plugin', filename='gz-sim-user-commands-system',
         name='gz::sim::systems::UserCommands')
    if seabed is not None:
        world.append(seabed)
    world.append(model)
    return world


def export_sdf(params: VehicleParams, world: bool = False, model_name: Optional[str] = None,
               world_name: str = DEFAULT_WORLD_NAME,
               position: Sequence[float] = DEFAULT_POSITION,
               step_size: float = DEFAULT_STEP_SIZE, inertial_only: bool = False,
               comments: Sequence[str] = (), seabed: Optional[ET.Element] = None,
               datum: Optional[Sequence[float]] = None) -> str:
    """
    Return SDF text: a model (default), a world around it, or only the ``<inertial>``.

    ``step_size`` is the physics step of the world and the OdometryPublisher's period;
    ``seabed`` and ``datum`` go into the world (:func:`world_element`).
    """
    if not (np.isfinite(step_size) and step_size > 0.0):
        raise DescriptionError('step size must be a positive number, got %r' % step_size)
    if inertial_only:
        root = inertial_element(params)
    else:
        root = ET.Element('sdf', version=SDF_VERSION)
        model = model_element(params, model_name, position, step_size)
        if (seabed is not None or datum is not None) and not world:
            raise DescriptionError('a seabed is written into a world only (--world)',
                                   element='--seabed')
        root.append(world_element(params, model, world_name, step_size, seabed, datum)
                    if world else model)
    for text in reversed(list(comments)):
        root.insert(0, ET.Comment(' %s ' % text))
    ET.indent(root, space='  ')
    text = ET.tostring(root, encoding='unicode') + '\n'
    # an <inertial> alone is a fragment to paste into a <link>: no XML declaration
    return text if inertial_only else '<?xml version="1.0"?>\n' + text
