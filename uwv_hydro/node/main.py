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

Shutdown order.  rclpy's own signal handlers shut the context down from their own
thread at once, while the node's update thread may be publishing ("publisher's
context is invalid").  So they are not installed: SIGINT and SIGTERM only ask the
spin loop to stop (it wakes every :data:`SPIN_TIMEOUT_S`), then the node is destroyed
(its update thread stopped and joined first) and only then the context shut down.
A second signal while stopping interrupts at once.
"""
import signal
import sys
import threading

import rclpy
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
import rclpy.logging
from rclpy.signals import SignalHandlerOptions

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.yaml_safe import check_params_files

EXIT_CONFIG = 1
EXIT_DESCRIPTION = 2
#: Longest wait of the spin loop before it looks at the stop request (s).
SPIN_TIMEOUT_S = 0.1


def _fail(message: str, code: int) -> int:
    rclpy.logging.get_logger('uwv_hydro').fatal(message)
    print('uwv_hydro: error: %s' % message, file=sys.stderr, flush=True)
    return code


def main(args=None) -> int:
    """Run the node until shutdown; return (and exit with) the process exit code."""
    from uwv_hydro.node.hydro_node import ConfigError, HydroNode
    try:
        # rcl's own YAML parser has no depth or size limit: guard the files first
        check_params_files(sys.argv if args is None else args)
    except DescriptionError as exc:
        print('uwv_hydro: error: invalid parameters file: %s' % exc, file=sys.stderr,
              flush=True)
        if args is None:
            sys.exit(EXIT_CONFIG)
        return EXIT_CONFIG
    stop = threading.Event()

    def _on_signal(signum, frame):
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    # SIGTERM (e.g. from a launch system) stops like SIGINT (see the module docstring)
    previous = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
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
                while not stop.is_set() and rclpy.ok():
                    executor.spin_once(timeout_sec=SPIN_TIMEOUT_S)
            except ExternalShutdownException:
                pass
            executor.shutdown()
    except KeyboardInterrupt:
        pass
    finally:
        if node is not None:
            node.destroy_node()  # stops and joins the update thread first
        rclpy.try_shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if args is None:
        sys.exit(code)
    return code


if __name__ == '__main__':
    main()
