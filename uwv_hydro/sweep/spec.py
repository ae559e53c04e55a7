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
The sweep specification (YAML): vehicle, variations, scenario, outputs; checked on load.

Example (paths relative to the spec file)::

    vehicle: ../config/remus100.yaml
    runs: 1000                # seed: 7, chunk_size: 250
    vary:
      quadratic_drag: {dist: uniform, low: -0.3, high: 0.3}    # relative: x (1 + d)
      added_mass.yy: {dist: normal, std: 0.2}
      buoyancy_mass: {dist: normal, std: 0.05, relative: false}  # kg added
      thrust_scale: {dist: lognormal, sigma: 0.1}                # x exp(N(0, sigma))
      current.x: {dist: uniform, low: -0.2, high: 0.2, relative: false}
    scenario:
      duration: 60.0
      dt: 0.05
      thrust: [20, 0, 0, 0, 0, 0]       # or thrust_profile: profile.csv
      fin_angles: [0.1, 0.1, 0, 0]      # rad, held; also current: [x, y, z] (ENU)
      initial_position: [0, 0, -5]
    outputs: [final_position, max_depth, depth_overshoot, turning_diameter, energy, broach]

A manoeuvre scenario instead flies one standard manoeuvre per run (its keys are the
``manoeuvre`` command's options; outputs are its figures, see
:mod:`uwv_hydro.sweep.manoeuvre_runs`)::

    scenario: {manoeuvre: turn, rudder: 10, speed: 1.5, depth: 5}
    outputs: [tactical_diameter_m, advance_m, depth_deviation_m]

