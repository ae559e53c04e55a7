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
Look-alikes of the flagship SDF vehicles: DAVE's gz DVL arrangement, a world with Fuel scenery.

test/corpus/dave/dvl_arrangement.sdf reproduces DAVE rexrov's DVL (four <beam> in an
<arrangement degrees="true">), test/corpus/gz_sim/fuel_sun_world.sdf
bluerov2_ignition's world (a Fuel Sun beside a local vehicle).
"""
import dataclasses
import math
import pathlib

from required_modules import require  # noqa: I100

require('marine_acoustic_msgs')

from marine_acoustic_msgs.msg import Dvl  # noqa: E402, I100
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from uwv_hydro.description.errors import DescriptionError  # noqa: E402
from uwv_hydro.description.loader import load_vehicle, load_yaml_string  # noqa: E402
from uwv_hydro.description.yaml.export import export_yaml  # noqa: E402
from uwv_hydro.modes.messages.dvl_message import fill_dvl  # noqa: E402
from uwv_hydro.modes.offline_simulation import simulate  # noqa: E402
from uwv_hydro.physics.sensing.sensors import build_sensor  # noqa: E402

CORPUS = pathlib.Path(__file__).parents[2] / 'corpus'
DVL_ROV = CORPUS / 'dave' / 'dvl_arrangement.sdf'
WORLD = CORPUS / 'gz_sim' / 'fuel_sun_world.sdf'
MODELS = CORPUS / 'gz_sim' / 'models'
#: The look-alike's beams: (rotation, tilt) in degrees, its reference-frame yaw and the
#: DVL link's yaw in the base frame.
BEAMS_DEG = ((-150.0, 22.0), (150.0, 22.0), (30.0, 22.0), (-30.0, 22.0))
REFERENCE_YAW = math.pi / 2
LINK_YAW = math.pi


def rx(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def ry(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rz(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def gz_beams_in_reference_frame():
    """Beam axes as gz's DopplerVelocityLog builds them, by rotation matrices."""
    out = []
    for rotation, tilt in BEAMS_DEG:
        # beams frame axis R_x(psi) R_y(phi) x; sensor <- beams frame R_y(90 deg)
        in_sensor = ry(math.pi / 2) @ rx(math.radians(rotation)) @ ry(math.radians(tilt)) \
            @ np.array([1.0, 0.0, 0.0])
        out.append(rz(REFERENCE_YAW).T @ in_sensor)  # gz: reference <- sensor is R^T
    return np.array(out)


@pytest.fixture
def models_path(monkeypatch):
    for variable in ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                     'GAZEBO_MODEL_PATH'):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(MODELS))
    return monkeypatch


def _dvl(params):
    (sensor,) = [s for s in params.sensors if s.kind == 'dvl']
    return sensor


def test_dvl_arrangement_of_four_beams_is_read_as_gz_places_them():
    params = load_vehicle(str(DVL_ROV))
    assert len(params.thrusters) == 1 and not params.fins
    assert sorted(s.kind for s in params.sensors) == ['dvl']
    beams = np.array(_dvl(params).model.beam_directions)
    assert beams == pytest.approx(gz_beams_in_reference_frame(), abs=1e-12)
    # every beam 22 deg from the sensor's -z (the reference frame only turns about z)
    assert np.degrees(np.arccos(-beams[:, 2])) == pytest.approx([22.0] * 4, abs=1e-9)
    notes = ' '.join(e.note for e in params.elements if e.name == 'dvl')
    assert 'aperture not modelled' in notes and 'water_mass_mode not modelled' in notes


def _two_beams(text):
    # drop the last two <beam> elements
    for _ in range(2):
        end = text.rindex('</beam>') + len('</beam>')
        text = text[:text.rindex('<beam>', 0, end)] + text[end:]
    return text


@pytest.mark.parametrize('change, reason', [
    (lambda t: t.replace('<tilt>22</tilt>', '<tilt>95</tilt>', 1),
     'tilt 95 deg is not in the (-90, 90) deg'),
    (_two_beams, 'at least three beams, got 2'),
])
def test_arrangements_gz_refuses_are_warned_with_the_default_beams(tmp_path, change, reason):
    path = tmp_path / 'rov.sdf'
    path.write_text(change(DVL_ROV.read_text()))
    params = load_vehicle(str(path))
    assert _dvl(params).model.beam_directions is None  # the A50's Janus beams
    notes = ' '.join(e.note for e in params.elements if e.name == 'dvl')
    assert 'gz-sensors would not start this DVL' in notes and reason in notes


