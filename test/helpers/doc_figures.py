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
Where each figure of the docs' tables and prose comes from: the one list.

Every table of the docs whose cells hold a float, and every paragraph with a float of the
README and of the SITL, performance, node timing and arm guides, is named here (a table by
its header line, a paragraph by words only it holds) as one of:

* CHECKED: test_doc_figures.py computes its figures again and compares them cell by cell
  (a computed figure within 1 % or one unit of its last quoted digit, doc_blocks.py);
* ASSERTED: a named test of the suite asserts them within its own bounds;
* QUOTED: its figures are those of a run the docs quote (a ``text output`` block, which
  test_docs.py compares), named here;
* NOT_REPEATABLE: it comes from a run that cannot be repeated in the test, with the reason
  (the real ArduSub SITL, quiet-machine benchmarks, files the checkout does not hold);
* NOT_MEASURED: its numbers are inputs, defaults, constants or addresses, not results.

test_doc_figures.py fails on a table or paragraph of that scope that none of these names,
and on a name that no longer finds its table or paragraph.
"""

#: The pages whose prose (not only their tables) must be named here.
PROSE_PAGES = ('README.md', 'doc/guide/ardusub_sitl.md', 'doc/guide/performance.md',
               'doc/guide/node_timing.md', 'doc/guide/uvms.md')

_SITL = ('flown with the real ArduSub SITL binary, built from an ArduPilot checkout, which '
         'the test environment does not build (tools/ardusub_sitl_flight.py flies it where '
         'it is)')
_BENCH = ('a quiet-machine benchmark (make bench, load average < 0.5): wall-clock figures '
          'cannot be repeated under a shared test load, and no test times code')
_PEER_FILES = ("measured on files the checkout does not hold (uuv_simulator's RexROV and "
               'Oberon7 xacros, fetched by the reader)')

#: (page, header line) of the tables test_doc_figures.py computes again.
CHECKED_TABLES = {
    ('doc/guide/manoeuvres.md', '| figure | uwv_hydro remus100 | PVS remus100 | difference |'):
        'remus_vs_pvs',
    ('doc/guide/hil.md', '| stick | before: speed, max roll / pitch |'): 'bluerov2_sticks',
}

#: (page, header line) -> why its figures are not computed here.
OTHER_TABLES = {
    ('doc/guide/drivers.md', '| stack | topic (default) | type | what the node does |'):
        'NOT_MEASURED: the addresses and ports of the drivers',
    ('doc/guide/ardusub_sitl.md',
     '| mode, sticks | what ArduSub should do | BlueROV2 | BlueROV2 Heavy |'):
        'NOT_REPEATABLE: ' + _SITL,
    ('doc/guide/ardusub_sitl.md',
     '| run | SURFTRAK target | still 30 s: deviation | forward 60 s: east, seabed | '
     "deviation: mean, largest | ArduSub's rangefinder − altitude |"):
        'NOT_REPEATABLE: ' + _SITL + ' (tools/ardusub_sitl_flight.py --surftrak)',
    ('doc/guide/tether.md', '| key | meaning | default |'):
        "NOT_MEASURED: the tether's YAML keys and their defaults (Fathom tether R2)",
    ('doc/guide/engines.md', '| case | loop vs simulate (RK4), final position |'):
        'ASSERTED: test/integration/test_cosim_dart.py runs these DART loops and asserts their '
        'bounds, not these figures to 1 %',
    ('doc/guide/hil.md', '| type | message | value |'):
        "NOT_MEASURED: the sensors' noise and model constants",
    ('doc/guide/hil.md', '| coefficient | value | source |'):
        'NOT_MEASURED: the BlueROV2 coefficients and their sources',
    ('doc/guide/hil.md', '| set | X_u, X_u\\|u\\| | N_r\\|r\\| |'):
        'ASSERTED: test/unit/modes/test_bluerov2_open_loop.py asserts "this set"\'s top speed and '
        'yaw rate within its bounds; the other rows (published sets, typed in from their '
        'papers and repositories) are not flown again here',
    ('doc/guide/manoeuvres.md', '| speed | rudder | steady diameter | tactical diameter |'):
        "NOT_REPEATABLE: osrf/lrauv's tethys_equipped, configured by lrauv's own "
        'generator, which the checkout does not hold',
    ('doc/guide/installation.md', '| | Humble | Jazzy | Kilted |'):
        'NOT_MEASURED: the rclpy releases each distribution ships (ros/rosdistro)',
    ('doc/guide/node_timing.md', '| executor path (1000 Hz, 5 runs) | jitter p99 / floor, '
     'median (range) | latency p99 / floor, median (range) |'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/performance.md', "| figure | value | floor's CPU per cycle | ratio to the "
     'floor |'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/node_timing.md', '| rate | node jitter p99, median (range) |'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/node_timing.md', '| design | node - floor p99 jitter (ms) | late wakes |'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/performance.md', '| figure | run 1 | run 2 | target |'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/performance.md', '| figure | value | target |'): 'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/performance.md', '| figure | BlueROV2 (6 thrusters) | BlueROV2 Heavy (8) |'):
        'NOT_REPEATABLE: ' + _SITL + '; and ' + _BENCH,
    ('doc/guide/performance.md', '| figure (10 s at 1 kHz, per run) | run 1 |'):
        'NOT_REPEATABLE: ' + _PEER_FILES + '; and ' + _BENCH,
    ('doc/guide/performance.md', '| vehicle (1 kHz, simulate) | before | after |'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/performance.md', '| figure | before | after | floor |'):
        'NOT_REPEATABLE: ' + _PEER_FILES + '; and ' + _BENCH,
    ('doc/guide/performance.md', '| one articulated step, RexROV + Oberon7'):
        'NOT_REPEATABLE: ' + _PEER_FILES + '; and ' + _BENCH,
    ('doc/guide/performance.md', '| the node at 1 kHz (10 s a run) | RexROV + Oberon7 |'):
        'NOT_REPEATABLE: ' + _PEER_FILES + '; and ' + _BENCH,
    ('doc/guide/performance.md', '| wrench mode, 1 kHz | links | links, no joint_states |'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/performance.md', '| wrench mode, 1 kHz, odometry and a 9-joint joint_states'):
        'NOT_REPEATABLE: ' + _BENCH,
    ('doc/guide/plugin_replacement.md', '| case | final position error | attitude error |'):
        'ASSERTED: test/integration/test_cosim_mujoco.py co-simulates these cases and asserts '
        'their bounds, not the errors to 1 %; the wall time per lock-step: ' + _BENCH,
    ('doc/guide/sdf_equipment.md', '| type | becomes | notes |'):
        'NOT_MEASURED: element names and defaults',
    ('doc/guide/semantics.md', '| format | gravity (m/s^2) | fluid density (kg/m^3) |'):
        "NOT_MEASURED: each format's defaults (test/unit/description/test_description_*.py "
        'read them)',
    ('doc/guide/uuv_dave_dssim.md', '| vehicle | thrusters | fins | sensors read |'):
        "NOT_REPEATABLE: uuv_simulator's, DAVE's and lrauv's own files at the named "
        'commits, which the checkout does not hold (test/corpus holds look-alikes, tested '
        'instead)',
    ('doc/reference/hull.md', '| key | unit | default | meaning |'):
        'NOT_MEASURED: parameter defaults',
    ('doc/reference/node.md', '| parameter | default | notes |'):
        'NOT_MEASURED: parameter defaults',
    ('doc/reference/node.md', '| key | meaning |'): 'NOT_MEASURED: diagnostics keys',
    ('doc/reference/thrusters.md', '| key | unit | default | meaning |'):
        'NOT_MEASURED: parameter defaults',
}

#: (page, words only that paragraph holds) -> where its figures come from.
PROSE = {
    ('README.md', 'The first bootstraps a'): 'NOT_MEASURED: versions',
    ('README.md', 'Apache-2.0'): 'NOT_MEASURED: the licence',
}
for _words in ('Either may start first', '* `BARO_SPEC_GRAV`: ', '**Lock step.**',
               'Parameters (the launch file', 'Measured on this project', 'A run at `--speedup',
               'ArduPilot waits for every reply', 'Measured on this machine (BlueROV2',
               'Still, SURFTRAK holds'):
    PROSE[('doc/guide/ardusub_sitl.md', _words)] = 'NOT_REPEATABLE: ' + _SITL
for _words in ('* `SIM_JSON.h` lists `rng_1`', '`tools/ardusub_sitl_flight.py --surftrak`'):
    PROSE[('doc/guide/ardusub_sitl.md', _words)] = (
        "NOT_MEASURED: ArduPilot's code read (SIM_JSON.h/.cpp, AP_RangeFinder, ArduSub), "
        "the node's and the flight tool's parameter defaults")
#: every paragraph of these pages is measured as its tables are
WHOLE_PAGES = {
    'doc/guide/performance.md': 'NOT_REPEATABLE: ' + _BENCH,
    'doc/guide/node_timing.md': 'NOT_REPEATABLE: ' + _BENCH,
    'doc/guide/uvms.md': 'NOT_REPEATABLE: ' + _PEER_FILES,
}
