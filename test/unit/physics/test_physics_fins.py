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


"""Tests of the fin lift/drag model, its wrench, the servos and the fin-aware integrators."""
import math
import pathlib

import numpy as np
import pytest

from uwv_hydro.description.loader import load_vehicle
from uwv_hydro.modes.fin_servos import FinServos
from uwv_hydro.modes.thrust_mux import transform_wrench
from uwv_hydro.physics.actuators.fins import FinSet
from uwv_hydro.physics.body.batch import BatchSimulator
from uwv_hydro.physics.body.dynamics import Simulator, State
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES, Fin, VehicleParams
from uwv_hydro.physics.hydro.hydro_model import HydroModel

REMUS = pathlib.Path(__file__).resolve().parents[3] / 'config' / 'remus100.yaml'
RHO = 1025.0


def _fin(**kw):
    """Return a fin at the origin, chord along x, lift along z (spanwise -y)."""
    values = {'name': 'fin', 'position': np.zeros(3), 'axis': np.array([0.0, -1.0, 0.0]),
              'forward': np.array([1.0, 0.0, 0.0]), 'upward': np.array([0.0, 0.0, 1.0]),
              'area': 0.02, 'cla': 3.0, 'cda': 0.4, 'alpha_stall': 0.3, 'cla_stall': -1.5,
              'cda_stall': 1.2}
    values.update(kw)
    return Fin(**values)


def _flow(speed, alpha):
    """Return the body twist whose velocity meets the fin at angle of attack alpha."""
    # The fin moves along (cos a, 0, -sin a): the water comes from below at angle a
    return np.array([speed * math.cos(alpha), 0.0, -speed * math.sin(alpha), 0, 0, 0])


def _lift_drag(fins, nu, angles=None):
    """Return (lift, drag) of fin 0: force along and against the flow's normal."""
    _, force, _ = fins.forces(nu, angles)
    v = np.asarray(nu[:3], float)
    v_hat = v / np.linalg.norm(v)
    span = np.array([0.0, -1.0, 0.0])
    lift_dir = np.cross(span, v_hat)
    f = force[0, 0]
    return f @ lift_dir, -(f @ v_hat), f


@pytest.mark.parametrize('alpha', [0.01, -0.02, 0.1, -0.25])
def test_small_angle_lift_and_two_line_drag(alpha):
    """Below the stall L = 1/2 rho U^2 A cla alpha and D = 1/2 rho U^2 A |cda alpha|."""
    fins = FinSet([_fin()], RHO)
    speed = 1.7
    lift, drag, force = _lift_drag(fins, _flow(speed, alpha))
    q = 0.5 * RHO * speed ** 2
    assert lift == pytest.approx(q * 0.02 * 3.0 * alpha, rel=1e-12, abs=1e-12)
    assert drag == pytest.approx(q * 0.02 * abs(0.4 * alpha), rel=1e-12, abs=1e-12)
    # Lift is perpendicular to the flow, drag along it: nothing else
    assert np.linalg.norm(force) == pytest.approx(math.hypot(lift, drag), rel=1e-12)


def test_deflection_adds_to_the_flow_angle():
    """With the axis spanwise, deflection d in a flow at angle a acts as alpha = a + d."""
    fins = FinSet([_fin()], RHO)
    both = _lift_drag(fins, _flow(1.2, 0.05), [0.08])
    flow_only = _lift_drag(FinSet([_fin()], RHO), _flow(1.2, 0.13))
    assert both[0] == pytest.approx(flow_only[0], rel=1e-12)
    assert both[1] == pytest.approx(flow_only[1], rel=1e-12)
    _, _, alpha = fins.forces(_flow(1.2, 0.05), [0.08])
    assert alpha[0, 0] == pytest.approx(0.13, rel=1e-12)


