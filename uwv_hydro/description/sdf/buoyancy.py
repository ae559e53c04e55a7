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
Buoyancy of an SDF model as gz-sim's Buoyancy system computes it.

Read against gz-sim ``src/systems/buoyancy/Buoyancy.cc`` (``Configure``,
``CheckForNewEntities``/``PreUpdate``):

* The system is a world plugin (``gz-sim-buoyancy-system``,
  ``gz::sim::systems::Buoyancy``; ``ignition-gazebo-buoyancy-system`` before Garden).
  ``<uniform_fluid_density>`` sets the density; else ``<graded_buoyancy>`` with
  ``<default_density>`` and ``<density_change><above_depth>..<density>..`` layers;
  else 1000 kg/m^3 (gz-sim warns).  ``<enable>`` (repeatable) limits it to the
  named models / links (scoped names without the world), all when absent.
* Each link's volume is the sum of its collisions' volumes: ``<box>``, ``<sphere>``,
  ``<cylinder>``; a ``<plane>`` has none; a ``<mesh>`` gets the mesh file's volume in
  gz-sim 8+ (none before) -- not computed here, so it is warned about; any other
  shape (capsule, ellipsoid, heightmap, polyline) is "Unsupported collision
  geometry" to gz-sim, no volume, and warned about here.  The centre of volume is
  the volume-weighted mean of the collision ORIGINS in the link frame (gz-sim's
  ``poseInLink.Pos()``), which is the centroid for these centred shapes.
* Force: -rho V g at the centre of volume, on every link.  The sum over the links of
  a rigid body is one force rho g sum V at the volume-weighted centre: the vehicle's
  ``buoyancy_mass`` and ``cob``.

Graded buoyancy: the default density is used throughout; the layers (e.g. air
above the surface) are read and named in a warning, not modelled (uwv_hydro's
surface transition is the dsros one, from a uwv_hydro plugin or YAML).
"""
from dataclasses import dataclass, field
import re
from typing import List, Optional, Set, Tuple
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.name_checks import unknown_reason
from uwv_hydro.description.xml_safe import element_error, element_numbers
from uwv_hydro.description.xml_values import float_text

#: gz-sim Buoyancy.cc's density when neither element is given (kg/m^3).
GZ_BUOYANCY_DEFAULT_DENSITY = 1000.0
#: sdformat geometry defaults (box.sdf size 1 1 1, sphere.sdf radius 1, cylinder.sdf 1, 1).
_SHAPE_DEFAULTS = {('box', 'size'): (1.0, 1.0, 1.0), ('sphere', 'radius'): 1.0,
                   ('cylinder', 'radius'): 1.0, ('cylinder', 'length'): 1.0}
_ELEMENTS = ('uniform_fluid_density', 'graded_buoyancy', 'enable')


@dataclass
class BuoyancySystem:
    """The world's Buoyancy system as gz-sim configures it."""

    density: float = GZ_BUOYANCY_DEFAULT_DENSITY
    #: scoped model / link names it applies to; empty: all.
    enabled: Set[str] = field(default_factory=set)
    element: Optional[ET.Element] = None
    warnings: List[str] = field(default_factory=list)

    def applies_to(self, model: str, link: str) -> bool:
        """Return True if the link ``link`` (scoped in ``model``) gets buoyancy."""
        if not self.enabled:
            return True
        name = '%s::%s' % (model, link)
        while True:  # Buoyancy.cc IsEnabled: the entity or any parent scope
            if name in self.enabled:
                return True
            if '::' not in name:
                return False
            name = name.rpartition('::')[0]


def is_buoyancy_system(elem: ET.Element) -> bool:
    """Return True for gz-sim's (or ignition-gazebo's) Buoyancy system <plugin>."""
    name = elem.get('name', '')
    base = elem.get('filename', '').rsplit('/', 1)[-1]
    base = (base[3:] if base.startswith('lib') else base).split('.so')[0]
    return elem.tag == 'plugin' and (
        name in ('gz::sim::systems::Buoyancy', 'ignition::gazebo::systems::Buoyancy')
        or re.match(r'^(gz-sim|ignition-gazebo)\d*-buoyancy-system$', base) is not None)


