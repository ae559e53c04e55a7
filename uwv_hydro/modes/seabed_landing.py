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
Landing on the seabed: the one rule of the node and the offline ``simulate``.

It turns a seabed and a description's contact points into a simulated vehicle's contact.

With a seabed (``seabed_file`` / ``--seabed``: a grid, or a YAML ``seabed: {depth: D}``)
and contact points (collision shapes, YAML ``contact_points``), the vehicle lands
(:meth:`~uwv_hydro.modes.simulate_mode.SimulateMode.set_contact`).  Without a seabed
there is no contact.  A vehicle whose links move (the articulated simulation) does not
land: a warning says so.
"""


def land(mode, params, seabed, log) -> bool:
    """Give ``mode`` the contact of ``params`` on ``seabed``; return True when it lands."""
    if seabed is None:
        return False
    if params.tree is not None or not hasattr(mode, 'set_contact'):
        log('warning', 'contact_articulated', 'seabed contact is not modelled for a vehicle '
            'whose links move (the articulated simulation): it does not land on the seabed')
        return False
    for text in params.contact_warnings:
        log('warning', 'contact_shapes', text)
    if params.contact is None:
        log('warning', 'contact_none', 'seabed contact: the description has no contact '
            'points (no collision box, cylinder or sphere, no contact_points): the vehicle '
            'does not land on the seabed')
        return False
    mode.set_contact(params.contact, seabed)
    c = mode.contact
    log('info', 'contact', 'seabed contact at %d points: k %.4g N/m, c %.4g N s/m per point, '
        'friction %.4g, stiction speed %.4g m/s; %d RK4 sub-steps' % (
            len(c.points), c.stiffness, c.damping, c.friction, c.stiction_speed,
            mode.substeps))
    return True