@pytest.mark.parametrize('sign', [1.0, -1.0])
def test_stall_on_both_sides(sign):
    """Past +-alpha_stall the slopes change to cla_stall / cda_stall; C_L keeps its sign."""
    fins = FinSet([_fin()], RHO)
    speed, a_s = 2.0, 0.3
    q_a = 0.5 * RHO * speed ** 2 * 0.02
    below = _lift_drag(fins, _flow(speed, sign * (a_s - 1e-9)))
    above = _lift_drag(fins, _flow(speed, sign * (a_s + 1e-9)))
    # Continuous at the stall angle
    assert above[0] == pytest.approx(below[0], rel=1e-6)
    assert above[1] == pytest.approx(below[1], rel=1e-6)
    alpha = sign * 0.5
    lift, drag, _ = _lift_drag(fins, _flow(speed, alpha))
    # gz-sim LiftDrag two-line model past the stall, written out
    cl = sign * (3.0 * a_s) + (-1.5) * (alpha - sign * a_s)
    cd = 0.4 * a_s + 1.2 * (abs(alpha) - a_s)
    assert lift == pytest.approx(cl * q_a, rel=1e-12)
    assert drag == pytest.approx(cd * q_a, rel=1e-12)
    assert abs(lift) < abs(below[0])          # lift falls past the stall
    # Far past the stall the lift coefficient stops at zero instead of changing sign
    # (the lift is the fin force projected on the lift axis by dot products, so it is
    # zero only to the rounding of the drag-sized force there, which follows the CPU's
    # BLAS kernel: 1e-12 of the dynamic pressure force is far below any lift)
    far, far_drag, _ = _lift_drag(fins, _flow(speed, sign * 1.2))
    assert abs(far) <= 1e-12 * max(q_a, abs(far_drag))


def test_zero_deflection_in_straight_flow_gives_no_lift():
    """A symmetric fin aligned with the flow has no lift (and no drag in the two-line model)."""
    params = load_vehicle(str(REMUS))
    model = HydroModel(params)
    wc = model.wrench([1.5, 0, 0, 0, 0, 0], fin_angles=np.zeros(4))
    assert np.all(np.abs(wc.components['fins']) < 1e-12)


def test_fin_wrench_equals_the_force_applied_in_its_frame():
    """The fin wrench about the origin equals its force applied in a frame at the CoP."""
    fin = _fin(position=np.array([-0.6, 0.2, 0.15]), cp=np.array([0.01, 0.03, -0.02]),
               axis=np.array([0.0, 0.0, 1.0]), upward=np.array([0.0, 1.0, 0.0]))
    fins = FinSet([fin], RHO)
    nu = np.array([1.3, 0.1, -0.05, 0.2, -0.1, 0.3])
    delta = 0.2
    points, force, _ = fins.forces(nu, [delta])
    # A frame at the rotated CoP with the deflected fin's axes (rotation about z by delta)
    c, s = math.cos(delta), math.sin(delta)
    rot = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    q_wxyz = np.array([math.cos(delta / 2), 0.0, 0.0, math.sin(delta / 2)])
    cp = fin.position + rot @ fin.cp
    assert np.allclose(points[0, 0], cp, rtol=0, atol=1e-15)
    local = np.concatenate([rot.T @ force[0, 0], np.zeros(3)])
    expected = transform_wrench(local, cp, q_wxyz)
    assert np.allclose(fins.wrench(nu, [delta]), expected, rtol=1e-12, atol=1e-12)


def test_flow_at_the_centre_of_pressure_includes_rotation():
    """A yaw rate alone moves a stern rudder sideways: w x r enters its flow angle."""
    fin = _fin(position=np.array([-0.8, 0.0, 0.0]), axis=np.array([0.0, 0.0, 1.0]),
               upward=np.array([0.0, 1.0, 0.0]))
    fins = FinSet([fin], RHO)
    r = 0.2
    _, _, alpha = fins.forces([1.0, 0, 0, 0, 0, r])
    # The fin's velocity is (1, -0.8 r, 0): alpha = atan2(-v.u, v.f) = atan(0.8 r)
    assert alpha[0, 0] == pytest.approx(math.atan(0.8 * r), rel=1e-12)


def test_one_state_path_equals_the_vectorised_path():
    """FinSet.wrench (plain floats) equals wrench_many (numpy) over stall, reverse flow, rates."""
    fins = FinSet([_fin(position=np.array([-0.6, 0.1, 0.2]), cp=np.array([0.02, 0, 0.01])),
                   _fin(name='b', model='quadratic', lift_constant=5.0, drag_constant=1.0,
                        axis=np.array([0.0, 0.0, 1.0]), upward=np.array([0.0, 1.0, 0.0])),
                   _fin(name='c', a0=0.05, control_joint_rad_to_cl=2.0,
                        position=np.array([0.3, -0.2, 0.0]))], RHO)
    rng = np.random.default_rng(7)
    nu = rng.normal(0.0, 1.0, (300, 6))
    nu[:100, 0] += 1.5            # mostly forward flow
    nu[100:150] *= 0.004          # below the 1 cm/s threshold for some fins
    angles = rng.uniform(-1.2, 1.2, (300, 3))
    many = fins.wrench_many(nu, angles)
    for k in range(300):
        assert np.allclose(fins.wrench(nu[k], angles[k]), many[k], rtol=1e-12, atol=1e-13)
    assert np.abs(many).max() > 1.0


