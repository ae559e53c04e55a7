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
The moving joints of an offline simulation in its bag, as the simulate-mode node sends them.

What :class:`uwv_hydro.node.joint_io.JointIO` publishes after every update, here after
every step (:class:`~uwv_hydro.modes.offline_articulated.JointTrajectory`):

* ``/joint_states`` sensor_msgs/JointState: every moving joint (tree order) with its
  position, velocity and effort, header stamp the state's, frame_id empty;
* ``/tf`` tf2_msgs/TFMessage: one transform per moving joint, its child link in the
  joint's parent link, stamped as the joint state (the base's odom -> base goes in its
  own message, as the node's odometry part sends it);
* the links fixed in a body, in the link they hang from, join the one /tf_static
  message (:func:`fixed_transforms`).

Each series is one template message serialised by rosbags and copied for every sample
with numpy, its stamps and float64 fields patched at the offsets found in the template
(:func:`field_offsets`); the JointState arrays and the TFMessage's transforms are of
fixed length over a run, so every copy has the template's layout.
"""
from typing import List, Sequence

import numpy as np

from uwv_hydro.bag.cdr_codec import repeat_message
from uwv_hydro.bag.rosbag_io import TF
from uwv_hydro.physics.spatial.rotation import matrix_to_quat

JOINT_STATE = 'sensor_msgs/msg/JointState'
#: Samples written per block (one MCAP chunk each).
BLOCK = 4096


def _markers(count: int, salt: int) -> np.ndarray:
    # distinct values whose bytes cannot come from frame ids or small counts
    return -(np.arange(count) + 1.0 + salt * 1e3) * 1.2345678912345678e-7


def _find_once(template: bytes, pattern: bytes, what: str) -> int:
    """Return the only offset of ``pattern`` in ``template``; ValueError naming ``what``."""
    at = template.find(pattern)
    if at < 0 or template.find(pattern, at + 1) >= 0:
        raise ValueError('%s not found once in the template' % what)
    return at


def field_offsets(template: bytes, values: Sequence[float]) -> List[int]:
    """Return the byte offset of each float64 of ``values`` in ``template`` (found once)."""
    return [_find_once(template, np.float64(value).astype('<f8').tobytes(),
                       'float64 %r' % value) for value in values]


def _stamp_offsets(template: bytes, seconds: Sequence[int]) -> List[int]:
    return [_find_once(template, np.int32(sec).astype('<i4').tobytes(), 'stamp %d' % sec)
            for sec in seconds]


def _records(template: bytes, stamps: np.ndarray, stamp_offsets, offsets,
             values: np.ndarray) -> np.ndarray:
    """Return (n, size) uint8: copies of template with the stamps and values patched."""
    n = len(stamps)
    out = repeat_message(template, stamps, None)
    sec, nanosec = np.divmod(stamps, 1_000_000_000)
    stamp = np.empty((n, 2), dtype='<u4')
    stamp[:, 0] = sec.astype('<i4').view('<u4')
    stamp[:, 1] = nanosec
    stamp_bytes = stamp.view(np.uint8).reshape(n, 8)
    for at in stamp_offsets:
        out[:, at:at + 8] = stamp_bytes
    data = np.ascontiguousarray(values, dtype='<f8').reshape(n, -1)
    raw = data.view(np.uint8).reshape(n, -1, 8)
    for k, at in enumerate(offsets):
        out[:, at:at + 8] = raw[:, k]
    return out


def _write(bag, topic: str, msgtype: str, template: bytes, stamps, stamp_offsets, offsets,
           values) -> None:
    for a in range(0, len(stamps), BLOCK):
        b = min(len(stamps), a + BLOCK)
        bag.write_many(topic, msgtype, stamps[a:b],
                       _records(template, stamps[a:b], stamp_offsets, offsets, values[a:b]))


def write_joints(bag, store, make, joints, stamps_ns, prefix: str = '',
                 states_topic: str = '/joint_states') -> None:
    """Write ``joints``' joint_states and moving-link /tf at every stamp."""
    stamps = np.asarray(stamps_ns, dtype=np.int64)
    count = len(joints.names)
    t = store.types
    marks = _markers(3 * count, 0)
    msg = t[JOINT_STATE](header=make.header(123456789 * 10 ** 9, ''), name=list(joints.names),
                         position=marks[:count], velocity=marks[count:2 * count],
                         effort=marks[2 * count:])
    template = bytes(store.serialize_cdr(msg, JOINT_STATE))
    values = np.concatenate((joints.position, joints.velocity, joints.effort), axis=1)
    _write(bag, states_topic, JOINT_STATE, template, stamps,
           _stamp_offsets(template, [123456789]), field_offsets(template, marks), values)
    if not count:
        return
    marks = _markers(7 * count, 1).reshape(count, 7)
    seconds = [223456789 + k for k in range(count)]
    transforms = [transform_stamped(store, make, seconds[k] * 10 ** 9, prefix + parent,
                                    prefix + child, marks[k, :3], marks[k, 3:])
                  for k, (parent, child) in enumerate(joints.frames)]
    template = bytes(store.serialize_cdr(t[TF](transforms=transforms), TF))
    # per transform: translation x y z, rotation x y z w (the quaternion is kept w x y z)
    order = [marks[k, j] for k in range(count) for j in (0, 1, 2, 4, 5, 6, 3)]
    values = joints.transforms[:, :, [0, 1, 2, 4, 5, 6, 3]].reshape(len(stamps), -1)
    _write(bag, '/tf', TF, template, stamps, _stamp_offsets(template, seconds),
           field_offsets(template, order), values)


def transform_stamped(store, make, stamp_ns, parent, child, xyz, wxyz):
    """Return a geometry_msgs/TransformStamped of the bag's typestore (``make`` its header)."""
    t = store.types
    return t['geometry_msgs/msg/TransformStamped'](
        header=make.header(stamp_ns, parent), child_frame_id=child,
        transform=t['geometry_msgs/msg/Transform'](
            translation=t['geometry_msgs/msg/Vector3'](
                x=float(xyz[0]), y=float(xyz[1]), z=float(xyz[2])),
            rotation=t['geometry_msgs/msg/Quaternion'](
                x=float(wxyz[1]), y=float(wxyz[2]), z=float(wxyz[3]), w=float(wxyz[0]))))


def fixed_transforms(store, make, joints, stamp_ns: int, prefix: str = '') -> list:
    """Return the /tf_static transforms of the links fixed in a body (the node's)."""
    return [transform_stamped(store, make, stamp_ns, prefix + parent, prefix + link,
                              position, matrix_to_quat(rotation))
            for parent, link, position, rotation in joints.fixed]
