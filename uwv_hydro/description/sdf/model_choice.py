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
Choose the vehicle among the models of an SDF document (a world may hold several).

* ``model_name`` given (``--model NAME``, the node's ``model_name``): the top-level
  model of that name; none is an error listing the models.
* Otherwise the candidates are the top-level models that can move (not
  ``<static>``, not a ground plane) and carry a hydrodynamics, buoyancy or
  thruster plugin (uwv_hydro, gz-sim Hydrodynamics / Thruster / BuoyancyEngine,
  lrauv's) or a ``<fluid_added_mass>``: exactly one is chosen; several are an error
  listing them.  Without any such model, the one model that can move is chosen.
* A world include that could not be resolved (:mod:`sdf.include`) is a candidate only
  if its ``<include>`` carried a vehicle plugin; choosing it raises the error that
  says why it was not resolved (e.g. a Fuel URL: how to use a local copy).
  Only the vehicle must be local: every other unresolved world include (a Fuel sun,
  terrain, another model) is a 'not loaded' warning naming the vehicle and why it is
  the vehicle (:func:`unloaded_scenery`).
"""
from typing import List, Optional
import xml.etree.ElementTree as ET

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import element_error

#: Lower-case substrings of a plugin filename/name that make a model a vehicle.
VEHICLE_PLUGIN_MARKERS = ('uwv_hydro', 'hydrodynamics', 'thruster', 'buoyancyengine',
                          'buoyancy-engine', 'buoyancy_engine', 'underwater', 'dsros')


def is_uwv_plugin(elem: ET.Element) -> bool:
    """Return True for a uwv_hydro <plugin> element."""
    return elem.tag == 'plugin' and 'uwv_hydro' in (
        elem.get('filename', '') + ' ' + elem.get('name', ''))


def top_level_models(root: ET.Element) -> List[ET.Element]:
    """Return the models of the document that are not nested in another model."""
    return root.findall('model') + root.findall('world/model')


def is_static(model: ET.Element) -> bool:
    """Return True for a model marked <static>true</static> (sdformat: true or 1)."""
    static = model.find('static')
    return static is not None and (static.text or '').strip().lower() in ('true', '1')


def is_ground_plane(model: ET.Element) -> bool:
    """Return True for a ground plane: named so, or whose collisions are all planes."""
    if 'ground_plane' in model.get('name', '').lower():
        return True
    shapes = [g[0].tag for g in model.iter('geometry') if len(g)]
    return bool(shapes) and all(tag == 'plane' for tag in shapes)


def carries_vehicle_plugin(model: ET.Element) -> bool:
    """Return True if the model (or a nested one) has a vehicle plugin or added mass."""
    for plugin in model.iter('plugin'):
        text = (plugin.get('filename', '') + ' ' + plugin.get('name', '')).lower()
        if any(marker in text for marker in VEHICLE_PLUGIN_MARKERS):
            return True
    return any(True for _ in model.iter('fluid_added_mass'))


def _unresolved(model: ET.Element) -> Optional[DescriptionError]:
    """Return the error of a stand-in for an include that was not resolved, else None."""
    return getattr(model, 'unresolved', None)


def _resolved(model: ET.Element) -> ET.Element:
    """Return ``model``, or raise the error of an include that could not be resolved."""
    error = _unresolved(model)
    if error is not None:
        raise error
    return model


def _chosen(model: ET.Element, why: str) -> ET.Element:
    """Return ``model`` (raising its include's error if unresolved), noting why it was chosen."""
    model = _resolved(model)
    model.chosen_because = why
    return model


def unloaded_scenery(root: ET.Element, vehicle: ET.Element) -> List[str]:
    """Return a warning per unresolved world include other than the vehicle (not loaded)."""
    out = []
    for model in top_level_models(root):
        error = _unresolved(model)
        if error is None or model is vehicle:
            continue
        reason = error.reason.split(';')[0].split('. ')[0]
        where = 'on Fuel' if 'Gazebo Fuel' in reason else reason
        out.append('world include %r not loaded (%s): only the vehicle must be local, and '
                   'the vehicle is %r, %s' % (getattr(model, 'uri', model.get('name', '')),
                                              where, vehicle.get('name', ''),
                                              getattr(vehicle, 'chosen_because', 'chosen')))
    return out


def _names(models: List[ET.Element]) -> str:
    return ', '.join(repr(m.get('name', '')) for m in models)


def choose_model(root: ET.Element, source: str, model_name: str = '') -> ET.Element:
    """Return the vehicle's <model> element (see module docstring)."""
    models = top_level_models(root)
    if not models:
        raise element_error('no <model> in the SDF document', source, root)
    if model_name:
        named = [m for m in models if m.get('name', '') == model_name]
        if not named:
            raise element_error('no model named %r; the document has %s'
                                % (model_name, _names(models)), source, root)
        return _chosen(named[0], 'named by --model / model_name')
    movable = [m for m in models if not is_static(m) and not is_ground_plane(m)]
    candidates = [m for m in movable if carries_vehicle_plugin(m)] or [
        m for m in movable if _unresolved(m) is None]
    if len(candidates) == 1:
        return _chosen(candidates[0], 'the model that carries a hydrodynamics, buoyancy or '
                       'thruster plugin' if carries_vehicle_plugin(candidates[0])
                       else 'the one model that can move')
    if not candidates:
        missing = [m for m in movable if _unresolved(m) is not None]
        if len(missing) == 1:
            raise _unresolved(missing[0])
        if missing:  # which one is the vehicle is unknown: name them all
            first = _unresolved(missing[0])
            raise DescriptionError(
                'no local model can be the vehicle; world includes not loaded: %s. %s'
                % (', '.join(repr(getattr(m, 'uri', m.get('name', ''))) for m in missing),
                   first.reason), first.source, first.element, first.line)
        if len(models) == 1:
            return _chosen(models[0], 'the only model')
        raise element_error('no model that can move (all are static or ground planes): %s; '
                            'name one with --model / model_name' % _names(models), source,
                            root)
    raise element_error('several models could be the vehicle: %s; name one with --model NAME '
                        '(node parameter model_name)' % _names(candidates), source, root)
