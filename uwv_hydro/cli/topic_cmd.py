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
``topic echo`` / ``topic pub``: the venv's stand-in for ``ros2 topic echo`` and ``pub``.

The PyPI ROS 2 wheels bring rclpy and the message packages, not ros2cli, so ``ros2
topic`` is missing where ``tools/run`` sets up the environment.  ``echo TOPIC`` waits
for a publisher of TOPIC, takes its type from the graph and prints each message as YAML
followed by ``---`` (``--count`` messages, then exit 0; exit 1 when no publisher comes
within ``--timeout`` seconds).  ``pub TOPIC TYPE VALUES`` publishes a message of TYPE
(``std_msgs/msg/Float64``) with the fields of the YAML mapping VALUES, ``--rate`` times a
second until stopped, or ``--once`` (after a subscriber is seen, up to ``--timeout``).
"""
import importlib
import sys
import time

from uwv_hydro.cli.number_options import COUNT, RATE, TIMEOUT


def add_parser(sub):
    """Register the ``topic`` subcommand with ``echo`` and ``pub``."""
    p = sub.add_parser('topic', help='echo or publish a ROS 2 topic (ros2 topic echo/pub '
                       'where ros2cli is not installed)', description=__doc__)
    verbs = p.add_subparsers(dest='verb', metavar='VERB')
    verbs.required = True
    echo = verbs.add_parser('echo', help='print the messages of a topic as YAML')
    echo.add_argument('topic')
    echo.add_argument('--count', type=COUNT, default=0,
                      help='exit after this many messages (0: until stopped)')
    echo.add_argument('--timeout', type=TIMEOUT, default=30.0,
                      help='seconds to wait for a publisher of the topic')
    echo.set_defaults(func=run_echo)
    pub = verbs.add_parser('pub', help='publish a message given as YAML')
    pub.add_argument('topic')
    pub.add_argument('type', help='message type, e.g. std_msgs/msg/Float64')
    pub.add_argument('values', nargs='?', default='{}', help='YAML mapping of its fields')
    pub.add_argument('--rate', type=RATE, default=1.0, help='messages per second')
    pub.add_argument('--once', action='store_true',
                     help='publish one message (once a subscriber is seen) and exit')
    pub.add_argument('--timeout', type=TIMEOUT, default=5.0,
                     help='with --once: seconds to wait for a subscriber')
    pub.set_defaults(func=run_pub)


def message_class(type_name: str):
    """Return the message class of 'pkg/msg/Name' (or 'pkg/Name'); ValueError if unknown."""
    parts = type_name.split('/')
    if len(parts) == 2:
        parts = [parts[0], 'msg', parts[1]]
    if len(parts) != 3 or not all(parts):
        raise ValueError('message type %r: expected pkg/msg/Name' % type_name)
    try:
        return getattr(importlib.import_module('%s.%s' % (parts[0], parts[1])), parts[2])
    except (ImportError, AttributeError):
        raise ValueError('message type %r is not installed here' % type_name) from None


def to_plain(value):
    """Return a message (or field value) as dicts, lists and numbers."""
    if hasattr(value, 'get_fields_and_field_types'):
        return {name: to_plain(getattr(value, name))
                for name in value.get_fields_and_field_types()}
    if hasattr(value, 'tolist'):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    return value


def checked(cls):
    """Return a new message of ``cls`` whose setters check each field's type and range."""
    try:
        return cls(check_fields=True)
    except (AssertionError, TypeError):
        return cls()


def fill(msg, values, where='VALUES'):
    """Set the fields of ``msg`` from a mapping; ValueError naming a wrong field."""
    if not isinstance(values, dict):
        raise ValueError('%s: expected a mapping of fields, got %r' % (where, values))
    fields = msg.get_fields_and_field_types()
    for name, value in values.items():
        if name not in fields:
            raise ValueError('%s: %s has no field %r (fields: %s)' % (
                where, type(msg).__name__, name, ', '.join(fields)))
        current = getattr(msg, name)
        if hasattr(current, 'get_fields_and_field_types'):
            value = fill(checked(type(current)), value, '%s.%s' % (where, name))
        if isinstance(current, float) and isinstance(value, int):
            value = float(value)
        try:
            setattr(msg, name, value)
        except (AssertionError, TypeError, ValueError) as exc:
            raise ValueError('%s.%s: %r does not fit %s (%s)' % (
                where, name, value, fields[name], exc)) from None
    return msg


def _absolute(topic: str) -> str:
    return topic if topic.startswith('/') else '/' + topic


def _with_node(body):
    import rclpy
    from rclpy.node import Node
    rclpy.init()
    node = Node('uwv_hydro_topic')
    try:
        return body(rclpy, node)
    except KeyboardInterrupt:
        return 0
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def run_echo(args) -> int:
    """Print the messages of a topic; return the exit status."""
    import yaml
    from rclpy.qos import qos_profile_sensor_data
    topic = _absolute(args.topic)

    def body(rclpy, node):
        deadline = time.monotonic() + args.timeout
        types = []
        while not types:
            types = dict(node.get_topic_names_and_types()).get(topic, [])
            if time.monotonic() > deadline:
                print('error: no publisher of %s within %g s' % (topic, args.timeout),
                      file=sys.stderr)
                return 1
            rclpy.spin_once(node, timeout_sec=0.1)
        seen = []

        def on_message(msg):
            seen.append(1)
            print(yaml.safe_dump(to_plain(msg), sort_keys=False, default_flow_style=None)
                  + '---', flush=True)

        # best effort matches a reliable publisher as well as a best-effort one
        node.create_subscription(message_class(types[0]), topic, on_message,
                                 qos_profile_sensor_data)
        while not args.count or len(seen) < args.count:
            rclpy.spin_once(node, timeout_sec=0.1)
        return 0
    return _with_node(body)


def run_pub(args) -> int:
    """Publish a message given as YAML; return the exit status."""
    import yaml
    try:
        msg = fill(checked(message_class(args.type)), yaml.safe_load(args.values) or {})
    except (ValueError, yaml.YAMLError) as exc:
        print('error: %s' % exc, file=sys.stderr)
        return 2
    topic = _absolute(args.topic)

    def body(rclpy, node):
        pub = node.create_publisher(type(msg), topic, 10)
        if args.once:
            deadline = time.monotonic() + args.timeout
            while pub.get_subscription_count() == 0 and time.monotonic() < deadline:
                rclpy.spin_once(node, timeout_sec=0.05)
            pub.publish(msg)
            print('published one %s on %s (%d subscribers)' % (
                args.type, topic, pub.get_subscription_count()))
            return 0
        print('publishing %s on %s at %g Hz' % (args.type, topic, args.rate), flush=True)
        while True:
            pub.publish(msg)
            rclpy.spin_once(node, timeout_sec=1.0 / args.rate)
    return _with_node(body)
