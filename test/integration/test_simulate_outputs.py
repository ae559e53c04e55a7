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
``simulate --out x.mcap | dir``: every topic, type and count, read back with rosbags.

The odometry equals the CSV of the same run (to 1e-12), /tf and /thrust carry the
same poses and wrenches, the components are checked against the drag and weight
re-derived here, the MCAP file carries a schema record with the message definition
of every channel (parsed here from the MCAP records), and the numpy-built series are
byte for byte rosbags' own serialisation and MCAP chunks.
"""

import pathlib
import struct

from conftest import REPO
from nodes.harness import odometry_rows
import numpy as np
import pytest
from test_offline_tools import run_cli

from uwv_hydro.bag.cdr_codec import repeat_message
from uwv_hydro.bag.rosbag_io import BagWriter, MessageFactory, ODOMETRY, TF, typestore, WRENCH
from uwv_hydro.physics.body.vehicle_params import COMPONENT_NAMES

# Neutrally buoyant body, CoB = CoM = origin: linear drag on all axes, quadratic surge
# drag, added mass (the components checked below are re-derived from these numbers)
BODY_YAML = """
uwv_hydro:
  ros__parameters:
    vehicle:
      name: out_body
      mass: 50.0
      inertia: {ixx: 2.0, iyy: 5.0, izz: 5.0}
      buoyancy_mass: 50.0
      linear_drag: {xx: 3.0, yy: 30.0, zz: 30.0, rr: 5.0, pp: 5.0, hh: 5.0}
      quadratic_drag: {xxx: 40.0}
      added_mass: {xx: 10.0, yy: 40.0, zz: 40.0, rr: 0.5, pp: 2.0, hh: 2.0}
"""
REMUS = REPO / 'config' / 'remus100.yaml'
# every wrench component the node publishes, each on its own topic
COMPONENTS = COMPONENT_NAMES


def read_bag(path):
    """Return {topic: (msgtype, [stamp ns], [message])} read with rosbags' AnyReader."""
    from rosbags.highlevel import AnyReader
    out = {}
    with AnyReader([pathlib.Path(path)], default_typestore=typestore()) as reader:
        for conn in reader.connections:
            out[conn.topic] = (conn.msgtype, [], [])
        for conn, stamp, raw in reader.messages():
            out[conn.topic][1].append(stamp)
            out[conn.topic][2].append(reader.deserialize(raw, conn.msgtype))
    return out


def csv_rows(path):
    return np.loadtxt(path, delimiter=',', skiprows=1, ndmin=2)


@pytest.fixture(scope='module')
def body_run(tmp_path_factory):
    """One body run to CSV and to MCAP with components (a turning, sinking manoeuvre)."""
    tmp = tmp_path_factory.mktemp('body')
    body = tmp / 'body.yaml'
    body.write_text(BODY_YAML)
    common = ['simulate', body, '--duration', 2, '--dt', 0.01, '--thrust', 40, 5, -3, 0, 1, 2,
              '--initial-velocity', 0.5, 0, 0, 0, 0, 0.1]
    run_cli(*common, '--out', tmp / 'run.csv')
    run_cli(*common, '--components', '--out', tmp / 'run.mcap')
    run_cli(*common, '--components', '--out', tmp / 'run_db3')
    return tmp


