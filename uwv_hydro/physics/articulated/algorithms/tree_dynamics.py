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
The equations of motion of a floating base with moving joints, compiled (``_tree_aba.c``).

Featherstone's articulated-body algorithm (2008, table 9.6) in body frames, with each
body's added mass inside its spatial inertia: I_k = I_RB,k + sum over its parts of
X_P^T M_A X_P.  ABA propagates general 6 x 6 spatial inertias, so the added mass needs
no separate solve (the Pinocchio path of
:mod:`~uwv_hydro.physics.articulated.algorithms.articulated_dynamics`
splits it into a rigid-body part and a remainder solved with the accelerations; both
give the same equations, which the tests hold to 1e-12).  Each body's bias force is
v x* (I_RB v) minus its external wrench: its parts' buoyancy, drag, added-mass Coriolis
-C_A(nu_r) nu_r and the current's M_A nu_dot_c
(:mod:`~uwv_hydro.physics.articulated.algorithms.link_wrench`),
its weight, the wrenches given per body (thrusters), and on the base the vehicle's fins
(:mod:`~uwv_hydro.physics.actuators.fins`, at their held angles) and its hull's body lift and
cross-flow drag (:mod:`~uwv_hydro.physics.hydro.hull_lift`,
:mod:`~uwv_hydro.physics.hydro.crossflow_drag`) on the base's relative twist, as the rigid
vehicle's.

:class:`CompiledTreeDynamics` has the methods of
:class:`~uwv_hydro.physics.articulated.algorithms.articulated_dynamics.TreeDynamics` that the
articulated
simulate mode and its joint stops use (``derivative``, ``joint_space_inverse``,
``static_torques``) and the compiled RK4 sub-steps with the joint servos (:meth:`rk4`).

