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
Resolve SDF ``<include>`` elements into the ``<model>`` they name, as sdformat does.

Read against sdformat's ``parser.cc`` (``readXml``: includes), ``Model.cc``
(merge-include) and the spec ``world.sdf``/``model.sdf`` ``<include>``:

* ``<uri>``: ``model://NAME[/sub/path]`` is looked up as ``DIR/NAME[/sub/path]`` in the
  directories of :data:`RESOURCE_VARIABLES` (``:``-separated, in that order); a
  relative path (also ``file://``) against the including file's directory, then those
  directories; an absolute path as it is.  A directory means its ``model.config``'s
  ``<sdf>`` file (the highest ``version`` given, as sdformat takes the newest it
  supports), else ``model.sdf``.  A Gazebo Fuel URL (``https://fuel.gazebosim.org/...``)
  is not downloaded: the error says how to point at a local copy.  A missing model
  names every path searched.
* The include's ``<name>`` renames the model, its ``<pose>`` replaces the model's
  pose, ``<static>`` sets it, its ``<plugin>`` elements are appended to the model's.
* ``merge="true"`` (SDF 1.9) puts the model's links, joints, frames, nested models and
  plugins into the enclosing model; their poses are kept relative to a frame
  ``_merged__NAME__model__`` at the include pose (sdformat's name for it).
* ``<experimental:params>`` (SDF 1.9): an element with ``action="add"`` is added to
  the included element named by its ``element_id``; other actions are warned about.
* A world-level include that cannot be resolved (not downloaded, not found) becomes a
  stand-in model carrying the error, with a warning: scenery need not be present,
  but choosing it as the vehicle raises the error.  Inside a model it is an error.
* Includes inside the included file are resolved the same way (nested includes); a
  file that includes itself, directly or not, is an error.  Elements read from an
  included file carry its path (``LineElement.source``), so errors name that file.
"""
import os
from typing import List, Optional, Sequence, Tuple
import xml.etree.ElementTree as ET

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import element_error, LineElement, parse_xml_file

#: Environment variables holding model directories, searched in this order (gz-sim,
#: ignition-gazebo, sdformat, Gazebo classic).
RESOURCE_VARIABLES = ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                      'GAZEBO_MODEL_PATH')
#: Deepest chain of nested includes followed.
MAX_INCLUDE_DEPTH = 32
#: Most includes resolved for one document (a fan-out of nested includes grows fast).
MAX_INCLUDES = 1000


def resource_directories() -> List[str]:
    """Return the model directories of :data:`RESOURCE_VARIABLES`, in search order."""
    found: List[str] = []
    for variable in RESOURCE_VARIABLES:
        for entry in os.environ.get(variable, '').split(os.pathsep):
            if entry and entry not in found:
                found.append(entry)
    return found


def _version_key(text: str) -> Tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split('.'))
    except ValueError:
        return ()


def model_file(path: str, elem: ET.Element, source: str) -> str:
    """Return the SDF file of a model directory or file ``path``."""
    if os.path.isfile(path):
        return path
    config = os.path.join(path, 'model.config')
    if os.path.isfile(config):
        root = parse_xml_file(config)
        choices = root.findall('sdf')
        if choices:
            best = max(choices, key=lambda e: _version_key(e.get('version', '')))
            chosen = os.path.join(path, (best.text or '').strip())
            if not os.path.isfile(chosen):
                raise element_error('model.config %s names <sdf>%s</sdf>, which does not '
                                    'exist' % (config, (best.text or '').strip()),
                                    config, best)
            return chosen
    fallback = os.path.join(path, 'model.sdf')
    if os.path.isfile(fallback):
        return fallback
    raise element_error('model directory %s has no model.config <sdf> file and no '
                        'model.sdf' % path, source, elem)


def resolve_uri(uri: str, base_dir: str, elem: ET.Element, source: str) -> str:
    """Return the model file an include ``<uri>`` names (see module docstring)."""
    if uri.startswith(('http://', 'https://')):
        raise element_error(
            'model %r is on Gazebo Fuel; uwv_hydro does not download models. Download it '
            "(e.g. 'gz fuel download -u %s', into ~/.gz/fuel), then set GZ_SIM_RESOURCE_PATH "
            'to the directory that holds the model directory and use model://NAME, or put '
            'its local path in <uri>' % (uri, uri), source, elem)
    searched: List[str] = []
    if uri.startswith('model://'):
        rest = uri[len('model://'):]
        candidates = [os.path.join(d, rest) for d in resource_directories()]
    else:
        rest = uri[len('file://'):] if uri.startswith('file://') else uri
        if os.path.isabs(rest):
            candidates = [rest]
        else:
            candidates = ([os.path.join(base_dir, rest)]
                          + [os.path.join(d, rest) for d in resource_directories()])
    for candidate in candidates:
        searched.append(candidate)
        if os.path.exists(candidate):
            return model_file(candidate, elem, source)
    raise element_error(
        'cannot find model %r; searched: %s (model:// URIs are looked up in %s)'
        % (uri, ', '.join(searched) or 'nothing: no directory is set',
           ', '.join(RESOURCE_VARIABLES)), source, elem)


def _mark_source(root: ET.Element, path: str) -> None:
    for elem in root.iter():
        elem.source = path


def _replace(parent: ET.Element, old: ET.Element, new: Sequence[ET.Element]) -> None:
    index = list(parent).index(old)
    parent.remove(old)
    for offset, elem in enumerate(new):
        parent.insert(index + offset, elem)
        elem.parent = parent


def _text(elem: Optional[ET.Element]) -> str:
    return (elem.text or '').strip() if elem is not None else ''


def expand_includes(root: ET.Element, source: str, warnings: List[str],
                    chain: Tuple[str, ...] = (), count: Optional[List[int]] = None) -> None:
    """Replace every ``<include>`` under ``root`` (in place) by the model it names."""
    count = [0] if count is None else count
    if len(chain) > MAX_INCLUDE_DEPTH:
        raise DescriptionError('includes nested deeper than %d: %s'
                               % (MAX_INCLUDE_DEPTH, ' -> '.join(chain)), source)
    for parent in [e for e in root.iter() if e.find('include') is not None]:
        for include in parent.findall('include'):
            count[0] += 1
            if count[0] > MAX_INCLUDES:
                raise element_error('more than %d includes in one document' % MAX_INCLUDES,
                                    source, include)
            _expand_one(parent, include, source, warnings, chain, count)


def _expand_one(parent: ET.Element, include: ET.Element, source: str,
                warnings: List[str], chain: Tuple[str, ...], count: List[int]) -> None:
    here = getattr(include, 'source', None) or source
    uri = _text(include.find('uri'))
    if not uri:
        raise element_error('<include> without <uri>', here, include)
    base_dir = os.path.dirname(os.path.abspath(here)) if os.path.isfile(here) else os.getcwd()
    try:
        path = os.path.abspath(resolve_uri(uri, base_dir, include, here))
    except DescriptionError as exc:
        if parent.tag != 'world':
            raise  # a part of a model: the model would be wrong without it
        # warned by sdf_model_choice.unloaded_scenery once the vehicle is chosen
        _replace(parent, include, [_unresolved_model(include, uri, exc)])
        return
    if path in chain or path == os.path.abspath(source):
        raise element_error('include cycle: %s includes itself (%s)'
                            % (path, ' -> '.join(chain + (path,))), here, include)
    doc = parse_xml_file(path)
    _mark_source(doc, path)
    expand_includes(doc, path, warnings, chain + (path,), count)
    model = doc if doc.tag == 'model' else doc.find('model')
    if model is None:
        raise element_error('included file %s has no <model>' % path, here, include)
    name = _text(include.find('name'))
    if name:
        model.set('name', name)
    pose = include.find('pose')
    if pose is not None:
        for old in model.findall('pose'):
            model.remove(old)
        model.insert(0, pose)
        pose.parent = model
    static = include.find('static')
    if static is not None:
        for old in model.findall('static'):
            model.remove(old)
        model.append(static)
        static.parent = model
    for plugin in include.findall('plugin'):
        model.append(plugin)
        plugin.parent = model
    params = [e for e in include if isinstance(e.tag, str) and e.tag.endswith(':params')]
    for block in params:
        _apply_params(model, block, here, warnings)
    if include.get('merge', 'false').lower() in ('true', '1'):
        if parent.tag != 'model':
            raise element_error('<include merge="true"> is only allowed inside a <model>',
                                here, include)
        _replace(parent, include, _merged_children(model))
    else:
        _replace(parent, include, [model])


def _unresolved_model(include: ET.Element, uri: str, error: DescriptionError) -> ET.Element:
    """
    Return a stand-in <model> for a world include that cannot be resolved.

    It keeps the include's name and plugins and carries the error as ``unresolved``:
    a world's scenery (a Fuel sun or ground plane) need not be present, but choosing
    the stand-in as the vehicle raises that error
    (:func:`uwv_hydro.description.sdf.model_choice.choose_model`).
    """
    name = _text(include.find('name')) or uri.rstrip('/').rsplit('/', 1)[-1].replace(
        'model://', '')
    model = LineElement('model', {'name': name})
    model.line, model.source = include.line, getattr(include, 'source', None)
    model.unresolved, model.uri = error, uri
    for child in include.findall('plugin') + include.findall('static'):
        model.append(child)
        child.parent = model
    return model


def _merged_children(model: ET.Element) -> List[ET.Element]:
    """Return the children of a merge-included model, poses kept on its frame."""
    frame_name = '_merged__%s__model__' % model.get('name', '')
    frame = LineElement('frame', {'name': frame_name})
    frame.line, frame.source = model.line, getattr(model, 'source', None)
    pose = model.find('pose')
    if pose is not None:
        frame.append(pose)
    out = [frame]
    for child in list(model):
        if child.tag in ('pose', 'static', 'self_collide', 'allow_auto_disable',
                         'enable_wind'):
            continue
        if child.tag in ('link', 'frame', 'model'):
            child_pose = child.find('pose')
            if child_pose is None:
                child_pose = LineElement('pose')
                child_pose.text, child_pose.parent = '0 0 0 0 0 0', child
                child.append(child_pose)
            if child_pose.get('relative_to', '__model__') == '__model__' and not (
                    child.tag == 'frame' and child.get('attached_to')):
                child_pose.set('relative_to', frame_name)
        out.append(child)
    return out


def _apply_params(model: ET.Element, block: ET.Element, source: str,
                  warnings: List[str]) -> None:
    """Apply an ``<experimental:params>`` block's ``action="add"`` elements."""
    for elem in list(block):
        if not isinstance(elem.tag, str):
            continue
        target_name, action = elem.get('element_id', ''), elem.get('action', '')
        target = None
        for candidate in model.iter():
            if candidate.get('name') == target_name.rpartition('::')[2] and \
                    candidate.tag in ('link', 'joint', 'model', 'frame'):
                target = candidate
                break
        if action != 'add' or target is None:
            warnings.append('<%s> %r (action %r, element_id %r) in %s is not applied: only '
                            'action="add" to an element of the included model is'
                            % (elem.tag, elem.get('name', ''), action, target_name,
                               block.tag))
            continue
        for attr in ('element_id', 'action'):
            elem.attrib.pop(attr, None)
        target.append(elem)
        elem.parent = target
