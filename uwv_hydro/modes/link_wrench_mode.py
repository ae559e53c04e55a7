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
Wrench mode of a vehicle whose links move: odometry and joint states in, a wrench per link.

:class:`LinkWrenchMode` is :class:`~uwv_hydro.modes.wrench_mode.WrenchMode` for a vehicle
with a kinematic tree (``VehicleParams.tree``): the same inputs (base odometry, current,
fin angles) plus the joints' positions and velocities (:meth:`LinkWrenchMode.joint_state`,
a sensor_msgs/JointState's arrays), the same options and the same base wrench (its
:class:`WrenchComponents`, about the base origin in base axes), now the sum of every
link part's wrench (:mod:`uwv_hydro.physics.articulated.algorithms.link_wrench`) on that link's
pose and twist
from forward kinematics (:mod:`uwv_hydro.physics.articulated.model.multibody`) moved to the base,
each
body's weight (``apply_weight``) and the vehicle's fins and hull on the base twist.

Added mass per link (``added_mass``): ``implicit`` -- the engine carries each link's
M_A; emitted M_A nu_dot_c and C_A(nu_l) nu_l - C_A(nu_r) nu_r, zero in still water.
``lagged`` -- each link's acceleration a_l = J_l [nu_dot, qddot] + Jdot_l [nu, qdot]
from one LaggedAcceleration of [nu, qdot] (dsros_hydro's filtered backward
difference); emitted -M_A (a_l - nu_dot_c) - C_A(nu_r) nu_r.

Joint states are matched by name: a message with a wrong-length array or a
non-finite value is rejected (:attr:`rejected`), a joint it leaves out keeps its last
value (:attr:`missing`), a message with no velocities keeps the last ones
(:attr:`no_velocity`), unknown names are reported once (:attr:`new_unknown`); the
row mapping of one layout can be kept (:meth:`joint_state_rows`,
:meth:`joint_state_arrays`).

