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
hydro_node's stop signal: a process stopped and continued is not a stop request.

CPython's ``signal.sigtimedwait`` returns an uninitialised siginfo, not None, when the
process is stopped (SIGSTOP, a debugger, a machine that withholds the CPU) and continued
after its timeout ran out.  The node's main thread waits for SIGINT / SIGTERM that way:
before the check of the signal number, a stopped and continued node ended with exit 0
as if Ctrl-C had been pressed.  Real signals on a real process, no node needed.
"""
import os
import signal
import subprocess
import sys
import time

PROBE = """
import signal, sys, time
from uwv_hydro.node import main
signal.pthread_sigmask(signal.SIG_BLOCK, main.STOP_SIGNALS)
print('ready', flush=True)
end = time.monotonic() + float(sys.argv[1])
taken = 0
while time.monotonic() < end and not taken:
    taken += main._take_stop_signal(0.2)
print('taken %d' % taken, flush=True)
"""


def _probe(seconds):
    proc = subprocess.Popen([sys.executable, '-c', PROBE, str(seconds)],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == 'ready'
    return proc


def test_a_stop_and_continue_past_the_timeout_is_no_stop_request():
    proc = _probe(3.0)
    for _ in range(3):  # each stop outlasts the 0.2 s wait, as a 1 s SIGSTOP does
        time.sleep(0.3)
        os.kill(proc.pid, signal.SIGSTOP)
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGCONT)
    out, _ = proc.communicate(timeout=30)
    assert out.strip() == 'taken 0' and proc.returncode == 0


def test_sigint_is_taken():
    proc = _probe(20.0)
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert out.strip() == 'taken 1' and proc.returncode == 0