def test_quadratic_model():
    """uuv_simulator's quadratic model: L = k_L alpha U^2, D = k_D alpha^2 U^2."""
    fins = FinSet([_fin(model='quadratic', lift_constant=7.0, drag_constant=2.0)], RHO)
    alpha, speed = 0.12, 1.4
    lift, drag, _ = _lift_drag(fins, _flow(speed, alpha))
    assert lift == pytest.approx(7.0 * alpha * speed ** 2, rel=1e-12)
    assert drag == pytest.approx(2.0 * alpha ** 2 * speed ** 2, rel=1e-12)


def test_remus_sign_convention():
    """Positive rudder: positive yaw moment and rate (to port); positive stern: nose down."""
    params = load_vehicle(str(REMUS))
    names = [f.name for f in params.fins]
    rudders = np.array([n.startswith('rudder') for n in names], float)
    sterns = np.array([n.startswith('stern') for n in names], float)
    model = HydroModel(params)
    nu = [1.5, 0, 0, 0, 0, 0]
    yaw = model.wrench(nu, fin_angles=0.1 * rudders).components['fins']
    pitch = model.wrench(nu, fin_angles=0.1 * sterns).components['fins']
    assert yaw[5] > 0.0 and abs(yaw[4]) < 1e-12 and abs(yaw[3]) < 1e-12
    assert pitch[4] > 0.0 and abs(pitch[5]) < 1e-12 and abs(pitch[3]) < 1e-12
    # Prestero's fin derivative per pair: |Y| = 9.64 U^2 delta (area chosen for it)
    assert abs(yaw[1]) == pytest.approx(9.64 * 1.5 ** 2 * 0.1, rel=2e-3)
    sim = Simulator(params, dt=0.01)
    for angles, axis in ((0.1 * rudders, 5), (0.1 * sterns, 4)):
        sim.set_fin_angles(angles)
        state = State(position=[0, 0, -5.0], twist=nu)
        for _ in range(50):
            state = sim.step(state, [1.62 * 1.5 ** 2, 0, 0, 0, 0, 0])
        assert state.twist[axis] > 0.01


def test_servo_first_order_lag_and_rate_limit():
    """A step reaches 1 - 1/e of its size after T; the rate limit bounds every step."""
    lag = FinServos([_fin(time_constant=0.4, lower=-1.0, upper=1.0)])
    lag.command(0, 0.3, 0.0)
    dt = 0.001
    for k in range(400):
        lag.step(dt, k * dt)
    assert lag.angles[0] == pytest.approx(0.3 * (1.0 - math.exp(-1.0)), rel=1e-9)
    limited = FinServos([_fin(time_constant=0.05, velocity=0.5, lower=-1.0, upper=1.0)])
    limited.command(0, -0.8, 0.0)
    previous = 0.0
    for k in range(100):
        angle = limited.step(0.01, k * 0.01)[0]
        assert abs(angle - previous) <= 0.5 * 0.01 + 1e-15
        previous = angle
    # Still slewing at the limit after 1 s (the lag alone would be there long ago)
    assert previous == pytest.approx(-0.5, rel=1e-9)


def test_servo_limits_rejects_and_watchdog():
    """Commands are clamped to the joint limits; NaN is rejected; stale: hold or centre."""
    for action, expected in (('hold', 0.2), ('centre', 0.0)):
        servos = FinServos([_fin(lower=-0.3, upper=0.2)], timeout=0.5, on_timeout=action)
        assert servos.command(0, 1.0, 0.0) and servos.commands[0] == 0.2
        assert servos.clamped == 1
        assert not servos.command(0, float('nan'), 0.1) and servos.rejected == 1
        for k in range(40):
            servos.step(0.01, k * 0.01)
        assert servos.angles[0] == pytest.approx(0.2)
        assert not servos.stale(0.5)[0] and servos.stale(0.51)[0]
        for k in range(100):
            servos.step(0.01, 1.0 + k * 0.01)
        assert servos.angles[0] == pytest.approx(expected)


