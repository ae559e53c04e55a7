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
Load any supported vehicle description into validated VehicleParams.

By extension: ``.urdf``; ``.xacro`` / ``.urdf.xacro`` (xacro with ``mappings``;
the output may be URDF or SDF); ``.sdf`` / ``.world``; ``.yaml`` / ``.yml`` (may
extend ``base`` VehicleParams or a ``base:`` file).  Strings are dispatched on
content (``<robot``, ``<sdf`` or YAML).  Every failure is a DescriptionError.
``allow_nonphysical`` turns the physical-check errors into warnings.

:func:`load_combined` is the one rule for ``robot_description`` plus a vehicle file
(the node's two parameters, ``check --robot-description``): a YAML file is laid over
the description's rigid body and frames, its hydrodynamics replacing the
description's as a whole (:mod:`uwv_hydro.description.provenance`); any other file is
used alone.

``model_name`` chooses the model of an SDF world holding several
(:mod:`uwv_hydro.description.sdf.model_choice`); given for a description that is not
SDF it is an error.
"""
import os
from typing import Dict, List, Optional, Sequence, Tuple

from uwv_hydro.description.element_report import warn_not_modelled
from uwv_hydro.description.errors import DescriptionError, missing_file
from uwv_hydro.description.provenance import format_field_sources
from uwv_hydro.description.urdf.xacro_file import expand_xacro_tree
from uwv_hydro.description.validate import validate
from uwv_hydro.description.vehicle_from_sdf import load_sdf_file, sdf_from_root
from uwv_hydro.description.vehicle_from_urdf import load_urdf_file, urdf_from_root
from uwv_hydro.description.xml_safe import parse_xml_string
from uwv_hydro.description.yaml.params import load_yaml_file, load_yaml_string
from uwv_hydro.physics.body.vehicle_params import VehicleParams

#: File extensions understood by :func:`load_vehicle`.
EXTENSIONS = ('.urdf', '.xacro', '.urdf.xacro', '.sdf', '.world', '.yaml', '.yml')


def _xml_params(text: str, source: str, model_name: str = '') -> VehicleParams:
    return _root_params(parse_xml_string(text, source), source, model_name)


def _not_sdf(model_name: str, source: str) -> None:
    if model_name:
        raise DescriptionError('a model name (%r) chooses a model of an SDF world, but this '
                               'description is not SDF' % model_name, source, 'model_name')


def _root_params(root, source: str, model_name: str = '') -> VehicleParams:
    if root.tag == 'sdf':
        return sdf_from_root(root, source, model_name)
    _not_sdf(model_name, source)
    return urdf_from_root(root, source)


def load_vehicle_unvalidated(path: str, mappings: Optional[Dict[str, str]] = None,
                             base: Optional[VehicleParams] = None,
                             model_name: str = '',
                             package_path: Sequence[str] = ()) -> VehicleParams:
    """
    Load ``path`` by extension without running validation.

    ``model_name``: SDF only.  ``package_path``: directories searched for ROS 1 packages
    after the ament index (``$(find pkg)`` in xacro;
    :mod:`uwv_hydro.description.urdf.package_paths`).
    """
    missing_file(path, what='vehicle description file (URDF, xacro, SDF or YAML)')
    lower = path.lower()
    if lower.endswith('.xacro'):
        return _root_params(expand_xacro_tree(path, mappings, package_path), path,
                            model_name)
    if lower.endswith(('.sdf', '.world')):
        return load_sdf_file(path, model_name)
    _not_sdf(model_name, path)
    if lower.endswith('.urdf'):
        return load_urdf_file(path)
    if lower.endswith(('.yaml', '.yml')):
        def load_base(base_path, base_mappings, base_base):
            return load_vehicle_unvalidated(base_path, base_mappings, base_base,
                                            package_path=package_path)
        return load_yaml_file(path, base=base, mappings=mappings, load_base=load_base)
    raise DescriptionError('unknown file type; expected one of %s' % ', '.join(EXTENSIONS),
                           path)


def _validated(params: VehicleParams, allow_nonphysical: bool) -> VehicleParams:
    params.allow_nonphysical = params.allow_nonphysical or allow_nonphysical
    warn_not_modelled(params)
    return validate(params)


def load_vehicle(path: str, mappings: Optional[Dict[str, str]] = None,
                 base: Optional[VehicleParams] = None,
                 allow_nonphysical: bool = False, model_name: str = '',
                 package_path: Sequence[str] = ()) -> VehicleParams:
    """Load and validate a vehicle description file (see module docstring)."""
    return _validated(load_vehicle_unvalidated(os.fspath(path), mappings, base, model_name,
                                               package_path),
                      allow_nonphysical)


def _string_params(text: str, source: str, base: Optional[VehicleParams],
                   model_name: str = '') -> VehicleParams:
    if not isinstance(text, str) or not text.strip():
        raise DescriptionError('empty vehicle description', source)
    if text.lstrip().startswith('<'):
        return _xml_params(text, source, model_name)
    _not_sdf(model_name, source)
    return load_yaml_string(text, source, base, load_base=load_vehicle_unvalidated)


def load_vehicle_string(text: str, source: str = '<robot_description>',
                        base: Optional[VehicleParams] = None,
                        allow_nonphysical: bool = False, model_name: str = '') -> VehicleParams:
    """Load and validate a description given as text (URDF, SDF or YAML)."""
    return _validated(_string_params(text, source, base, model_name), allow_nonphysical)


def load_combined(robot_description: str = '', vehicle_file: str = '',
                  mappings: Optional[Dict[str, str]] = None, allow_nonphysical: bool = False,
                  description_source: str = '<robot_description>', model_name: str = '',
                  package_path: Sequence[str] = ()) -> Tuple[VehicleParams, List[str]]:
    """
    Return (validated VehicleParams, notes to log) for a description text and/or a file.

    Both given and the file YAML: the YAML over the description's rigid body and
    frames (the description itself is not validated: only those fields are used).
    Both given, the file not YAML: the file alone (a note says so).  The notes end
    with the per-field source report.  ``package_path``: ROS 1 package directories
    for xacro files (after the ament index, before ROS_PACKAGE_PATH).
    """
    notes: List[str] = []
    has_description = bool(robot_description and robot_description.strip())
    if not has_description and not vehicle_file:
        raise DescriptionError('no vehicle: give a robot_description or a vehicle file',
                               '<parameters>')
    if not vehicle_file:
        params = load_vehicle_string(robot_description, description_source,
                                     allow_nonphysical=allow_nonphysical,
                                     model_name=model_name)
    elif not has_description:
        params = load_vehicle(vehicle_file, mappings, allow_nonphysical=allow_nonphysical,
                              model_name=model_name, package_path=package_path)
    elif vehicle_file.lower().endswith(('.yaml', '.yml')):
        base = _string_params(robot_description, description_source, None, model_name)
        params = load_vehicle(vehicle_file, mappings, base, allow_nonphysical,
                              package_path=package_path)
    else:
        notes.append('both %s and %s are given; %s is used alone (only a YAML file '
                     'combines with a robot description)'
                     % (description_source, vehicle_file, vehicle_file))
        params = load_vehicle(vehicle_file, mappings, allow_nonphysical=allow_nonphysical,
                              model_name=model_name, package_path=package_path)
    notes += ['vehicle fields %s' % line for line in format_field_sources(params)]
    return params, notes
