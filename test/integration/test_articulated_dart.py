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
DART as the articulated engine of the comparisons: its model is the mode's equations.

test/helpers/articulated_reference.py builds a tree as a DART skeleton (:func:`dart_skeleton`:
FreeJoint base, RevoluteJoint / PrismaticJoint children, the added mass folded into each
body's inertia) and sets each body's hydro and weight (:class:`BodyLoads`) as its
external force before every step (:func:`dart_apply`); test_articulated_mujoco.py and
test_articulated_uvms_engine.py compare its trajectories with the mode's.  Here, at
random states (base pose and twist, joint positions and speeds, joint torques, a base
wrench) of two trees, the three-joint tree of the kinematics tests (a revolute joint
with a child pose, a prismatic joint, a continuous one about -z; each body given a hydro
part of its own, turned and offset, with buoyancy, linear and quadratic drag at points
of their own and an added mass of rigid-body form) and the two-link vehicle:

* DART's forward dynamics equals the mode's (``CompiledTreeDynamics.derivative``, the
  mode's default, and Pinocchio's ``TreeDynamics.derivative``: the base's nu_dot and the
  joints' accelerations) to rounding: the same equations;
* one ``World.step()`` moves the joints as semi-implicit Euler with those accelerations
  (qdot += h qddot, then q += h qdot): DART's scheme, first order in h (the free base's
  step is checked in test_cosim_dart.py).  So what the comparisons measure is the
  schemes' error alone.
"""
import dataclasses
import types

from arm_trees import rpy, three_joint_tree
from articulated_reference import (BodyLoads, dart_apply, dart_set_state, dart_skeleton,
                                   dart_world)
from articulated_vehicle import two_link
import numpy as np
import pytest
from required_modules import require

# pinned in requirements.txt; a sourced ROS 2 installation may lack it
require('dartpy')
require('pinocchio')

#: Both are exact recursions on the same numbers: they agree to rounding (relative).
TOLERANCE = 1e-11
STEP = 1e-3


def _with_hydro(tree):
    """Return the tree with one hydro part per body (numbers of our own, per body)."""
    from uwv_hydro.physics.articulated.model.link_tree import LinkHydroPart
    rng = np.random.default_rng(3)
    bodies = {}
    for name, body in tree.bodies.items():
        m = body.mass
        quadratic = np.zeros((6, 6, 6))
        for k in range(6):
            quadratic[k, k, k] = m * (k + 1.0)
        part = LinkHydroPart(
            link=name, position=0.1 * rng.normal(size=3), rotation=rpy(*rng.normal(size=3)),
            buoyancy_mass=1.02 * m, cob=0.05 * rng.normal(size=3),
            # rigid-body form at the part origin: a I, a rotational block (what folds)
            added_mass=np.diag(np.r_[np.full(3, 0.5 * m), 0.3 * np.diag(body.inertia)]),
            linear_drag=np.diag(m * np.array([1.0, 2.0, 3.0, 0.1, 0.2, 0.3])),
            quadratic_drag=quadratic, drag_center=0.05 * rng.normal(size=3),
            drag_velocity_point=0.05 * rng.normal(size=3))
        bodies[name] = dataclasses.replace(body, parts=[part])
    return dataclasses.replace(tree, bodies=bodies)


@pytest.mark.parametrize('path', ['compiled', 'pinocchio'])
@pytest.mark.parametrize('vehicle', ['three_joint', 'two_link'])
def test_dart_forward_dynamics_and_step_are_the_modes_equations(vehicle, path):
    from uwv_hydro.physics.articulated.algorithms.articulated_dynamics import TreeDynamics
    from uwv_hydro.physics.articulated.algorithms.tree_dynamics import CompiledTreeDynamics
    if vehicle == 'three_joint':
        params = types.SimpleNamespace(tree=_with_hydro(three_joint_tree()), gravity=9.81)
    else:
        params = two_link(rigid_form_base=True)
    tree = params.tree
    # the mode's equations: compiled (its default) and on Pinocchio's path
    dynamics = (CompiledTreeDynamics if path == 'compiled' else TreeDynamics)(
        tree, params.gravity)
    skeleton, free, nodes, joints = dart_skeleton(tree)
    world = dart_world(skeleton, STEP)
    loads = BodyLoads(params)
    rng = np.random.default_rng(7)
    n = len(tree.joints)
    worst = 0.0
    for _ in range(10):
        position, twist = 5.0 * rng.normal(size=3), rng.normal(size=6)
        quaternion = rng.normal(size=4)
        quaternion /= np.linalg.norm(quaternion)
        q, qd, torques = rng.normal(size=n), rng.normal(size=n), 5.0 * rng.normal(size=n)
        wrench = 20.0 * rng.normal(size=6)
        dart_set_state(tree, free, nodes, joints, (position, quaternion, twist, q), qd)
        dart_apply(loads, tree.base, nodes, joints, wrench, torques)
        skeleton.computeForwardDynamics()
        # the base's spatial acceleration [w_dot, v_dot] in its axes: d/dt of its twist
        acceleration = np.asarray(nodes[tree.base].getSpatialAcceleration(), float)
        theirs = np.r_[acceleration[3:], acceleration[:3],
                       [joint.getAcceleration(0) for joint in joints]]
        out, qdd, _ = dynamics.derivative(np.r_[position, quaternion, twist], q, qd, wrench,
                                          None, lambda *_: torques, {}, [])
        ours = np.r_[out[7:13], qdd]
        scale = max(1.0, float(np.max(np.abs(ours))))
        worst = max(worst, float(np.max(np.abs(theirs - ours))) / scale)
        np.testing.assert_allclose(theirs, ours, rtol=0, atol=TOLERANCE * scale)
        world.step()
        # semi-implicit Euler (dart/simulation/World.cpp step: integrateVelocities, then
        # integratePositions)
        speeds = qd + STEP * qdd
        np.testing.assert_allclose([j.getVelocity(0) for j in joints], speeds, rtol=0,
                                   atol=TOLERANCE * max(1.0, float(np.max(np.abs(speeds)))))
        np.testing.assert_allclose([j.getPosition(0) for j in joints], q + STEP * speeds,
                                   rtol=0, atol=TOLERANCE * max(1.0, float(np.max(np.abs(q)))))
    print('%s, %s: DART vs the mode, largest acceleration difference %.2g (relative)'
          % (vehicle, path, worst))
