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
The tether's cable (MoorDyn) against the physics: closed forms and invariants.

* the static elastic catenary between two points against Irvine's closed form
  (horizontal tension, vertical tension, sag, end angle);
* a straight cable across a uniform current against 1/2 rho Cd d U^2 L;
* the coupled vehicle and cable in still water: the total mechanical energy never
  grows, and the coupling's work mismatch (its bound) stays a small part of it; their
  momentum changes by the far end's impulse and the cable's weight;
* a vehicle held on its tether in a current: the tension balances the vehicle's drag.
"""
import math

import numpy as np
import pytest

from required_modules import require

require('moordyn')

from uwv_hydro.description.errors import DescriptionError  # noqa: E402
from uwv_hydro.description.yaml.params import load_yaml_string  # noqa: E402
from uwv_hydro.modes.simulate_mode import SimulateMode  # noqa: E402
from uwv_hydro.modes.tether import Tether  # noqa: E402
from uwv_hydro.physics.body.dynamics import State  # noqa: E402
from uwv_hydro.physics.environment.catenary import solve_catenary  # noqa: E402
from uwv_hydro.physics.environment.tether_spec import TetherSpec, weight_in_water  # noqa: E402

RHO, G = 1025.0, 9.80665

#: a neutrally buoyant sphere (r = 0.1 m) with isotropic quadratic drag, CoB = CoM
SPHERE = """
vehicle:
  name: sphere
  mass: 4.293509959906051
  inertia: {ixx: 0.017174039839624204, iyy: 0.017174039839624204, izz: 0.017174039839624204}
  fluid_density: 1025.0
  volume: 0.004188790204786391
  added_mass: [2.1467549799530254, 2.1467549799530254, 2.1467549799530254, 0.0, 0.0, 0.0]
  quadratic_drag: {xxx: %(q)s, yyy: %(q)s, zzz: %(q)s}