def read_buoyancy_system(plugin: ET.Element, source: str) -> BuoyancySystem:
    """Read a Buoyancy system <plugin> (see module docstring)."""
    out = BuoyancySystem(element=plugin)
    for child in plugin:
        if isinstance(child.tag, str) and child.tag not in _ELEMENTS:
            raise element_error(unknown_reason('Buoyancy system element', child.tag,
                                               _ELEMENTS, '<%s>'), source, child)
    uniform = plugin.find('uniform_fluid_density')
    graded = plugin.find('graded_buoyancy')
    if uniform is not None:
        out.density = float_text(uniform, source)
    elif graded is not None:
        default = graded.find('default_density')
        if default is not None:
            out.density = float_text(default, source)
        layers = []
        for layer in graded.findall('density_change'):
            depth, density = layer.find('above_depth'), layer.find('density')
            layers.append('%g kg/m^3 above z = %g m' % (
                float_text(density, source) if density is not None else 0.0,
                float_text(depth, source) if depth is not None else 0.0))
        if layers:
            out.warnings.append(
                'Buoyancy <graded_buoyancy>: the default density %g kg/m^3 is used '
                'throughout; its layers (%s) are not modelled' % (out.density,
                                                                  '; '.join(layers)))
    else:
        out.warnings.append('Buoyancy system without <uniform_fluid_density> or '
                            '<graded_buoyancy>: %g kg/m^3, as gz-sim defaults'
                            % GZ_BUOYANCY_DEFAULT_DENSITY)
    out.enabled = {(e.text or '').strip() for e in plugin.findall('enable')}
    return out


def _dimension(shape: ET.Element, name: str, source: str, warnings: List[str]):
    child = shape.find(name)
    default = _SHAPE_DEFAULTS[(shape.tag, name)]
    if child is None:
        warnings.append('<%s> without <%s>: sdformat default %s used'
                        % (shape.tag, name, default))
        return np.asarray(default, float) if isinstance(default, tuple) else default
    if isinstance(default, tuple):
        return element_numbers(child, (3,), source)
    return float_text(child, source)


def collision_volume(collision: ET.Element, source: str, warnings: List[str]
                     ) -> Optional[float]:
    """Return a collision's volume as Buoyancy.cc counts it (None: none, warned)."""
    geometry = collision.find('geometry')
    shapes = [c for c in geometry if isinstance(c.tag, str)] if geometry is not None else []
    if not shapes:
        warnings.append('collision %r has no <geometry>: no volume'
                        % collision.get('name', ''))
        return None
    shape = shapes[0]
    if shape.tag == 'box':
        return float(np.prod(_dimension(shape, 'size', source, warnings)))
    if shape.tag == 'sphere':
        # V = 4/3 pi r^3
        return 4.0 / 3.0 * np.pi * _dimension(shape, 'radius', source, warnings) ** 3
    if shape.tag == 'cylinder':
        # V = pi r^2 l
        r = _dimension(shape, 'radius', source, warnings)
        return np.pi * r * r * _dimension(shape, 'length', source, warnings)
    if shape.tag == 'plane':
        return None  # Buoyancy.cc: planes have no volume and are not buoyant
    if shape.tag == 'mesh':
        warnings.append('collision %r is a <mesh>: its volume is not computed here (gz-sim '
                        '8+ takes it from the mesh file, earlier versions give none); give '
                        'the buoyancy with a uwv_hydro plugin or a YAML overlay'
                        % collision.get('name', ''))
        return None
    warnings.append("collision %r is a <%s>: gz-sim's Buoyancy system gives it no volume "
                    '("Unsupported collision geometry"), nor does uwv_hydro'
                    % (collision.get('name', ''), shape.tag))
    return None


def link_volume(collisions: List[Tuple[ET.Element, np.ndarray]], source: str,
                warnings: List[str]) -> Tuple[float, np.ndarray]:
    """Return (volume, centre of volume in the link frame) of (collision, origin) pairs."""
    total, weighted = 0.0, np.zeros(3)
    for collision, origin in collisions:
        try:
            volume = collision_volume(collision, source, warnings)
        except OverflowError:  # a float ** 3 past 1.8e308
            volume = float('inf')
        if volume is None:
            continue
        if not np.isfinite(volume):
            raise element_error('the volume of collision %r is not finite (a dimension is '
                                'too large)' % collision.get('name', ''), source, collision)
        total += volume
        # Buoyancy.cc: centre of volume = sum V_i p_i / sum V_i (collision origins)
        weighted += volume * np.asarray(origin, float)
    return total, (weighted / total if total > 0.0 else np.zeros(3))