@pytest.mark.parametrize('name', ['run.mcap', 'run_db3'])
def test_every_topic_type_count_and_the_odometry_equals_the_csv(body_run, name):
    rows = csv_rows(body_run / 'run.csv')
    bag = read_bag(body_run / name)
    n = len(rows)
    assert n == 201
    want = {'/odometry': ODOMETRY, '/tf': TF, '/thrust': WRENCH}
    want.update({'/hydro/components/' + c: WRENCH for c in COMPONENTS})
    want['/tf_static'] = TF
    assert {t: v[0] for t, v in bag.items()} == want
    stamps = np.rint(rows[:, 0] * 1e9).astype(np.int64)
    for topic, (_, got_stamps, msgs) in bag.items():
        if topic == '/tf_static':
            continue
        assert len(msgs) == n, topic
        assert got_stamps == stamps.tolist(), topic
        header = msgs[0].transforms[0].header if topic == '/tf' else msgs[0].header
        assert header.stamp.sec == 0 and header.stamp.nanosec == 0
        last = msgs[-1].transforms[0].header if topic == '/tf' else msgs[-1].header
        assert last.stamp.sec * 10**9 + last.stamp.nanosec == stamps[-1]
    odom = bag['/odometry'][2]
    got = odometry_rows(odom)
    # the CSV holds repr-exact floats: the two outputs of one run agree to rounding
    assert np.max(np.abs(got - rows[:, 1:])) <= 1e-12
    assert {(m.header.frame_id, m.child_frame_id) for m in odom} == {('odom', 'base_link')}
    tf = np.array([[t.transform.translation.x, t.transform.translation.y,
                    t.transform.translation.z, t.transform.rotation.w, t.transform.rotation.x,
                    t.transform.rotation.y, t.transform.rotation.z]
                   for m in bag['/tf'][2] for t in m.transforms])
    assert np.max(np.abs(tf - rows[:, 1:8])) <= 1e-12
    thrust = np.array([[m.wrench.force.x, m.wrench.force.y, m.wrench.force.z,
                        m.wrench.torque.x, m.wrench.torque.y, m.wrench.torque.z]
                       for m in bag['/thrust'][2]])
    assert np.array_equal(thrust, np.tile([40.0, 5, -3, 0, 1, 2], (n, 1)))


def _rotation(q):
    """World <- body rotation matrix of [w, x, y, z] (re-derived: Fossen 2011 eq. 2.72)."""
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def test_components_are_the_drag_and_weight_of_each_state(body_run):
    rows = csv_rows(body_run / 'run.csv')
    bag = read_bag(body_run / 'run.mcap')

    def series(name):
        return np.array([[m.wrench.force.x, m.wrench.force.y, m.wrench.force.z,
                          m.wrench.torque.x, m.wrench.torque.y, m.wrench.torque.z]
                         for m in bag['/hydro/components/' + name][2]])
    nu = rows[:, 8:14]
    assert {m.header.frame_id for m in bag['/hydro/components/weight'][2]} == {'base_link'}
    # linear drag -D_l nu, quadratic surge drag -Q |u| u (dsros: positive = dissipative)
    lin = -np.array([3.0, 30.0, 30.0, 5.0, 5.0, 5.0]) * nu
    assert np.max(np.abs(series('linear_drag') - lin)) <= 1e-12 * (1 + np.abs(lin).max())
    quad = np.zeros_like(nu)
    quad[:, 0] = -40.0 * np.abs(nu[:, 0]) * nu[:, 0]
    assert np.max(np.abs(series('quadratic_drag') - quad)) <= 1e-12 * (1 + np.abs(quad).max())
    # weight R^T [0, 0, -m g] at the CoM (= origin: no torque); buoyancy the opposite
    weight = series('weight')
    buoyancy = series('buoyancy')
    for k in (0, 100, 200):
        f = _rotation(rows[k, 4:8]).T @ np.array([0.0, 0.0, -50.0 * 9.81])
        assert np.allclose(weight[k, :3], f, rtol=0, atol=1e-9 * 50 * 9.81 * 10)
    # neutrally buoyant, CoB = CoM: they cancel to rounding
    assert np.max(np.abs(weight + buoyancy)) <= 1e-9 * 50 * 9.81
    assert np.max(np.abs(series('fins'))) == 0.0
    # added mass -M_A nu_dot with the node's nu_dot (backward difference over the step)
    nu_dot = np.diff(nu, axis=0) / 0.01
    am = -np.array([10.0, 40.0, 40.0, 0.5, 2.0, 2.0]) * nu_dot
    assert np.max(np.abs(series('added_mass')[1:] - am)) <= 1e-9 * (1 + np.abs(am).max())


