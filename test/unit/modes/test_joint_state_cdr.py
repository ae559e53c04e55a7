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
JointState read from its CDR bytes against rclpy's own deserialiser.

Random JointStates (names of any length and script, arrays of any lengths, NaN and
inf included) serialised by rclpy, read one after another by one reader, so that
layouts change, repeat and alternate: every reading must be rclpy's (names, frame id,
each float64 bit for bit).  The layout check ignores only the alignment padding
(garbage in Fast CDR's buffers) and the stamp and numbers.  Truncated bytes are
refused naming the byte.  With LinkWrenchMode, the layout path (rows once per layout,
then the arrays) leaves the mode exactly as its per-message joint_state does, counters
and warnings included; with ros2_control's JointCommands, the plan kept per layout gives
each message's commands and rejections as its per-message decode does.
"""
import pathlib
import struct

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest
from required_modules import require

require('rclpy')

from rclpy.serialization import deserialize_message, serialize_message  # noqa: E402, I100
from sensor_msgs.msg import JointState  # noqa: E402

from uwv_hydro.modes.messages.joint_state_cdr import JointStateReader, parse_layout  # noqa: E402
from uwv_hydro.node.joint_state_input import JointStateInput  # noqa: E402

CORPUS = pathlib.Path(__file__).resolve().parents[2] / 'corpus'
FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)
NAMES = st.text(alphabet=st.characters(blacklist_categories=('Cs',),
                                       blacklist_characters='\x00'), max_size=9)


@st.composite
def joint_states(draw, names=None):
    """Return a random JointState (names drawn from ``names`` when given)."""
    msg = JointState()
    msg.header.stamp.sec = draw(st.integers(-2 ** 31, 2 ** 31 - 1))
    msg.header.stamp.nanosec = draw(st.integers(0, 10 ** 9 - 1))
    msg.header.frame_id = draw(st.sampled_from(['', 'a', 'base_link', 'world_frame']))
    pool = NAMES if names is None else st.sampled_from(names)
    msg.name = draw(st.lists(pool, max_size=6))
    n = len(msg.name)
    for field in ('position', 'velocity', 'effort'):
        size = draw(st.sampled_from([n, n, 0, max(n - 1, 0), n + 1]))
        setattr(msg, field, draw(st.lists(FLOATS, min_size=size, max_size=size)))
    return msg


def _bits(values):
    return np.asarray(values, dtype='<f8').view('<u8').tolist()


def _assert_reads_as_rclpy(reading, raw):
    want = deserialize_message(raw, JointState)
    names, position, velocity, effort = reading
    assert list(names) == list(want.name)
    for mine, theirs in zip((position, velocity, effort),
                            (want.position, want.velocity, want.effort)):
        assert _bits(mine) == _bits(theirs)  # bit for bit, NaN payloads included


@settings(max_examples=150, deadline=None)
@given(st.lists(joint_states(), min_size=1, max_size=12), st.randoms())
def test_every_reading_is_rclpys_across_layout_changes(messages, rnd):
    reader = JointStateReader(keep=3)
    for msg in messages + messages[::-1]:  # each layout again, after others
        raw = serialize_message(msg)
        layout, _ = reader.read(raw)
        assert layout.frame_id == msg.header.frame_id
        _assert_reads_as_rclpy((layout.names, *layout.arrays(raw)), raw)
        # the padding (Fast CDR's garbage) may be anything: still this layout
        kept = bytearray(raw)
        covered = set(range(12)) | {at + i for at, chunk in layout.segments
                                    for i in range(len(chunk))} | {
            at + i for n, at in zip(layout.counts, layout.offsets) for i in range(8 * n)}
        for i in range(len(kept)):
            if i not in covered:
                kept[i] = rnd.randrange(256)
        again, _ = reader.read(bytes(kept))
        assert again is layout


@settings(max_examples=100, deadline=None)
@given(joint_states(), joint_states())
def test_a_message_of_another_layout_is_never_taken_for_a_kept_one(first, second):
    reader = JointStateReader()
    layout, _ = reader.read(serialize_message(first))
    raw = serialize_message(second)
    same = (list(first.name) == list(second.name)
            and first.header.frame_id == second.header.frame_id
            and all(len(getattr(first, f)) == len(getattr(second, f))
                    for f in ('position', 'velocity', 'effort')))
    assert layout.matches(raw) == same


def test_truncated_and_foreign_bytes_are_refused():
    raw = serialize_message(JointState(name=['shoulder', 'elbow'], position=[1.0, 2.0]))
    layout = parse_layout(raw)
    for cut in (3, 12, 20, layout.offsets[0] + 4):
        with pytest.raises(ValueError, match='truncated|not a CDR|malformed'):
            parse_layout(raw[:cut])
    # a name whose length runs past the message
    bad = bytearray(raw)
    struct.pack_into('<I', bad, 24, 10 ** 6)
    with pytest.raises(ValueError, match='truncated'):
        parse_layout(bytes(bad))
    # big-endian CDR is left to rclpy's deserialiser
    assert parse_layout(b'\x00\x00\x00\x00' + raw[4:]) is None
    assert JointStateReader().read(b'\x00\x00\x00\x00' + raw[4:]) == (None, None)
    assert JointStateInput().read(b'\x00\x01\x00\x00\x07') is None  # unreadable: dropped


def _mode_state(mode):
    return (mode.positions.tolist(), mode.velocities.tolist(), mode.received.tolist(),
            dict(mode.rejected), dict(mode.missing), mode.accepted, mode.no_velocity,
            sorted(mode.unknown), list(mode.new_unknown))


@pytest.fixture(scope='module')
def vehicle():
    from uwv_hydro.description.loader import load_vehicle
    return load_vehicle(str(CORPUS / 'uuv_simulator' / 'rexrov_oberon7_like.urdf.xacro'))


def test_the_layout_path_leaves_the_mode_as_the_message_path(vehicle):
    from uwv_hydro.modes.link_wrench_mode import LinkWrenchMode
    joints = list(vehicle.tree.joint_names())
    pool = joints + ['finger', 'other/joint']

    @settings(max_examples=60, deadline=None)
    @given(st.lists(joint_states(pool), min_size=1, max_size=15))
    def check(messages):
        by_message = LinkWrenchMode(vehicle)
        by_layout = LinkWrenchMode(vehicle)
        wire = JointStateInput(lambda layout: by_layout.joint_state_rows(layout.names))
        for msg in messages:
            want = by_message.joint_state(msg.name, msg.position, msg.velocity)
            names, position, velocity, _, rows = wire.read(serialize_message(msg))
            assert rows is not None  # little-endian, rclpy agrees: the layout path
            got = by_layout.joint_state_arrays(rows, position, velocity)
            assert got == want
            assert _mode_state(by_layout) == _mode_state(by_message)
        assert wire.deserialized == 0 and wire.disagreed == 0
    check()


def test_ros2_control_plans_kept_per_layout_decode_as_each_message():
    from uwv_hydro.modes.joint_state_io import INTERFACES, JointCommands
    from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec
    thrusters = [ThrusterSpec('t0'), ThrusterSpec('t1', use_angvel_cmd=True)]
    joints = [('arm/a', 'position'), ('arm/b', 'position')]

    @settings(max_examples=80, deadline=None)
    @given(st.lists(joint_states(['t0', 't1', 'fin', 'arm/a', 'arm/b', 'other']),
                    min_size=1, max_size=12))
    def check(messages):
        by_message = JointCommands(thrusters, ['fin'], joints)
        by_layout = JointCommands(thrusters, ['fin'], joints)
        wire = JointStateInput(lambda layout: by_layout.plan(
            layout.names, dict(zip(INTERFACES, layout.counts))))
        for msg in messages:
            want = by_message.decode(msg.name, {'position': msg.position,
                                                'velocity': msg.velocity,
                                                'effort': msg.effort})
            names, position, velocity, effort, plan = wire.read(serialize_message(msg))
            got = by_layout.take(plan, {'position': position, 'velocity': velocity,
                                        'effort': effort})
            assert got[0] == want[0]
            # the same commands, bit for bit (NaN never passes)
            assert [(k, i, struct.pack('<d', v)) for k, i, v in got[1]] == \
                [(k, i, struct.pack('<d', v)) for k, i, v in want[1]]
            assert by_layout.rejected == by_message.rejected
            assert by_layout.accepted == by_message.accepted
    check()
