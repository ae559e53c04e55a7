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

import itertools
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[1]
_domains = itertools.count()


def _next_domain_id() -> int:
    # ROS_DOMAIN_ID 1..100, spread by pid so concurrent test runs do not share a domain
    return 1 + (os.getpid() * 7 + next(_domains)) % 100


@pytest.fixture
def domain_id():
    """Return a ROS domain id of this test alone."""
    return _next_domain_id()


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
    from uwv_hydro.node.launch_command import stop_node
    for proc in procs:
        stop_node(proc, timeout=5)  # SIGINT (rclpy shuts down cleanly), then SIGKILL


@pytest.fixture
def python():
    """Return the interpreter running the tests (the set-up environment's)."""
    return sys.executable
