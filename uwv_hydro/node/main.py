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

Signals and shutdown order (issue 51, item 12).  SIGINT and SIGTERM are blocked the
first thing :func:`main` does, before rclpy or the node's modules are imported, so every
thread started afterwards inherits the block and a stop during start-up stays pending
instead of raising KeyboardInterrupt in the middle of building C++ objects.  The main
thread takes the stop with ``sigtimedwait`` once the node runs, then stops in one fixed
order: the executor thread ended and joined, the executor shut down, the node destroyed
(its update thread joined first), the context shut down last.  rclpy's own signal
handlers are not installed; further signals while stopping are ignored; each join is
bounded by :data:`JOIN_TIMEOUT_S`, and a process whose executor thread did not end leaves
with ``os._exit``.  The block and any pending stop are undone before :func:`main` returns.

The executor spins on its own thread; the main thread only waits for the stop request.
With the wall-clock update thread (``loop: thread``) it is rclpy's EventsExecutor where
rclpy has it (executor_choice.py), spun with ``executor_choice.EVENTS_SPIN_TIMEOUT_S``;
under sim time (``loop: timer``) the SingleThreadedExecutor serves the update timer.
With the update on its own thread the interpreter's switch interval is
:data:`SWITCH_INTERVAL_S`, and the start-up objects are frozen (``gc.freeze``, the
modules' garbage collected first), so that neither the interpreter lock nor a full
collection holds up the update thread's deadline.  Why, and the jitter each choice gives:
doc/guide/node_timing.md and doc/guide/performance.md.
"""
import gc
import os
import signal
import sys
import threading

EXIT_CONFIG = 1
EXIT_DESCRIPTION = 2
#: Longest wait of the main thread for the executor thread once stopping (s).
JOIN_TIMEOUT_S = 5.0
#: sys.setswitchinterval with a wall-clock update thread (s; Python's default is 5 ms).
SWITCH_INTERVAL_S = 2.5e-4
#: The signals that stop the node (SIGTERM e.g. from a launch system, like SIGINT).
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: How often the main thread looks whether the executor thread ended by itself (s).
WATCH_PERIOD_S = 0.5


def _fail(message: str, code: int) -> int:
    import rclpy.logging
    rclpy.logging.get_logger('uwv_hydro').fatal(message)
    print('uwv_hydro: error: %s' % message, file=sys.stderr, flush=True)
    return code


def _spin(executor, stop: threading.Event, failure: list, timeout) -> None:
    """Run the executor until ``stop`` is set or the context shuts down (own thread)."""
    from rclpy.executors import ExternalShutdownException
    try:
        while not stop.is_set() and executor.context.ok():
            executor.spin_once(timeout_sec=timeout)  # woken by work or executor.wake()
    except ExternalShutdownException:
        pass
    except BaseException as exc:  # noqa: B902 - re-raised on the main thread
        failure.append(exc)
    finally:
        stop.set()


def _take_stop_signal(timeout: float) -> bool:
    """
    Take a pending SIGINT / SIGTERM within ``timeout`` s; return whether one was taken.

    The signal number is checked, not only the result: when the process is stopped and
    continued (SIGSTOP / SIGCONT, a debugger) past the timeout, CPython's sigtimedwait
    returns an uninitialised siginfo instead of None (seen on 3.10-3.12).
    """
    info = signal.sigtimedwait(STOP_SIGNALS, timeout)
    return info is not None and info.si_signo in STOP_SIGNALS


def _wait_for_stop(spinner: threading.Thread) -> None:
    """Return on SIGINT / SIGTERM (blocked, taken here) or when ``spinner`` ended."""
    while spinner.is_alive():
        if _take_stop_signal(WATCH_PERIOD_S):
            return


def _drain_stop_signals() -> None:
    """Take every pending stop signal (before unblocking them for a caller)."""
    while _take_stop_signal(0):
        pass


def _run(args, node_box: list) -> int:
    """Initialise rclpy, build and spin the node until a stop; return the exit code."""
    import rclpy
    from rclpy.exceptions import ParameterException
    from rclpy.signals import SignalHandlerOptions

    from uwv_hydro.description.errors import DescriptionError
    from uwv_hydro.node.executor_choice import make
    from uwv_hydro.node.hydro_node import ConfigError, HydroNode
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    gc.collect()  # the modules' garbage, then the modules out of the collector's reach
    gc.freeze()
    try:
        node_box.append(HydroNode())
    except DescriptionError as exc:
        # the vehicle's or the current_file's loader: the message names the file
        return _fail('invalid description: %s' % exc, EXIT_DESCRIPTION)
    except (ConfigError, ParameterException) as exc:
        return _fail('invalid parameters: %s' % exc, EXIT_CONFIG)
    except ValueError as exc:  # e.g. the simulator rejects a singular mass matrix
        return _fail('cannot start: %s' % exc, EXIT_CONFIG)
    node = node_box[0]
    # a thread of the node's own runs the updates (a wall-clock RateLoop, or ArduPilot
    # SITL's frames): the executor only dispatches the callbacks
    if node.loop_mode in ('thread', 'sitl_json'):
        sys.setswitchinterval(SWITCH_INTERVAL_S)
    gc.freeze()  # the node's objects too (see the module docstring)
    executor, timeout = make(node.executor_name)
    node_box.append(executor)
    executor.add_node(node)
    stop, failure = threading.Event(), []
    spinner = threading.Thread(target=_spin, args=(executor, stop, failure, timeout),
                               name='uwv_hydro_executor', daemon=True)
    node_box.append(spinner)
    spinner.start()
    _wait_for_stop(spinner)
    stop.set()
    executor.wake()
    spinner.join(JOIN_TIMEOUT_S)
    if failure:
        raise failure[0]
    return 0


def _stop(node_box: list) -> bool:
    """Shut down in order (executor, node, context); return whether every thread ended."""
    import rclpy
    node, executor, spinner = (node_box + [None, None, None])[:3]
    ended = spinner is None or not spinner.is_alive()
    if executor is not None and ended:
        executor.shutdown()
    if node is not None:
        node.destroy_node()  # stops and joins the update thread first
    del node_box[:]
    rclpy.try_shutdown()
    return ended


def main(args=None) -> int:
    """Run the node until shutdown; return (and exit with) the process exit code."""
    # first of all, before rclpy's and the node's imports (see the module docstring)
    previous_mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    from uwv_hydro.description.errors import DescriptionError
    from uwv_hydro.description.yaml_safe import check_params_files
    try:
        # rcl's own YAML parser has no depth or size limit: guard the files first
        check_params_files(sys.argv if args is None else args)
    except DescriptionError as exc:
        print('uwv_hydro: error: invalid parameters file: %s' % exc, file=sys.stderr,
              flush=True)
        code = EXIT_CONFIG
    else:
        node_box = []  # the node, its executor and the executor's thread, once made
        try:
            code = _run(args, node_box)
        finally:
            ended = _stop(node_box)
        if not ended:  # the executor thread still runs: finalising would race it
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    if args is None:
        sys.exit(code)
    _drain_stop_signals()
    signal.pthread_sigmask(signal.SIG_SETMASK, previous_mask)
    return code


if __name__ == '__main__':
    main()
