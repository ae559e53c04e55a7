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
The tether as a MoorDyn lumped-mass cable, its vehicle end moved with the vehicle.

MoorDyn (NREL; Hall and Goupee 2015, Ocean Engineering 104) integrates the cable with
its own internal step ``dtM``: N segments, N + 1 nodes, axial elasticity EA with
internal damping, Morison drag and added mass (normal Cd on d l, tangential CdAx on
pi d l), weight less buoyancy, and seabed contact at the flat water depth.  This class
writes MoorDyn's v2 input file into a temporary directory from a
:class:`~uwv_hydro.physics.environment.tether_spec.TetherSpec`: point 1 the far end (Fixed, or
Coupled to a vessel), point 2 the vehicle's attachment (Coupled), one line between.

Coupling (:meth:`Tether.step`): over a vehicle step [t, t + dt] the attachment moves
from p0 with the constant velocity (p1 - p0) / dt of the step's predicted motion;
MoorDyn runs that step in sub-steps of its own dtM and the step returns the mean of
the attachment force over them (trapezoidal rule), which the vehicle then feels held
over the same step.  So the work the cable receives from the vehicle,
F_mean . (p1 - p0), and the work the vehicle receives from the cable,
F_mean . (p1' - p0) with p1' the attachment's actual end, differ by
F_mean . (p1' - p1): the predictor's error, O(dt^2) per step.  :attr:`work_mismatch`
sums it (J), the stated and measured bound on the energy the coupling can inject.

The water's velocity at every node comes from the vehicle's current field (MoorDyn's
externally set wave kinematics, ``WaveKin 1``), set before every step.
"""
import math
import os
import tempfile
import threading
from typing import Optional

import numpy as np

from uwv_hydro.physics.environment.tether_spec import taut_message, TetherSpec, weight_in_water
from uwv_hydro.physics.spatial.rotation import quat_to_matrix

#: MoorDyn's time step: this fraction of the axial wave's time across one segment
#: (sqrt(m / EA) l; Courant number 0.5 of the explicit RK2 scheme)
COURANT = 0.5
#: the far end's MoorDyn point number and the vehicle's
FAR, VEHICLE = 1, 2
#: one MoorDyn call at a time holds std::cout detached (:class:`_MutedCout`)
_FD_LOCK = threading.Lock()


class TetherError(RuntimeError):
    """MoorDyn failed (a NaN, an unstable step): the message names the value and place."""


#: MoorDyn's seabed contact (its documented defaults, written into the input file):
#: stiffness (Pa/m) and damping (Pa s/m) per unit of the node's contact area d l
K_BOTTOM, C_BOTTOM = 3.2e6, 3.2e4


def internal_step(spec: TetherSpec, rho: float, seabed: bool = False) -> float:
    """
    Return MoorDyn's dtM (s) for ``spec``: COURANT x the fastest time of the cable.

    The axial wave across a segment, and with a seabed the node's contact spring and
    damper (sqrt(m / k) and m / c of a node of mass m' l on k = K d l, c = C d l).
    """
    segment = spec.length / spec.segments
    # the axial wave speed c = sqrt(EA / m'), m' the mass with the axial added mass
    mass = spec.mass_per_length + spec.ca_tangential * rho * math.pi * spec.diameter ** 2 / 4
    fastest = segment / math.sqrt(spec.axial_stiffness / mass)
    if seabed:
        # a node on the seabed: m = (m' + Ca rho A) l, k = K_bot d l, c = C_bot d l
        node = (spec.mass_per_length + spec.ca_normal * rho * math.pi * spec.diameter ** 2
                / 4) * segment
        area = spec.diameter * segment
        fastest = min(fastest, math.sqrt(node / (K_BOTTOM * area)), node / (C_BOTTOM * area))
    return COURANT * fastest


def input_text(spec: TetherSpec, far, near, rho: float, gravity: float, depth: float,
               dt_m: float, far_coupled: bool = False) -> str:
    """Return MoorDyn's v2 input file for the tether between ``far`` and ``near`` (world)."""
    def row(values):
        return '  '.join('%.17g' % v if isinstance(v, float) else str(v) for v in values)

    mass = float(spec.mass_per_length)
    return '\n'.join([
        'MoorDyn v2 input: uwv_hydro tether',
        '----------------------- LINE TYPES ------------------------------------------',
        'TypeName Diam Mass/m EA BA/-zeta EI Cd Ca CdAx CaAx',
        '(name) (m) (kg/m) (N) (N-s/-) (N-m^2) (-) (-) (-) (-)',
        # BA -1: MoorDyn sets the internal damping to critical damping of a segment's
        # axial mode (zeta = 1), which keeps dtM stable without changing the statics
        row(['tether', float(spec.diameter), mass, float(spec.axial_stiffness), -1.0, 0.0,
             float(spec.cd_normal), float(spec.ca_normal), float(spec.cd_tangential),
             float(spec.ca_tangential)]),
        '---------------------- POINTS --------------------------------',
        'ID Attachment X Y Z Mass Volume CdA CA',
        '(#) (-) (m) (m) (m) (kg) (m^3) (m^2) (-)',
        row([FAR, 'Coupled' if far_coupled else 'Fixed'] + [float(v) for v in far]
            + [0.0, 0.0, 0.0, 0.0]),
        row([VEHICLE, 'Coupled'] + [float(v) for v in near] + [0.0, 0.0, 0.0, 0.0]),
        '---------------------- LINES --------------------------------------',
        'ID LineType AttachA AttachB UnstrLen NumSegs LineOutputs',
        '(#) (name) (#) (#) (m) (-) (-)',
        row([1, 'tether', FAR, VEHICLE, float(spec.length), int(spec.segments), '-']),
        '---------------------- OPTIONS -----------------------------------------',
        '%.17g WtrDpth' % depth,
        '%.17g rho' % rho,
        '%.17g g' % gravity,
        '%.17g dtM' % dt_m,
        '%.17g kBot' % K_BOTTOM,
        '%.17g cBot' % C_BOTTOM,
        '1 WaveKin',
        '0 Currents',
        '30.0 TmaxIC',
        '4.0 CdScaleIC',
        '0.0001 threshIC',
        '0 writeLog',
        '------------------------- need this line -------------------------------------',
        ''])


class _MutedCout:
    """
    Silence C++'s std::cout while MoorDyn runs (it prints its input and every step's time).

    MoorDyn 2.7.2 prints to std::cout whatever its verbosity; std::cout's buffer is
    detached (``basic_ios::rdbuf(nullptr)``, the standard way to discard a stream's
    output) for the call and put back after it, so that nothing else's output is lost.
    Where libstdc++ cannot be reached this way, MoorDyn's prints go through.
    """

    def __init__(self):
        self._ios = self._rdbuf = None
        try:
            import ctypes
            import cmoordyn  # noqa: F401  (loads libstdc++ and constructs std::cout)
            lib = ctypes.CDLL('libstdc++.so.6')
            address = ctypes.addressof(ctypes.c_void_p.in_dll(lib, '_ZSt4cout'))
            vtable = ctypes.c_void_p.from_address(address).value
            # the virtual base basic_ios sits at the offset the vtable stores at [-3]
            self._ios = address + ctypes.c_long.from_address(vtable - 24).value
            rdbuf = lib._ZNSt9basic_iosIcSt11char_traitsIcEE5rdbufEPSt15basic_streambufIcS1_E
            rdbuf.restype = ctypes.c_void_p
            rdbuf.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            self._rdbuf = rdbuf
        except (OSError, AttributeError, ValueError, TypeError, ImportError):
            self._ios = self._rdbuf = None

    def __enter__(self):
        _FD_LOCK.acquire()
        self._saved = self._rdbuf(self._ios, None) if self._rdbuf is not None else None

    def __exit__(self, *exc):
        if self._rdbuf is not None:
            self._rdbuf(self._ios, self._saved)
        _FD_LOCK.release()


_MUTE = []  # noqa


def _muted() -> _MutedCout:
    """Return the process's one std::cout silencer (made on first use)."""
    if not _MUTE:
        _MUTE.append(_MutedCout())
    return _MUTE[0]


class Tether:
    """
    A tether's cable in MoorDyn (module docstring), in world coordinates (ENU, m).

    ``attach``: the attachment's world position at start; ``far``: the far end's
    (default the spec's anchor); ``depth``: the flat seabed's depth (m, > 0; None:
    10 km, no seabed); ``field``: the current field (physics.environment.current_field) the nodes
    feel, or None (still water, or ``current`` set per step); ``dt_m``: MoorDyn's
    internal step (default :func:`internal_step`, the stable one).
    """

    def __init__(self, spec: TetherSpec, attach, rho: float, gravity: float,
                 depth: Optional[float] = None, far=None, field=None,
                 far_coupled: Optional[bool] = None, static: bool = True,
                 dt_m: Optional[float] = None):
        import moordyn  # pip (requirements.txt): only a tethered vehicle loads it
        self._md = moordyn
        self._args = {'rho': rho, 'gravity': gravity, 'depth': depth, 'far': far,
                      'field': field, 'far_coupled': far_coupled, 'static': static,
                      'dt_m': dt_m}
        self.spec = spec
        self.rho, self.gravity = float(rho), float(gravity)
        self.depth = 1e4 if depth is None else float(depth)
        self.field = field
        self.far_coupled = (spec.vessel_topic is not None if far_coupled is None
                            else bool(far_coupled))
        self.far = np.asarray(spec.anchor if far is None else far, dtype=float).copy()
        self.far_velocity = np.zeros(3)
        attach = np.asarray(attach, dtype=float)
        #: MoorDyn's internal step (s): :func:`internal_step` unless given
        self.dt_m = (internal_step(spec, self.rho, depth is not None) if dt_m is None
                     else float(dt_m))
        self._dir = tempfile.TemporaryDirectory(prefix='uwv_tether_')
        path = os.path.join(self._dir.name, 'tether.txt')
        with open(path, 'w', encoding='utf-8') as out:
            out.write(input_text(spec, self.far, attach, self.rho, self.gravity, self.depth,
                                 self.dt_m, self.far_coupled))
        with _muted():
            self._sys = moordyn.Create(path)
            moordyn.SetVerbosity(self._sys, moordyn.LEVEL_NONE)
            x, v = self._coupled(attach, np.zeros(3))
            code = (moordyn.Init if static else moordyn.Init_NoIC)(self._sys, x, v)
        if code != 0:
            raise TetherError('tether: MoorDyn could not start (error %d) for %s'
                              % (code, spec.source))
        self._line = moordyn.GetLine(self._sys, 1)
        self.n_nodes = moordyn.GetLineN(self._line) + 1
        moordyn.ExternalWaveKinInit(self._sys)
        self.t = 0.0
        #: the attachment's world position at the state's time
        self.attach = attach.copy()
        #: the force of the cable on the vehicle at the attachment (world, N), latest
        self.force = self._end_force()
        #: the mean force over the latest step (what the vehicle felt)
        self.mean_force = self.force.copy()
        #: the cable's force on a coupled far end (the vessel's load; world, N), latest
        #: and its mean over the latest step; zero at a fixed end (MoorDyn computes no
        #: force on a Fixed point)
        self.far_force = self._end_force(FAR) if self.far_coupled else np.zeros(3)
        self.far_mean_force = self.far_force.copy()
        #: sum of F_mean . (actual - predicted attachment end) over the steps (J)
        self.work_mismatch = 0.0
        #: sum of |F_mean . (actual - predicted)| (J): the bound's size, sign aside
        self.work_mismatch_abs = 0.0
        #: work the cable received from the vehicle's end (J)
        self.work_on_cable = 0.0

    def _coupled(self, attach, velocity):
        if self.far_coupled:
            return (list(self.far) + list(map(float, attach)),
                    list(self.far_velocity) + list(map(float, velocity)))
        return list(map(float, attach)), list(map(float, velocity))

    def _end_force(self, which: int = VEHICLE) -> np.ndarray:
        point = self._md.GetPoint(self._sys, which)
        return np.array(self._md.GetPointForce(point), dtype=float)

    def nodes(self) -> np.ndarray:
        """Return the (N + 1, 3) node positions, far end first (world, m)."""
        return np.array([self._md.GetLineNodePos(self._line, k)
                         for k in range(self.n_nodes)], dtype=float)

    def node_velocities(self) -> np.ndarray:
        """Return the (N + 1, 3) node velocities (world, m/s)."""
        return np.array([self._md.GetLineNodeVel(self._line, k)
                         for k in range(self.n_nodes)], dtype=float)

    def tension_at_vehicle(self) -> float:
        """Return the tension's magnitude at the vehicle (N), latest."""
        return float(np.linalg.norm(self.force))

    def _set_water(self, t: float, current) -> None:
        coords = self._md.ExternalWaveKinGetCoordinates(self._sys)
        if self.field is not None and current is None:
            u = [list(map(float, self.field.velocity(c, t))) for c in coords]
        else:
            v = [0.0, 0.0, 0.0] if current is None else list(map(float, current))
            u = [v] * len(coords)
        self._md.ExternalWaveKinSet(self._sys, u, [[0.0, 0.0, 0.0]] * len(coords), t)

    def step(self, start, end, dt: float, current=None) -> np.ndarray:
        """
        Run the cable over a step: the attachment from ``start`` to ``end`` (world).

        Return the mean force of the cable on the attachment over the step (world, N).
        ``current``: a uniform water velocity (world), used when no field is set.
        TetherError (state unchanged from the caller's view: the caller stops) when
        MoorDyn fails or a force goes non-finite.
        """
        start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
        velocity = (end - start) / dt
        n = max(1, int(math.ceil(dt / self.dt_m - 1e-9)))
        h = dt / n
        self._set_water(self.t, current)
        total, far_total = 0.5 * self.force, 0.5 * self.far_force
        force, far = self.force, self.far_force
        for k in range(n):
            x, v = self._coupled(start + velocity * (k * h), velocity)
            if self.far_coupled:
                x[:3] = list(self.far + self.far_velocity * (k * h))
            try:
                with _muted():
                    out = self._md.Step(self._sys, x, v, self.t + k * h, h)
                force = np.array(out[-3:], dtype=float)
            except RuntimeError:  # MoorDyn's own NaN check (node positions)
                force = np.full(3, np.nan)
            if not np.all(np.isfinite(force)):
                raise TetherError(
                    'tether: MoorDyn went non-finite at t = %.6g s (force %s at the vehicle; '
                    'attachment at %s): its step %.3g s is too long for EA = %.6g N on '
                    '%d segments, or the vehicle moved too fast'
                    % (self.t + k * h, force.tolist(), (start + velocity * k * h).tolist(),
                       self.dt_m, self.spec.axial_stiffness, self.spec.segments))
            # trapezoid over the sub-steps: the mean force of the step
            total = total + (force if k < n - 1 else 0.5 * force)
            if self.far_coupled:
                far = np.array(out[:3], dtype=float)
                far_total = far_total + (far if k < n - 1 else 0.5 * far)
        mean = total / n
        self.far_force, self.far_mean_force = far, far_total / n
        self.force = force
        self.mean_force = mean
        self.work_on_cable -= float(mean @ (end - start))
        self.t += dt
        self.attach = end.copy()
        if self.far_coupled:
            self.far = self.far + self.far_velocity * dt
        return mean

    def correct(self, predicted_end, actual_end) -> None:
        """Account the attachment's actual end against the predicted one (the bound)."""
        mismatch = float(self.mean_force @ (np.asarray(actual_end) - np.asarray(predicted_end)))
        self.work_mismatch += mismatch
        self.work_mismatch_abs += abs(mismatch)

    def cable_energy(self) -> float:
        """
        Return the cable's mechanical energy (J): kinetic + strain + potential in water.

        Kinetic: 1/2 m_node |v|^2 per node (lumped masses m' l, ends halved, without
        the added mass); strain: EA/(2 l) (stretch)^2 per stretched segment; potential:
        w l z per node (w the weight in water per metre).
        """
        pos, vel = self.nodes(), self.node_velocities()
        n = self.n_nodes - 1
        seg = self.spec.length / n
        lumps = np.full(self.n_nodes, seg)
        lumps[[0, -1]] = seg / 2
        added = self.spec.ca_normal * self.rho * math.pi * self.spec.diameter ** 2 / 4
        # kinetic 1/2 m v^2 of the lumped node masses (normal added mass as MoorDyn lumps it)
        kinetic = 0.5 * float(np.sum((self.spec.mass_per_length + added) * lumps
                                     * np.sum(vel * vel, axis=1)))
        lengths = np.linalg.norm(np.diff(pos, axis=0), axis=1)
        stretch = np.maximum(lengths - seg, 0.0)
        # strain energy EA / (2 l) dl^2 of each segment in tension (a cable has none slack)
        strain = float(np.sum(self.spec.axial_stiffness / (2 * seg) * stretch ** 2))
        # potential w l z of each node's weight less buoyancy
        potential = float(np.sum(weight_in_water(self.spec, self.rho, self.gravity)
                                 * lumps * pos[:, 2]))
        return kinetic + strain + potential

    def restart(self, attach) -> 'Tether':
        """Close this cable and return a new one hung from ``attach`` (world), same inputs."""
        self.close()
        return Tether(self.spec, attach, **self._args)

    def close(self) -> None:
        """Release MoorDyn and the input file."""
        if self._sys is not None:
            self._md.Close(self._sys)
            self._sys = None
            self._dir.cleanup()


def cable_seabed_depth(spec, seabed=None, depth: Optional[float] = None, log=None):
    """
    Return the depth (m) of the flat seabed MoorDyn lays the cable on, or None for none.

    ``depth`` given (> 0) wins; else the world's seabed (physics.environment.seabed): a flat one's
    depth, a grid's depth under the anchor, with a warning that the cable rests on that
    level (MoorDyn's bathymetry file is not written), not on the grid.
    """
    if depth is not None and depth > 0:
        return float(depth)
    if seabed is None:
        return None
    if hasattr(seabed, 'depth'):
        return float(seabed.depth)
    level = float(seabed.elevation(spec.anchor[0], spec.anchor[1]))
    if not math.isfinite(level) or level >= 0.0:
        if log is not None:
            log('warning', 'tether_seabed', 'the tether anchor (%g, %g) is over no seabed '
                'of the grid: the cable has no bottom' % (spec.anchor[0], spec.anchor[1]))
        return None
    if log is not None:
        log('warning', 'tether_seabed', 'the cable rests on a flat seabed %g m deep, the '
            "grid's depth under its anchor, not on the grid itself" % -level)
    return -level


def start_tether(mode, params, field=None, depth: Optional[float] = None,
                 log=None) -> Tether:
    """
    Return the cable of ``params.tether`` hung from ``mode``'s attachment at its state.

    ``log(level, key, text)`` gets the warning of a taut tether (its ends farther apart
    than its length: it starts stretched, the tension EA x strain named).
    """
    spec = params.tether
    attach = np.asarray(mode.x[:3], float) + quat_to_matrix(
        np.asarray(mode.x[3:7], float)) @ np.asarray(spec.attachment, float)
    message = taut_message(spec, attach)
    if message is not None and log is not None:
        log('warning', 'tether_taut', message)
    return Tether(spec, attach, params.fluid_density, params.gravity, depth=depth, field=field)
