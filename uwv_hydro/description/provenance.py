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
The one rule for combining descriptions, and where every vehicle field came from.

A YAML vehicle over a base (``robot_description``, ``load_vehicle(..., base=)`` or a
YAML ``base:`` file) takes from the base only its rigid body, frames, environment
and the equipment on its joints (:data:`RIGID_BODY_FIELDS`, :data:`ENVIRONMENT_FIELDS`,
:data:`EQUIPMENT_FIELDS`: thrusters, sensors, fins), and only where the YAML does not
give them (an environment value that is only the base format's simulator default,
e.g. a URDF's Gazebo gravity 9.8, is not taken: the YAML's own default applies;
YAML fins overlay the base's by name).  The base's hydrostatics and hydrodynamics
(:data:`HYDRO_FIELDS`: buoyancy, drag, added mass, drag centre, reference points,
semantics, damping model, Coriolis switch, acceleration filter) are replaced as a
whole: they come from the YAML or are the defaults (zero drag, zero added mass, no
buoyancy, ``semantics: origin``), never from a URDF's dsros_hydro block.

Every loader records in ``params.origins`` which file and block gave each field;
:func:`field_sources` / :func:`format_field_sources` report it (``check`` prints it,
the node logs it at start-up).
"""
import copy
import re
from typing import Dict, Iterable, List

import numpy as np

from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: Rigid-body and frame fields: from the YAML where given, else from the base.
RIGID_BODY_FIELDS = ('mass', 'inertia', 'com', 'name', 'base_frame', 'frames')
#: Environment fields: from the YAML where given, else from the base.
ENVIRONMENT_FIELDS = ('gravity', 'fluid_density')
#: Equipment on the body's joints: from the YAML where given, else from the base.
EQUIPMENT_FIELDS = ('thrusters', 'sensors', 'fins')
#: Hydrostatic and hydrodynamic fields: from the YAML or the defaults, never the base.
HYDRO_FIELDS = ('buoyancy_mass', 'cob', 'surface', 'linear_drag', 'quadratic_drag', 'hull',
                'forward_speed_drag',
                'added_mass', 'drag_center', 'drag_velocity_point', 'added_mass_point',
                'semantics', 'damping', 'coriolis', 'added_mass_coriolis', 'acceleration_alpha')
#: Every field the source report lists, in this order.
REPORTED_FIELDS = RIGID_BODY_FIELDS + ENVIRONMENT_FIELDS + HYDRO_FIELDS + (
    'signed_quadratic_drag',)
#: Fields the report lists only when a file gave them (gz-sim's <xUU> terms, YAML).
REPORTED_WHEN_GIVEN = ('signed_quadratic_drag',)

DEFAULT = 'default'
#: Marks an origin that is a format's simulator default (not a value written in the
#: file): a YAML over that base keeps its own default instead.
SIMULATOR_DEFAULT = 'simulator default'
#: An origin 'file:line (kind)'.
_LINE = re.compile(r'^(.*):(\d+) (\(.*\))$')


def set_origin(params: VehicleParams, fields: Iterable[str], origin: str) -> None:
    """Record ``origin`` (e.g. 'v.urdf (dsros_hydro block)') for ``fields``."""
    for name in fields:
        params.origins[name] = origin


def rigid_body_of(base: VehicleParams) -> VehicleParams:
    """
    Return a copy of ``base`` keeping only its rigid body, frames, environment, equipment.

    The hydro fields are the VehicleParams defaults and the base's warnings (all
    about its hydro blocks) and coefficient labels are dropped; so is its kinematic
    tree (its per-link hydro), with a warning.
    """
    out = VehicleParams(mass=float(base.mass), inertia=np.array(base.inertia, float))
    for name in RIGID_BODY_FIELDS + ENVIRONMENT_FIELDS + EQUIPMENT_FIELDS:
        setattr(out, name, copy.deepcopy(getattr(base, name)))
    out.source = base.source
    # the base's contact points (its collision shapes) stay under the YAML
    out.contact = copy.deepcopy(base.contact)
    out.contact_warnings = list(base.contact_warnings)
    out.allow_nonphysical = base.allow_nonphysical
    out.origins = {k: v for k, v in base.origins.items()
                   if k in RIGID_BODY_FIELDS + ENVIRONMENT_FIELDS}
    for name in ENVIRONMENT_FIELDS:
        if SIMULATOR_DEFAULT in out.origins.get(name, ''):
            # the base's simulator default is no value of the file: the YAML's applies
            setattr(out, name, getattr(VehicleParams(mass=1.0, inertia=np.eye(3)), name))
            del out.origins[name]
    if base.tree is not None:  # its per-link hydro is the base's hydro, not kept either
        out.warnings.append('the kinematic tree of %s (its moving links and their own '
                            'hydro) is not kept under this file: give links: and joints: '
                            'in one YAML' % base.source)
    return out


def field_sources(params: VehicleParams) -> Dict[str, str]:
    """Return {field: where it came from} for every reported field ('default' if unset)."""
    return {name: params.origins.get(name, DEFAULT) for name in REPORTED_FIELDS
            if name not in REPORTED_WHEN_GIVEN or name in params.origins}


def format_field_sources(params: VehicleParams) -> List[str]:
    """
    Return one line per source (for start-up logs and ``check``).

    E.g. 'from v.yaml (YAML): mass (line 3), inertia (line 4)' and 'defaults: ...'.
    """
    grouped: Dict[str, List[str]] = {}
    for name, origin in field_sources(params).items():
        match = _LINE.match(origin)
        if match:
            origin = '%s %s' % (match.group(1), match.group(3))
            name = '%s (line %s)' % (name, match.group(2))
        grouped.setdefault(origin, []).append(name)
    lines = ['from %s: %s' % (origin, ', '.join(names))
             for origin, names in grouped.items() if origin != DEFAULT]
    if DEFAULT in grouped:
        lines.append('defaults: %s' % ', '.join(grouped[DEFAULT]))
    return lines
