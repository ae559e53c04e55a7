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
marine_acoustic_msgs/Dvl from a DVL reading (modes/messages/dvl_message.py) field by field.

A level, down-looking DVL h metres above the seabed: every beam at range h / cos(theta),
the message altitude (cos(theta) sum(range) / num_good_beams) back to h, the beam
velocities the velocity's projections; without lock the message says so (-1
covariances) instead of carrying numbers.
"""
import math

from required_modules import require  # noqa: I100

require('marine_acoustic_msgs')

from marine_acoustic_msgs.msg import Dvl  # noqa: E402, I100
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from uwv_hydro.modes.messages.dvl_message import fill_dvl  # noqa: E402
from uwv_hydro.physics.body.vehicle_params import VehicleParams  # noqa: E402
from uwv_hydro.physics.sensing.dvl_beams import A50_JANUS_ANGLE  # noqa: E402
from uwv_hydro.physics.sensing.sensor_params import (  # noqa: E402
    DvlParams, NoiseParams, SensorParams)
from uwv_hydro.physics.sensing.sensors import build_sensor  # noqa: E402

LEVEL = np.array([1.0, 0.0, 0.0, 0.0])


def _dvl():
    spec = SensorParams(name='dvl', kind='dvl', update_rate=10.0, link='base_link',
                        topic='dvl', seed=3, pose=(0.0, 0.0, 0.0, math.pi, 0.0, 0.0),
                        model=DvlParams(seabed_depth=30.0, max_altitude=50.0,
                                        velocity=tuple(NoiseParams(stddev=2e-3)
                                                       for _ in range(3))))
    return build_sensor(spec, VehicleParams(name='v', mass=1.0, inertia=np.eye(3),
                                            buoyancy_mass=1.0))


def test_locked_sample():
    reading = _dvl().measure(0.0, [0.0, 0.0, -10.0], LEVEL,
                             np.array([0.5, 0.3, 0.0, 0.0, 0.0, 0.0]), None)
    msg = Dvl()
    fill_dvl(msg, reading, [math.cos(A50_JANUS_ANGLE)] * 4)
    assert msg.velocity_mode == Dvl.DVL_MODE_BOTTOM and msg.dvl_type == Dvl.DVL_TYPE_PISTON
    v = reading.velocity
    assert (msg.velocity.x, msg.velocity.y, msg.velocity.z) == tuple(float(x) for x in v)
    assert list(msg.velocity_covar) == pytest.approx([4e-6, 0, 0, 0, 4e-6, 0, 0, 0, 4e-6],
                                                     rel=1e-12)
    c = math.cos(A50_JANUS_ANGLE)
    assert list(msg.range) == pytest.approx([20.0 / c] * 4, rel=1e-12)
    assert msg.altitude == pytest.approx(20.0, rel=1e-12)
    assert msg.num_good_beams == 4 and msg.beam_ranges_valid and msg.beam_velocities_valid
    assert msg.course_gnd == pytest.approx(math.atan2(v[1], v[0]), abs=1e-15)
    assert msg.speed_gnd == pytest.approx(math.hypot(v[0], v[1]), abs=1e-15)
    b = np.array([[u.x, u.y, u.z] for u in msg.beam_unit_vec])
    # float32 fields: beam velocity to float32 rounding (about 6e-8 relative)
    assert np.asarray(msg.beam_velocity) == pytest.approx(b @ v, rel=1e-6, abs=1e-9)
    assert np.asarray(msg.beam_velocity_covar) == pytest.approx([4e-6] * 4, rel=1e-6)


def test_unlocked_sample_is_flagged():
    # out of the water (1 m above the surface): no acoustic return
    reading = _dvl().measure(0.0, [0.0, 0.0, 1.0], LEVEL, np.zeros(6), None)
    msg = Dvl()
    fill_dvl(msg, reading, [math.cos(A50_JANUS_ANGLE)] * 4)
    assert not reading.valid
    assert list(msg.velocity_covar) == [-1.0] * 9
    assert msg.num_good_beams == 0 and not msg.beam_ranges_valid
    assert not msg.beam_velocities_valid
    assert list(msg.range_covar) == [-1.0] * 4
    assert list(msg.beam_velocity_covar) == [-1.0] * 4
