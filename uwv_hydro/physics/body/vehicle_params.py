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
The vehicle parameter set shared by the loaders, the physics core and the node.

Conventions (REP-103):

* World frame ENU (z up, depth = -z); body frame FLU (x forward, y left, z up).
* 6-vectors are ordered [x, y, z, roll, pitch, yaw] (surge, sway, heave, roll,
  pitch, yaw).  Twists are body-frame twists of the body origin (``base_link``);
  wrenches are body-frame, about the body origin, [Fx, Fy, Fz, Tx, Ty, Tz].
* Quaternions are stored [w, x, y, z] (world <- body).
* All hydrodynamic coefficients are positive for dissipation (dsros sign
  convention): linear drag wrench = -L @ nu, quadratic drag wrench
  F_a = -sum_bc Q[a, b, c] * |nu_b| * nu_c, added-mass wrench = -M_A @ nu_dot,
  forward-speed drag wrench = -u * L_u @ nu (u = nu[0], signed).

Reference points (each term is evaluated with the twist of its point and its
wrench is moved back to the origin with tau_o = H(r)^T tau_p, H as gnc.Hmtrx of Fossen's
PythonVehicleSimulator):

* ``drag_center``: point where the linear and quadratic drag wrench acts.
* ``drag_velocity_point``: point whose velocity the drag is evaluated with.
  Physically this equals ``drag_center``; dsros_hydro evaluates drag with the
  centre-of-mass velocity, which a dsros block reproduces by setting it to ``com``.
* ``added_mass_point``: point about which ``added_mass`` is expressed (the
  origin for SDF/YAML, the centre of mass for a dsros block).