def test_thruster_and_fin_feedback_of_a_vehicle(tmp_path):
    from uwv_hydro.description.loader import load_vehicle
    params = load_vehicle(str(REMUS))
    assert params.thrusters and params.fins
    run_cli('simulate', REMUS, '--duration', 1, '--thrust', 10, 0, 0, 0, 0, 0,
            '--out', tmp_path / 'remus.mcap')
    bag = read_bag(tmp_path / 'remus.mcap')
    for spec in params.thrusters:
        # gz-sim's feedback topics (thruster_io); no command offline: neutral, zero thrust
        base = '/model/%s/joint/%s/' % (params.name, spec.joint_name)
        assert bag[base + 'force'][0] == 'std_msgs/msg/Float64'
        assert [m.data for m in bag[base + 'force'][2]] == [0.0] * 101
        if spec.model != 'table':
            assert len(bag[base + 'ang_vel'][2]) == 101
    kind, stamps, joints = bag['/joint_states']
    assert kind == 'sensor_msgs/msg/JointState' and len(joints) == 101
    assert list(joints[-1].name) == [f.name for f in params.fins]
    assert list(joints[-1].position) == [0.0] * len(params.fins)
    assert joints[-1].header.stamp.sec == 1 and stamps[-1] == 10**9


SENSOR_BODY = BODY_YAML + """      fluid_density: 1000.0
      sensors:
        imu:
          type: imu
          update_rate: 50.0
          topic: imu/data
        depth:
          type: fluid_pressure
          pose: [0.0, 0.0, 0.5, 0.0, 0.0, 0.0]
          update_rate: 10.0
          topic: /pressure
        dvl:
          type: dvl
          update_rate: 5.0
          topic: dvl/twist
          dvl: {seabed_depth: 30.0, max_altitude: 50.0}
"""


def test_sensors_on_their_topics_at_their_rates(tmp_path):
    """Noise-free sensors: the IMU rates are the odometry's, the pressure Pascal's law."""
    body = tmp_path / 'sensors.yaml'
    body.write_text(SENSOR_BODY)
    common = ['simulate', body, '--duration', 1, '--thrust', 20, 0, -30, 0, 0, 3,
              '--initial-position', 0, 0, -10]
    run_cli(*common, '--out', tmp_path / 's.mcap')
    bag = read_bag(tmp_path / 's.mcap')
    assert bag['/imu/data'][0] == 'sensor_msgs/msg/Imu'
    assert bag['/pressure'][0] == 'sensor_msgs/msg/FluidPressure'
    odom = dict(zip(bag['/odometry'][1], bag['/odometry'][2]))
    # 50 Hz and 10 Hz grids over 1 s from t = 0, both ends included
    assert bag['/imu/data'][1] == [k * 20_000_000 for k in range(51)]
    assert bag['/pressure'][1] == [k * 100_000_000 for k in range(11)]
    for stamp, imu in zip(*bag['/imu/data'][1:]):
        w = odom[stamp].twist.twist.angular
        got = imu.angular_velocity
        # sensor frame = base frame, no noise: the body rates of the same state
        assert abs(got.x - w.x) + abs(got.y - w.y) + abs(got.z - w.z) <= 1e-12
        assert imu.header.frame_id == 'base_link'
    for stamp, msg in zip(*bag['/pressure'][1:]):
        o = odom[stamp].pose.pose
        r = _rotation([o.orientation.w, o.orientation.x, o.orientation.y, o.orientation.z])
        depth = -(o.position.z + (r @ [0.0, 0.0, 0.5])[2])
        # Pascal: p = p_atm + rho g d (p_atm 101325 Pa and g 9.81 m/s^2 the defaults)
        want = 101325.0 + 1000.0 * 9.81 * depth
        assert abs(msg.fluid_pressure - want) <= 1e-9 * want, (msg.fluid_pressure, want)
    assert bag['/dvl/twist'][0] == 'geometry_msgs/msg/TwistWithCovarianceStamped'
    assert bag['/dvl/twist'][1] == [k * 200_000_000 for k in range(6)]
    for stamp, msg in zip(*bag['/dvl/twist'][1:]):
        v, got = odom[stamp].twist.twist.linear, msg.twist.twist.linear
        # at the base origin, base axes: the bottom-track velocity is the body velocity
        assert abs(got.x - v.x) + abs(got.y - v.y) + abs(got.z - v.z) <= 1e-12
        # REP-145: the unmeasured angular part has covariance diagonal -1
        assert list(msg.twist.covariance[21::7]) == [-1.0] * 3
    assert bag['/tf_static'][1] == [0]
    from rosbags.rosbag2 import Reader
    with Reader(tmp_path / 's.mcap') as reader:
        (conn,) = [c for c in reader.connections if c.topic == '/tf_static']
        (qos,) = conn.ext.offered_qos_profiles
        # as tf2_ros' StaticTransformBroadcaster: late subscribers get it on playback
        assert (qos.durability.name, qos.reliability.name, qos.depth) == (
            'TRANSIENT_LOCAL', 'RELIABLE', 1)
    frames = {t.child_frame_id for t in bag['/tf_static'][2][0].transforms}
    assert frames == {'base_link_com', 'base_link_cob', 'base_link_drag_center', 'depth'}
    run_cli(*common, '--no-sensors', '--out', tmp_path / 'n.mcap')
    assert '/imu/data' not in read_bag(tmp_path / 'n.mcap')