Every error is a :class:`DescriptionError` naming the spec file, the key and its line.
"""

from dataclasses import dataclass, field
import hashlib
import json
import math
import pathlib
from typing import List, Optional, Tuple

from uwv_hydro.description import overflow_bounds as bounds
from uwv_hydro.description.conventions import DSROS_LETTERS, letters_to_indices
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.yaml_safe import load_yaml_text_file, YamlMap

#: Distributions and their parameters.
DISTRIBUTIONS = {'uniform': ('low', 'high'), 'normal': ('std',), 'lognormal': ('sigma',)}
#: Scalar fields of VehicleParams a sweep may vary.
SCALAR_FIELDS = ('mass', 'buoyancy_mass', 'fluid_density')
#: Vector fields (suffix .x .y .z).
VECTOR_FIELDS = ('com', 'cob')
#: Tensor fields and their index count (suffix: dsros letters x y z r p h; none: all).
TENSOR_FIELDS = {'linear_drag': 2, 'added_mass': 2, 'quadratic_drag': 3}
#: Scenario quantities a sweep may vary (nominal 1 and the scenario's current).
SCENARIO_TARGETS = ('thrust_scale', 'current.x', 'current.y', 'current.z')
#: Outputs and the Parquet columns they give.
OUTPUTS = {
    'final_position': ('final_x', 'final_y', 'final_z'),
    'max_depth': ('max_depth',),
    'depth_overshoot': ('depth_overshoot',),
    'turning_diameter': ('turning_diameter',),
    'energy': ('energy',),
    'broach': ('broach',),
}
#: The figures a manoeuvre scenario gives (uwv_hydro.modes.manoeuvres.manoeuvre, plus the depth
#: deviation; a spiral gives yaw_rate_deg_s_at_A and speed_m_s_at_A per rudder angle A).
MANOEUVRE_FIGURES = {
    'turn': ('advance_m', 'transfer_m', 'tactical_diameter_m', 'steady_diameter_m',
             'steady_speed_m_s', 'speed_loss', 'drift_angle_deg', 'yaw_rate_deg_s',
             'heading_change_deg', 'cruise_rpm', 'depth_deviation_m'),
    'zigzag': ('overshoot_1_deg', 'overshoot_2_deg', 'overshoot_3_deg', 'overshoot_4_deg',
               'time_to_first_reversal_s', 'period_s', 'cruise_rpm', 'depth_deviation_m'),
    'pullout': ('turn_yaw_rate_deg_s', 'residual_yaw_rate_deg_s', 'residual_ratio',
                'depth_deviation_m'),
    'spiral': (),
}
#: The chunk files' layout (columns and their meaning): part of the hash, so that chunks
#: written by another layout are never reused.
CHUNK_FORMAT = 'uwv_hydro sweep chunk 2: run, drawn, outputs, diverged, refused'
#: Keys of a manoeuvre scenario (the ``manoeuvre`` command's options).
MANOEUVRE_KEYS = ('manoeuvre', 'speed', 'depth', 'rudder', 'check', 'angles',
                  'differential', 'settle', 'dt', 'depth_hold')
TOP_KEYS = ('vehicle', 'runs', 'seed', 'chunk_size', 'vary', 'scenario', 'outputs')
SCENARIO_KEYS = ('duration', 'dt', 'substeps', 'thrust', 'thrust_profile', 'fin_angles',
                 'current', 'initial_position', 'initial_velocity', 'target_depth')


@dataclass
class Variation:
    """One varied quantity: ``target`` (e.g. 'added_mass.yy') drawn from ``dist``."""

    target: str
    dist: str
    args: Tuple[float, ...]
    relative: bool = True


@dataclass
class Scenario:
    """What every run does: thrust (profile x thrust_scale), fins held, current."""

    duration: float
    dt: float = 0.05
    substeps: Optional[int] = None           # None: stable for the nominal vehicle
    thrust: Tuple[float, ...] = (0.0,) * 6
    thrust_profile: Optional[str] = None     # resolved path
    fin_angles: Optional[Tuple[float, ...]] = None
    current: Tuple[float, ...] = (0.0, 0.0, 0.0)
    initial_position: Tuple[float, ...] = (0.0, 0.0, 0.0)
    initial_velocity: Tuple[float, ...] = (0.0,) * 6
    target_depth: Optional[float] = None


@dataclass
class ManoeuvreScenario:
    """Every run flies manoeuvre ``kind`` (angles in degrees, as the ``manoeuvre`` CLI)."""

    kind: str
    speed: float = 1.5
    depth: float = 5.0
    rudder: float = 10.0
    check: Optional[float] = None
    angles: Optional[Tuple[float, ...]] = None
    differential: float = 0.5
    settle: float = 60.0
    dt: float = 0.02
    depth_hold: bool = True


@dataclass
class SweepSpec:
    """A checked sweep specification (see the module docstring)."""

    vehicle: str                             # resolved path
    runs: int
    seed: int
    chunk_size: int
    scenario: object                         # Scenario or ManoeuvreScenario
    vary: List[Variation] = field(default_factory=list)
    outputs: Tuple[str, ...] = tuple(OUTPUTS)
    source: str = ''

    @property
    def chunks(self) -> int:
        """Return the number of chunks."""
        return (self.runs + self.chunk_size - 1) // self.chunk_size

    def chunk_range(self, index: int) -> Tuple[int, int]:
        """Return the runs [start, stop) of chunk ``index``."""
        start = index * self.chunk_size
        return start, min(start + self.chunk_size, self.runs)

    def output_columns(self) -> List[str]:
        """Return the Parquet output columns in order."""
        if isinstance(self.scenario, ManoeuvreScenario):
            return list(self.outputs)
        return [c for name in self.outputs for c in OUTPUTS[name]]

    def digest(self) -> str:
        """Return the sha256 of the spec and of the files it reads (keys the chunk files)."""
        h = hashlib.sha256()
        doc = {'format': CHUNK_FORMAT, 'runs': self.runs, 'seed': self.seed,
               'chunk_size': self.chunk_size,
               'vary': [(v.target, v.dist, list(v.args), v.relative) for v in self.vary],
               'scenario': {k: v for k, v in vars(self.scenario).items()
                            if k != 'thrust_profile'},
               'outputs': list(self.outputs)}
        if isinstance(self.scenario, ManoeuvreScenario):
            doc['manoeuvre'] = True
        h.update(json.dumps(doc, sort_keys=True).encode())
        for path in (self.vehicle, getattr(self.scenario, 'thrust_profile', None)):
            if path is not None:
                h.update(pathlib.Path(path).read_bytes())
        return h.hexdigest()


def check_target(target: str) -> bool:
    """Return True when ``target`` names a quantity a sweep can vary."""
    if target in SCALAR_FIELDS or target in SCENARIO_TARGETS or target in TENSOR_FIELDS:
        return True
    name, _, suffix = target.partition('.')
    if name in VECTOR_FIELDS:
        return suffix in ('x', 'y', 'z')
    if name in TENSOR_FIELDS:
        return letters_to_indices(suffix, DSROS_LETTERS, TENSOR_FIELDS[name]) is not None
    return False


class _Checker:
    """Read typed values from YAML maps; errors name the key and its line."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, reason, key, node=None, line=None):
        if line is None and isinstance(node, YamlMap):
            line = node.line_of(key.rsplit('.', 1)[-1])
        raise DescriptionError(reason, source=self.source, element=key, line=line)

    def number(self, node, key, path, default=None, positive=False, integer=False,
               at_most=None, why=None):
        if key not in node:
            if default is None:
                self.fail('required', path, node, line=getattr(node, 'line', None))
            return default
        value = node[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail('must be a number, got %r' % (value,), path, node)
        if not math.isfinite(value):
            self.fail('must be finite', path, node)
        if integer and value != int(value):
            self.fail('must be an integer', path, node)
        if positive and not value > 0:
            self.fail('must be > 0', path, node)
        if at_most is not None and abs(value) > at_most:
            self.fail('must be at most %g in magnitude (%s), got %g'
                      % (at_most, why or bounds.WORK, value), path, node)
        return int(value) if integer else float(value)

    def vector(self, node, key, path, size, default=None, at_most=None):
        if key not in node:
            return default
        value = node[key]
        if not isinstance(value, list) or len(value) != size:
            self.fail('must be a list of %d numbers' % size, path, node)
        out = []
        for v in value:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                self.fail('must be a list of %d finite numbers' % size, path, node)
            if at_most is not None and abs(v) > at_most:
                self.fail('every element must be at most %g in magnitude (%s), got %g'
                          % (at_most, bounds.WORK, v), path, node)
            out.append(float(v))
        return tuple(out)

    def unknown(self, node, known, prefix):
        for key in node:
            if key not in known:
                self.fail('unknown key (known: %s)' % ', '.join(known), prefix + str(key), node)


def _variation(chk, target, node, where):
    path = 'vary.' + str(target)
    if not isinstance(target, str) or not check_target(target):
        chk.fail('cannot vary %r: expected one of %s, %s.x|y|z, %s with or without a '
                 'dsros index suffix (e.g. added_mass.yy, quadratic_drag.xxx), %s'
                 % (target, ', '.join(SCALAR_FIELDS), '|'.join(VECTOR_FIELDS),
                    ', '.join(TENSOR_FIELDS), ', '.join(SCENARIO_TARGETS)), path, where)
    if not isinstance(node, YamlMap):
        chk.fail('must be a mapping with dist and its parameters', path, where)
    dist = node.get('dist')
    if dist not in DISTRIBUTIONS:
        chk.fail('dist must be one of %s, got %r' % (', '.join(DISTRIBUTIONS), dist),
                 path + '.dist', node, line=node.line_of('dist') if 'dist' in node else None)
    names = DISTRIBUTIONS[dist]
    chk.unknown(node, ('dist', 'relative') + names, path + '.')
    args = tuple(chk.number(node, n, path + '.' + n) for n in names)
    relative = node.get('relative', True)
    if not isinstance(relative, bool):
        chk.fail('must be true or false', path + '.relative', node)
    if dist == 'uniform' and not args[0] < args[1]:
        chk.fail('need low < high', path + '.high', node)
    if dist in ('normal', 'lognormal') and args[0] < 0:
        chk.fail('must be >= 0', path + '.' + names[0], node)
    if dist == 'lognormal' and not relative:
        chk.fail('lognormal is a factor: relative must be true', path + '.relative', node)
    if target in TENSOR_FIELDS and not relative:
        chk.fail('a whole tensor can only be scaled: relative must be true',
                 path + '.relative', node)
    if target == 'thrust_scale' and not relative:
        chk.fail('thrust_scale is a factor: relative must be true', path + '.relative', node)
    return Variation(target, dist, args, relative)


def _scenario(chk, sc, base):
    chk.unknown(sc, SCENARIO_KEYS, 'scenario.')
    duration = chk.number(sc, 'duration', 'scenario.duration', positive=True,
                          at_most=bounds.MAX_STEPS * bounds.MAX_STEP)
    dt = chk.number(sc, 'dt', 'scenario.dt', default=0.05, positive=True,
                    at_most=bounds.MAX_STEP)
    if dt < bounds.MIN_STEP:
        chk.fail('%g s is below %g s (%s)' % (dt, bounds.MIN_STEP, bounds.WORK),
                 'scenario.dt', sc)
    why = bounds.too_many_steps(duration, dt, 'scenario.duration', 'scenario.dt')
    if why is not None:
        chk.fail(why, 'scenario.dt', sc)
    substeps = chk.number(sc, 'substeps', 'scenario.substeps', default=0, integer=True,
                          at_most=bounds.MAX_SUBSTEPS)
    if substeps < 0:
        chk.fail('must be >= 1 (or absent: stable for the nominal vehicle)',
                 'scenario.substeps', sc)
    if 'thrust' in sc and 'thrust_profile' in sc:
        chk.fail('give thrust or thrust_profile, not both', 'scenario.thrust_profile', sc)
    profile = sc.get('thrust_profile')
    if profile is not None:
        if not isinstance(profile, str) or not (base / profile).is_file():
            chk.fail('no such file: %s' % profile, 'scenario.thrust_profile', sc)
        profile = str(base / profile)
    target_depth = None
    if 'target_depth' in sc:
        target_depth = chk.number(sc, 'target_depth', 'scenario.target_depth')
    return Scenario(
        duration=duration, dt=dt, substeps=substeps or None,
        thrust=chk.vector(sc, 'thrust', 'scenario.thrust', 6, (0.0,) * 6,
                          at_most=bounds.MAX_WRENCH),
        thrust_profile=profile,
        fin_angles=chk.vector(sc, 'fin_angles', 'scenario.fin_angles',
                              len(sc.get('fin_angles') or ()) or 1, None),
        current=chk.vector(sc, 'current', 'scenario.current', 3, (0.0, 0.0, 0.0),
                           at_most=bounds.MAX_SPEED),
        initial_position=chk.vector(sc, 'initial_position', 'scenario.initial_position', 3,
                                    (0.0, 0.0, 0.0), at_most=bounds.MAX_REFERENCE_METRES),
        initial_velocity=chk.vector(sc, 'initial_velocity', 'scenario.initial_velocity', 6,
                                    (0.0,) * 6, at_most=bounds.MAX_SPEED),
        target_depth=target_depth)


def manoeuvre_outputs(scenario: ManoeuvreScenario) -> List[str]:
    """Return the figures (output columns) a manoeuvre scenario gives, in order."""
    if scenario.kind == 'spiral':
        return ['%s_at_%g' % (name, a) for a in scenario.angles
                for name in ('yaw_rate_deg_s', 'speed_m_s')]
    return list(MANOEUVRE_FIGURES[scenario.kind])


def _manoeuvre_scenario(chk, sc):
    chk.unknown(sc, MANOEUVRE_KEYS, 'scenario.')
    kind = sc['manoeuvre']
    if kind not in MANOEUVRE_FIGURES:
        chk.fail('must be one of %s, got %r' % (', '.join(MANOEUVRE_FIGURES), kind),
                 'scenario.manoeuvre', sc)
    depth_hold = sc.get('depth_hold', True)
    if not isinstance(depth_hold, bool):
        chk.fail('must be true or false', 'scenario.depth_hold', sc)
    check = None
    if 'check' in sc:
        check = chk.number(sc, 'check', 'scenario.check', positive=True)
    angles = None
    if kind == 'spiral':
        size = len(sc['angles']) if isinstance(sc.get('angles'), list) else 0
        angles = chk.vector(sc, 'angles', 'scenario.angles', size or 1, None)
        if angles is None:
            chk.fail('required for a spiral: the rudder angles (deg; differential thrust: '
                     'fractions)', 'scenario.angles', sc, line=sc.line)
    elif 'angles' in sc:
        chk.fail('only a spiral takes angles', 'scenario.angles', sc)
    differential = chk.number(sc, 'differential', 'scenario.differential', default=0.5)
    if not abs(differential) <= 1.0:
        chk.fail('must be in [-1, 1]', 'scenario.differential', sc)
    return ManoeuvreScenario(
        kind=kind, speed=chk.number(sc, 'speed', 'scenario.speed', 1.5, positive=True),
        depth=chk.number(sc, 'depth', 'scenario.depth', 5.0),
        rudder=chk.number(sc, 'rudder', 'scenario.rudder', 10.0), check=check,
        angles=angles, differential=differential,
        settle=chk.number(sc, 'settle', 'scenario.settle', 60.0, positive=True),
        dt=chk.number(sc, 'dt', 'scenario.dt', 0.02, positive=True), depth_hold=depth_hold)


def load_spec(path) -> SweepSpec:
    """Read and check a sweep specification YAML; raise DescriptionError naming the key."""
    path = pathlib.Path(path)
    source = str(path)
    chk = _Checker(source)
    try:
        doc = load_yaml_text_file(source)
    except OSError as exc:
        raise DescriptionError('cannot read sweep spec: %s' % exc.strerror,
                               source=source) from None
    if not isinstance(doc, YamlMap):
        raise DescriptionError('a sweep spec is a mapping with keys %s' % ', '.join(TOP_KEYS),
                               source=source)
    chk.unknown(doc, TOP_KEYS, '')
    base = path.resolve().parent
    vehicle = doc.get('vehicle')
    if not isinstance(vehicle, str) or not vehicle:
        chk.fail('required: the vehicle description file', 'vehicle', doc,
                 line=doc.line_of('vehicle') if 'vehicle' in doc else doc.line)
    vehicle_path = (base / vehicle)
    if not vehicle_path.is_file():
        chk.fail('no such file: %s' % vehicle_path, 'vehicle', doc)
    runs = chk.number(doc, 'runs', 'runs', positive=True, integer=True,
                      at_most=bounds.MAX_RUNS)
    seed = chk.number(doc, 'seed', 'seed', default=0, integer=True, at_most=bounds.MAX_SEED,
                      why='a 64-bit seed')
    if seed < 0:
        chk.fail('must be >= 0', 'seed', doc)
    chunk_size = chk.number(doc, 'chunk_size', 'chunk_size', default=min(runs, 500),
                            positive=True, integer=True, at_most=bounds.MAX_RUNS)
    sc = doc.get('scenario')
    if not isinstance(sc, YamlMap):
        chk.fail('required: a mapping with at least duration', 'scenario', doc,
                 line=doc.line_of('scenario') if 'scenario' in doc else doc.line)
    if 'manoeuvre' in sc:
        scenario = _manoeuvre_scenario(chk, sc)
    else:
        scenario = _scenario(chk, sc, base)
    vary_node = doc.get('vary', YamlMap())
    if not isinstance(vary_node, YamlMap):
        chk.fail('must be a mapping target -> {dist: ...}', 'vary', doc)
    vary = [_variation(chk, k, v, vary_node) for k, v in vary_node.items()]
    known = list(OUTPUTS)
    if isinstance(scenario, ManoeuvreScenario):
        known = manoeuvre_outputs(scenario)
        for v in vary:
            if v.target in SCENARIO_TARGETS:
                chk.fail('a manoeuvre flies in still water at the cruise thrust (or rpm) that '
                         'holds its speed: %s cannot vary' % v.target, 'vary.' + v.target,
                         vary_node)
    outputs = doc.get('outputs', known)
    if not isinstance(outputs, list) or not outputs:
        chk.fail('must be a non-empty list of %s' % ', '.join(known), 'outputs', doc)
    for name in outputs:
        if name not in known:
            chk.fail('unknown output %r (known: %s)' % (name, ', '.join(known)), 'outputs',
                     doc)
    if len(set(outputs)) != len(outputs):
        chk.fail('an output is listed twice', 'outputs', doc)
    return SweepSpec(vehicle=str(vehicle_path), runs=runs, seed=seed, chunk_size=chunk_size,
                     scenario=scenario, vary=vary, outputs=tuple(outputs), source=source)