"""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from uwv_hydro.physics.actuators.buoyancy_engine import BuoyancyEngineSpec
from uwv_hydro.physics.actuators.thruster_spec import ThrusterSpec

#: Default gravitational acceleration (m/s^2), Gazebo's default magnitude rounded.
DEFAULT_GRAVITY = 9.81
#: Default fluid density (kg/m^3), sea water.
DEFAULT_FLUID_DENSITY = 1025.0
#: Default low-pass coefficient of the lagged acceleration estimate (dsros_hydro).
DEFAULT_ACCELERATION_ALPHA = 0.3

#: Names of the wrench components, in the order they are reported.
COMPONENT_NAMES = (
    'weight', 'buoyancy', 'linear_drag', 'quadratic_drag', 'added_mass',
    'added_mass_coriolis', 'fins', 'hull_lift', 'crossflow_drag',
)

#: Body-lift models of a slender hull (``Hull.model``): Prestero (2001) / Hoerner's
#: small-angle form written with the flow angle, and Jorgensen's (1973) shape.
HULL_LIFT_MODELS = ('prestero', 'jorgensen')

#: Lift/drag models of a fin: gz-sim LiftDrag's two-line model with stall, and
#: uuv_simulator's quadratic and two-line models (LiftDragModel.cc).
FIN_MODELS = ('two_line', 'quadratic', 'uuv_two_lines')

#: Surface transition models.
SURFACE_MODELS = ('dsros', 'continuous')

#: Damping model switches (uwv_dynamic_model ModelType equivalents).
DAMPING_MODELS = ('linear_quadratic', 'quadratic_only')
#: The largest condition number of M_RB + M_A a vehicle may have: simulate inverts it,
#: and beyond 1e12 the inverse keeps fewer than 4 of a double's 16 significant digits.
MAX_MASS_CONDITION = 1e12


@dataclass
class SurfaceTransition:
    """
    Buoyancy near the free surface (dsros_hydro ``<buoyancy>`` block).

    With depth d of the body origin (d = -z_world): full buoyancy when
    d >= fully_submerged_depth, none when d <= out_of_water_depth, otherwise
    (s*frac + (1 - s))*B with frac = (d - out)/(full - out) and s = scale_factor
    (model ``dsros``).  Model ``continuous`` uses frac*B in between (no jump at
    the surface when s < 1).
    """

    out_of_water_depth: float = 0.0
    fully_submerged_depth: float = 0.0
    scale_factor: float = 1.0
    model: str = 'dsros'


@dataclass
class FixedFrame:
    """A frame rigidly attached to the base link (from the URDF fixed-joint chain)."""

    translation: np.ndarray = field(default_factory=lambda: np.zeros(3))
    #: Rotation base <- frame as a unit quaternion [w, x, y, z].
    rotation: np.ndarray = field(default_factory=lambda: np.array([1.0, 0.0, 0.0, 0.0]))


@dataclass
class Fin:
    """
    A control surface: a revolute joint with a lift/drag model (gz-sim LiftDrag names).

    Geometry in the body frame at zero deflection: ``position`` is the joint origin,
    ``axis`` the unit deflection axis, ``cp`` the centre of pressure relative to the
    joint origin, ``forward`` (chord, zero angle of attack) and ``upward`` (positive
    lift) unit vectors.  A deflection delta rotates cp, forward and upward about
    ``axis`` by delta (right-hand rule), so the flow sees alpha = flow angle + delta
    when the axis is forward x upward.  Coefficients are per radian of alpha.
    """

    name: str
    position: np.ndarray = field(default_factory=lambda: np.zeros(3))
    axis: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))
    cp: np.ndarray = field(default_factory=lambda: np.zeros(3))
    forward: np.ndarray = field(default_factory=lambda: np.array([1.0, 0.0, 0.0]))
    upward: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))
    #: 'two_line' (gz-sim LiftDrag), 'quadratic' or 'uuv_two_lines' (uuv_simulator).
    model: str = 'two_line'
    #: Planform area (m^2) of the two-line model.
    area: float = 1.0
    #: Two-line model: lift and drag slopes below the stall (1/rad), stall angle (rad),
    #: slopes past it, zero-lift angle offset a0 (rad) -- gz-sim LiftDrag defaults.
    cla: float = 1.0
    cda: float = 0.01
    alpha_stall: float = 0.5 * np.pi
    cla_stall: float = 0.0
    cda_stall: float = 1.0
    a0: float = 0.0
    #: Extra lift coefficient per radian of deflection (gz-sim); 0: geometry only.
    control_joint_rad_to_cl: float = 0.0
    #: Fluid density (kg/m^3) of a two-line model's dynamic pressure; 0: the vehicle's
    #: (uuv_simulator's TwoLines carries its own <fluid_density>).
    fluid_density: float = 0.0
    #: Quadratic model: lift = lift_constant alpha U^2, drag = drag_constant alpha^2 U^2.
    lift_constant: float = 0.0
    drag_constant: float = 0.0
    #: Deflection limits (rad), servo rate limit (rad/s, inf: none), servo lag (s).
    lower: float = -np.pi
    upper: float = np.pi
    velocity: float = float('inf')
    time_constant: float = 0.0
    #: The gz topic of the model's joint controller for this fin ('' if none).
    command_topic: str = ''
    #: Where the fin was described (for messages).
    source: str = ''


@dataclass
class Hull:
    """
    A slender hull along the body x axis: body lift and strip-theory cross-flow drag.

    The profile is the hull diameter ``diameters`` at the body-frame stations
    ``stations`` (m, increasing from tail to nose, piecewise linear in between); a
    cylinder is two stations.  Body lift (``physics.hydro.hull_lift``): normal force of
    magnitude 1/2 rho d^2 c_yd_beta U^2 sin(a)|cos(a)| (Prestero 2001 after Hoerner; model
    ``jorgensen`` multiplies it by cos(a/2)) acting at ``x_cp`` (mirrored about the hull's
    mid-length when going astern), d = ``lift_diameter`` (None: the largest diameter).
    Cross-flow drag (``physics.hydro.crossflow_drag``): -1/2 rho cd_crossflow d(x) |c| c dx per
    strip, c the cross-flow velocity of the station (Fossen 2021 / PVS crossFlowDrag).
    """

    stations: np.ndarray = field(default_factory=lambda: np.array([-0.5, 0.5]))
    diameters: np.ndarray = field(default_factory=lambda: np.array([0.1, 0.1]))
    #: Body-lift coefficient per radian of flow angle (Hoerner; Prestero uses 1.2).
    c_yd_beta: float = 1.2
    #: Centre of pressure of the body lift on the x axis (m); None: the hull's mid-length.
    x_cp: Optional[float] = None
    #: Two-dimensional cross-flow drag coefficient of the hull's sections (cylinder ~1.1-1.2).
    cd_crossflow: float = 1.1
    #: One of HULL_LIFT_MODELS.
    model: str = 'prestero'
    #: Reference diameter of the body lift (m); None: the largest diameter of the profile.
    lift_diameter: Optional[float] = None
    #: Strips of the cross-flow integral (midpoint rule over the hull's length).
    strips: int = 40
    #: Where the hull was described (for messages).
    source: str = ''


#: What a loader did with an element of a description (``ElementRecord.status``): read
#: and modelled; read with a warning (rounded, defaulted, or recognised but not
#: modelled); refused (an error, recorded only where loading goes on, e.g. with
#: ``allow_nonphysical``).
ELEMENT_STATUSES = ('read', 'warned', 'refused')


@dataclass
class ElementRecord:
    """One element of a description and what the loader did with it (``check`` lists them)."""

    #: What it is: 'link', 'joint', 'thruster', 'fin', 'sensor', 'plugin', 'buoyancy_engine'...
    kind: str
    #: Its name in the description (plugin filename, sensor name, joint name...).
    name: str
    #: Where: file, element path and line as DescriptionError names them.
    where: str
    #: One of ELEMENT_STATUSES.
    status: str
    #: What was done: the model it maps to, or what is left out and why.
    note: str = ''


@dataclass
class VehicleParams:
    """Everything the physics needs to know about one vehicle (SI units, FLU)."""

    mass: float
    #: 3x3 inertia about the centre of mass, in body axes (kg m^2).
    inertia: np.ndarray
    #: Centre of mass in the body frame (m).
    com: np.ndarray = field(default_factory=lambda: np.zeros(3))
    #: Displaced fluid mass (kg): buoyancy force = buoyancy_mass * gravity.
    buoyancy_mass: float = 0.0
    #: Centre of buoyancy in the body frame (m).
    cob: np.ndarray = field(default_factory=lambda: np.zeros(3))
    surface: SurfaceTransition = field(default_factory=SurfaceTransition)
    #: 6x6 linear drag matrix L (positive = dissipative).
    linear_drag: np.ndarray = field(default_factory=lambda: np.zeros((6, 6)))
    #: 6x6x6 quadratic drag tensor Q[a, b, c]: F_a = -Q_abc |nu_b| nu_c.
    quadratic_drag: np.ndarray = field(default_factory=lambda: np.zeros((6, 6, 6)))
    #: 6x6 forward-speed linear drag L_u (uuv_simulator's linear_damping_forward_speed):
    #: wrench -u L_u nu with the SIGNED surge u (not |u|), at the drag points, part of
    #: the linear_drag component (ignored with ``damping: quadratic_only``, like L).
    forward_speed_drag: np.ndarray = field(default_factory=lambda: np.zeros((6, 6)))
    #: 6x6x6 signed quadratic drag S[a, b, c]: F_a = -S_abc nu_b nu_c with both velocities
    #: SIGNED (gz-sim Hydrodynamics' ``<xUU>`` terms), at the drag points, part of the
    #: quadratic_drag component (kept with ``damping: quadratic_only``).
    signed_quadratic_drag: np.ndarray = field(default_factory=lambda: np.zeros((6, 6, 6)))
    #: 6x6 added-mass matrix M_A about ``added_mass_point`` (may be asymmetric).
    added_mass: np.ndarray = field(default_factory=lambda: np.zeros((6, 6)))
    #: Point where drag acts; None means the centre of mass.
    drag_center: Optional[np.ndarray] = None
    #: Point whose velocity drag is evaluated with; None means ``drag_center``.
    drag_velocity_point: Optional[np.ndarray] = None
    #: Point about which ``added_mass`` is expressed (body frame).
    added_mass_point: np.ndarray = field(default_factory=lambda: np.zeros(3))
    acceleration_alpha: float = DEFAULT_ACCELERATION_ALPHA
    gravity: float = DEFAULT_GRAVITY
    fluid_density: float = DEFAULT_FLUID_DENSITY
    #: Include the rigid-body and added-mass Coriolis-centripetal terms.
    coriolis: bool = True
    #: Include the added-mass Coriolis -C_A(nu_r) nu_r (the Munk moment); False keeps
    #: the rigid body's (gz-sim ``<disable_coriolis>``, lrauv ``<enable_coriolis>false``).
    added_mass_coriolis: bool = True
    #: ``linear_quadratic`` uses L and Q; ``quadratic_only`` ignores L.
    damping: str = 'linear_quadratic'
    name: str = 'vehicle'
    base_frame: str = 'base_link'
    #: Where the description came from (file path or '<robot_description>').
    source: str = ''
    #: 'origin' (physically consistent) or 'dsros' (dsros_hydro semantics).
    semantics: str = 'origin'
    #: Frames rigidly attached to the base link, keyed by frame name.
    frames: Dict[str, FixedFrame] = field(default_factory=dict)
    #: Physically odd but legal findings of validation.
    warnings: List[str] = field(default_factory=list)
    #: Control surfaces (the ``fins`` wrench component); empty: none.
    fins: List[Fin] = field(default_factory=list)
    #: Slender hull (the ``hull_lift`` and ``crossflow_drag`` components); None: none.
    hull: Optional[Hull] = None
    #: Load with a warning instead of an error when a physical check fails
    #: (non-PSD drag, negative diagonals, non-symmetric added mass).
    allow_nonphysical: bool = False
    #: Field name -> where its value came from (file and block); see
    #: ``uwv_hydro.description.provenance``.
    origins: Dict[str, str] = field(default_factory=dict)
    #: Coefficient set ('linear_drag', ...) -> {index tuple: (element or key path, line)}
    #: naming it as the source does, so that validation errors quote the user's own words.
    coefficient_labels: Dict[str, Dict[Tuple[int, ...], Tuple[str, Optional[int]]]] = field(
        default_factory=dict)
    #: Thrusters (joints with a thrust model), see uwv_hydro.physics.actuators.thruster_spec.
    thrusters: Tuple[ThrusterSpec, ...] = ()
    #: Variable-buoyancy engines (gz-sim BuoyancyEngine), see physics.actuators.buoyancy_engine.
    buoyancy_engines: Tuple[BuoyancyEngineSpec, ...] = ()
    #: The tether (uwv_hydro.physics.environment.tether_spec.TetherSpec), None: untethered.
    tether: Optional[Any] = None
    #: Navigation sensors (uwv_hydro.physics.sensing.sensor_params.SensorParams), none by default.
    sensors: List[Any] = field(default_factory=list)
    #: Every equipment element (and link, joint, plugin) the loader met, in document
    #: order, with what it did with it: see ``uwv_hydro.description.element_report``.
    elements: List[ElementRecord] = field(default_factory=list)
    #: Seabed contact points and coefficients (physics.environment.seabed_contact.ContactSpec;
    #: None:
    #: no contact points).
    contact: Optional[Any] = None
    #: What the contact points leave out (meshes, other shapes): shown with the contact.
    contact_warnings: List[str] = field(default_factory=list)
    #: The kinematic tree (uwv_hydro.physics.articulated.model.link_tree.KinematicTree) when links
    #: that
    #: move carry mass or hydro; None: one rigid body (the lumped fields above).
    tree: Optional[Any] = None

    def resolved_drag_center(self) -> np.ndarray:
        """Return the drag application point (defaults to the centre of mass)."""
        return np.asarray(self.com if self.drag_center is None else self.drag_center, float)

    def resolved_drag_velocity_point(self) -> np.ndarray:
        """Return the point whose velocity drag uses (defaults to the drag centre)."""
        if self.drag_velocity_point is None:
            return self.resolved_drag_center()
        return np.asarray(self.drag_velocity_point, float)

    def weight(self) -> float:
        """Return the weight m*g (N)."""
        return self.mass * self.gravity

    def buoyancy(self) -> float:
        """Return the full buoyancy force (N)."""
        return self.buoyancy_mass * self.gravity

    def frame_transform(self, frame: str) -> Tuple[np.ndarray, np.ndarray]:
        """Return (translation, rotation wxyz) of ``frame`` in the base frame."""
        if frame in ('', self.base_frame):
            return np.zeros(3), np.array([1.0, 0.0, 0.0, 0.0])
        f = self.frames[frame]
        return np.asarray(f.translation, float), np.asarray(f.rotation, float)
