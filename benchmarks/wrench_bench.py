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
The wrench evaluation (``--only wrench link_wrench``; doc/guide/performance.md, "The benches").

:func:`bench_wrench`: one full HydroModel.wrench against the naive numpy reference on the
same states; :func:`bench_link_wrench`: one LinkWrenchMode.evaluate of the 10-link vehicle
of :func:`ten_link_vehicle` against WrenchMode's rigid one.
"""

from harness import emit, time_calls
from naive_reference import full_vehicle, naive_wrench
import numpy as np


def bench_wrench(results, n):
    """Time HydroModel.wrench against the naive reference on the same states."""
    from uwv_hydro.physics.hydro.hydro_model import HydroModel
    params = full_vehicle()
    model = HydroModel(params)
    nu = np.array([1.2, -0.2, 0.1, 0.05, -0.03, 0.2])
    pos = np.array([1.0, 2.0, -0.1])  # in the surface transition
    q = np.array([0.98, 0.05, -0.1, 0.15])
    q /= np.linalg.norm(q)
    nu_dot = np.array([0.1, 0.0, -0.05, 0.01, 0.0, 0.02])
    cur = np.array([0.3, -0.1, 0.0])
    fast = time_calls(lambda: model.wrench(nu, pos, q, nu_dot, cur), n)
    naive = time_calls(lambda: naive_wrench(params, nu, pos, q, nu_dot, cur), n)
    got = model.wrench(nu, pos, q, nu_dot, cur).total
    want = sum(naive_wrench(params, nu, pos, q, nu_dot, cur).values())
    assert np.allclose(got, want, rtol=1e-10, atol=1e-9), 'core and reference disagree'
    emit(results, 'wrench_eval_us', float(np.median(fast)), 'us',
         p99=float(np.percentile(fast, 99)), calls=n)
    emit(results, 'naive_wrench_eval_us', float(np.median(naive)), 'us',
         p99=float(np.percentile(naive, 99)), calls=n)
    emit(results, 'wrench_vs_naive_ratio', float(np.median(fast) / np.median(naive)), 'x')


def ten_link_vehicle(seed=11):
    """
    Return full_vehicle() with a kinematic tree of 10 links that carry hydro.

    The base (its hull: full_vehicle's dense drag and added mass) with four fins on
    revolute joints and a five-joint arm (revolute, prismatic, revolute...), every link
    with buoyancy, dense linear drag, quadratic drag, a dense added mass and drag points
    of its own.
    """
    from uwv_hydro.physics.articulated.model.link_tree import (
        KinematicTree, LinkHydroPart, TreeBody, TreeJoint)
    params = full_vehicle()
    rng = np.random.default_rng(seed)

    def part(link, scale):
        a = rng.normal(size=(6, 6))
        quad = rng.uniform(0.0, 0.2, size=(6, 6, 6)) * scale
        for i in range(6):
            quad[i, i, i] += 4.0 * scale
        return LinkHydroPart(link, buoyancy_mass=scale, cob=rng.normal(size=3) * 0.05,
                             added_mass=(a @ a.T + 6 * np.eye(6)) * scale,
                             linear_drag=(rng.uniform(0.1, 1.0, (6, 6)) + 5 * np.eye(6)) * scale,
                             quadratic_drag=quad, drag_velocity_point=rng.normal(size=3) * 0.05,
                             drag_center=rng.normal(size=3) * 0.05)

    hull = LinkHydroPart('base_link', buoyancy_mass=params.buoyancy_mass, cob=params.cob,
                         added_mass=params.added_mass, linear_drag=params.linear_drag,
                         quadratic_drag=params.quadratic_drag)
    bodies = {'base_link': TreeBody('base_link', mass=params.mass, com=params.com,
                                    inertia=params.inertia, parts=[hull],
                                    links={'base_link': (np.zeros(3), np.eye(3))})}
    joints = []

    def add(name, parent, kind, origin, axis, scale):
        bodies[name] = TreeBody(name, mass=2.0 * scale, com=np.array([0.05, 0.0, 0.0]),
                                inertia=np.eye(3) * 0.01 * scale, parts=[part(name, scale)],
                                links={name: (np.zeros(3), np.eye(3))})
        joints.append(TreeJoint(name + '_joint', kind, parent, name,
                                origin_position=np.array(origin, float),
                                axis=np.array(axis, float)))

    for k, (y, z, axis) in enumerate([(0.3, 0, (0, 1, 0)), (-0.3, 0, (0, 1, 0)),
                                      (0, 0.3, (0, 0, 1)), (0, -0.3, (0, 0, 1))]):
        add('fin_%d' % k, 'base_link', 'revolute', (-0.8, y, z), axis, 0.2)
    parent = 'base_link'
    for k, kind in enumerate(['revolute', 'revolute', 'prismatic', 'revolute', 'revolute']):
        add('arm_%d' % k, parent, kind, (0.5 if k == 0 else 0.25, 0.0, -0.2 if k == 0 else 0.0),
            (0, 0, 1) if k % 2 == 0 else (0, 1, 0), 0.5)
        parent = 'arm_%d' % k
    params.tree = KinematicTree('base_link', bodies, joints)
    return params


def bench_link_wrench(results, n):
    """
    Time one LinkWrenchMode.evaluate of a 10-link vehicle against WrenchMode's rigid one.

    Both with lagged added mass (the link mode's second-order kinematics) and a current,
    on a changing state; the joints move.  The 1 kHz share is the link mode's p99 over
    the 1 ms cycle.
    """
    from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
    from uwv_hydro.modes.wrench_mode import WrenchMode
    tree = ten_link_vehicle()
    links = LinkWrenchMode(tree, 'lagged', apply_weight=True)
    rigid = WrenchMode(full_vehicle(), 'lagged', apply_weight=True)
    assert len(links.parts.links) == 10
    pos = np.array([1.0, 2.0, -10.0])
    q = np.array([0.98, 0.05, -0.1, 0.15])
    q /= np.linalg.norm(q)
    cur = np.array([0.3, -0.1, 0.0])
    joints = links.joint_names
    clock = [0.0]

    def state():
        clock[0] += 1e-3
        t = clock[0]
        return t, np.array([1.2, -0.2, 0.1, 0.05, -0.03, 0.2]) * (1.0 + 0.1 * np.sin(t))

    def link_step():
        t, nu = state()
        links.joint_state(joints, 0.3 * np.sin(t + np.arange(len(joints))),
                          0.3 * np.cos(t + np.arange(len(joints))))
        links.evaluate(t, pos, q, nu, cur)

    def rigid_step():
        t, nu = state()
        rigid.evaluate(t, pos, q, nu, cur)

    rigid_us = time_calls(rigid_step, n)
    link_us = time_calls(link_step, n)
    emit(results, 'rigid_wrench_mode_eval_us', float(np.median(rigid_us)), 'us',
         p99=float(np.percentile(rigid_us, 99)), calls=n)
    emit(results, 'link_wrench_eval_us', float(np.median(link_us)), 'us',
         p99=float(np.percentile(link_us, 99)), calls=n, links=10, joints=len(joints))
    emit(results, 'link_vs_rigid_wrench_ratio', float(np.median(link_us) / np.median(rigid_us)),
         'x')
    emit(results, 'link_wrench_1khz_share', float(np.percentile(link_us, 99)) / 1000.0, 'x')
