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
What the seabed's sensors add to the node's step (``benchmarks/run.py --only seabed_sensors``).

Issue 50: a 4-beam DVL at 10 Hz, an altimeter (echosounder) at 50 Hz and the contact
with the seabed every step must add at most 10 % to the node's step cost.  The node runs
the BlueROV2 (config/bluerov2.yaml) in simulate mode at 100 Hz over a GridSeabed: a
synthetic 801 x 801 m terrain at 2 m written by this bench (an ESRI ASCII grid and its
YAML description, the world's transverse Mercator as its CRS), 25 to 45 m deep; the
vehicle holds 10 m deep at the origin.  It is measured over DDS by
benchmarks/node_probe.py (odometry and /tf subscribed, a sway thrust flipping every
50 ms).  Each of :data:`CONFIGURATIONS` is the same vehicle with its sensors changed
(``base``: the BlueROV2's IMU, pressure and GPS, no DVL, no seabed); per run every
configuration runs once, one after the other (odd runs in this order, even runs in the
reverse), each after a load check.  Figures per run:

* seabed_sensors_<name>_process_cpu_per_step_us: the node process's CPU (every thread:
  update, executor, middleware; /proc) over the measured interval per odometry message,
  i.e. per step: its mean, so a sensor sampled every tenth step counts for a tenth;
* seabed_sensors_<name>_cycle_cpu_p50_us: the update's CPU p50 from /diagnostics;
* seabed_sensors_<name>_over_base: the first of these over the base's of the same run
  (the step cost the configuration adds is this minus 1; issue 50: <= 1.1), and
  _cycle_over_base the same of the update's CPU p50 (the median step alone, without
  the executor and middleware: what every step adds, as the contact; a DVL sampled
  every tenth step does not reach the median);

then per configuration the median and range over ``--runs``.  Beside them, in this
process: seabed_sensors_dvl_sample_us, the thread CPU of one sample of the DVL
(TerrainDvlModel.measure: the four beams cast, the lock, the least-squares velocity) at
the node's start pose over the same seabed, where it must lock all four beams, and
seabed_sensors_dvl_10hz_sample_share: that at 10 Hz over the base's CPU at 100 Hz of
the last run (the sample without its message); the same for the echosounder (its 61
rays), seabed_sensors_echosounder_sample_us and _50hz_sample_share.  The figures of a
machine that was not quiet decide nothing (harness.load_check).
"""
import copy
import pathlib
import tempfile
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
VEHICLE = REPO / 'config' / 'bluerov2.yaml'
RATE_HZ = 100.0
ORIGIN = (43.1, 5.9)

#: The BlueROV2's DVL (config/bluerov2.yaml) at 10 Hz: four beams, down.
DVL_10HZ = {'type': 'dvl', 'pose': [0.1, 0.0, -0.12, 3.141592653589793, 0.0, 0.0],
            'update_rate': 10.0, 'topic': 'dvl/twist',
            'dvl': {'seabed_depth': 30.0, 'max_altitude': 50.0, 'min_altitude': 0.05,
                    'velocity': {'noise': {'stddev': 3.0e-3}}}}

#: A down-looking echosounder at 50 Hz: a 0.1 rad cone (61 rays) to the seabed.
ECHOSOUNDER_50HZ = {'type': 'echosounder', 'pose': [0.1, 0.0, -0.15, 0.0, 1.5707963267948966,
                                                    0.0],
                    'update_rate': 50.0, 'topic': 'altimeter',
                    'echosounder': {'min_range': 0.3, 'max_range': 100.0,
                                    'field_of_view': 0.1,
                                    'range': {'noise': {'stddev': 0.01}}}}

#: (name, {sensor name: its YAML block}, {node parameter: value}, over the seabed): the
#: first is the base the others are divided by.  Over the seabed (seabed_file) the
#: BlueROV2 also has its contact at the eight corners of config/bluerov2.yaml, evaluated
#: at every RK4 stage whether or not it touches.
CONFIGURATIONS = [
    ('base', {}, {}, False),
    ('contact', {}, {}, True),
    ('dvl_10hz', {'dvl': DVL_10HZ}, {}, True),
    ('dvl_10hz_echosounder_50hz', {'dvl': DVL_10HZ, 'altimeter': ECHOSOUNDER_50HZ}, {}, True),
]

#: Per configuration and run: (figure, unit).
FIGURES = (('process_cpu_per_step_us', 'us'), ('cycle_cpu_p50_us', 'us'),
           ('over_base', 'x'), ('cycle_over_base', 'x'), ('rate_hz', 'Hz'))


def write_terrain(directory) -> pathlib.Path:
    """Write the bench's seabed (an ESRI ASCII grid, its YAML description); return the YAML."""
    directory = pathlib.Path(directory)
    n, step = 401, 2.0
    x = step * (np.arange(n) - (n - 1) / 2)
    xx, yy = np.meshgrid(x, x[::-1])  # rows from north to south
    heights = (-35.0 + 8.0 * np.sin(0.02 * xx) * np.cos(0.03 * yy)
               + 2.0 * np.sin(0.3 * xx + 0.2 * yy))
    header = ('ncols %d\nnrows %d\nxllcenter %r\nyllcenter %r\ncellsize %r\n'
              % (n, n, float(x[0]), float(x[0]), step))
    np.savetxt(directory / 'terrain.asc', heights, fmt='%.4f', header=header.rstrip('\n'),
               comments='')
    crs = ('+proj=tmerc +lat_0=%r +lon_0=%r +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m '
           '+no_defs' % ORIGIN)
    description = directory / 'terrain.yaml'
    description.write_text('seabed:\n  file: terrain.asc\n  origin: [%r, %r]\n  crs: "%s"\n'
                           % (ORIGIN + (crs,)))
    return description


