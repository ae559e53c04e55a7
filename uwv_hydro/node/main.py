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
``hydro_node`` entry point: start the node, turn start-up errors into an exit code.

Exit codes: 0 after a clean shutdown (SIGINT / SIGTERM), 2 for an invalid vehicle
description (the loader's DescriptionError, logged verbatim), 1 for invalid
parameters (wrong type, out of range, inconsistent).
"""
import signal
import sys

import rclpy
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
import rclpy.logging

from uwv_hydro.description.errors import DescriptionError

EXIT_CONFIG = 1
EXIT_DESCRIPTION = 2


def _fail(message: str, code: int) -> int:
    rclpy.logging.get_logger('uwv_hydro').fatal(message)
    print('uwv_hydro: error: %s' % message, file=sys.stderr, flush=True)
    return code


def main(args=None) -> int:
    """Run the node until shutdown; return (and exit with) the process exit code."""
    from uwv_hydro.node.hydro_node import ConfigError, HydroNode
    rclpy.init(args=args)
    # SIGTERM (e.g. from a launch system) shuts down like SIGINT
    signal.signal(signal.SIGTERM, lambda *_: rclpy.try_shutdown())
    code = 0
    node = None
    try:
        try:
            node = HydroNode()
        except DescriptionError as exc:
            code = _fail('invalid vehicle description: %s' % exc, EXIT_DESCRIPTION)
        except (ConfigError, ParameterException) as exc:
            code = _fail('invalid parameters: %s' % exc, EXIT_CONFIG)
        except ValueError as exc:  # e.g. the simulator rejects a singular mass matrix
            code = _fail('cannot start: %s' % exc, EXIT_CONFIG)
        if node is not None:
            executor = SingleThreadedExecutor()
            executor.add_node(node)
            try:
                executor.spin()
            except (KeyboardInterrupt, ExternalShutdownException):
                pass
    except KeyboardInterrupt:
        pass
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    if args is None:
        sys.exit(code)
    return code


if __name__ == '__main__':
    main()