"""


def _hold(tether, seconds, dt=0.01, current=None):
    """Run the cable with its vehicle end held where it is."""
    for _ in range(int(round(seconds / dt))):
        tether.step(tether.attach, tether.attach, dt, current)


def test_static_catenary_matches_the_elastic_closed_form():
    """Level ends 20 m apart, 30 m of sinking cable: H, V, sag and angle within 1 %."""
    spec = TetherSpec(length=30.0, anchor=np.array([0.0, 0.0, -30.0]), mass_per_length=0.1,
                      axial_stiffness=1e5)
    tether = Tether(spec, [20.0, 0.0, -30.0], RHO, G, depth=200.0)
    _hold(tether, 3.0)
    exact = solve_catenary(20.0, 0.0, 30.0, weight_in_water(spec, RHO, G), 1e5)
    force = tether.force  # the cable's pull on the vehicle end: toward the anchor, down
    assert -force[0] == pytest.approx(exact.horizontal_tension, rel=0.01)
    assert -force[2] == pytest.approx(exact.vertical_tension_b, rel=0.01)
    # 20 segments: the middle node is the lowest point of the symmetric catenary
    nodes = tether.nodes()
    assert -30.0 - nodes[10, 2] == pytest.approx(exact.sag(), rel=0.01)
    angle = math.atan2(-force[2], -force[0])
    assert angle == pytest.approx(exact.end_angles()[1], rel=0.01)
    tether.close()


def test_catenary_closed_form_meets_its_ends():
    """The solved shape passes through B, and a heavier cable sags deeper (sanity)."""
    c = solve_catenary(20.0, 5.0, 30.0, 0.5, 1e5)
    x, z = c.point(30.0)
    assert x == pytest.approx(20.0, abs=1e-9) and z == pytest.approx(5.0, abs=1e-9)
    # inextensible limit of a level span: H from the parabola w s^2 / (8 f) is near
    shallow = solve_catenary(100.0, 0.0, 100.5, 0.5, 1e12)
    assert shallow.horizontal_tension == pytest.approx(
        0.5 * 100.0 ** 2 / (8 * shallow.sag()), rel=0.02)


def test_straight_cable_drag_matches_morison():
    """A taut, neutrally buoyant cable across a uniform current: 1/2 rho Cd d U^2 L."""
    d, length, speed = 0.0076, 10.0, 0.5
    spec = TetherSpec(length=length, anchor=np.array([0.0, 0.0, -20.0]),
                      mass_per_length=RHO * math.pi * d * d / 4, axial_stiffness=1e7,
                      diameter=d)
    # stretched by 1e-3 (pretension 1e4 N): straight to within its drag / tension
    tether = Tether(spec, [length * 1.001, 0.0, -20.0], RHO, G, depth=200.0)
    _hold(tether, 2.0, current=[0.0, speed, 0.0])
    drag = 0.5 * RHO * spec.cd_normal * d * speed ** 2 * length
    # symmetric: each end carries half the drag, pulled downstream by the cable
    assert tether.force[1] == pytest.approx(0.5 * drag, rel=0.01)
    assert np.max(np.abs(tether.nodes()[:, 1])) < 0.01 * length
    tether.close()


def _sphere_mode(drag, spec, start, velocity=(0.0, 0.0, 0.0), **cable):
    params = load_yaml_string(SPHERE % {'q': drag}, '<sphere>')
    initial = State(position=np.array(start, float), quaternion=np.array([1.0, 0, 0, 0]),
                    twist=np.array(list(velocity) + [0.0, 0.0, 0.0]))
    mode = SimulateMode(params, dt=0.01, initial=initial)
    mode.tether = Tether(spec, mode.attachment.__func__(_Probe(spec), mode.x), RHO, G,
                         depth=200.0, **cable)
    return mode


class _Probe:
    """Stand-in owner for SimulateMode.attachment before the tether exists."""

    def __init__(self, spec):
        self.tether = type('T', (), {'spec': spec})()


def test_coupled_system_gains_no_energy_in_still_water():
    """A drag-free vehicle jerks its slack tether taut: vehicle + cable energy never grows."""
    spec = TetherSpec(length=20.0, anchor=np.array([0.0, 0.0, -30.0]), ca_normal=0.0)
    mode = _sphere_mode(0.0, spec, [15.0, 0.0, -30.0], velocity=(1.0, 0.0, 0.0))
    mass = mode.sim.model.mass_matrix()

    def energy():
        nu = np.array(mode.x[7:])
        return 0.5 * nu @ mass @ nu + mode.tether.cable_energy()

    e0 = energy()
    kinetic0 = 0.5 * np.array(mode.x[7:]) @ mass @ np.array(mode.x[7:])
    history = []
    for _ in range(1500):
        assert mode.tether_step()
        history.append(energy())
    history = np.array(history)
    # the tether went taut: the vehicle gave up most of its kinetic energy
    assert history[-1] < e0 - 0.5 * kinetic0
    # never above the start (0.1 % of the kinetic energy: the cable's strain energy is
    # counted from node positions, to MoorDyn's internal-damping lag)
    assert np.max(history - e0) < 1e-3 * kinetic0
    # nor does the energy rise between steps by more than the coupling's stated bound
    rises = np.maximum(np.diff(history), 0.0)
    assert np.sum(rises) < 1e-2 * kinetic0
    assert mode.tether.work_mismatch_abs < 1e-2 * kinetic0


def test_coupled_system_momentum_changes_by_the_far_ends_impulse():
    """
    Drag-free, in still water: d/dt (vehicle + cable momentum) = the far end's force + weight.

    The far end is a vessel held still (a coupled point, whose load MoorDyn returns);
    the vehicle's momentum is (m + m_a) v (a sphere: no rotation), the cable's the sum
    of its lumped node masses times their velocities (no added mass: ca = 0).
    """
    spec = TetherSpec(length=20.0, anchor=np.array([0.0, 0.0, -30.0]), ca_normal=0.0,
                      ca_tangential=0.0, cd_normal=0.0, cd_tangential=0.0)
    mode = _sphere_mode(0.0, spec, [15.0, 0.0, -30.0], velocity=(1.0, 0.0, 0.0),
                        far_coupled=True)
    mass, tether = mode.sim.model.mass_matrix(), mode.tether
    lumps = np.full(tether.n_nodes, spec.length / (tether.n_nodes - 1))
    lumps[[0, -1]] /= 2

    def momentum():
        vehicle = (mass @ np.array(mode.x[7:]))[:3]
        cable = np.sum((spec.mass_per_length * lumps)[:, None] * tether.node_velocities(),
                       axis=0)
        return vehicle, vehicle + cable

    vehicle0, total0 = momentum()
    impulse, dt, steps = np.zeros(3), 0.01, 1500
    for _ in range(steps):
        assert mode.tether_step()
        impulse -= tether.far_mean_force * dt  # the far end's force on the cable
    # the cable's weight less its buoyancy, over the run (down)
    impulse[2] -= weight_in_water(spec, RHO, G) * spec.length * steps * dt
    vehicle, total = momentum()
    change = np.linalg.norm(vehicle - vehicle0)
    assert change > 10.0  # the tether went taut and stopped the vehicle
    # within 1 % of the vehicle's momentum change (the step's trapezoid and coupling)
    assert np.all(np.abs(total - total0 - impulse) < 0.01 * change)
    tether.close()


def test_vehicle_held_in_a_current_balances_the_drags():
    """Steady in a current on its tether: the tension at the vehicle = its drag Q U^2."""
    q, speed = 7.567, 0.4
    spec = TetherSpec(length=20.0, anchor=np.array([-18.0, 0.0, -30.0]))
    mode = _sphere_mode(q, spec, [0.0, 0.0, -30.0])
    current = np.array([speed, 0.0, 0.0])
    for _ in range(6000):
        assert mode.tether_step(current=current)
    # at rest along the current (the buoyant cable still lifts it by ~1 mm/s)
    assert abs(mode.x[7]) < 1e-3 and abs(mode.x[9]) < 5e-3
    drag = q * speed * speed  # -Q |u_r| u_r with u_r = -U: downstream
    assert -mode.tether.mean_force[0] == pytest.approx(drag, rel=0.01)


@pytest.mark.parametrize('key, value, words', [
    ('length', -1.0, 'length'), ('diameter', 0.0, 'diameter'),
    ('axial_stiffness', -5.0, 'EA'), ('cd_normal', -1.0, 'normal drag'),
])
def test_yaml_refuses_non_physical_numbers(key, value, words):
    """A zero or negative property is an error naming the key and the value."""
    text = SPHERE % {'q': 1.0} + '  tether: {length: 30.0, %s: %r}\n' % (key, value)
    if key == 'length':
        text = SPHERE % {'q': 1.0} + '  tether: {length: %r}\n' % value
    with pytest.raises(DescriptionError) as err:
        load_yaml_string(text, '<t.yaml>')
    message = str(err.value)
    assert 'tether.' + key in message and words in message and repr(value) in message


def test_yaml_reads_the_tether_onto_the_model():
    """The keys reach the spec; the ones left out take the Fathom defaults."""
    text = SPHERE % {'q': 1.0} + ('  tether: {length: 30.0, attachment: [-0.2, 0.0, 0.1], '
                                  'anchor: [0.0, 0.0, 0.0], segments: 12}\n')
    spec = load_yaml_string(text, '<t.yaml>').tether
    assert spec.length == 30.0 and spec.segments == 12
    assert list(spec.attachment) == [-0.2, 0.0, 0.1]
    assert spec.diameter == TetherSpec(length=1.0).diameter


UMBILICAL = """
  <gazebo>
    <plugin name="umbilical" filename="libuuv_umbilical_plugin.so">
      <flow_velocity_topic>hydrodynamics/current_velocity</flow_velocity_topic>
      <umbilical_model>
        <type>Berg</type>
        <connector_link>${ns}/base_link</connector_link>
        <diameter>0.03</diameter>
        <water_density>1000.0</water_density>
      </umbilical_model>
    </plugin>
  </gazebo>