Outputs (:class:`LinkWrenchComponents`): the base components and total, each wrench
link's wrench in its own frame about its origin, each body's wrench (what an engine
whose links are the bodies applies) and their world poses.  The kinematics and the
parts' wrenches are one compiled call
(:mod:`uwv_hydro.physics.articulated.algorithms.tree_wrench`).
"""
from collections import Counter
from dataclasses import dataclass, field
import math
import re
from typing import List, Optional, Sequence

import numpy as np

from uwv_hydro.modes.wrench_mode import WrenchMode
from uwv_hydro.physics.articulated.algorithms.link_wrench import PartWrenches
from uwv_hydro.physics.articulated.algorithms.tree_wrench import TreeWrench
from uwv_hydro.physics.articulated.model.multibody import MultibodyModel
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.hydro.added_mass import LaggedAcceleration
from uwv_hydro.physics.hydro.hydro_model import WrenchComponents
from uwv_hydro.physics.spatial.rotation import IDENTITY, quat_normalize

_FINS = COMPONENT_NAMES.index('fins')
#: Name lists whose joint mapping :meth:`LinkWrenchMode.joint_state` keeps.
KEEP_ROWS = 64
#: Each wrench link's topic (node's namespace), ``%s`` its :func:`topic_token`.
LINK_TOPIC = 'hydro/links/%s/wrench'


def topic_token(name: str) -> str:
    """Return ``name`` as one ROS 2 name token (letters, digits, '_'; no leading digit)."""
    token = re.sub(r'[^A-Za-z0-9_]', '_', name) or '_'
    return '_' + token if token[0].isdigit() else token


def _finite(values: np.ndarray) -> bool:
    """Return whether every value is finite (for a few joints, cheaper than numpy's)."""
    return all(map(math.isfinite, values.tolist()))


def _empty(*shape):
    return field(default_factory=lambda: np.zeros(shape))


@dataclass
class LinkWrenchComponents(WrenchComponents):
    """The base wrench (components, total) plus each link's and each body's wrench."""

    #: Links with a wrench of their own; their wrenches (L, 6) in link axes about the
    #: link origin; their world positions (L, 3) and rotations world <- link (L, 3, 3).
    link_names: List[str] = field(default_factory=list)
    link_wrenches: np.ndarray = _empty(0, 6)
    link_positions: np.ndarray = _empty(0, 3)
    link_rotations: np.ndarray = _empty(0, 3, 3)
    #: The bodies (base first); their wrenches (B, 6) in body axes about the body origin
    #: (the sum of their links'); their world positions and rotations.
    body_names: List[str] = field(default_factory=list)
    body_wrenches: np.ndarray = _empty(0, 6)
    body_positions: np.ndarray = _empty(0, 3)
    body_rotations: np.ndarray = _empty(0, 3, 3)


@dataclass(frozen=True)
class JointStateRows:
    """How a joint-state message's names map to the tree's joints (one per layout)."""

    #: the message's number of names
    size: int
    #: the tree index of each joint the message carries, and its index in the message
    joints: np.ndarray
    columns: np.ndarray
    #: names neither in the tree nor the vehicle's fin and thruster joints
    unknown: tuple
    #: the tree's joints the message leaves out (none when it carries none of them)
    missing: tuple


class LinkWrenchMode(WrenchMode):
    """Evaluate the per-link and base hydro wrench of a vehicle whose links move."""

    def __init__(self, params, added_mass: str = 'implicit', apply_weight: bool = False,
                 acceleration_alpha: Optional[float] = None):
        tree = params.tree
        if tree is None:
            raise ValueError('vehicle %r has no kinematic tree (its links do not move): '
                             'use WrenchMode' % params.name)
        super().__init__(params, added_mass, apply_weight, acceleration_alpha)
        self.multibody = MultibodyModel(tree)
        #: The tree's moving joints in tree order (positions/velocities order).
        self.joint_names = list(self.multibody.joint_names)
        n = len(self.joint_names)
        # one filter over the generalised velocity [nu, qdot] (module docstring)
        self.estimator = LaggedAcceleration(self.estimator.alpha, size=6 + n)
        self._joint_index = {name: k for k, name in enumerate(self.joint_names)}
        #: The latest joint positions and velocities (zero before the first message).
        self.positions = np.zeros(n)
        self.velocities = np.zeros(n)
        #: Joints heard of at least once.
        self.received = np.zeros(n, dtype=bool)
        #: Rejected messages by reason; messages leaving a joint out, by joint.
        self.rejected: Counter = Counter()
        self.missing: Counter = Counter()
        self.accepted = 0
        self.no_velocity = 0
        #: Unknown joint names seen so far, and those first seen in the latest message.
        self.unknown = set()
        self.new_unknown: List[str] = []
        self._ignored = {fin.name for fin in params.fins} | {
            t.joint_name for t in params.thrusters}
        self._rows = {}  # name list -> JointStateRows (joint_state)
        self._init_parts(tree, params)

    def _init_parts(self, tree, params) -> None:
        bodies = self.multibody.body_names
        body_index = {name: k for k, name in enumerate(bodies)}
        parts, part_body = [], []
        for name in bodies:
            for part in tree.bodies[name].parts:
                parts.append(part)
                part_body.append(body_index[name])
        self.parts = PartWrenches(parts, params.gravity, params.damping,
                                  self.model.added_mass_coriolis)
        masses = np.array([float(tree.bodies[name].mass) for name in bodies])
        #: Each body's centre of mass (body frame), ``body_names`` order.
        self.body_coms = np.array([np.asarray(tree.bodies[name].com, dtype=float).reshape(3)
                                   for name in bodies])
        # the wrench links: the base, every part's link, every body root carrying mass
        names, rows = [], []

        def add(link, body, position, rotation):
            if link not in names:
                names.append(link)
                rows.append((body, rotation, position))
            return names.index(link)

        add(bodies[0], 0, np.zeros(3), np.eye(3))
        part_row = [add(p.link, b, p.position, p.rotation) for p, b in zip(parts, part_body)]
        body_row = [add(name, k, np.zeros(3), np.eye(3)) if masses[k] > 0.0 or k == 0
                    else -1 for k, name in enumerate(bodies)]
        self.link_names = names
        self.core = TreeWrench(self.multibody, self.parts, part_body, part_row, rows,
                               body_row, masses * float(params.gravity), self.body_coms)

    # ------------------------------------------------------------------ joint states
    def joint_state(self, names: Sequence[str], position: Sequence[float],
                    velocity: Sequence[float] = ()) -> Optional[str]:
        """
        Take one joint-state message's arrays; return None, or why it was rejected.

        The rules are the module docstring's; :attr:`new_unknown` lists the names this
        message was the first accepted one to carry.
        """
        key = tuple(names)
        rows = self._rows.get(key)
        if rows is None:
            if len(self._rows) >= KEEP_ROWS:
                self._rows.clear()  # a stream of ever new name lists: no growth
            rows = self._rows[key] = self.joint_state_rows(key)
        return self.joint_state_arrays(rows, position, velocity)

    def joint_state_rows(self, names: Sequence[str]) -> JointStateRows:
        """Return how a message listing ``names`` maps to the tree's joints."""
        joints, columns, unknown = [], [], []
        for k, name in enumerate(names):
            joint = self._joint_index.get(name)
            if joint is not None:
                joints.append(joint)
                columns.append(k)
            elif name not in self._ignored:
                unknown.append(name)
        seen = set(joints)
        missing = tuple(name for j, name in enumerate(self.joint_names)
                        if j not in seen) if joints else ()
        return JointStateRows(len(names), np.array(joints, dtype=np.intp),
                              np.array(columns, dtype=np.intp), tuple(dict.fromkeys(unknown)),
                              missing)

    def joint_state_arrays(self, rows: JointStateRows, position, velocity=()
                           ) -> Optional[str]:
        """Take the arrays of a message whose names map as ``rows``; see joint_state."""
        self.new_unknown = []
        if len(position) != rows.size or (len(velocity) and len(velocity) != rows.size):
            self.rejected['bad_length'] += 1
            return 'bad_length'
        p = np.asarray(position, dtype=float)[rows.columns]
        v = np.asarray(velocity, dtype=float)[rows.columns] if len(velocity) else None
        if not (_finite(p) and (v is None or _finite(v))):
            self.rejected['non_finite'] += 1
            return 'non_finite'
        if rows.unknown:
            self.new_unknown = [name for name in rows.unknown if name not in self.unknown]
            self.unknown.update(self.new_unknown)
        if not len(rows.joints):
            return None
        self.positions[rows.joints] = p
        if v is not None:
            self.velocities[rows.joints] = v
        else:
            self.no_velocity += 1
        self.received[rows.joints] = True
        for name in rows.missing:
            self.missing[name] += 1
        self.accepted += 1
        return None

    # ------------------------------------------------------------------ wrenches
    def evaluate(self, t: float, position: Sequence[float], quaternion: Sequence[float],
                 twist: Sequence[float], current_world: Optional[Sequence[float]] = None,
                 current_rate_world: Optional[Sequence[float]] = None
                 ) -> LinkWrenchComponents:
        """Return the base components and total, and every link's and body's wrench."""
        nu = np.asarray(twist, dtype=float).reshape(6)
        if current_world is None and self.field is not None:
            current_world, current_rate_world = self.field_current(t, position, quaternion,
                                                                   nu)
            self.last_current = (current_world, current_rate_world)
        lagged = self.added_mass == 'lagged'
        base_acc = qddot = None
        if lagged:
            acc = self.estimator.update(np.concatenate((nu, self.velocities)), t)
            base_acc, qddot = acc[:6], acc[6:]
        quat = IDENTITY if quaternion is None else quat_normalize(quaternion)
        out = self.core.evaluate(position, quat, nu, self.positions, self.velocities,
                                 base_acc, qddot, current_world, current_rate_world,
                                 engine_added_mass=not lagged, apply_weight=self.apply_weight)
        values = out.components
        base_extra = self._base_components(nu, out.body_rotations[0], current_world)
        values[_FINS:] = base_extra
        extra = base_extra.sum(axis=0)
        out.link_wrenches[0] += extra
        out.body_wrenches[0] += extra
        return LinkWrenchComponents(
            components=dict(zip(COMPONENT_NAMES, values)), total=values.sum(axis=0),
            link_names=self.link_names, link_wrenches=out.link_wrenches,
            link_positions=out.link_positions, link_rotations=out.link_rotations,
            body_names=self.multibody.body_names, body_wrenches=out.body_wrenches,
            body_positions=out.body_positions, body_rotations=out.body_rotations)

    def _base_components(self, nu, r_base, current_world) -> np.ndarray:
        """Return the fins, hull_lift and crossflow_drag rows (3, 6) on the base twist."""
        out = np.zeros((3, 6))
        model = self.model
        if model.fins is None and model.hull_lift is None:
            return out
        nu_r = nu.copy()
        if current_world is not None:
            # fins and hull see the twist relative to the water: nu - [R^T v_c, 0]
            nu_r[:3] -= r_base.T @ np.asarray(current_world, dtype=float).reshape(3)
        if model.fins is not None:
            out[0] = model.fins.wrench(nu_r, self.fin_angles)
        if model.hull_lift is not None:
            out[1] = model.hull_lift.wrench(nu_r)
            out[2] = model.crossflow.wrench(nu_r)
        return out

    def evaluate_many(self, t, position, quaternion, twist, current_world=None,
                      resets=None, current_rate_world=None) -> np.ndarray:
        """
        Return the components (N, len(COMPONENT_NAMES), 6) of N samples in time order.

        N :meth:`evaluate` calls at the latest joint state (``resets`` (N,) bool:
        :meth:`reset` before sample k); ``current_world`` and ``current_rate_world``
        are (3,) for all samples or (N, 3).
        """
        nu = np.asarray(twist, dtype=float).reshape(-1, 6)
        n = len(nu)
        t = np.broadcast_to(np.asarray(t, dtype=float), (n,))
        pos = None if position is None else np.broadcast_to(
            np.asarray(position, dtype=float).reshape(-1, 3), (n, 3))
        quat = None if quaternion is None else np.broadcast_to(
            np.asarray(quaternion, dtype=float).reshape(-1, 4), (n, 4))
        cur = None if current_world is None else np.broadcast_to(
            np.asarray(current_world, dtype=float).reshape(-1, 3), (n, 3))
        rate = None if current_rate_world is None else np.broadcast_to(
            np.asarray(current_rate_world, dtype=float).reshape(-1, 3), (n, 3))
        out = np.empty((n, len(COMPONENT_NAMES), 6))
        for k in range(n):
            if resets is not None and resets[k]:
                self.reset()
            wc = self.evaluate(t[k], None if pos is None else pos[k],
                               None if quat is None else quat[k], nu[k],
                               None if cur is None else cur[k], None if rate is None else rate[k])
            out[k] = np.array([wc.components[name] for name in COMPONENT_NAMES])
        return out
