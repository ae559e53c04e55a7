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
uuv_simulator's UmbilicalPlugin read onto the tether's cable (:mod:`uwv_hydro.modes.tether`).

uuv_gazebo_plugins' ``libuuv_umbilical_plugin.so`` takes ``<flow_velocity_topic>``
and ``<umbilical_model>`` with ``<type>Berg</type>``, ``<connector_link>``,
``<diameter>`` and ``<water_density>`` (UmbilicalModel.cc).  Its Berg model applies
one world force at the connector, 0.25 x 1.2 x rho (u_r|u_r|, v_r|v_r|, 0) with u_r the
flow relative to the connector: no diameter, length, weight or depth enters it (the
diameter is read and never used), so it is a drag on the vehicle, not a cable.

Here the elements become a :class:`~uwv_hydro.physics.environment.tether_spec.TetherSpec`: the
attachment at the connector link's origin (base frame), the diameter uuv gives, the
other numbers the Fathom defaults, and, since uuv has neither, a length and a far end
that are defaults too (:data:`DEFAULT_LENGTH` m, the far end at the surface above the
world origin).  A warning says that uuv's model differs and how, and names the
defaults; ``<water_density>`` is compared with the vehicle's density (warned if it
differs: the cable uses the vehicle's water).
"""
from typing import Optional
import xml.etree.ElementTree as ET

import numpy as np

from uwv_hydro.description.element_report import record, where
from uwv_hydro.description.xml_safe import element_error
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.environment.tether_spec import TetherSpec

#: the unstretched length given to a uuv umbilical (uuv has none), m
DEFAULT_LENGTH = 50.0
#: the elements of <umbilical_model> that uuv reads
UMBILICAL_KEYS = ('type', 'connector_link', 'diameter', 'water_density')


def is_uuv_umbilical_plugin(elem: ET.Element) -> bool:
    """Return True for uuv_simulator's umbilical <plugin>."""
    return elem.tag == 'plugin' and 'uuv_umbilical' in elem.get('filename', '')


def _number(block: ET.Element, key: str, source: str) -> Optional[float]:
    elem = block.find(key)
    if elem is None:
        return None
    try:
        value = float((elem.text or '').strip())
    except ValueError:
        raise element_error('<%s> must be a number, got %r' % (key, elem.text), source,
                            elem) from None
    if not (np.isfinite(value) and value > 0):
        raise element_error('<%s> must be a finite number > 0, got %r' % (key, value),
                            source, elem)
    return value


def read_uuv_umbilical(root: ET.Element, params: VehicleParams, source: str) -> None:
    """Set ``params.tether`` from a uuv umbilical plugin, if any (records and warns)."""
    for block in (e for e in root.iter('plugin') if is_uuv_umbilical_plugin(e)):
        name = block.get('filename', 'plugin')
        place = where(source, block)
        model = block.find('umbilical_model')
        if model is None:
            raise element_error('a uuv umbilical plugin needs <umbilical_model> (uuv asserts '
                                'it)', source, block)
        kind = (model.findtext('type') or '').strip()
        if kind != 'Berg':
            raise element_error('uuv umbilical <type> %r: uuv knows only Berg' % kind,
                                source, model)
        link = (model.findtext('connector_link') or '').strip()
        base = params.frames.get('base_link')
        frame = params.frames.get(link)
        if frame is None and link not in ('', params.base_frame, 'base_link'):
            raise element_error('uuv umbilical <connector_link> %r is not a link fixed to the '
                                'base' % link, source, model)
        attachment = (np.zeros(3) if frame is None or base is frame
                      else np.asarray(frame.translation, float))
        diameter = _number(model, 'diameter', source)
        rho = _number(model, 'water_density', source)
        fields = {} if diameter is None else {'diameter': diameter}
        params.tether = TetherSpec(length=DEFAULT_LENGTH, attachment=attachment,
                                   anchor=np.zeros(3), source=place,
                                   given=tuple(sorted(fields)), **fields)
        record(params, 'plugin', name, place, 'read',
               'umbilical onto the tether cable (MoorDyn)')
        params.warnings.append(
            "uuv umbilical at %s: read onto a MoorDyn cable, which differs from uuv's Berg "
            'model (one force 0.25 x 1.2 x rho (u|u|, v|v|, 0) at the connector, no length, '
            'weight or diameter in it): here the cable has length %g m (default: uuv has '
            'none), its far end fixed at the surface above the world origin (default), '
            'diameter %g m%s, the Fathom defaults for the rest; set them in a YAML tether: '
            'section' % (place, DEFAULT_LENGTH, params.tether.diameter,
                         '' if diameter is not None else ' (default)'))
        if rho is not None and abs(rho - params.fluid_density) > 1e-9 * rho:
            params.warnings.append(
                "uuv umbilical at %s: <water_density> %g differs from the vehicle's fluid "
                "density %g kg/m^3: the cable uses the vehicle's"
                % (place, rho, params.fluid_density))
        return