</robot>
"""


def _tethered_rexrov(tmp_path):
    from pathlib import Path
    from uwv_hydro.description.loader import load_vehicle
    corpus = Path(__file__).parents[2] / 'corpus' / 'uuv_simulator' / 'rexrov_like.urdf.xacro'
    text = corpus.read_text(encoding='utf-8')
    cut = text.rindex('</robot>')
    path = tmp_path / 'rexrov_umbilical.urdf.xacro'
    path.write_text(text[:cut] + UMBILICAL + text[cut + len('</robot>'):], encoding='utf-8')
    return load_vehicle(str(path))


def test_uuv_umbilical_elements_are_read_onto_the_cable(tmp_path):
    """The uuv <diameter> and <connector_link> reach the spec; the warning says how uuv differs."""
    from uwv_hydro.description.uuv.umbilical_plugin import DEFAULT_LENGTH
    params = _tethered_rexrov(tmp_path)
    spec = params.tether
    assert spec.diameter == 0.03 and spec.length == DEFAULT_LENGTH
    assert list(spec.attachment) == [0.0, 0.0, 0.0]  # the base link's origin
    text = ' '.join(params.warnings)
    assert 'differs from uuv' in text and '0.25 x 1.2 x rho' in text
    assert 'water_density> 1000' in text  # not the vehicle's water: warned
    rows = [r for r in params.elements if 'umbilical' in r.name]
    assert [r.status for r in rows] == ['read']


def test_tethered_rexrov_flies_with_the_tension_on_it(tmp_path):
    """The uuv-read RexROV in simulate mode: its tether pulls it (finite, along the cable)."""
    from uwv_hydro.modes.tether import start_tether
    params = _tethered_rexrov(tmp_path)
    initial = State(position=np.array([30.0, 0.0, -20.0]),
                    quaternion=np.array([1.0, 0.0, 0.0, 0.0]), twist=np.zeros(6))
    mode = SimulateMode(params, dt=0.01, initial=initial)
    mode.tether = start_tether(mode, params)
    for _ in range(100):
        assert mode.tether_step()
    assert np.all(np.isfinite(mode.x)) and np.all(np.isfinite(mode.tether.mean_force))
    # the far end is at the origin's surface: the cable pulls toward it (-x), and the
    # wrench the vehicle felt is that force in its body axes
    assert mode.tether.mean_force[0] < 0
    assert np.linalg.norm(mode.last_tau[:3]) > 0 if mode.last_tau is not None else True


def test_bluerov2_tethered_config_flies_offline_with_its_outputs():
    """config/bluerov2_tethered.yaml offline: tension and nodes every sample, finite."""
    from pathlib import Path
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.modes.offline_simulation import simulate
    params = load_vehicle(str(Path(__file__).parents[3] / 'config' / 'bluerov2_tethered.yaml'))
    initial = State(position=np.array([0.0, 0.0, -5.0]),
                    quaternion=np.array([1.0, 0.0, 0.0, 0.0]), twist=np.zeros(6))
    traj = simulate(params, 1.0, dt=0.01, initial=initial)
    tether = traj.tether
    assert tether['tension'].shape == (101, 3) and tether['error'] is None
    assert tether['nodes'].shape == (101, params.tether.segments + 1, 3)
    assert np.all(np.isfinite(tether['tension'])) and np.all(np.isfinite(tether['nodes']))
    # the cable's ends: the anchor and the attachment on the vehicle
    assert np.allclose(tether['nodes'][:, 0], params.tether.anchor, atol=1e-9)
    from uwv_hydro.physics.spatial.rotation import quat_to_matrix
    attach = traj.position[-1] + quat_to_matrix(traj.quaternion[-1]) @ params.tether.attachment
    # the cable's end went along the step's predicted motion: within the corrector's change
    assert np.linalg.norm(tether['nodes'][-1, -1] - attach) < 1e-4


def test_a_taut_tether_is_said_with_its_strain():
    """Ends farther apart than the length: a warning naming the distance and the tension."""
    from uwv_hydro.modes.tether import start_tether
    params = load_yaml_string(SPHERE % {'q': 1.0} + '  tether: {length: 10.0, anchor: '
                              '[-10.05, 0.0, -20.0]}\n', '<t.yaml>')
    initial = State(position=np.array([0.0, 0.0, -20.0]),
                    quaternion=np.array([1.0, 0.0, 0.0, 0.0]), twist=np.zeros(6))
    mode = SimulateMode(params, dt=0.01, initial=initial)
    said = []
    mode.tether = start_tether(mode, params, log=lambda *a: said.append(a))
    assert said and said[0][1] == 'tether_taut'
    assert '10.05 m apart' in said[0][2] and '0.5 %' in said[0][2]


def test_a_moordyn_failure_drops_the_tether_and_keeps_the_vehicle_finite():
    """A step far too long for the cable: a clear error with the values, no NaN anywhere."""
    spec = TetherSpec(length=20.0, anchor=np.array([0.0, 0.0, -30.0]))
    from uwv_hydro.modes.tether import internal_step
    # MoorDyn's step 20 x the stable one (10 x beyond its explicit stability limit)
    mode = _sphere_mode(1.0, spec, [15.0, 0.0, -30.0], velocity=(1.0, 0.0, 0.0),
                        dt_m=20 * internal_step(spec, RHO))
    said = []
    mode._log = lambda *a: said.append(a)
    for _ in range(300):
        mode.tether_step()
        if mode.tether is None:
            break
    assert mode.tether is None and mode.tether_error is not None
    assert 'non-finite' in mode.tether_error and 'EA = 65000' in mode.tether_error
    assert said[-1][1] == 'tether_failed'
    assert np.all(np.isfinite(mode.x))


def test_cable_rests_on_the_flat_seabed_with_the_contact_spring_penetration():
    """The slack part lies on the seabed, sunk by its weight over MoorDyn's contact spring."""
    from uwv_hydro.modes.tether import K_BOTTOM
    spec = TetherSpec(length=30.0, anchor=np.array([0.0, 0.0, -20.0]), mass_per_length=0.1,
                      axial_stiffness=1e5)
    tether = Tether(spec, [26.0, 0.0, -15.0], RHO, G, depth=20.0)
    _hold(tether, 5.0)
    z = tether.nodes()[1:, 2]  # the anchor (node 0) is fixed at the seabed itself
    # a resting node: K d l delta = w l, so delta = w / (K d) below the seabed
    sink = weight_in_water(spec, RHO, G) / (K_BOTTOM * spec.diameter)
    resting = z[z < -20.0 + 1e-3][:-1]  # less the touchdown node, half suspended
    assert len(resting) >= 4
    assert -20.0 - np.min(z) == pytest.approx(sink, rel=0.05)
    # every resting node at that depth: the laid part lies flat on the seabed
    assert np.all(np.abs(resting + 20.0 + sink) < 0.05 * sink)
    tether.close()


