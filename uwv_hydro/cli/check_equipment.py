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
What ``check`` shows of a vehicle's equipment and elements, and JSON without Infinity.

* Fins: model (gz-sim LiftDrag ``two_line`` with area and slopes, or uuv_simulator's
  ``quadratic`` with its constants), deflection limits (min, max), servo rate and lag,
  the joint (the fin's name; a fin with both limits 0 is fixed to its link), the
  position and axis.
* Thrusters: the coefficients of their model (gz-sim's Ct or alpha_1/alpha_2, the
  table, ds_sim's polynomials, uuv_simulator's conversion) beside
  :func:`uwv_hydro.description.thrusters.describe_thruster`, ranges sorted (min, max).
* Elements: ``VehicleParams.elements``, what the loader read, warned about or refused.
* :func:`json_safe`: the summary with every non-finite float replaced by ``null`` and
  named in a ``non_finite`` list (``thrusters[0].thrust_range[1] = +inf``), so that
  ``json.dumps(..., allow_nan=False)`` holds and any JSON parser reads it.
"""
import math
from typing import Any, Dict, List, Tuple

import numpy as np

from uwv_hydro.physics.actuators.thruster_spec import DSROS_TERMS, ThrusterSpec, UUV_CONVERSIONS
from uwv_hydro.physics.body.vehicle_params import Fin, VehicleParams


def _range(low: float, high: float) -> List[float]:
    """Return [min, max] of two bounds given in either order."""
    return sorted([float(low), float(high)])


def describe_fin(fin: Fin) -> Dict[str, Any]:
    """Return the plain summary of one fin."""
    out: Dict[str, Any] = {
        'name': fin.name,
        'joint': fin.name if (fin.lower, fin.upper) != (0.0, 0.0) else None,
        'fixed': fin.lower == fin.upper == 0.0,
        'model': fin.model,
        'limits': _range(fin.lower, fin.upper),
        'rate': float(fin.velocity),
        'time_constant': float(fin.time_constant),
        'position': np.asarray(fin.position, float).tolist(),
        'axis': np.asarray(fin.axis, float).tolist(),
        'command_topic': fin.command_topic or None,
    }
    if fin.model == 'quadratic':
        # uuv_simulator FinPlugin quadratic model: L = k_L alpha U^2, D = k_D alpha^2 U^2
        out['coefficients'] = {'lift_constant': fin.lift_constant,
                               'drag_constant': fin.drag_constant}
    else:
        # gz-sim LiftDrag two-line model, or uuv_simulator's TwoLines
        out['coefficients'] = {'area': fin.area, 'cla': fin.cla, 'cda': fin.cda,
                               'alpha_stall': fin.alpha_stall, 'cla_stall': fin.cla_stall,
                               'cda_stall': fin.cda_stall, 'a0': fin.a0,
                               'control_joint_rad_to_cl': fin.control_joint_rad_to_cl}
        if fin.fluid_density > 0.0:
            out['coefficients']['fluid_density'] = fin.fluid_density
    return out


def fin_line(f: Dict[str, Any]) -> str:
    """Return the one-line text of a :func:`describe_fin` summary."""
    c = f['coefficients']
    if f['model'] == 'quadratic':
        model = 'quadratic (lift_constant %g, drag_constant %g)' % (
            c['lift_constant'], c['drag_constant'])
    else:
        model = '%s (area %g m^2, cla %g, cda %g /rad, stall %g rad, a0 %g%s)' % (
            f['model'], c['area'], c['cla'], c['cda'], c['alpha_stall'], c['a0'],
            ', rho %g' % c['fluid_density'] if 'fluid_density' in c else '')
    rate = 'none' if not math.isfinite(f['rate']) else '%g rad/s' % f['rate']
    joint = 'fixed' if f['fixed'] else 'joint %s' % f['joint']
    topic = ', command topic %s' % f['command_topic'] if f.get('command_topic') else ''
    return ('%s: %s, %s, limits [%g, %g] rad, rate %s, lag %g s, at %s m, axis %s%s'
            % (f['name'], model, joint, f['limits'][0], f['limits'][1], rate,
               f['time_constant'], _fmt(f['position']), _fmt(f['axis']), topic))


def thrust_coefficients(spec: ThrusterSpec) -> Dict[str, Any]:
    """Return the coefficients of a thruster's model, by the peer's own names."""
    model = spec.model
    if model == 'table':
        return {'lookup_command': list(spec.lookup_command),
                'lookup_thrust': list(spec.lookup_thrust),
                'torque_per_thrust': spec.torque_per_thrust}
    if model == 'dsros':
        # ds_sim thruster polynomials (forward and reverse), propdir
        return {'forward': dict(zip(DSROS_TERMS, spec.dsros_forward)),
                'reverse': dict(zip(DSROS_TERMS, spec.dsros_reverse)),
                'propdir': spec.propdir}
    if model.startswith('uuv_'):
        # uuv_simulator ThrusterConversionFcn
        return {'conversion': spec.conversion_type,
                **dict(zip(UUV_CONVERSIONS[spec.conversion_type], spec.conversion_terms))}
    if model == 'propeller':
        # open-water curves K_T(J), K_Q(J) (uwv_hydro's extension of the gz-sim block)
        return {'kt_polynomial': list(spec.kt_polynomial),
                'kq_polynomial': list(spec.kq_polynomial),
                'propeller_diameter': spec.propeller_diameter,
                'wake_fraction': spec.wake_fraction,
                'thrust_deduction': spec.thrust_deduction}
    out: Dict[str, Any] = {'propeller_diameter': spec.propeller_diameter,
                           'torque_coefficient': spec.torque_coefficient}
    if spec.thrust_coefficient is not None:
        out['thrust_coefficient'] = spec.thrust_coefficient
    else:
        # gz-sim Thruster: Ct = alpha_1 + alpha_2 J with the advance ratio J
        out.update(alpha_1=spec.alpha_1, alpha_2=spec.alpha_2,
                   wake_fraction=spec.wake_fraction)
    return out


def coefficients_text(coefficients: Dict[str, Any]) -> str:
    """Return 'name value, ...' (nested mappings in parentheses)."""
    parts = []
    for key, value in coefficients.items():
        if isinstance(value, dict):
            parts.append('%s (%s)' % (key, coefficients_text(value)))
        elif isinstance(value, (list, tuple)):
            parts.append('%s %s' % (key, _fmt(value)))
        elif isinstance(value, str):
            parts.append('%s %s' % (key, value))
        else:
            parts.append('%s %g' % (key, value))
    return ', '.join(parts)


def element_rows(params: VehicleParams) -> List[Dict[str, str]]:
    """Return the element records (kind, name, where, status, note) as mappings."""
    return [{'kind': r.kind, 'name': r.name, 'where': r.where, 'status': r.status,
             'note': r.note} for r in params.elements]


def element_lines(rows: List[Dict[str, str]]) -> List[str]:
    """Return one text line per element record."""
    return ['%-7s %s %r (%s)%s' % (r['status'], r['kind'], r['name'], r['where'],
                                   ': ' + r['note'] if r['note'] else '') for r in rows]


def _fmt(values) -> str:
    return '[' + ', '.join('%.6g' % v for v in values) + ']'


def _walk(value: Any, path: str, found: List[Tuple[str, float]]) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        found.append((path, value))
        return None
    if isinstance(value, dict):
        return {k: _walk(v, '%s.%s' % (path, k) if path else str(k), found)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_walk(v, '%s[%d]' % (path, i), found) for i, v in enumerate(value)]
    return value


def json_safe(summary: Dict[str, Any]) -> Dict[str, Any]:
    """
    Return ``summary`` with non-finite floats as null, named in ``non_finite``.

    E.g. ``"thrust_range": [-80.0, null]`` and ``"non_finite": ["thrusters[0].
    thrust_range[1] = +inf (unbounded)"]``.
    """
    found: List[Tuple[str, float]] = []
    out = _walk(summary, '', found)
    out['non_finite'] = ['%s = %s' % (path, 'nan (undefined)' if math.isnan(v) else
                                      '%sinf (unbounded)' % ('+' if v > 0 else '-'))
                         for path, v in found]
    return out
