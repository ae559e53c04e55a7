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
Joint position limits as one-sided constraints, for the articulated simulate mode.

Position limits (URDF ``<limit lower upper>``; none for continuous joints) are one-sided
constraints, as DART's joint-limit constraint with no restitution: a sub-step in which a
joint would cross its limit is cut at the crossing (found on the cut sub-step's length
to 1e-9 rad or m by the Illinois method), the joint set on its limit and stopped by an
inelastic impulse at the joint (equal and opposite on the bodies it joins, so the
vehicle's momentum is kept; its size from the joint-space inertia with the added-mass
remainders), and the rest of the sub-step run from there.  A joint at its limit that the
torques push outward is held there (a brake whose torque is solved for, pushing it back
in only) until they pull it inward.
``events['limit_stops']`` counts the stops.

:class:`JointStops` runs one RK4 sub-step with the stops
(:meth:`JointStops.substep`) for :class:`~uwv_hydro.modes.articulated_simulate_mode.
ArticulatedSimulateMode`, which steps the vehicle and its joint servos.
"""
from typing import List

import numpy as np

#: Limit stops per sub-step before the joints past their stops are simply set on them.
MAX_LIMIT_EVENTS = 16
#: How close (rad or m) the cut sub-step must land on the stop; a joint this close to its
#: stop at a crossing stops with the first one.
LIMIT_HIT = 1e-9
#: Iterations on the cut sub-step's length at most.
CROSSING_STEPS = 12


class JointStops:
    """
    The joints' position limits of one articulated vehicle (see the module docstring).

    ``lower``, ``upper``: the limits per joint (rad or m; +-inf: none); ``dynamics``: its
    :class:`~uwv_hydro.physics.articulated.algorithms.articulated_dynamics.TreeDynamics`;
    ``rk4_substep(f, x,
    q, qd, h)``: the classic RK4 sub-step of the mode; ``events``: the mode's event
    counters, whose ``limit_stops`` counts the stops.
    """

    def __init__(self, lower, upper, dynamics, rk4_substep, events):
        self.lower, self.upper = lower, upper
        self.dynamics = dynamics
        self.rk4_substep = rk4_substep
        self.events = events

    def held(self, f, locked, x, q, qd) -> List[int]:
        """
        Return the joints to hold at their position limits for the next sub-step.

        Those at a limit, not moving inward, and pushed outward (or not inward) by the
        free dynamics: the limit as a one-sided constraint, whose torque only ever
        pushes the joint back in.
        """
        at = [j for j in range(len(q)) if j not in locked and (
            (q[j] <= self.lower[j] and qd[j] <= 0.0)
            or (q[j] >= self.upper[j] and qd[j] >= 0.0))]
        held: List[int] = []
        # holding one joint changes the others' accelerations: add until none is pushed out
        for _ in range(len(at)):
            _, _, qdd = f(sorted(set(locked) | set(held)))(x, q, qd)
            more = [j for j in at if j not in held and (
                qdd[j] <= 0.0 if q[j] <= self.lower[j] else qdd[j] >= 0.0)]
            if not more:
                break
            held += more
        return held

    def substep(self, f, locked, x, q, qd, h: float, events: int = 0):
        """
        Return one RK4 sub-step of h with the joints' position limits (module docstring).

        A joint that would cross its limit in the sub-step stops there: the sub-step is
        cut at the earliest crossing (:meth:`_first_crossing`), the joint set on its
        limit and stopped by an inelastic impulse (:meth:`_stop`), and the rest of the
        sub-step run from there (with the joint held if pushed outward).
        """
        outward = [j for j in range(len(q)) if j not in locked and self.outward(j, q, qd)]
        if outward:  # at a stop and moving out of the range (not from a stop's impulse)
            x, q, qd = self._stop(x, q, qd, outward, locked)
        held = sorted(set(locked) | set(self.held(f, locked, x, q, qd)))
        while True:
            x1, q1, qd1 = self.rk4_substep(f(held), x.copy(), q, qd, h)
            over = np.maximum(self.lower - q1, q1 - self.upper)
            crossing = [j for j in range(len(q)) if over[j] > 0.0 and j not in held]
            # a joint on its stop that leaves it and is back past it within the sub-step
            # is held there for the sub-step (there is no crossing to cut at)
            sticky = [j for j in crossing
                      if min(q[j] - self.lower[j], self.upper[j] - q[j]) <= LIMIT_HIT]
            if not sticky:
                break
            held = sorted(set(held) | set(sticky))
        if not crossing:
            return x1, q1, qd1
        if events >= MAX_LIMIT_EVENTS:  # a joint chattering at its stop: set it there
            return self._stop(x1, np.clip(q1, self.lower, self.upper), qd1, crossing, locked)
        fraction, (x2, q2, qd2), hit = self._first_crossing(
            f(held), held, x, q, qd, h, (x1, q1, qd1), crossing)
        x2, q2, qd2 = self._stop(x2, q2, qd2, hit, locked)
        return self.substep(f, locked, x2, q2, qd2, h * (1.0 - fraction), events + 1)

    def _past(self, j: int, q, crossed) -> float:
        """Return how far joint j is past the limit that ``crossed`` (its q) is past (> 0)."""
        if crossed[j] > self.upper[j]:
            return float(q[j] - self.upper[j])
        return float(self.lower[j] - q[j])

    def _first_crossing(self, f, held, x, q, qd, h: float, end, crossing):
        """
        Return the earliest crossing of a limit by ``crossing`` in a sub-step.

        The sub-step goes from (x, q, qd) to ``end``; returned: the fraction of h where
        it is cut, the state there and the joints there on their stops.  Each joint's
        crossing: q's linear interpolation, then the Illinois method (regula falsi) on
        the cut sub-step's length, RK4 from the same start, to LIMIT_HIT; a joint found
        past its stop there crossed earlier and is searched for in turn.
        """
        hi_frac, hi_state, candidates = 1.0, end, crossing
        while True:
            q_hi = hi_state[1]
            # q's linear interpolation: the fraction where past() goes through zero
            fractions = [hi_frac * self._past(j, q, q_hi)
                         / (self._past(j, q, q_hi) - self._past(j, q_hi, q_hi))
                         for j in candidates]
            first = candidates[int(np.argmin(fractions))]
            lo, f_lo = 0.0, self._past(first, q, q_hi)
            hi, f_hi = hi_frac, self._past(first, q_hi, q_hi)
            fraction, side, state = min(max(min(fractions), 0.0), hi_frac), 0, hi_state
            for _ in range(CROSSING_STEPS):
                state = self.rk4_substep(f, x.copy(), q, qd, h * fraction)
                miss = self._past(first, state[1], q_hi)
                if abs(miss) <= LIMIT_HIT:
                    break
                if miss > 0.0:
                    hi, f_hi = fraction, miss
                    f_lo = 0.5 * f_lo if side > 0 else f_lo
                    side = 1
                else:
                    lo, f_lo = fraction, miss
                    f_hi = 0.5 * f_hi if side < 0 else f_hi
                    side = -1
                fraction = ((lo * f_hi - hi * f_lo) / (f_hi - f_lo) if f_hi > f_lo
                            else 0.5 * (lo + hi))
            q2 = state[1]
            earlier = [j for j in range(len(q)) if j != first and j not in held
                       and max(self.lower[j] - q2[j], q2[j] - self.upper[j]) > LIMIT_HIT]
            if not earlier:
                break
            hi_frac, hi_state, candidates = fraction, state, earlier
        # the joints there (the first, and any within LIMIT_HIT of its stop), set on it
        hit = [first] + [j for j in range(len(q)) if j != first and j not in held and min(
            q2[j] - self.lower[j], self.upper[j] - q2[j]) <= LIMIT_HIT]
        q2 = q2.copy()
        for j in hit:
            q2[j] = self.lower[j] if q2[j] - self.lower[j] < self.upper[j] - q2[j] \
                else self.upper[j]
        return fraction, (state[0], q2, state[2]), hit

    def outward(self, j: int, q, qd) -> bool:
        """Return whether joint j is at (or past) a limit and moving out of its range."""
        return bool((q[j] <= self.lower[j] and qd[j] < 0.0)
                    or (q[j] >= self.upper[j] and qd[j] > 0.0))

    def _stop(self, x, q, qd, joints, locked):
        """
        Return the state after the inelastic stop of ``joints`` (indices) at their limits.

        The impulse of each stop acts at its joint only (equal and opposite on the bodies
        it joins: the vehicle's momentum is kept): delta v = (M + K)^-1 E lambda with
        E^T (v + delta v) = 0, M the joint-space inertia and K the exact added-mass
        remainders (articulated_dynamics), as DART's joint-limit constraints with no
        restitution.  E: the joints at a limit that would move outward (a stop pushes a
        joint back in only: the active set is found by adding and dropping joints) and
        the ``locked`` ones (a brake holds either way).
        """
        v = np.concatenate((x[7:13], qd))
        g = self.dynamics.joint_space_inverse(x, q)  # (M + K)^-1
        brakes = [6 + j for j in locked]
        stops = sorted(set(joints) | {j for j in range(len(q)) if j not in locked
                                      and (q[j] <= self.lower[j] or q[j] >= self.upper[j])})
        active = [6 + j for j in stops if self.outward(j, q, v[6:])]
        for _ in range(2 * len(stops) + 1):
            rows = active + brakes
            if not active:
                break
            lam = np.linalg.solve(g[np.ix_(rows, rows)], -v[rows])
            pulls = [k for k, value in zip(active, lam)
                     if (value < 0.0 if q[k - 6] <= self.lower[k - 6] else value > 0.0)]
            if pulls:
                active = [k for k in active if k not in pulls]
                continue
            moved = v + g[:, rows] @ lam
            moved[rows] = 0.0  # E^T (v + delta v) = 0, not its rounding
            more = [6 + j for j in stops if 6 + j not in active and self.outward(
                j, q, moved[6:])]
            if not more:
                v = moved
                break
            active = active + more
        x = np.array(x, dtype=float)
        x[7:13] = v[:6]
        self.events['limit_stops'] += len(joints)
        return x, q, v[6:].copy()