Packed dynamics (doubles, ``_tree_dynamics.c`` parses it): ``[1, B, B x 36 spatial
inertias with the added mass, B x 36 rigid-body inertias, fins..., hull...]``, each 6 x 6
row-major about the body origin in body axes ([v, w] order), the fins and hull sections
of :func:`~uwv_hydro.physics.kernel.pack_fins` and :func:`~uwv_hydro.physics.kernel.
pack_hull` (the base frame is the vehicle's).
"""
from typing import Optional, Sequence

import numpy as np
import pinocchio as pin

from uwv_hydro.physics.actuators.fins import FinSet
from uwv_hydro.physics.articulated.algorithms.articulated_dynamics import (
    motion_matrix, TreeDynamics)
from uwv_hydro.physics.articulated.algorithms.link_wrench import PartWrenches
from uwv_hydro.physics.articulated.algorithms.tree_wrench import TreeWrench
from uwv_hydro.physics.articulated.model.multibody import FrameKinematics, MultibodyModel
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES
from uwv_hydro.physics.hydro.crossflow_drag import CrossflowDrag
from uwv_hydro.physics.hydro.hull_lift import HullLift
from uwv_hydro.physics.kernel import core, pack_fins, pack_hull
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

_VERSION = 1
#: Joint servo kinds as the compiled sub-steps take them (``_tree_rk4.c``).
SERVO_KINDS = {'position': 0.0, 'velocity': 1.0, 'effort': 2.0, 'locked': 3.0}


def body_inertias(tree, body_names):
    """Return each body's (rigid-body, added-mass) spatial inertias (B, 6, 6), body frame."""
    rigid, added = [], []
    for name in body_names:
        body = tree.bodies[name]
        # the rigid body about the body origin (Featherstone 2008 eq. 2.63)
        rigid.append(pin.Inertia(float(body.mass), np.asarray(body.com, float).reshape(3),
                                 np.asarray(body.inertia, float).reshape(3, 3)).matrix())
        m_a = np.zeros((6, 6))
        for part in body.parts:
            matrix = np.asarray(part.added_mass, dtype=float).reshape(6, 6)
            if np.any(matrix):
                x = motion_matrix(part.rotation, part.position)
                # added mass moved to the body frame: X^T M_A X (Featherstone eq. 2.66)
                m_a += x.T @ matrix @ x
        added.append(m_a)
    return np.array(rigid), np.array(added)


class CompiledTreeDynamics:
    """
    The compiled equations of motion of a vehicle's tree (see the module docstring).

    ``fins`` (a list of :class:`~uwv_hydro.physics.body.vehicle_params.Fin`), ``hull`` (a
    hull description) and ``fluid_density``: the base's fins and hull (None: none).
    """

    def __init__(self, tree, gravity: float, fins=None, hull=None,
                 fluid_density: Optional[float] = None):
        self.tree = tree
        self.gravity = float(gravity)
        self.multibody = mb = MultibodyModel(tree)
        names = mb.body_names
        self.body_names = list(names)
        self.nb = nb = len(names)
        self.n = nb - 1
        parts, part_body = [], []
        for k, name in enumerate(names):
            for part in tree.bodies[name].parts:
                parts.append(part)
                part_body.append(k)
        self.parts = PartWrenches(parts, gravity)
        masses = np.array([float(tree.bodies[name].mass) for name in names])
        coms = np.array([np.asarray(tree.bodies[name].com, float).reshape(3) for name in names])
        # one link row per body (the tree capsule's outputs are not used here)
        rows = [(k, np.eye(3), np.zeros(3)) for k in range(nb)]
        self._core = TreeWrench(mb, self.parts, part_body, part_body, rows, list(range(nb)),
                                masses * self.gravity, coms)
        self._tree = self._core._tree
        rigid, added = body_inertias(tree, names)
        #: each body's spatial inertia with its added mass, and the rigid part (body frame)
        self.inertia, self.rigid = rigid + added, rigid
        fin_set = FinSet(fins, fluid_density) if fins else None
        lift = crossflow = None
        if hull is not None:
            lift, crossflow = HullLift(hull, fluid_density), CrossflowDrag(hull, fluid_density)
        self.has_fins = fin_set is not None
        #: the base's fins and hull models (the components' rows), the Pinocchio path for
        #: the per-link components (built when first asked)
        self._fin_set, self._lift, self._crossflow = fin_set, lift, crossflow
        self._reference = None
        packed = np.concatenate((np.array([_VERSION, nb], dtype=float),
                                 self.inertia.reshape(-1), rigid.reshape(-1),
                                 pack_fins(fin_set), pack_hull(lift, crossflow)))
        self._dyn = core.tree_dynamics_model(packed)
        self._out = np.empty(13 + 2 * self.n)
        self._no_lock = np.zeros(self.n)

    # ------------------------------------------------------------------ inputs
    def body_wrenches(self, base_wrench) -> Optional[np.ndarray]:
        """Return the (nb, 6) body wrenches of None, a base wrench (6,) or (nb, 6) ones."""
        if base_wrench is None:
            return None
        wrench = np.asarray(base_wrench, dtype=float)
        if wrench.ndim == 2:
            return np.ascontiguousarray(wrench.reshape(self.nb, 6))
        out = np.zeros((self.nb, 6))
        out[0] = wrench
        return out

    def _mask(self, locked: Sequence[int]) -> np.ndarray:
        if not len(locked):
            return self._no_lock
        mask = np.zeros(self.n)
        mask[list(locked)] = 1.0
        return mask

    # ------------------------------------------------------------------ equations
    def derivative(self, x, q, qd, base_wrench, current, torques_of, lag, locked,
                   fin_angles=None):
        """
        Return (d/dt [p, quat, nu], qdd, joint torques) at one state (TreeDynamics's).

        ``lag`` is unused (the added mass is in the inertias); ``locked``: indices of the
        braked joints (their torques are solved for).
        """
        q = np.ascontiguousarray(q, dtype=float)
        qd = np.ascontiguousarray(qd, dtype=float)
        tau = np.ascontiguousarray(torques_of(q, qd), dtype=float)
        core.tree_derivative(self._tree, self._dyn, np.ascontiguousarray(x, dtype=float),
                             q, qd, self.body_wrenches(base_wrench), current, fin_angles,
                             tau, self._mask(locked), self._out)
        n = self.n
        out = self._out.copy()
        return out[:13], out[13:13 + n], out[13 + n:]

    def joint_space_inverse(self, x, q) -> np.ndarray:
        """Return M(q)^-1 with every body's added mass ((6 + n) x (6 + n))."""
        out = np.empty((6 + self.n, 6 + self.n))
        core.tree_minverse(self._tree, self._dyn, np.ascontiguousarray(x, dtype=float),
                           np.ascontiguousarray(q, dtype=float), out)
        return out

    def static_torques(self, x, q) -> np.ndarray:
        """Return the joint torques that hold the joints still against weight and buoyancy."""
        out = np.empty(self.n)
        core.tree_static(self._tree, self._dyn, np.ascontiguousarray(x, dtype=float),
                         np.ascontiguousarray(q, dtype=float), out)
        return out

    def rk4(self, state: np.ndarray, h: float, n: int, servo: np.ndarray, bandwidth: float,
            lower: np.ndarray, upper: np.ndarray, base_wrench=None, current=None,
            fin_angles=None, terms: bool = False, end: Optional[np.ndarray] = None):
        """
        Run up to n RK4 sub-steps of h on ``state`` = [x, q, qd] (in place).

        ``servo``: (6, n) rows kind (:data:`SERVO_KINDS`), value, apparent inertia, static
        torque, velocity and effort limits; with ``terms`` the apparent inertias and static
        torques are computed first at the state (into the servo's rows).  It stops before
        a sub-step that starts with a free joint at a limit moving out, or that would end
        with one past a limit (the stops' impulse and the cut are the Python sub-step's).
        Returns (sub-steps done, whether ``end`` holds [d/dt x, qdd, torques] at the last
        state: all done and no joint moving out of a limit there).
        """
        return core.tree_rk4(self._tree, self._dyn, state, float(h), int(n), servo,
                             float(bandwidth), lower, upper, self.body_wrenches(base_wrench),
                             current, fin_angles, bool(terms), end)

    # ------------------------------------------------------------------ outputs
    def body_states(self, x, q, qd, nu_dot=None, qdd=None) -> FrameKinematics:
        """
        Return the bodies' FrameKinematics (body frames, ``multibody.body_names``).

        With ``nu_dot`` and ``qdd`` (the base's and the joints' accelerations) each body's
        acceleration too (d/dt of its twist components).
        """
        x = np.asarray(x, dtype=float)
        quat = x[3:7] / np.linalg.norm(x[3:7])
        accelerations = nu_dot is not None
        out = self._core.evaluate(
            x[0:3], quat, x[7:13], np.ascontiguousarray(q, dtype=float),
            np.ascontiguousarray(qd, dtype=float),
            np.asarray(nu_dot, dtype=float) if accelerations else None,
            np.ascontiguousarray(qdd, dtype=float) if accelerations else None)
        return FrameKinematics(self.body_names, out.body_positions.copy(),
                               out.body_rotations.copy(), out.body_twists.copy(),
                               out.body_accelerations.copy() if accelerations else None)

    def base_components(self, x, q, qd, current, fin_angles=None) -> np.ndarray:
        """
        Return the hydro components and weight (len(COMPONENT_NAMES), 6) about the base.

        The per-link rows as TreeDynamics gives them, and the base's fins, hull lift and
        cross-flow drag on its relative twist.
        """
        if self._reference is None:
            self._reference = TreeDynamics(self.tree, self.gravity)
        rows = self._reference.base_components(x, q, qd, current)
        x = np.asarray(x, dtype=float)
        nu_r = x[7:13].copy()
        if current is not None:
            rotation = quat_to_matrix(x[3:7] / np.linalg.norm(x[3:7]))
            # the base's relative twist nu_r = nu - [R^T v_c, 0] (Fossen 2021 ch. 10)
            nu_r[:3] -= rotation.T @ np.asarray(current, dtype=float)
        if self._fin_set is not None:
            rows[COMPONENT_NAMES.index('fins')] = self._fin_set.wrench(nu_r, fin_angles)
        if self._lift is not None:
            rows[COMPONENT_NAMES.index('hull_lift')] = self._lift.wrench(nu_r)
            rows[COMPONENT_NAMES.index('crossflow_drag')] = self._crossflow.wrench(nu_r)
        return rows