def write_vehicle(directory, name, sensors) -> pathlib.Path:
    """Write config/bluerov2.yaml with its DVL taken out and ``sensors`` put in."""
    import yaml
    data = yaml.safe_load(VEHICLE.read_text())

    def sensor_blocks(node):
        if isinstance(node, dict):
            if 'sensors' in node and isinstance(node['sensors'], dict):
                yield node
            for value in node.values():
                yield from sensor_blocks(value)

    holders = list(sensor_blocks(data))
    assert len(holders) == 1, 'config/bluerov2.yaml: one sensors block expected'
    block = holders[0]['sensors']
    block.pop('dvl', None)
    block.update(copy.deepcopy(sensors))
    path = pathlib.Path(directory) / ('bluerov2_%s.yaml' % name)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def sample_us(vehicle, seabed, kind: str, samples: int = 2000) -> float:
    """Return the median thread CPU (us) of one sample of a ``kind`` sensor at the start pose."""
    from uwv_hydro.description.loader import load_vehicle
    from uwv_hydro.description.seabed.seabed_file import seabed_from_options
    from uwv_hydro.modes.sensor_suite import SensorSuite
    grid, _ = seabed_from_options(str(seabed))
    suite = SensorSuite(load_vehicle(str(vehicle)), seabed=grid)
    model = [m for m in suite.models if m.spec.kind == kind][0]
    position, quaternion = np.array([0.0, 0.0, -10.0]), np.array([1.0, 0.0, 0.0, 0.0])
    nu, nu_dot = np.array([0.3, 0.1, 0.0, 0.0, 0.0, 0.05]), np.zeros(6)
    reading = model.measure(0.0, position, quaternion, nu, nu_dot)
    if kind == 'dvl':
        assert reading.valid and reading.beam_locked.all(), 'the bench DVL must lock 4 beams'
    else:
        assert reading.valid, 'the bench echosounder must see the seabed'
    costs = []
    clock = time.thread_time_ns
    for k in range(samples):
        start = clock()
        model.measure(0.02 * (k + 1), position, quaternion, nu, nu_dot)
        costs.append(clock() - start)
    return float(np.median(costs)) * 1e-3


def bench(results, emit, quiet_check, quick: bool, runs: int) -> None:
    """Emit the figures of every configuration run after run, then medians and ranges."""
    from node_probe import measure_node
    duration = 3.0 if quick else 10.0
    work = pathlib.Path(tempfile.mkdtemp(prefix='uwv_seabed_bench_'))
    seabed = write_terrain(work)
    vehicles = [(name, write_vehicle(work, name, sensors),
                 dict({'seabed_file': str(seabed)} if over else {}, **params))
                for name, sensors, params, over in CONFIGURATIONS]
    every = {name: [] for name, *_ in CONFIGURATIONS}
    quiet_runs = True
    for run in range(1, runs + 1):
        per_run, loads, quiet = {}, [], True
        # odd runs forward, even runs backward: a drift over the run (the machine
        # warming, caches) weighs on every configuration alike over the runs
        for name, vehicle, params in (vehicles if run % 2 else vehicles[::-1]):
            tag = 'BlueROV2 %s over the grid seabed at %g Hz, run %d/%d' % (
                name, RATE_HZ, run, runs)
            load, ok = quiet_check('node simulate mode, ' + tag)
            loads.append(load)
            quiet = quiet and ok
            got = {r[0]: r for r in measure_node(
                RATE_HZ, duration, vehicle_file=str(vehicle),
                node_params=params)}
            per_run[name] = {
                'process_cpu_per_step_us': got['node_process_cpu_per_odometry_us'][1],
                'cycle_cpu_p50_us': got.get('node_cycle_cpu_p50_us', (0, float('nan')))[1],
                'rate_hz': got['node_rate_hz'][1]}
        base = per_run[CONFIGURATIONS[0][0]]
        quiet_runs = quiet_runs and quiet
        for name, *_ in CONFIGURATIONS:
            figures = per_run[name]
            figures['over_base'] = (figures['process_cpu_per_step_us']
                                    / base['process_cpu_per_step_us'])
            figures['cycle_over_base'] = figures['cycle_cpu_p50_us'] / base['cycle_cpu_p50_us']
            for key, unit in FIGURES:
                emit(results, 'seabed_sensors_%s_%s' % (name, key), float(figures[key]), unit,
                     run=run, quiet=quiet, load=max(loads))
            every[name].append(figures)
    both = {n: v for n, v, _ in vehicles}['dvl_10hz_echosounder_50hz']
    base_cpu_s = every[CONFIGURATIONS[0][0]][-1]['process_cpu_per_step_us'] * RATE_HZ
    for kind, name, rate in (('dvl', 'dvl', 10.0), ('echosounder', 'echosounder', 50.0)):
        sample = sample_us(both, seabed, kind)
        emit(results, 'seabed_sensors_%s_sample_us' % name, sample, 'us')
        # the samples of one second over the base's CPU of one second
        emit(results, 'seabed_sensors_%s_%dhz_sample_share' % (name, rate),
             sample * rate / base_cpu_s, 'x', quiet=quiet_runs)
    for name, *_ in CONFIGURATIONS:
        for key, unit in FIGURES:
            values = [f[key] for f in every[name]]
            emit(results, 'seabed_sensors_%s_%s_median' % (name, key), float(np.median(values)),
                 unit, low=float(min(values)), high=float(max(values)), runs=runs,
                 quiet=quiet_runs)
