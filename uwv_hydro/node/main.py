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
description or current_file (the loader's DescriptionError, logged verbatim), 1 for invalid
parameters (wrong type, out of range, inconsistent).

Shutdown order.  rclpy's own signal handlers shut the context down from their own
thread at once, while the node's update thread may be publishing ("publisher's
context is invalid").  So they are not installed: SIGINT and SIGTERM only ask the
executor to stop, then the node is destroyed (its update thread stopped and joined
first) and only then the context shut down.  A second signal while stopping
interrupts at once.

The executor spins on its own thread; the main thread only waits for the stop request
(a signal, or the executor ending) and wakes the executor then.  With the wall-clock
update thread (``loop: thread``, the default without sim time) it is rclpy's
EventsExecutor (``rclpy.experimental``): its wait, dispatch and timers run in C++, so
the interpreter lock is held only for the callbacks' own Python.  rclpy's
SingleThreadedExecutor rebuilds its wait set in Python for every callback (~0.1-0.5 ms
of interpreter time here); a thrust message arriving just before a deadline then held
the lock when the update thread woke, and those were the node's worst cycles
(issue 34: p99 period jitter floor + 0.3-0.4 ms with it, at or below the floor with
the EventsExecutor, doc/guide/node_timing.md).  The EventsExecutor's ``spin_once``
without a timeout returns at once when idle (a busy loop), so it is called with
:data:`EVENTS_SPIN_TIMEOUT_S`.  Under sim time (``loop: timer``) the update is an
executor timer on the ROS clock, which the SingleThreadedExecutor serves; it waits
for work without a timeout.  With the update on its own thread the interpreter's
thread switch interval is :data:`SWITCH_INTERVAL_S` instead of 5 ms: the update
thread waking for its deadline while a callback runs Python waits at most that long
for the interpreter lock.

The objects of start-up (modules, rclpy, then the node with its vehicle and model) are
frozen (``gc.freeze``): the garbage collector's full collections no longer walk them.
Without it, a full collection triggered by the update's allocations took 50-75 ms
inside the update thread on this project's machine (75 missed deadlines).  The
modules' garbage is collected first, before the update thread exists; the node's is
not (that collection would stall the running update thread once).
"""
import gc
import signal
import sys
import threading

import rclpy
from rclpy.exceptions import ParameterException
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.experimental import EventsExecutor
import rclpy.logging
from rclpy.signals import SignalHandlerOptions

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.yaml_safe import check_params_files

EXIT_CONFIG = 1
EXIT_DESCRIPTION = 2
#: Longest wait of the main thread for the executor thread once stopping (s).
JOIN_TIMEOUT_S = 5.0
#: sys.setswitchinterval with a wall-clock update thread (s; Python's default is 5 ms).
SWITCH_INTERVAL_S = 2.5e-4
#: The EventsExecutor's spin_once timeout (s): it returns at once when idle without one.
EVENTS_SPIN_TIMEOUT_S = 0.5


def _fail(message: str, code: int) -> int:
    rclpy.logging.get_logger('uwv_hydro').fatal(message)
    print('uwv_hydro: error: %s' % message, file=sys.stderr, flush=True)
    return code


def _spin(executor, stop: threading.Event, failure: list, timeout) -> None:
    """Run the executor until ``stop`` is set or the context shuts down (own thread)."""
    try:
        while not stop.is_set() and executor.context.ok():
            executor.spin_once(timeout_sec=timeout)  # woken by work or executor.wake()
    except ExternalShutdownException:
        pass
    except BaseException as exc:  # noqa: B902 - re-raised on the main thread
        failure.append(exc)
    finally:
        stop.set()


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
    gc.collect()  # the modules' garbage, then the modules out of the collector's reach
    gc.freeze()
    code = 0
    node = None
    try:
        try:
            node = HydroNode()
        except DescriptionError as exc:
            # the vehicle's or the current_file's loader: the message names the file
            code = _fail('invalid description: %s' % exc, EXIT_DESCRIPTION)
        except (ConfigError, ParameterException) as exc:
            code = _fail('invalid parameters: %s' % exc, EXIT_CONFIG)
        except ValueError as exc:  # e.g. the simulator rejects a singular mass matrix
            code = _fail('cannot start: %s' % exc, EXIT_CONFIG)
        if node is not None:
            # a thread of the node's own runs the updates (a wall-clock RateLoop, or
            # ArduPilot SITL's frames): the executor only dispatches the callbacks
            own_thread = node.loop_mode in ('thread', 'sitl_json')
            if own_thread:
                sys.setswitchinterval(SWITCH_INTERVAL_S)
            gc.freeze()  # the node's objects too (see the module docstring)
            if own_thread:
                executor, timeout = EventsExecutor(), EVENTS_SPIN_TIMEOUT_S
            else:
                executor, timeout = SingleThreadedExecutor(), None
            executor.add_node(node)
            failure = []
            spinner = threading.Thread(target=_spin, args=(executor, stop, failure, timeout),
                                       name='uwv_hydro_executor', daemon=True)
            spinner.start()
            stop.wait()  # a signal sets it (its handler runs on this thread)
            executor.wake()
            spinner.join(JOIN_TIMEOUT_S)
            if failure:
                raise failure[0]
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
