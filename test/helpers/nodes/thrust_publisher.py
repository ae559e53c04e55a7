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
A separate thruster-driver process: publishes a constant WrenchStamped at a fixed rate.

Used by the reliability tests to kill a publisher process (SIGKILL) mid-run.
Usage: thrust_publisher.py TOPIC FORCE_X [RATE_HZ]
"""
import sys

from command_publisher import run


def main():
    topic, force = sys.argv[1], float(sys.argv[2])
    rate = float(sys.argv[3]) if len(sys.argv) > 3 else 50.0
    run(rate, 'wrench', ['%s=%r,0,0,0,0,0' % (topic, force)])


if __name__ == '__main__':
    main()
