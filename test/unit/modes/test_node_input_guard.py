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

"""Input hygiene: finite checks, stamp ordering with restart threshold, jump detection."""
from required_modules import require

from uwv_hydro.modes.input_guard import (all_finite, ClockJumpDetector, DropCounter, StampGuard,
                                         Throttle)
from uwv_hydro.modes.messages.msg_conversions import (
    ns_to_stamp, stamp_to_ns, wxyz_to_xyzw, xyzw_to_wxyz)


def test_all_finite():
    assert all_finite([0.0, 1e300, -2])
    assert not all_finite([0.0, float('nan')])
    assert not all_finite([float('-inf')])
    assert not all_finite(['x'])


def test_stamp_guard_drops_small_backwards_steps_and_restarts_on_big_ones():
    g = StampGuard(reset_threshold_s=1.0)
    assert g.check('a', 10 * 10 ** 9) == 'ok'
    assert g.check('a', 10 * 10 ** 9) == 'ok'  # equal stamps are fine
    assert g.check('a', 9 * 10 ** 9 + 5) == 'stale_stamp'
    assert g.check('b', 1) == 'ok'  # inputs are independent
    assert g.check('a', 0) == 'ok'  # unstamped
    assert g.check('a', 2 * 10 ** 9) == 'stamp_jump'  # a looping bag without /clock
    assert g.check('a', 2 * 10 ** 9 + 1) == 'ok'
    g.reset()
    assert g.check('a', 1) == 'ok'


def test_drop_counter():
    c = DropCounter()
    c.count('thrust', 'non_finite')
    c.count('thrust', 'non_finite')
    c.count('odometry', 'stale_stamp')
    assert c.total() == 3 and c.total('non_finite') == 2
    assert c.by_reason()['non_finite'] == 2 and c.by_reason()['unknown_frame'] == 0
    assert c.by_source() == {'thrust': {'non_finite': 2}, 'odometry': {'stale_stamp': 1}}


def test_clock_jump_detector():
    d = ClockJumpDetector()
    assert not d.observe(5)
    assert not d.observe(5)
    assert d.observe(4)
    assert not d.observe(6)
    d.forget()
    assert not d.observe(1)


def test_throttle_per_key():
    t = Throttle(60.0)
    assert t.ready(('a', 'x')) and t.ready(('a', 'y'))
    assert not t.ready(('a', 'x'))


def test_conversions_round_trip():
    require('builtin_interfaces')
    from builtin_interfaces.msg import Time
    assert list(xyzw_to_wxyz([1, 2, 3, 4])) == [4, 1, 2, 3]
    assert list(wxyz_to_xyzw([4, 1, 2, 3])) == [1, 2, 3, 4]
    t = Time()
    ns_to_stamp(t, 12 * 10 ** 9 + 345)
    assert (t.sec, t.nanosec) == (12, 345) and stamp_to_ns(t) == 12 * 10 ** 9 + 345
