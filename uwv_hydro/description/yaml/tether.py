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
The YAML ``tether:`` section: a tether (:class:`~.tether_spec.TetherSpec`).

Keys (SI units; a key left out takes the Fathom tether's default, see
:mod:`uwv_hydro.physics.environment.tether_spec`): ``length`` (unstretched, m, required),
``attachment`` (the point on the vehicle, body frame, in the file's convention),
``anchor`` (the far end, world ENU, z = 0 at the surface, z up; with ``vessel_topic``
where the vessel starts), ``vessel_topic`` (a nav_msgs/Odometry topic the far end
follows), ``diameter``, ``mass_per_length`` (in air), ``axial_stiffness`` (EA, N),
``cd_normal``, ``cd_tangential``, ``ca_normal``, ``ca_tangential``, ``segments``.
A number out of its physical range is an error naming the key and the value.
"""
from typing import Any

import numpy as np

from uwv_hydro.description.conventions import frd_to_flu_vector
from uwv_hydro.description.yaml.values import _Ctx, _number, _vector3
from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.environment.tether_spec import (
    NON_NEGATIVE_KEYS, POSITIVE_KEYS, TetherSpec)

#: the keys of ``tether:``
TETHER_KEYS = ('length', 'attachment', 'anchor', 'vessel_topic', 'segments') + tuple(
    k for k in list(POSITIVE_KEYS) + list(NON_NEGATIVE_KEYS) if k != 'length')


def read_yaml_tether(value: Any, ctx: _Ctx, params: VehicleParams) -> None:
    """Read ``tether:`` into ``params.tether`` (DescriptionError naming key and value)."""
    if not isinstance(value, dict):
        raise ctx.error('tether', 'expected a mapping (length, attachment, anchor, ...)')
    unknown = sorted(k for k in value if k not in TETHER_KEYS)
    if unknown:
        raise ctx.error('tether.' + unknown[0], 'unknown tether key %r (known: %s)'
                        % (unknown[0], ', '.join(TETHER_KEYS)))
    if 'length' not in value:
        raise ctx.error('tether', 'the tether needs its unstretched length (tether.length, m)')
    fields = {}
    for key in list(POSITIVE_KEYS) + list(NON_NEGATIVE_KEYS):
        if key in value:
            fields[key] = _number(value[key], 'tether.' + key, ctx)
    if 'segments' in value:
        segments = value['segments']
        if isinstance(segments, bool) or not isinstance(segments, int) or segments < 1:
            raise ctx.error('tether.segments', 'expected an integer >= 1, got %r' % (segments,))
        fields['segments'] = segments
    if 'attachment' in value:
        point = _vector3(value['attachment'], 'tether.attachment', ctx)
        fields['attachment'] = frd_to_flu_vector(point) if ctx.frd else point
    if 'anchor' in value:
        fields['anchor'] = _vector3(value['anchor'], 'tether.anchor', ctx)
    if 'vessel_topic' in value:
        topic = value['vessel_topic']
        if not isinstance(topic, str) or not topic:
            raise ctx.error('tether.vessel_topic', 'expected a topic name, got %r' % (topic,))
        fields['vessel_topic'] = topic
    spec = TetherSpec(source=ctx.where('tether'), given=tuple(sorted(fields)), **fields)
    for key, number, reason in spec.problems():
        raise ctx.error('tether.' + key, '%s, got %r' % (reason, number))
    spec.attachment = np.asarray(spec.attachment, dtype=float)
    spec.anchor = np.asarray(spec.anchor, dtype=float)
    params.tether = spec
    if spec.vessel_topic is not None:
        params.warnings.append('%s: tether.vessel_topic %r is read but not followed yet: the far '
                               'end stays at tether.anchor' % (spec.source, spec.vessel_topic))
