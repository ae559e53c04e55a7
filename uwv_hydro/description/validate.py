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
Check a VehicleParams for errors (raise) and physically odd choices (warn).

Errors raise :class:`DescriptionError`: non-positive or non-finite mass, non-finite
numbers, an inertia that is not positive definite or violates a triangle inequality
(Ixx + Iyy >= Izz and cyclic, which every real mass distribution satisfies since
e.g. Ixx + Iyy - Izz = 2 * integral(z^2 dm)), drag and added mass failing the
physical checks of :mod:`uwv_hydro.description.physical_checks` (the triangle
inequality and those checks are warnings instead with ``allow_nonphysical``: the
equations of motion still integrate), M_RB + sym(M_A) about the body origin not
finite or not positive definite, and a fin that the evaluator (:class:`FinSet`) refuses
or whose wrench at 1 m/s and 1 rad/s on every axis is not finite.  A rounding-level
asymmetry of the inertia or the added mass is symmetrised first, with a warning
(``physical_checks.symmetrise_rounding``).
Coefficient-tag errors (unknown, duplicate) are raised by :func:`coefficient_indices`
while parsing.

Warnings go to ``params.warnings``: buoyancy differing from weight by more than
20 %, centre of buoyancy below the centre of mass, no buoyancy, no drag or no added
mass at all (a description without any hydrodynamic block).
"""
from typing import Dict, Optional, Tuple

import numpy as np

from uwv_hydro.description.conventions import (
    added_mass_about_origin, letters_to_indices, rigid_body_mass_matrix)
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.physical_checks import (
    check_physical, rounding_pairs, symmetrise_rounding)
from uwv_hydro.physics.actuators.fins import FinSet
from uwv_hydro.physics.body.vehicle_params import (
    DAMPING_MODELS, MAX_MASS_CONDITION, SURFACE_MODELS, VehicleParams)

#: Relative tolerance of the inertia inequalities.
_TOL = 1e-9
#: Relative buoyancy/weight mismatch above which a warning is issued.
BUOYANCY_WARN_FRACTION = 0.2

_ORDER_WORDS = {2: 'two', 3: 'three'}


def coefficient_indices(tag: str, letters: str, order: int, block: str,
                        seen: Dict[Tuple[int, ...], str], source: str = '',
                        element: str = '', line: Optional[int] = None) -> Tuple[int, ...]:
    """
    Return the indices spelled by coefficient ``tag`` or raise DescriptionError.

    ``block`` names the coefficient set in messages (e.g. 'linear drag'); ``seen``
    maps already-read indices to their tag so duplicates are reported.
    """
    idx = letters_to_indices(tag, letters, order)
    if idx is None:
        raise DescriptionError(
            "unknown coefficient '%s' in %s; expected %s of %s"
            % (tag, block, _ORDER_WORDS.get(order, str(order)), ' '.join(letters)),
            source, element, line)
    if idx in seen:
        raise DescriptionError("duplicate coefficient '%s' in %s (already given as '%s')"
                               % (tag, block, seen[idx]), source, element, line)
    seen[idx] = tag
    return idx


def _finite(name: str, value, source: str) -> None:
    if value is None:
        return
    arr = np.asarray(value, float)
    if not np.all(np.isfinite(arr)):
        raise DescriptionError('non-finite number in %s' % name, source, name)


def check_inertia(inertia: np.ndarray, source: str = '', element: str = 'inertia',
                  line: Optional[int] = None) -> None:
    """Raise DescriptionError unless ``inertia`` is a valid symmetric inertia tensor."""
    i3 = np.asarray(inertia, float)
    if i3.shape != (3, 3):
        raise DescriptionError('inertia must be 3x3, got shape %s' % (i3.shape,),
                               source, element, line)
    if not np.allclose(i3, i3.T, rtol=1e-9, atol=1e-12):
        raise DescriptionError('inertia is not symmetric', source, element, line)
    scale = max(float(np.trace(np.abs(i3))), 1e-300)
    eig = np.linalg.eigvalsh(i3)
    if eig[0] <= _TOL * scale:
        raise DescriptionError('inertia is not positive definite (eigenvalues %s)'
                               % np.array2string(eig, precision=6), source, element, line)
    reason = triangle_violation(i3)
    if reason is not None:
        raise DescriptionError(reason, source, element, line)


def triangle_violation(inertia: np.ndarray) -> Optional[str]:
    """
    Return why ``inertia`` violates a triangle inequality, naming the three moments.

    Every real mass distribution has Ixx + Iyy - Izz = 2 * integral(z^2 dm) >= 0 and
    cyclic, about any axes, so also for the principal moments.  A positive definite
    tensor violating it still integrates (the equations of motion only need M > 0),
    which is what ``allow_nonphysical`` loads with a warning.
    """
    i3 = np.asarray(inertia, float)
    scale = max(float(np.trace(np.abs(i3))), 1e-300)
    names = ('Ixx', 'Iyy', 'Izz')
    d = np.diag(i3)
    for a, b, c in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
        if d[a] + d[b] < d[c] - _TOL * scale:
            return ('inertia violates the triangle inequality %s + %s >= %s (%s = %g, '
                    '%s = %g, %s = %g: %g + %g < %g); no mass distribution has it'
                    % (names[a], names[b], names[c], names[a], d[a], names[b], d[b],
                       names[c], d[c], d[a], d[b], d[c]))
    p = np.linalg.eigvalsh(i3)
    if p[0] + p[1] < p[2] - _TOL * scale:
        return ('inertia violates the triangle inequality of principal moments I1 + I2 >= '
                'I3 (%g + %g < %g); no mass distribution has it' % (p[0], p[1], p[2]))
    return None


def _check_inertia_allowing(params: VehicleParams) -> None:
    """check_inertia, with the triangle inequality a warning under allow_nonphysical."""
    try:
        check_inertia(params.inertia, params.source)
    except DescriptionError as exc:
        reason = triangle_violation(params.inertia) if exc.reason == triangle_violation(
            params.inertia) else None
        if reason is None:
            raise
        if not params.allow_nonphysical:
            raise DescriptionError(reason + ' (set allow_nonphysical: true or pass '
                                   '--allow-nonphysical to load it anyway)',
                                   params.source, 'inertia') from None
        _add_warning(params, 'non-physical, loaded because allow_nonphysical is set: '
                     'inertia: ' + reason)


def mass_matrix_about_origin(params: VehicleParams) -> np.ndarray:
    """Return M_RB + sym(M_A) about the body origin (what validation checks)."""
    m_rb = rigid_body_mass_matrix(params.mass, params.inertia, params.com)
    m_a = added_mass_about_origin(params.added_mass, params.added_mass_point)
    return m_rb + 0.5 * (m_a + m_a.T)


def validate(params: VehicleParams) -> VehicleParams:
    """Raise DescriptionError if ``params`` is invalid; append warnings; return it."""
    src = params.source
    for name in ('mass', 'inertia', 'com', 'buoyancy_mass', 'cob', 'linear_drag',
                 'quadratic_drag', 'forward_speed_drag', 'signed_quadratic_drag',
                 'added_mass', 'drag_center',
                 'drag_velocity_point',
                 'added_mass_point', 'acceleration_alpha', 'gravity', 'fluid_density'):
        _finite(name, getattr(params, name), src)
    surf = params.surface
    _finite('surface', [surf.out_of_water_depth, surf.fully_submerged_depth,
                        surf.scale_factor], src)
    if params.mass <= 0.0:
        raise DescriptionError('mass must be positive, got %g kg' % params.mass, src, 'mass')
    _symmetrise_inertia(params)
    _check_inertia_allowing(params)
    shapes = (('com', (3,)), ('cob', (3,)), ('linear_drag', (6, 6)),
              ('quadratic_drag', (6, 6, 6)), ('added_mass', (6, 6)),
              ('forward_speed_drag', (6, 6)), ('signed_quadratic_drag', (6, 6, 6)),
              ('added_mass_point', (3,)), ('drag_center', (3,)),
              ('drag_velocity_point', (3,)))
    for name, shape in shapes:
        value = getattr(params, name)
        if value is not None and np.shape(value) != shape:
            raise DescriptionError('%s must have shape %s, got %s'
                                   % (name, shape, np.shape(value)), src, name)
    if params.buoyancy_mass < 0.0:
        raise DescriptionError('buoyancy must not be negative', src, 'buoyancy_mass')
    if params.gravity < 0.0:
        # g = 0 is a valid world (gz-sim's hydrodynamics test worlds): no weight, no buoyancy
        raise DescriptionError('gravity must not be negative (it is the magnitude g), got %g'
                               % params.gravity, src, 'gravity')
    if params.fluid_density <= 0.0:
        raise DescriptionError('fluid_density must be positive, got %g'
                               % params.fluid_density, src, 'fluid_density')
    if not 0.0 < params.acceleration_alpha <= 1.0:
        raise DescriptionError('acceleration_alpha must be in (0, 1], got %g'
                               % params.acceleration_alpha, src, 'acceleration_alpha')
    if surf.model not in SURFACE_MODELS:
        raise DescriptionError('surface model must be one of %s, got %r'
                               % (', '.join(SURFACE_MODELS), surf.model), src, 'surface')
    if surf.fully_submerged_depth < surf.out_of_water_depth:
        raise DescriptionError('fully_submerged_depth must not be above out_of_water_depth',
                               src, 'surface')
    if params.damping not in DAMPING_MODELS:
        raise DescriptionError('damping must be one of %s, got %r'
                               % (', '.join(DAMPING_MODELS), params.damping), src, 'damping')
    if params.semantics not in ('origin', 'dsros'):
        raise DescriptionError("semantics must be 'origin' or 'dsros', got %r"
                               % params.semantics, src, 'semantics')
    _check_fins(params)
    with np.errstate(over='ignore', invalid='ignore'):
        matrix = mass_matrix_about_origin(params)
    if not np.all(np.isfinite(matrix)):
        # finite numbers whose products overflow (a 1e300 m offset): no eigenvalues exist
        raise DescriptionError('M_RB + M_A about the origin is not finite: the mass, inertia, '
                               'added mass or an offset (com, added_mass_point) is too large',
                               src, 'com')
    symmetrise_rounding(params)
    check_physical(params)
    eig = np.linalg.eigvalsh(mass_matrix_about_origin(params))
    if eig[0] <= 0.0:
        raise DescriptionError(
            'M_RB + M_A is not positive definite (smallest eigenvalue %g): the added mass '
            'makes the vehicle accelerate the wrong way' % eig[0], src, 'added_mass')
    if eig[-1] > MAX_MASS_CONDITION * eig[0]:  # condition number of a symmetric M > 0
        raise DescriptionError(
            'M_RB + M_A is singular to working precision (eigenvalues %.3g to %.3g, '
            'condition number above %.0e): a mass, inertia or added mass is (nearly) zero '
            'beside the others' % (eig[0], eig[-1], MAX_MASS_CONDITION), src, 'mass')
    _warn(params)
    return params


_FIN_NUMBERS = ('position', 'cp', 'area', 'cla', 'cda', 'alpha_stall', 'cla_stall',
                'cda_stall', 'a0', 'control_joint_rad_to_cl', 'lift_constant',
                'drag_constant', 'time_constant', 'fluid_density')


#: The relative twist at which a fin must give a finite wrench (1 m/s, 1 rad/s each axis).
_REFERENCE_TWIST = np.ones(6)


def _check_fins(params: VehicleParams) -> None:
    """Refuse at load a fin that ``wrench``/``simulate`` could not evaluate."""
    for fin in params.fins:
        where = fin.source or params.source
        for name in _FIN_NUMBERS:
            _finite('fin %s %s' % (fin.name, name), getattr(fin, name), where)
        try:
            fin_set = FinSet([fin], params.fluid_density)  # the evaluator's geometry checks
        except ValueError as exc:
            reason = str(exc).replace('fin %s: ' % fin.name, '', 1)  # the element names it
            raise DescriptionError(reason, where, 'fin ' + fin.name) from None
        with np.errstate(all='ignore'):
            points, forces, _ = fin_set.forces(_REFERENCE_TWIST)
            moment = np.cross(points, forces)  # tau_O = r x F (the wrench about the origin)
        if not (np.all(np.isfinite(forces)) and np.all(np.isfinite(moment))):
            raise DescriptionError('its wrench at 1 m/s and 1 rad/s is not finite: a number '
                                   '(position, cp, area, a coefficient) is too large', where,
                                   'fin ' + fin.name)


def _symmetrise_inertia(params: VehicleParams) -> None:
    """Set a rounding-level asymmetric inertia pair to its mean, with a warning."""
    i3 = np.array(params.inertia, float)
    if i3.shape != (3, 3):
        return
    names = ('x', 'y', 'z')
    for i, j in rounding_pairs(i3):
        mean = 0.5 * (i3[i, j] + i3[j, i])
        _add_warning(params, 'inertia I%s%s = %.9g and I%s%s = %.9g differ at rounding '
                     'level: both set to their mean %.9g'
                     % (names[i], names[j], i3[i, j], names[j], names[i], i3[j, i], mean))
        i3[i, j] = i3[j, i] = mean
    params.inertia = i3


def _add_warning(params: VehicleParams, text: str) -> None:
    if text not in params.warnings:
        params.warnings.append(text)


def _warn(params: VehicleParams) -> None:
    weight = params.weight()
    buoyancy = params.buoyancy()
    if buoyancy == 0.0:
        _add_warning(params, 'no buoyancy: the vehicle sinks (give buoyancy_mass or volume, '
                             'or a dsros_hydro <buoyancy> block)')
    elif abs(buoyancy - weight) > BUOYANCY_WARN_FRACTION * weight:
        _add_warning(params, 'buoyancy %.6g N differs from weight %.6g N by %.0f %% (> %.0f %%)'
                     % (buoyancy, weight, 100.0 * abs(buoyancy - weight) / weight,
                        100.0 * BUOYANCY_WARN_FRACTION))
    # a description with no hydrodynamic block at all loads as valid: say what it lacks
    parts = ([part for body in params.tree.bodies.values() for part in body.parts]
             if params.tree is not None else [])
    if not (np.any(params.linear_drag) or np.any(params.quadratic_drag)
            or np.any(params.forward_speed_drag) or params.hull is not None
            or any(np.any(p.linear_drag) or np.any(p.quadratic_drag) for p in parts)
            or any('no hull drag' in w for w in params.warnings)):  # the SDF loader's
        _add_warning(params, 'no drag: nothing but fins slows the vehicle; in simulate it '
                             'accelerates without bound under any force (give linear_drag '
                             '/ quadratic_drag, or a dsros_hydro or uuv_simulator block)')
    if not (np.any(params.added_mass) or any(np.any(p.added_mass) for p in parts)):
        _add_warning(params, 'no added mass: the vehicle accelerates as if in vacuum (give '
                             'added_mass, or a dsros_hydro or uuv_simulator block)')
    if buoyancy > 0.0 and params.cob[2] < params.com[2]:
        _add_warning(params, 'centre of buoyancy (z %.6g m) is below the centre of mass '
                             '(z %.6g m): statically unstable in roll and pitch'
                     % (params.cob[2], params.com[2]))
