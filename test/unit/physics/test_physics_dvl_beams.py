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
DVL beams over a flat seabed against geometry worked out here by hand.

The DVL looks down (mounted with roll pi, its +z the boresight, as marine_acoustic_msgs
and the A50 define the frame).  With the vehicle pitched by beta (FLU: nose down) a
beam b = (s cos a, s sin a, c) (s, c = sin, cos of the Janus angle) is, in the body,
(s cos a, -s sin a, -c) and in the world (R_y(beta)) has the vertical component
-(s cos a sin beta + c cos beta), so its slant range to a seabed h below is
h / (s cos a sin beta + c cos beta).
"""
import math

import numpy as np
import pytest

from uwv_hydro.physics.body.vehicle_params import VehicleParams
from uwv_hydro.physics.sensing.dvl_beams import (
    A50_AZIMUTHS, A50_JANUS_ANGLE, beam_directions, beam_variances, beam_velocities)
from uwv_hydro.physics.sensing.sensor_params import DvlParams, NoiseParams, SensorParams
from uwv_hydro.physics.sensing.sensors import build_sensor

SEABED = 40.0


def _dvl(max_altitude=60.0, stddev=0.0):
    spec = SensorParams(name='dvl', kind='dvl', update_rate=10.0, link='base_link',
                        topic='dvl', seed=1,
                        pose=(0.0, 0.0, 0.0, math.pi, 0.0, 0.0),
                        model=DvlParams(seabed_depth=SEABED, max_altitude=max_altitude,
                                        velocity=tuple(NoiseParams(stddev=stddev)
                                                       for _ in range(3))))
    params = VehicleParams(name='v', mass=10.0, inertia=np.eye(3), buoyancy_mass=10.0)
    return build_sensor(spec, params)


def _pitch(beta):
    return np.array([math.cos(beta / 2), 0.0, math.sin(beta / 2), 0.0])  # about +y


def test_a50_geometry():
    b = beam_directions(A50_JANUS_ANGLE, A50_AZIMUTHS)
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-15)
    # every beam 22.5 deg off the boresight, one in each quadrant
    assert np.allclose(b[:, 2], math.cos(math.radians(22.5)), atol=1e-15)
    assert sorted(zip(np.sign(b[:, 0]), np.sign(b[:, 1]))) == [(-1, -1), (-1, 1), (1, -1),
                                                               (1, 1)]


@pytest.mark.parametrize('beta_deg', [0.0, 10.0, -25.0])
def test_slant_ranges_of_a_pitched_dvl(beta_deg):
    beta = math.radians(beta_deg)
    depth = 15.0
    reading = _dvl().measure(0.0, [0.0, 0.0, -depth], _pitch(beta), np.zeros(6), None)
    s, c = math.sin(A50_JANUS_ANGLE), math.cos(A50_JANUS_ANGLE)
    h = SEABED - depth
    expected = [h / (s * math.cos(a) * math.sin(beta) + c * math.cos(beta))
                for a in A50_AZIMUTHS]
    assert reading.ranges == pytest.approx(expected, rel=1e-12)
    assert reading.beam_locked.all()
    if beta_deg == 0.0:
        # marine_acoustic_msgs: altitude = cos(theta) sum(range) / num_good_beams
        assert c * np.mean(reading.ranges) == pytest.approx(h, rel=1e-12)


def test_beam_lock_follows_the_range_limits():
    # 12 m above the seabed, 12.5 m the most: level every beam locks (12 <= 12.5); pitched
    # 15 deg nose down the two rear beams slant more and reach beyond 12.5 / cos(theta)
    dvl = _dvl(max_altitude=12.5)
    level = dvl.measure(0.0, [0.0, 0.0, -(SEABED - 12.0)], _pitch(0.0), np.zeros(6), None)
    assert level.beam_locked.all()
    pitched = dvl.measure(0.0, [0.0, 0.0, -(SEABED - 12.0)], _pitch(math.radians(15.0)),
                          np.zeros(6), None)
    forward = np.cos(np.array(A50_AZIMUTHS)) > 0.0
    c = math.cos(A50_JANUS_ANGLE)
    assert np.array_equal(pitched.beam_locked, pitched.ranges * c <= 12.5)
    assert pitched.beam_locked[forward].all() and not pitched.beam_locked[~forward].any()
    # out of the water: no return at all
    dry = dvl.measure(0.0, [0.0, 0.0, 1.0], _pitch(0.0), np.zeros(6), None)
    assert not dry.beam_locked.any() and not dry.valid


def test_beam_velocities_give_back_the_velocity():
    dvl = _dvl()
    nu = np.array([0.7, -0.2, 0.1, 0.0, 0.0, 0.3])
    reading = dvl.measure(0.0, [0.0, 0.0, -10.0], _pitch(0.0), nu, None)
    b = reading.beam_directions
    assert reading.beam_velocities == pytest.approx(b @ reading.velocity, abs=1e-15)
    # the DVL's own solution: least squares over the four beams recovers v
    solved = np.linalg.lstsq(b, reading.beam_velocities, rcond=None)[0]
    assert solved == pytest.approx(reading.velocity, abs=1e-12)
    # DVL frame = body with y, z flipped (roll pi); v of the transducer at the origin
    assert reading.velocity == pytest.approx([0.7, 0.2, -0.1], abs=1e-15)


def test_beam_variance_is_the_velocity_covariance_along_the_beam():
    b = beam_directions(A50_JANUS_ANGLE, A50_AZIMUTHS)
    # isotropic noise: every unit beam sees sigma^2
    assert beam_variances(b, np.eye(3) * 4e-6) == pytest.approx([4e-6] * 4, rel=1e-12)
    # anisotropic: b^T S b = sum_k b_k^2 S_kk for a diagonal S
    s = np.diag([1e-6, 4e-6, 9e-6])
    assert beam_variances(b, s) == pytest.approx((b ** 2) @ np.diag(s), rel=1e-12)
    reading = _dvl(stddev=3e-3).measure(0.0, [0.0, 0.0, -10.0], _pitch(0.0),
                                        np.zeros(6), None)
    assert reading.beam_variances == pytest.approx([9e-6] * 4, rel=1e-12)
    assert beam_velocities(b, [0.0, 0.0, 1.0]) == pytest.approx(b[:, 2], abs=1e-15)


def test_yaml_beam_layout_is_read_checked_and_exported(tmp_path):
    from uwv_hydro.description.errors import DescriptionError
    from uwv_hydro.description.loader import load_vehicle, load_vehicle_string
    from uwv_hydro.description.yaml.export import write_yaml
    text = ('mass: 1.0\ninertia: {ixx: 1, iyy: 1, izz: 1}\nbuoyancy_mass: 1.0\n'
            'sensors:\n  dvl: {type: dvl, update_rate: 5, dvl: {seabed_depth: 20, %s}}\n')
    params = load_vehicle_string(text % 'janus_angle: 0.5236, beam_azimuths: [0, 1.5708, '
                                 '3.1416, -1.5708]', 'v.yaml')
    model = params.sensors[0].model
    assert model.janus_angle == 0.5236 and model.beam_azimuths == (0, 1.5708, 3.1416, -1.5708)
    out = tmp_path / 'exported.yaml'
    write_yaml(params, out)
    assert load_vehicle(str(out)).sensors[0].model == model
    for bad, match in (('janus_angle: 1.6', 'less than 90 deg'),
                       ('beam_azimuths: [0, 1]', 'four angles')):
        with pytest.raises(DescriptionError, match=match):
            load_vehicle_string(text % bad, 'v.yaml')
    # without the keys: the A50's layout
    default = load_vehicle_string(text % 'min_altitude: 0.1', 'v.yaml').sensors[0].model
    assert default.janus_angle == A50_JANUS_ANGLE and default.beam_azimuths == A50_AZIMUTHS