def test_the_cable_feels_the_current_field_as_the_uniform_current():
    """The field sampled at every node: a constant field drags as the uniform current."""
    from uwv_hydro.physics.environment.current_field import ConstantCurrent
    d, length, speed = 0.0076, 10.0, 0.5
    spec = TetherSpec(length=length, anchor=np.array([0.0, 0.0, -20.0]),
                      mass_per_length=RHO * math.pi * d * d / 4, axial_stiffness=1e7,
                      diameter=d)
    tether = Tether(spec, [length * 1.001, 0.0, -20.0], RHO, G, depth=200.0,
                    field=ConstantCurrent([0.0, speed, 0.0]))
    _hold(tether, 2.0)
    # 1/2 rho Cd d U^2 L, half at each end
    assert tether.force[1] == pytest.approx(
        0.25 * RHO * spec.cd_normal * d * speed ** 2 * length, rel=0.01)
    tether.close()


def test_check_gives_the_weight_in_water_and_says_taut():
    """The figures of check: w = (m' - rho pi d^2 / 4) g; ends too far apart are taut."""
    from uwv_hydro.cli.check_tether import tether_lines, tether_summary
    spec = TetherSpec(length=30.0, anchor=np.array([-20.0, 0.0, -10.0]), mass_per_length=0.1)
    summary = tether_summary(spec, RHO, G)
    assert summary['weight_in_water_per_m'] == pytest.approx(
        (0.1 - RHO * math.pi * 0.0076 ** 2 / 4) * G, rel=1e-12)
    assert summary['catenary']['sag'] > 0 and summary['taut_strain'] == 0
    taut = tether_summary(spec.moved(length=20.0), RHO, G)
    assert taut['taut_strain'] == pytest.approx(math.hypot(20.0, 10.0) / 20.0 - 1, rel=1e-12)
    assert any(line.startswith('  taut:') for line in tether_lines(taut))


