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
The names every loader knows, and the one "unknown name" error with "did you mean".

Every element, attribute and key a loader reads is checked against a known set: an
unknown one is a DescriptionError naming the file, line, path and the closest known
name (``difflib``), never a silently ignored typo that loads as zero drag.  The sets
are registries, so a new description section is ONE additive entry:

* :data:`XML_CHILDREN` -- context -> child element tags allowed there, e.g.
  ``'dsros/drag'`` or ``'urdf/link'``; a reader calls :func:`check_children` with
  its context.  A new XML block (thrusters, fins, sensors ...) adds its context.
* :data:`XML_ATTRIBUTES` -- context -> attributes allowed on such an element.
* YAML vehicle keys live with their readers in
  :data:`uwv_hydro.description.yaml.params.YAML_SECTIONS` (key -> reader); the
  keys of nested YAML mappings in :data:`YAML_NESTED_KEYS` here.
* :data:`HYDRO_PLUGIN_MARKERS` -- substrings that mark a hydrodynamics or buoyancy
  plugin; one that no reader claims is an error naming it (its coefficients would
  otherwise be lost without a word).  :data:`NOT_HULL_PLUGIN_MARKERS` exempts the
  plugins of other parts (fins' lift-drag, thrusters), read by their own sections.
"""
import difflib
from typing import Iterable, Optional
import xml.etree.ElementTree as ET

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import element_error

#: context -> allowed child element tags.
XML_CHILDREN = {
    # URDF spec (wiki.ros.org/urdf/XML) plus elements other tools put there.
    'urdf/robot': ('link', 'joint', 'material', 'gazebo', 'transmission', 'sensor',
                   'ros2_control', 'plugin'),
    'urdf/link': ('inertial', 'visual', 'collision'),
    'urdf/inertial': ('origin', 'mass', 'inertia'),
    'urdf/joint': ('parent', 'child', 'origin', 'axis', 'calibration', 'dynamics', 'limit',
                   'mimic', 'safety_controller'),
    # dsros_hydro (ds_sim dsros_hydro.cc; acceleration_alpha / allow_nonphysical / hull
    # at plugin level are uwv_hydro extensions, hull: uwv_hydro.description.hull).
    'hull': ('length', 'diameter', 'x_center', 'profile', 'c_yd_beta', 'x_cp',
             'cd_crossflow', 'model', 'lift_diameter', 'strips'),
    'dsros/plugin': ('base_link', 'buoyancy', 'drag', 'acceleration_alpha',
                     'allow_nonphysical', 'hull'),
    'dsros/buoyancy': ('center', 'mass', 'buoyancy', 'out_of_water_depth',
                       'fully_submerged_depth', 'scale_factor'),
    'dsros/drag': ('center', 'linear', 'quadratic', 'added_mass', 'acceleration_alpha'),
    # uuv_simulator UnderwaterObjectPlugin / HydrodynamicModel (HMFossen).
    'uuv/plugin': ('fluid_density', 'flow_velocity_topic', 'use_global_current', 'debug',
                   'link'),
    'uuv/link': ('volume', 'center_of_buoyancy', 'box', 'neutrally_buoyant',
                 'hydrodynamic_model', 'metacentric_width', 'metacentric_length',
                 'water_level_plane_area'),
    'uuv/box': ('width', 'length', 'height'),
    'uuv/hydrodynamic_model': ('type', 'added_mass', 'linear_damping',
                               'linear_damping_forward_speed', 'quadratic_damping'),
    # SDF //link/inertial (1.10 adds fluid_added_mass) and the uwv_hydro SDF plugin.
    'sdf/inertial': ('mass', 'pose', 'inertia', 'fluid_added_mass', 'density', 'auto'),
    'sdf/inertia': ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz'),
    'sdf/uwv_plugin': ('link_name', 'buoyancy_mass', 'volume', 'center_of_buoyancy',
                       'fluid_density', 'out_of_water_depth', 'fully_submerged_depth',
                       'scale_factor', 'allow_nonphysical', 'hull'),
}

#: context -> allowed attributes.
XML_ATTRIBUTES = {
    'urdf/inertia': ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'),
    'urdf/origin': ('xyz', 'rpy'),
    'urdf/mass': ('value',),
    'dsros/center': ('x', 'y', 'z'),
}

#: Keys of nested YAML mappings (vehicle key -> its keys).
YAML_NESTED_KEYS = {
    'inertia': ('ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz'),
    'surface': ('out_of_water_depth', 'fully_submerged_depth', 'scale_factor', 'model'),
}

#: Lower-case substrings of a plugin's filename or name that mark it as a hydrodynamics
#: or buoyancy plugin (whose numbers matter to uwv_hydro).
HYDRO_PLUGIN_MARKERS = ('hydro', 'buoyan', 'underwater', 'added_mass', 'addedmass',
                        'fluid', 'drag', 'damping')
#: Substrings of plugins that are not hull hydrodynamics although a marker matches
#: (fins / control surfaces, thrusters, gz-sim buoyancy engines): their own readers own
#: them.  One entry each.
NOT_HULL_PLUGIN_MARKERS = ('liftdrag', 'lift-drag', 'lift_drag', 'thruster',
                           'buoyancy-engine', 'buoyancyengine')


def closest(name: str, known: Iterable[str], cutoff: float = 0.6) -> Optional[str]:
    """Return the known name closest to ``name`` (difflib ratio >= cutoff) or None."""
    found = difflib.get_close_matches(str(name), list(known), n=1, cutoff=cutoff)
    return found[0] if found else None


def unknown_reason(kind: str, name: str, known: Iterable[str], fmt: str = "'%s'",
                   where: str = '') -> str:
    """Return e.g. "unknown key 'masss'; did you mean 'mass'? (known: ...)"."""
    known = [str(k) for k in known]
    guess = closest(name, known)
    hint = '; did you mean %s?' % (fmt % guess) if guess else ''
    listed = ', '.join(known[:16]) + (', ...' if len(known) > 16 else '')
    return 'unknown %s %s%s%s (known: %s)' % (kind, fmt % name, where, hint, listed)


def check_children(elem: ET.Element, context: str, source: str) -> None:
    """Raise DescriptionError at the first child of ``elem`` not known in ``context``."""
    known = XML_CHILDREN[context]
    for child in elem:
        if not isinstance(child.tag, str):
            continue  # comments and processing instructions
        if child.tag not in known:
            raise element_error(unknown_reason('element', child.tag, known, '<%s>',
                                               ' in <%s>' % elem.tag), source, child)


def check_attributes(elem: ET.Element, context: str, source: str) -> None:
    """Raise DescriptionError for an attribute of ``elem`` not known in ``context``."""
    known = XML_ATTRIBUTES[context]
    for name in elem.keys():
        if name not in known:
            raise element_error(unknown_reason('attribute', name, known, "'%s'",
                                               ' of <%s>' % elem.tag), source, elem)


def is_hydro_plugin(elem: ET.Element) -> bool:
    """Return True for a <plugin> whose filename or name marks it as hydro/buoyancy."""
    text = (elem.get('filename', '') + ' ' + elem.get('name', '')).lower()
    return (any(marker in text for marker in HYDRO_PLUGIN_MARKERS)
            and not any(marker in text for marker in NOT_HULL_PLUGIN_MARKERS))


def foreign_plugin_error(elem: ET.Element, source: str, readers: str) -> DescriptionError:
    """Return the error for a hydro/buoyancy plugin block that no reader claims."""
    return element_error(
        'hydrodynamics/buoyancy plugin %r (filename %r) is not read by uwv_hydro, so its '
        'coefficients would be lost; readable here: %s. Convert it (e.g. to a YAML '
        'vehicle) or remove it' % (elem.get('name', ''), elem.get('filename', ''), readers),
        source, elem)
