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
name (``difflib``), never a silently ignored typo that loads as zero drag.  Each
format keeps its own simulator's names beside its reader (``dsros.block``,
``uuv.underwater_object``, ``sdf.rigid_body``, ``yaml.values``, ``hull``) and calls
:func:`check_children` / :func:`check_attributes` with them; the URDF container's
own elements are :data:`URDF_CHILDREN` and :data:`URDF_ATTRIBUTES` here.

* YAML vehicle keys live with their readers in
  :data:`uwv_hydro.description.yaml.params.YAML_SECTIONS` (key -> reader).
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

#: URDF (wiki.ros.org/urdf/XML; the container every URDF reader walks), plus elements
#: other tools put there: element -> allowed child tags.
URDF_CHILDREN = {
    'robot': ('link', 'joint', 'material', 'gazebo', 'transmission', 'sensor',
              'ros2_control', 'plugin'),
    'link': ('inertial', 'visual', 'collision'),
    'inertial': ('origin', 'mass', 'inertia'),
    'joint': ('parent', 'child', 'origin', 'axis', 'calibration', 'dynamics', 'limit',
              'mimic', 'safety_controller'),
}

#: URDF element -> allowed attributes.
URDF_ATTRIBUTES = {
    'inertia': ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'),
    'origin': ('xyz', 'rpy'),
    'mass': ('value',),
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


def check_children(elem: ET.Element, known: Iterable[str], source: str) -> None:
    """Raise DescriptionError at the first child of ``elem`` whose tag is not ``known``."""
    for child in elem:
        if not isinstance(child.tag, str):
            continue  # comments and processing instructions
        if child.tag not in known:
            raise element_error(unknown_reason('element', child.tag, known, '<%s>',
                                               ' in <%s>' % elem.tag), source, child)


def check_attributes(elem: ET.Element, known: Iterable[str], source: str) -> None:
    """Raise DescriptionError for an attribute of ``elem`` that is not ``known``."""
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
