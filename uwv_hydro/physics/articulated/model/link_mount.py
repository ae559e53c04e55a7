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
Where a link of a vehicle sits: on the base or on a moving body of its kinematic tree.

Equipment (sensors, thrusters, buoyancy engines) names a link.  A link that is the base
link or fixed to it is a frame of ``VehicleParams`` (``frames``); a link carried by a
moving joint is a link of a :class:`~uwv_hydro.physics.articulated.model.link_tree.KinematicTree`
body.
:func:`link_on_body` gives the body and the link's pose in that body (what the
articulated simulation moves with the body), :func:`link_at_zero` its pose in the base
frame at zero joint positions (where the lumped vehicle has it).
"""
from typing import Tuple

import numpy as np

from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: (body: '' for the base body, else a tree body's name; position (3,); rotation (3, 3))
Mount = Tuple[str, np.ndarray, np.ndarray]


def link_on_body(params, link: str) -> Mount:
    """
    Return (body, position, rotation body <- link) of ``link``.

    ``body`` is '' for the base link, a link fixed to it or a link of the tree's base body
    (the pose is then in the base frame), else the tree body that carries it.  KeyError
    for a link that is none of these.
    """
    if link in ('', params.base_frame) or link in params.frames:
        t, q = params.frame_transform(link)
        return '', np.asarray(t, float), quat_to_matrix(np.asarray(q, float))
    tree = getattr(params, 'tree', None)
    body = tree.body_of(link) if tree is not None else None
    if body is None:
        raise KeyError(link)
    position, rotation = tree.link_in_body(body, link)
    return ('' if body == tree.base else body), position, rotation


def link_at_zero(params, link: str) -> Tuple[np.ndarray, np.ndarray]:
    """Return (position, rotation base <- link) of ``link`` at zero joint positions."""
    body, position, rotation = link_on_body(params, link)
    if not body:
        return position, rotation
    p_b, r_b = params.tree.zero_pose(body)
    # T_base_body(0) T_body_link
    return p_b + r_b @ position, r_b @ rotation
