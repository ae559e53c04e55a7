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

"""Shared fixtures: isolated ROS 2 domains, rclpy contexts and node subprocesses."""

import fcntl
import itertools
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
#: The suite's helper modules and folders (nodes/, cosim/, ...), imported by their own
#: names (``from nodes.harness import ...``, ``from required_modules import require``).
HELPERS = pathlib.Path(__file__).resolve().parent / 'helpers'
if str(HELPERS) not in sys.path:
    sys.path.insert(0, str(HELPERS))
# a test that reuses another test module's fixtures or builders imports it by its basename
# (``from test_offline_tools import run_cli``), as when test/ was flat: every test folder
# on the path, after the others (basenames are unique across test/)
for _top in ('unit', 'integration', 'lint'):
    for _folder in sorted((HELPERS.parent / _top).glob('**/')):
        if _folder.name != '__pycache__' and str(_folder) not in sys.path:
            sys.path.append(str(_folder))
_domains = itertools.count()
#: Lock files of the ROS domains in use by the test runs on this machine.
DOMAIN_LOCKS = pathlib.Path(tempfile.gettempdir()) / 'uwv_hydro_test_domains'


def _claim_domain_id():
    """
    Return (ROS_DOMAIN_ID in 1..100, its open lock file) held by this test alone.

    An exclusive flock per domain keeps concurrent test runs on one machine (several
    checkouts, a developer beside CI) out of each other's domains; within a run the
    next test takes the next free domain, away from a node the last one may still be
    stopping.
    """
    DOMAIN_LOCKS.mkdir(exist_ok=True)
    start = os.getpid() * 7 + next(_domains)
    for k in range(100):
        domain = 1 + (start + k) % 100
        lock = open(DOMAIN_LOCKS / str(domain), 'w')
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            continue
        for _ in range(k):
            next(_domains)  # the next test starts after the domain taken
        return domain, lock
    raise RuntimeError('all 100 ROS test domains are in use on this machine')


@pytest.fixture
def domain_id():
    """Yield a ROS domain id of this test alone (released when the test ends)."""
    domain, lock = _claim_domain_id()
    try:
        yield domain
    finally:
        lock.close()


@pytest.fixture
def ros_env(domain_id):
    """Return the environment for node subprocesses on this test's domain."""
    env = dict(os.environ)
    env['ROS_DOMAIN_ID'] = str(domain_id)
    env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    env['PYTHONUNBUFFERED'] = '1'
    return env


@pytest.fixture
def rclpy_context(domain_id):
    """Yield an initialised rclpy Context on this test's domain."""
    import rclpy
    context = rclpy.Context()
    rclpy.init(context=context, domain_id=domain_id)
    try:
        yield context
    finally:
        context.try_shutdown()


@pytest.fixture
def spawn(ros_env):
    """Start processes on the test's domain; every one is stopped at teardown."""
    procs = []

    def _spawn(args, **kwargs):
        kwargs.setdefault('env', ros_env)
        kwargs.setdefault('stdout', subprocess.PIPE)
        kwargs.setdefault('stderr', subprocess.PIPE)
        kwargs.setdefault('text', True)
        kwargs.setdefault('cwd', str(REPO))
        proc = subprocess.Popen(args, **kwargs)
        procs.append(proc)
        return proc

    yield _spawn
    from uwv_hydro.node.launch_commands.launch_command import stop_node
    for proc in procs:
        stop_node(proc, timeout=5)  # SIGINT (rclpy shuts down cleanly), then SIGKILL


@pytest.fixture
def python():
    """Return the interpreter running the tests (the set-up environment's)."""
    return sys.executable