def test_navsat_constants_are_sensor_msgs_own():
    from uwv_hydro.modes.messages import sensor_messages as sm
    t = typestore().types
    assert sm.NAVSAT_STATUS_FIX == t['sensor_msgs/msg/NavSatStatus'].STATUS_FIX
    assert sm.NAVSAT_SERVICE_GPS == t['sensor_msgs/msg/NavSatStatus'].SERVICE_GPS
    assert sm.NAVSAT_COVARIANCE_DIAGONAL_KNOWN == \
        t['sensor_msgs/msg/NavSatFix'].COVARIANCE_TYPE_DIAGONAL_KNOWN
    for kind, msgtype in sm.MESSAGE_TYPES.items():
        # uuv's RPT message is no ROS 2 type: the bags register its definition
        assert msgtype in t or msgtype in sm.EXTRA_DEFINITIONS, kind


def _records(blob, start, end):
    """Yield (opcode, body) of the MCAP records in blob[start:end] (mcap.dev/spec)."""
    pos = start
    while pos < end:
        op, length = blob[pos], struct.unpack_from('<Q', blob, pos + 1)[0]
        yield op, blob[pos + 9:pos + 9 + length]
        pos += 9 + length
    assert pos == end


def _string(body, pos):
    (n,) = struct.unpack_from('<I', body, pos)
    return body[pos + 4:pos + 4 + n].decode(), pos + 4 + n