def test_dvl_message_carries_the_arrangement():
    params = load_vehicle(str(DVL_ROV))
    spec = _dvl(params)
    spec = dataclasses.replace(spec, model=dataclasses.replace(spec.model, seabed_depth=30.0))
    model = build_sensor(spec, params)
    nu = np.array([0.5, 0.2, 0.0, 0.0, 0.0, 0.0])
    reading = model.measure(0.0, [0.0, 0.0, -10.0], np.array([1.0, 0.0, 0.0, 0.0]), nu, None)
    msg = Dvl()
    fill_dvl(msg, reading, model.beam_cosines)
    b = np.array([[u.x, u.y, u.z] for u in msg.beam_unit_vec])
    assert b == pytest.approx(gz_beams_in_reference_frame(), abs=1e-12)
    # level vehicle: the DVL 0.2 m below the base, each beam 22 deg off the vertical
    height = 30.0 - 10.2
    assert list(msg.range) == pytest.approx([height / math.cos(math.radians(22.0))] * 4,
                                            rel=1e-9)
    assert msg.altitude == pytest.approx(height, rel=1e-9)
    # the body velocity in the measurement axes (base <- measurement: link yaw, ref yaw)
    v_m = (rz(LINK_YAW) @ rz(REFERENCE_YAW)).T @ nu[:3]
    # float32 fields; noise 0.004 m/s per axis, |b| = 1: within 5 sigma
    assert np.asarray(msg.beam_velocity) == pytest.approx(b @ v_m, abs=0.02)
    assert msg.num_good_beams == 4


def test_fuel_scenery_is_a_warning_and_the_local_vehicle_loads(models_path):
    params = load_vehicle(str(WORLD))
    assert params.name == 'mini_auv'
    unloaded = [w for w in params.warnings if 'not loaded (on Fuel)' in w]
    assert len(unloaded) == 2
    assert all("the vehicle is 'mini_auv', the model that carries a hydrodynamics" in w
               for w in unloaded)
    assert any('models/Sun' in w for w in unloaded)


def test_fuel_vehicle_is_refused_naming_the_download(models_path, tmp_path):
    path = tmp_path / 'w.sdf'
    path.write_text(WORLD.read_text().replace(
        'model://mini_auv', 'https://fuel.gazebosim.org/1.0/someone/models/Some AUV'))
    with pytest.raises(DescriptionError) as info:
        load_vehicle(str(path))
    text = str(info.value)
    assert 'no local model can be the vehicle' in text and 'Some AUV' in text
    assert 'gz fuel download' in text


def test_sixty_second_flight_is_finite_and_bounded():
    params = load_vehicle(str(DVL_ROV))
    surge = 60.0  # N
    wrench = np.array([surge, 0.0, 0.0, 0.0, 0.0, 0.0])
    run = simulate(params, 60.0, dt=0.01, thrust=lambda t: wrench)
    states = np.column_stack([run.position, run.quaternion, run.twist])
    assert np.isfinite(states).all()
    # from rest the surge kinetic energy is at most the surge force's work (drag only
    # takes energy): 1/2 m u^2 <= F x <= F 60 s u_max, so u_max <= 120 s F / m
    assert np.abs(run.twist[:, 0]).max() < 120.0 * surge / params.mass
    assert np.abs(run.twist[:, 3:]).max() < 1.0  # rad/s: no spin-up


def test_three_beam_arrangement_leaves_the_fourth_message_slot_empty(tmp_path):
    text = DVL_ROV.read_text()
    end = text.rindex('</beam>') + len('</beam>')
    path = tmp_path / 'rov.sdf'
    path.write_text(text[:text.rindex('<beam>', 0, end)] + text[end:])
    params = load_vehicle(str(path))
    spec = _dvl(params)
    spec = dataclasses.replace(spec, model=dataclasses.replace(spec.model, seabed_depth=30.0))
    model = build_sensor(spec, params)
    reading = model.measure(0.0, [0.0, 0.0, -10.0], np.array([1.0, 0.0, 0.0, 0.0]),
                            np.zeros(6), None)
    msg = Dvl()
    fill_dvl(msg, reading, model.beam_cosines)
    height = 30.0 - 10.2
    # three beams, each 22 deg off the vertical: the altitude is still the height
    assert list(msg.range)[:3] == pytest.approx([height / math.cos(math.radians(22.0))] * 3,
                                                rel=1e-9)
    assert msg.altitude == pytest.approx(height, rel=1e-9)
    assert msg.num_good_beams == 3
    assert (msg.range[3], msg.range_covar[3], msg.beam_quality[3]) == (0.0, -1.0, 0.0)
    last = msg.beam_unit_vec[3]
    assert (last.x, last.y, last.z) == (0.0, 0.0, 0.0)


def test_arrangement_survives_the_yaml_export():
    params = load_vehicle(str(DVL_ROV))
    again = _dvl(load_yaml_string(export_yaml(params)))
    # the export writes 17 significant digits: the vectors come back to rounding
    assert np.array(again.model.beam_directions) == pytest.approx(
        np.array(_dvl(params).model.beam_directions), abs=1e-15)