def test_reset_hangs_the_cable_again_from_the_reset_state():
    """After a run, reset: the cable's force at the vehicle is the start's again."""
    spec = TetherSpec(length=30.0, anchor=np.array([-20.0, 0.0, -10.0]), mass_per_length=0.1)
    mode = _sphere_mode(1.0, spec, [0.0, 0.0, -10.0], velocity=(0.5, 0.0, 0.0))
    first = mode.tether.force.copy()
    for _ in range(100):
        assert mode.tether_step()
    assert np.linalg.norm(mode.tether.force - first) > 1e-3 * np.linalg.norm(first)
    mode.reset()
    # the same static solution from the same state (MoorDyn's relaxation, to its threshold)
    np.testing.assert_allclose(mode.tether.force, first, rtol=1e-6, atol=1e-9)
    assert mode.tether.t == 0.0


def test_the_cable_rests_on_the_world_seabed_of_the_vehicle():
    """One seabed: a flat one's depth, a grid's depth under the anchor (said), none over a hole."""
    from uwv_hydro.modes.tether import cable_seabed_depth
    from uwv_hydro.physics.environment.seabed import FlatSeabed, GridSeabed
    spec = TetherSpec(length=30.0, anchor=np.array([3.0, 1.0, -10.0]))
    said = []

    def log(level, key, text):
        said.append((key, text))
    assert cable_seabed_depth(spec, None, log=log) is None
    assert cable_seabed_depth(spec, FlatSeabed(42.0), log=log) == pytest.approx(42.0, abs=1e-12)
    assert not said
    # a plane z = -20 - 0.5 x as a grid: under the anchor (x = 3) the seabed is 21.5 m deep
    x = np.arange(-10.0, 11.0)
    heights = np.tile(-20.0 - 0.5 * x, (len(x), 1))
    grid = GridSeabed(heights, -10.0, -10.0, 1.0, 1.0)
    assert cable_seabed_depth(spec, grid, log=log) == pytest.approx(21.5, abs=1e-9)
    assert said[-1][0] == 'tether_seabed' and '21.5 m deep' in said[-1][1]
    # an anchor outside the grid has no bottom under it: no seabed, and it is said
    far = TetherSpec(length=30.0, anchor=np.array([50.0, 0.0, -10.0]))
    assert cable_seabed_depth(far, grid, log=log) is None
    assert 'over no seabed' in said[-1][1]