def check_mcap_indexes(blob):
    """
    Check every index of an MCAP file the way an indexed reader uses it; return counts.

    Each Chunk Index (summary) points at its Chunk and at its Message Index records;
    each Message Index entry (log time, offset) points at a Message record of that
    channel and log time inside the (uncompressed) chunk, sorted by log time, and
    every message of the chunk is indexed once.  rosbags' reader scans the chunks and
    ignores these offsets; ros2 bag (the mcap library) and Foxglove seek by them.
    """
    footer = len(blob) - 8 - 9 - 20
    summary, _, _ = struct.unpack_from('<QQI', blob, footer + 9)
    counts = {}
    for op, body in _records(blob, summary, footer):
        if op != 0x08:
            continue
        start_t, end_t, chunk_at, chunk_len, n_idx = struct.unpack_from('<QQQQI', body, 0)
        index_at = [struct.unpack_from('<HQ', body, 36 + 10 * k) for k in range(n_idx // 10)]
        assert blob[chunk_at] == 0x06
        chunk = blob[chunk_at + 9:chunk_at + chunk_len]
        c_start, c_end, size, crc = struct.unpack_from('<QQQI', chunk, 0)
        compression, pos = _string(chunk, 28)
        assert compression == '' and (c_start, c_end) == (start_t, end_t)
        (length,) = struct.unpack_from('<Q', chunk, pos)
        records = chunk[pos + 8:pos + 8 + length]
        assert len(records) == size
        messages = {}
        for off in _offsets(records):
            if records[off] == 0x05:
                cid, _, log_time = struct.unpack_from('<HIQ', records, off + 9)
                messages[off] = (cid, log_time)
                assert start_t <= log_time <= end_t
        indexed = set()
        for cid, at in index_at:
            assert blob[at] == 0x07
            (ch, nbytes) = struct.unpack_from('<HI', blob, at + 9)
            assert ch == cid
            entries = np.frombuffer(blob, '<u8', nbytes // 8, at + 15).reshape(-1, 2)
            assert np.all(np.diff(entries[:, 0].astype(np.int64)) >= 0)
            for log_time, off in entries.tolist():
                assert messages[off] == (cid, log_time)
                indexed.add(off)
            counts[cid] = counts.get(cid, 0) + len(entries)
        assert indexed == set(messages)
    return counts


def _offsets(records):
    pos = 0
    while pos < len(records):
        yield pos
        pos += 9 + struct.unpack_from('<Q', records, pos + 1)[0]


def test_mcap_summary_has_a_schema_with_the_definition_of_every_channel(body_run):
    blob = (body_run / 'run.mcap').read_bytes()
    magic = b'\x89MCAP0\r\n'
    assert blob[:8] == magic and blob[-8:] == magic
    # Footer (op 0x02): summary start, summary offset start, summary crc
    footer = len(blob) - 8 - 9 - 20
    assert blob[footer] == 0x02
    summary, _, _ = struct.unpack_from('<QQI', blob, footer + 9)
    schemas, channels = {}, {}
    for op, body in _records(blob, summary, footer):
        if op == 0x03:  # Schema: id, name, encoding, data
            (sid,) = struct.unpack_from('<H', body, 0)
            name, pos = _string(body, 2)
            encoding, pos = _string(body, pos)
            data, _ = _string(body, pos)
            schemas[sid] = (name, encoding, data)
        elif op == 0x04:  # Channel: id, schema id, topic, message encoding, metadata
            cid, sid = struct.unpack_from('<HH', body, 0)
            topic, pos = _string(body, 4)
            encoding, _ = _string(body, pos)
            channels[topic] = (sid, encoding)
    assert len(channels) == 4 + len(COMPONENTS)
    for topic, (sid, encoding) in channels.items():
        name, schema_encoding, data = schemas[sid]
        assert encoding == 'cdr' and schema_encoding == 'ros2msg', topic
        # the definition with its dependencies, as Foxglove / PlotJuggler decode it
        assert 'builtin_interfaces/Time' in data.replace('msg/', ''), (topic, data[:200])
    odom = next(s for s in schemas.values() if s[0] == ODOMETRY)
    assert 'MSG: geometry_msgs/PoseWithCovariance' in odom[2]
    # every chunk is indexed: a Chunk Index record per chunk in the summary
    chunks = [b for op, b in _records(blob, summary, footer) if op == 0x08]
    assert len(chunks) >= 3 + len(COMPONENTS)
    assert sorted(check_mcap_indexes(blob).values()) == [1] + [201] * (len(channels) - 1)


def test_repeat_message_is_rosbags_serialisation_byte_for_byte():
    store = typestore()
    make = MessageFactory(store)
    rng = np.random.default_rng(5)
    stamps = np.array([0, 1, 999_999_999, 10**9, 1_234_567_890_123, 2**31 * 10**9 - 1])
    n = len(stamps)
    pos, twist = rng.normal(size=(n, 3)), rng.normal(size=(n, 6))
    quat = rng.normal(size=(n, 4))
    for frame, child in (('odom', 'base_link'), ('o', 'ab'), ('world_ned', 'auv7/base')):
        msgs = [make.odometry(int(s), frame, child, p, q, v)
                for s, p, q, v in zip(stamps, pos, quat, twist)]
        want = [bytes(store.serialize_cdr(m, ODOMETRY)) for m in msgs]
        tail = np.zeros((n, 85))
        tail[:, :3], tail[:, 3:7], tail[:, 43:49] = pos, quat[:, [1, 2, 3, 0]], twist
        got = repeat_message(want[0], stamps, 4, tail)
        assert [r.tobytes() for r in got] == want
        tfs = [bytes(store.serialize_cdr(make.tf(int(s), frame, child, p, q), TF))
               for s, p, q in zip(stamps, pos, quat)]
        got = repeat_message(tfs[0], stamps, 8, np.column_stack([pos, quat[:, [1, 2, 3, 0]]]))
        assert [r.tobytes() for r in got] == tfs
        wrenches = [bytes(store.serialize_cdr(make.wrench(int(s), frame, v), WRENCH))
                    for s, v in zip(stamps, twist)]
        assert [r.tobytes() for r in repeat_message(wrenches[0], stamps, 4, twist)] == wrenches
    f64 = store.types['std_msgs/msg/Float64']
    values = rng.normal(size=(n, 1))
    want = [bytes(store.serialize_cdr(f64(data=float(v)), 'std_msgs/msg/Float64'))
            for v in values[:, 0]]
    assert [r.tobytes() for r in repeat_message(want[0], stamps, None, values)] == want


def test_numpy_mcap_chunks_read_back_as_rosbags_own(tmp_path):
    """write_many's MCAP chunks give the messages rosbags' per-message writer gives."""
    store = typestore()
    make = MessageFactory(store)
    rng = np.random.default_rng(2)
    n = 5000  # several chunks per topic
    stamps = 10**9 + np.arange(n, dtype=np.int64) * 10_000_000
    values = {'/a': rng.normal(size=(n, 6)), '/b': rng.normal(size=(n, 6))}
    template = bytes(store.serialize_cdr(make.wrench(0, 'base_link', [0.0] * 6), WRENCH))
    with BagWriter(tmp_path / 'many.mcap', store=store) as bag:
        # the numpy chunk path is taken with the rosbags this was written for
        assert bag._mcap_batch
        # a per-message write first: pending in rosbags' open chunk, merged into ours
        bag.write_raw('/c', WRENCH, 5, template)
        for topic, v in values.items():
            bag.write_many(topic, WRENCH, stamps, repeat_message(template, stamps, 4, v))
    with BagWriter(tmp_path / 'one.mcap', store=store) as bag:
        bag.write_raw('/c', WRENCH, 5, template)
        for k in range(n):
            for topic, v in values.items():
                bag.write_raw(topic, WRENCH, int(stamps[k]),
                              repeat_message(template, stamps[k:k + 1], 4, v[k]).tobytes())
    from rosbags.highlevel import AnyReader
    got = {}
    for name in ('many.mcap', 'one.mcap'):
        with AnyReader([tmp_path / name], default_typestore=store) as reader:
            counts = {c.topic: c.msgcount for c in reader.connections}
            msgs = [(c.topic, t, bytes(raw)) for c, t, raw in reader.messages()]
        got[name] = (counts, sorted(msgs), [m[1] for m in msgs])
        assert sorted(check_mcap_indexes((tmp_path / name).read_bytes()).values()) == \
            [1, n, n]
    assert got['many.mcap'][0] == {'/a': n, '/b': n, '/c': 1}
    assert got['many.mcap'][:2] == got['one.mcap'][:2]
    # read in log-time order across the per-topic chunks
    assert got['many.mcap'][2] == sorted(got['many.mcap'][2])
