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

"""What the driver processes of the node tests share: announce, spin, shut down."""
import rclpy


def spin_ready(node) -> None:
    """Print 'ready' (the test waits for it), spin ``node`` until interrupted, clean up."""
    print('ready', flush=True)
    try:
        rclpy.spin(node)
    except KeyboardInterrupt:
        pass
    finally:
        node.destroy_node()
        rclpy.try_shutdown()


def publish_at_rate(node, outputs, rate: float) -> None:
    """
    Publish every (publisher, message, stamped) of ``outputs`` at ``rate`` Hz, then spin.

    A stamped message gets the node clock's time in its header at each publication.
    """
    def _publish():
        for pub, msg, stamped in outputs:
            if stamped:
                msg.header.stamp = node.get_clock().now().to_msg()
            pub.publish(msg)

    node.create_timer(1.0 / rate, _publish)
    spin_ready(node)
