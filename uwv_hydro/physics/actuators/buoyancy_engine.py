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
Variable-buoyancy engines (a glider's bladder): gz-sim's BuoyancyEngine system.

gz-sim (``src/systems/buoyancy_engine/BuoyancyEngine.cc``): the bladder volume V
moves toward the commanded volume (std_msgs Float64 / gz Double, m^3, clamped to
[min_volume, max_volume]) at most at ``max_inflation_rate`` (m^3/s); the link
gets the world-frame force F = -g (rho_now V - rho V_neutral), i.e. rho g (V -
V_neutral) upward when submerged, where rho_now is 0 above ``surface`` (world z)
and the fluid density below.  The force acts at the link origin.  Defaults are
gz-sim's (fluid density 1000 kg/m^3, not the vehicle's).
"""
from dataclasses import dataclass
import math
from typing import Optional, Tuple

#: gz-sim BuoyancyEngine.cc defaults (m^3, m^3/s, kg/m^3).
GZ_MIN_VOLUME = 3e-5
GZ_MAX_VOLUME = 9.9e-4
GZ_NEUTRAL_VOLUME = 3e-4
GZ_MAX_INFLATION_RATE = 3e-6
GZ_FLUID_DENSITY = 1000.0


@dataclass
class BuoyancyEngineSpec:
    """One buoyancy engine as gz-sim's BuoyancyEngine <plugin> describes it."""

    #: The link the engine pushes (gz ``link_name``).
    link_name: str
    #: The link origin in the base frame (m): the point of application.
    position: Tuple[float, float, float] = (0.0, 0.0, 0.0)
    #: Topic namespace (gz ``namespace``); '' -> gz-sim's ``/buoyancy_engine/``.
    namespace: str = ''
    min_volume: float = GZ_MIN_VOLUME
    max_volume: float = GZ_MAX_VOLUME
    #: Initial volume and set point; None: ``min_volume`` (gz-sim).
    default_volume: Optional[float] = None
    neutral_volume: float = GZ_NEUTRAL_VOLUME
    max_inflation_rate: float = GZ_MAX_INFLATION_RATE
    fluid_density: float = GZ_FLUID_DENSITY
    #: World z of the surface above which the bladder displaces nothing; None: none.
    surface: Optional[float] = None

    def initial_volume(self) -> float:
        """Return the bladder volume at start (gz-sim: default_volume, else min_volume)."""
        return self.min_volume if self.default_volume is None else self.default_volume

    def command_topic(self) -> str:
        """Return gz-sim's command topic (``/model/{namespace}/buoyancy_engine/``)."""
        if not self.namespace:
            return '/buoyancy_engine/'
        return '/model/%s/buoyancy_engine/' % self.namespace

    def status_topic(self) -> str:
        """Return gz-sim's current-volume topic."""
        return self.command_topic() + 'current_volume'

    def problems(self):
        """Yield (key, reason) for values gz-sim could not run with."""
        for key in ('min_volume', 'max_volume', 'neutral_volume', 'max_inflation_rate',
                    'fluid_density'):
            value = getattr(self, key)
            if not math.isfinite(value) or value < 0.0:
                yield key, '%s must be a finite number >= 0, got %r' % (key, value)
        if self.min_volume > self.max_volume:
            yield 'min_volume', 'min_volume %g is above max_volume %g' % (
                self.min_volume, self.max_volume)
        if self.default_volume is not None and not (
                self.min_volume <= self.default_volume <= self.max_volume):
            yield 'default_volume', 'default_volume %g is outside [%g, %g]' % (
                self.default_volume, self.min_volume, self.max_volume)


def clamp_set_point(spec: BuoyancyEngineSpec, command: float) -> float:
    """Return the set point of a volume command, clamped to the limits (gz-sim)."""
    return min(max(spec.min_volume, command), spec.max_volume)


def step_volume(spec: BuoyancyEngineSpec, volume: float, set_point: float, dt: float) -> float:
    """Return the volume after ``dt`` s of pumping toward ``set_point`` at the rate limit."""
    # BuoyancyEngine.cc PreUpdate: V += sign(Vs - V) min(dt rate, |Vs - V|)
    room = dt * spec.max_inflation_rate
    if volume < set_point:
        return volume + min(room, set_point - volume)
    return volume - min(room, volume - set_point)


def engine_force_up(spec: BuoyancyEngineSpec, volume: float, gravity: float,
                    world_z: float) -> float:
    """Return the upward world force (N) of the engine at bladder volume ``volume``."""
    rho_now = spec.fluid_density if spec.surface is None or world_z < spec.surface else 0.0
    # BuoyancyEngine.cc: F_z = g (rho_now V - rho V_neutral) (Archimedes, minus the oil mass)
    return gravity * (rho_now * volume - spec.fluid_density * spec.neutral_volume)