def _remus_state():
    return State(position=[1.0, 2.0, -5.0],
                 quaternion=[math.cos(0.2), 0.05, -0.03, math.sin(0.2)],
                 twist=[1.4, 0.08, -0.05, 0.02, -0.04, 0.06])


def test_simulator_step_matches_rk4_of_the_reference_derivative():
    """The fast step with fins equals RK4 over the term-by-term derivative (fins held)."""
    params = load_vehicle(str(REMUS))
    sim = Simulator(params, dt=0.02, substeps=2)
    sim.set_fin_angles([0.1, 0.1, -0.2, -0.2])
    tau, current = np.array([3.6, 0, 0, 0.01, 0, 0]), np.array([0.2, -0.1, 0.0])
    x0 = _remus_state()
    x = np.concatenate((x0.position, x0.quaternion / np.linalg.norm(x0.quaternion),
                        x0.twist))
    h = sim.dt / 2
    f = sim._flat_derivative
    for _ in range(2):
        # Classic RK4 over the reference derivative, quaternion renormalised per sub-step
        k1 = f(x, tau, current)
        k2 = f(x + 0.5 * h * k1, tau, current)
        k3 = f(x + 0.5 * h * k2, tau, current)
        k4 = f(x + h * k3, tau, current)
        x = x + h / 6.0 * (k1 + 2.0 * (k2 + k3) + k4)
        x[3:7] /= np.linalg.norm(x[3:7])
    got = sim.step(x0, tau, current)
    assert np.allclose(got.twist, x[7:], rtol=1e-12, atol=1e-12)
    assert np.allclose(got.position, x[:3], rtol=0, atol=1e-12)
    # The fins matter here: the same step without them is far off
    sim.set_fin_angles(np.zeros(4))
    assert not np.allclose(sim.step(x0, tau, current).twist, got.twist, atol=1e-4)
    # dynamics_only integrates the twist with the fins too
    frozen = Simulator(params, dt=0.02, dynamics_only=True)
    centred = frozen.step(x0, tau).twist[5]
    frozen.set_fin_angles([0.3, 0.3, 0.0, 0.0])
    assert frozen.step(x0, tau).twist[5] > centred + 1e-3


def test_wrench_many_and_current_with_fins():
    """wrench_many equals wrench per state; fins see the twist relative to the water."""
    params = load_vehicle(str(REMUS))
    model = HydroModel(params)
    rng = np.random.default_rng(3)
    nu = rng.normal(0.0, 0.2, (5, 6)) + [1.4, 0, 0, 0, 0, 0]
    angles = rng.uniform(-0.3, 0.3, (5, 4))
    current = np.array([0.3, -0.2, 0.05])
    many = model.wrench_many(nu, quaternion=np.tile([1.0, 0, 0, 0], (5, 1)),
                             current_world=current, fin_angles=angles)
    for k in range(5):
        one = model.wrench(nu[k], current_world=current, fin_angles=angles[k])
        fins = COMPONENT_NAMES.index('fins')
        assert np.allclose(many[k, fins], one.components['fins'], rtol=1e-12, atol=1e-12)
        # Level attitude: the body current is the world current
        still = model.wrench(nu[k] - np.concatenate([current, np.zeros(3)]),
                             fin_angles=angles[k])
        assert np.allclose(one.components['fins'], still.components['fins'], atol=1e-12)


def test_batch_simulator_with_fins_matches_simulator():
    """The batch integrator with per-vehicle fin angles equals one Simulator per vehicle."""
    params = load_vehicle(str(REMUS))
    finless = VehicleParams(mass=10.0, inertia=np.eye(3), buoyancy_mass=10.0)
    batch = BatchSimulator([params, finless, params], dt=0.02)
    angles = np.array([[0.1, 0.1, 0.0, 0.0], [0.3, 0.3, 0.3, 0.3], [0.0, 0.0, -0.2, -0.2]])
    x0 = _remus_state()
    state = batch.initial_state(x0.position, x0.quaternion, x0.twist)
    tau = np.array([3.6, 0, 0, 0, 0, 0])
    for _ in range(3):
        state = batch.step(state, tau, fin_angles=angles)
    for k, p in enumerate([params, finless, params]):
        sim = Simulator(p, dt=0.02)
        if p.fins:
            sim.set_fin_angles(angles[k])
        one = x0
        for _ in range(3):
            one = sim.step(one, tau)
        assert np.allclose(state.twist[k], one.twist, rtol=1e-12, atol=1e-12)
        assert np.allclose(state.position[k], one.position, rtol=1e-12, atol=1e-12)
