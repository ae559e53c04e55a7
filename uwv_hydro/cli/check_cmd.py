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
``uwv-hydro check VEHICLE``: load and validate a description, print a summary.

The summary: mass, weight, buoyancy, CoM, CoB, BG, principal inertia, the
equivalent solid box, eigenvalues of M_RB + M_A about the origin, natural roll and
pitch periods T = 2 pi sqrt((I + A) / (W BG_z)) (small-angle pendulum, Fossen 2021
ch. 4, Hydrostatics), the reference points, fixed frames, the source of every field and
warnings.  ``--json`` prints the same as JSON plus the converted matrices (L, Q,
M_A as loaded, M_A and M_RB + sym(M_A) about the origin, all FLU, uwv_hydro signs).
``--robot-description URDF`` lays a YAML VEHICLE over that description as the node
does.  Thrusters are listed with joint, model, its coefficients, command range and
thrust range (both sorted: min, max), point, direction (on a moving link: its body, the
point and direction at zero joint positions), dynamics and command topic; fins
with model, area or constants, limits, rate, lag and joint; buoyancy engines with their
limits and topic; every element the loader met with whether it was read, warned about or
refused and what it maps to or leaves out (``VehicleParams.elements``), see
:mod:`uwv_hydro.cli.check_equipment`.  ``--seabed FILE`` (``--seabed-origin LAT,LON``)
adds the seabed placed in the world: extent, resolution, depth range, CRS, datum.
The JSON is strict (no Infinity or NaN: null, named in ``non_finite``).  Exit code 0
when valid, 2 when invalid (DescriptionError naming file, element, line).
"""
import json
import math
from typing import Any, Dict, Optional

import numpy as np

from uwv_hydro.cli.check_equipment import (
    coefficients_text, describe_fin, element_lines, element_rows, fin_line, json_safe,
    thrust_coefficients)
from uwv_hydro.cli.check_tether import tether_lines, tether_summary
from uwv_hydro.cli.check_tree import tree_lines, tree_summary
from uwv_hydro.cli.common import (add_seabed_arguments, add_vehicle_arguments,
                                  load_seabed_from_args, load_vehicle_with_notes)
from uwv_hydro.description.conventions import added_mass_about_origin
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.provenance import field_sources, format_field_sources
from uwv_hydro.description.sensor_export import describe_sensor, sensor_summary
from uwv_hydro.description.thrusters import describe_thruster
from uwv_hydro.description.validate import mass_matrix_about_origin
from uwv_hydro.modes.thruster_drive import thruster_topics
from uwv_hydro.physics.body.vehicle_params import VehicleParams


def add_parser(subparsers) -> None:
    """Register the ``check`` subcommand."""
    parser = subparsers.add_parser(
        'check', help='load and validate a vehicle description, print a summary',
        description='Load and validate a vehicle description (.urdf, .xacro, .sdf, .world, '
                    '.yaml); exit 0 if valid, 2 if not.')
    add_vehicle_arguments(parser)
    add_seabed_arguments(parser)
    parser.add_argument('--json', action='store_true', help='print the summary as JSON')
    parser.set_defaults(func=run)


def _period(inertia: float, stiffness: float) -> Optional[float]:
    if stiffness <= 0.0 or inertia <= 0.0:
        return None
    return 2.0 * math.pi * math.sqrt(inertia / stiffness)


def equivalent_box(mass: float, principal: np.ndarray) -> list:
    """Return the edges of a uniform box with the given principal moments (m)."""
    i1, i2, i3 = principal
    # Solid box: I1 = m (b^2 + c^2) / 12 and cyclic, solved for the edges.
    squares = [6.0 / mass * (i2 + i3 - i1), 6.0 / mass * (i1 + i3 - i2),
               6.0 / mass * (i1 + i2 - i3)]
    return [math.sqrt(max(s, 0.0)) for s in squares]


#: The units of the summary's numbers (SI, FLU body frame), written into the JSON as
#: ``units``: key (or key.subkey) -> unit.  Matrices act on the body twist [u v w p q r]
#: (m/s, rad/s) and give the wrench [Fx Fy Fz Tx Ty Tz] (N, N m).
UNITS = {
    'mass': 'kg', 'gravity': 'm/s^2', 'fluid_density': 'kg/m^3', 'weight': 'N',
    'buoyancy_mass': 'kg', 'buoyancy': 'N', 'net_buoyancy': 'N', 'com': 'm', 'cob': 'm',
    'bg': 'm', 'principal_inertia': 'kg m^2', 'principal_axes': '1 (unit vectors)',
    'equivalent_box': 'm', 'mass_matrix_eigenvalues': 'kg (translation), kg m^2 (rotation)',
    'roll_period': 's', 'pitch_period': 's', 'surface.out_of_water_depth': 'm',
    'surface.fully_submerged_depth': 'm', 'surface.scale_factor': '1',
    'reference_points': 'm', 'acceleration_alpha': '1 (filter weight)',
    'matrices.linear_drag': 'N s/m, N s, N m s (wrench per twist)',
    'matrices.quadratic_drag': 'N s^2/m^2, N m s^2/rad^2 ... (wrench per |nu_j| nu_k)',
    'matrices.added_mass': 'kg, kg m, kg m^2 (about added_mass_point)',
    'matrices.added_mass_about_origin': 'kg, kg m, kg m^2',
    'matrices.mass_matrix_about_origin': 'kg, kg m, kg m^2',
    'forward_speed_drag': 'N s/m ... per m/s of surge (wrench -u L_u nu)',
    'thrusters.thrust_range': 'N', 'thrusters.point': 'm', 'thrusters.direction': '1',
    'fins.limits': 'rad', 'fins.rate': 'rad/s', 'fins.time_constant': 's',
    'fins.position': 'm', 'fins.axis': '1', 'hull.stations': 'm', 'hull.diameters': 'm',
    'hull.x_cp': 'm', 'hull.lift_diameter': 'm', 'hull.c_yd_beta': '1',
    'hull.cd_crossflow': '1',
}
#: The units of the seabed's figures, added to UNITS when a seabed is given (--seabed).
SEABED_UNITS = {
    'seabed.origin': 'deg (latitude, longitude)',
    'seabed.extent': 'm (x_min, x_max, y_min, y_max; ENU world)', 'seabed.resolution': 'm',
    'seabed.depth_range': 'm (positive down)', 'seabed.holes': '1 (share of the nodes)',
}


def summarize(params: VehicleParams) -> Dict[str, Any]:
    """Return the check summary of validated ``params`` as plain Python data."""
    weight = params.weight()
    buoyancy = params.buoyancy()
    com = np.asarray(params.com, float)
    cob = np.asarray(params.cob, float)
    bg = cob - com
    principal, axes = np.linalg.eigh(np.asarray(params.inertia, float))
    eig = np.linalg.eigvalsh(mass_matrix_about_origin(params))
    a = np.asarray(params.added_mass, float)
    stiffness = weight * bg[2]
    summary = {
        'valid': True,
        'name': params.name,
        'source': params.source,
        'base_frame': params.base_frame,
        'semantics': params.semantics,
        'mass': params.mass,
        'gravity': params.gravity,
        'fluid_density': params.fluid_density,
        'weight': weight,
        'buoyancy_mass': params.buoyancy_mass,
        'buoyancy': buoyancy,
        'net_buoyancy': buoyancy - weight,
        'com': com.tolist(),
        'cob': cob.tolist(),
        'bg': bg.tolist(),
        'principal_inertia': principal.tolist(),
        'principal_axes': axes.T.tolist(),
        'equivalent_box': equivalent_box(params.mass, principal),
        'mass_matrix_eigenvalues': eig.tolist(),
        'roll_period': _period(params.inertia[0][0] + a[3, 3], stiffness),
        'pitch_period': _period(params.inertia[1][1] + a[4, 4], stiffness),
        'surface': {'out_of_water_depth': params.surface.out_of_water_depth,
                    'fully_submerged_depth': params.surface.fully_submerged_depth,
                    'scale_factor': params.surface.scale_factor,
                    'model': params.surface.model},
        'frames': sorted(params.frames),
        'reference_points': {
            'drag_center': params.resolved_drag_center().tolist(),
            'drag_velocity_point': params.resolved_drag_velocity_point().tolist(),
            'added_mass_point': np.asarray(params.added_mass_point, float).tolist()},
        'damping': params.damping,
        'coriolis': params.coriolis,
        'added_mass_coriolis': params.added_mass_coriolis,
        'acceleration_alpha': params.acceleration_alpha,
        'allow_nonphysical': params.allow_nonphysical,
        'matrices': {
            'linear_drag': np.asarray(params.linear_drag, float).tolist(),
            'quadratic_drag': np.asarray(params.quadratic_drag, float).tolist(),
            'added_mass': a.tolist(),
            'added_mass_about_origin': added_mass_about_origin(
                a, params.added_mass_point).tolist(),
            'mass_matrix_about_origin': mass_matrix_about_origin(params).tolist()},
        'sources': field_sources(params),
        'source_report': format_field_sources(params),
        'thrusters': [dict(_thruster(t, params.fluid_density),
                           command_topic=thruster_topics(t, params.name)['command'])
                      for t in params.thrusters],
        'fins': [describe_fin(fin) for fin in params.fins],
        'forward_speed_drag': np.asarray(params.forward_speed_drag, float).tolist(),
        'buoyancy_engines': [_engine_summary(e) for e in params.buoyancy_engines],
        'elements': element_rows(params),
        'sensors': [sensor_summary(sensor) for sensor in params.sensors],
        'sensor_lines': [describe_sensor(sensor) for sensor in params.sensors],
        'hull': None if params.hull is None else {
            'stations': np.asarray(params.hull.stations, float).tolist(),
            'diameters': np.asarray(params.hull.diameters, float).tolist(),
            'c_yd_beta': params.hull.c_yd_beta, 'x_cp': params.hull.x_cp,
            'cd_crossflow': params.hull.cd_crossflow, 'model': params.hull.model,
            'lift_diameter': params.hull.lift_diameter, 'strips': params.hull.strips},
        'warnings': list(params.warnings),
        'units': dict(UNITS),
    }
    if params.tree is not None:  # only a vehicle whose links move has one
        summary['tree'] = tree_summary(params.tree, params.fluid_density)
    if params.tether is not None:  # only a tethered vehicle has one
        summary['tether'] = tether_summary(params.tether, params.fluid_density, params.gravity)
    if np.any(params.signed_quadratic_drag):  # only a vehicle with gz-sim's <xUU> terms
        summary['signed_quadratic_drag'] = np.asarray(params.signed_quadratic_drag,
                                                      float).tolist()
    return summary


def _thruster(spec, fluid_density: float) -> Dict[str, Any]:
    """Return describe_thruster's summary with the model's coefficients, ranges sorted."""
    out = describe_thruster(spec, fluid_density)
    out['command_limits'] = sorted(float(v) for v in out['command_limits'])
    out['thrust_range'] = sorted(float(v) for v in out['thrust_range'])
    out['coefficients'] = thrust_coefficients(spec)
    if spec.body:  # a thruster on a moving link: point and direction at zero joints
        out['body'] = spec.body
    return out


def _engine_summary(engine) -> Dict[str, Any]:
    return {'link_name': engine.link_name, 'position': list(engine.position),
            'volume_range': [engine.min_volume, engine.max_volume],
            'initial_volume': engine.initial_volume(),
            'neutral_volume': engine.neutral_volume,
            'max_inflation_rate': engine.max_inflation_rate,
            'fluid_density': engine.fluid_density, 'surface': engine.surface,
            'command_topic': engine.command_topic()}


def _fmt(values) -> str:
    return '[' + ', '.join('%.6g' % v for v in values) + ']'


def format_summary(s: Dict[str, Any]) -> str:
    """Return the human-readable summary text."""
    def period(value):
        return 'none (CoB not above CoM)' if value is None else '%.3f s' % value

    lines = [
        'vehicle:        %s (%s)' % (s['name'], s['source']),
        'base frame:     %s, semantics %s' % (s['base_frame'], s['semantics']),
        'mass:           %.6g kg' % s['mass'],
        'weight:         %.6g N (g = %.6g m/s^2)' % (s['weight'], s['gravity']),
        'buoyancy:       %.6g N (%.6g kg displaced, rho = %.6g kg/m^3)'
        % (s['buoyancy'], s['buoyancy_mass'], s['fluid_density']),
        'net buoyancy:   %+.6g N (%s)' % (s['net_buoyancy'],
                                          'rises' if s['net_buoyancy'] > 0 else
                                          'sinks' if s['net_buoyancy'] < 0 else 'neutral'),
        'CoM:            %s m' % _fmt(s['com']),
        'CoB:            %s m' % _fmt(s['cob']),
        'BG (CoB-CoM):   %s m' % _fmt(s['bg']),
        'principal I:    %s kg m^2' % _fmt(s['principal_inertia']),
        'equivalent box: %s m' % ' x '.join('%.3f' % v for v in s['equivalent_box']),
        'eig(M_RB+M_A):  %s' % _fmt(s['mass_matrix_eigenvalues']),
        'roll period:    %s' % period(s['roll_period']),
        'pitch period:   %s' % period(s['pitch_period']),
        'fixed frames:   %s' % (', '.join(s['frames']) or '(none)'),
        'drag centre:    %s m, drag velocity at %s m, added mass about %s m'
        % tuple(_fmt(s['reference_points'][k]) for k in
                ('drag_center', 'drag_velocity_point', 'added_mass_point')),
        'Coriolis:       rigid body %s, added mass (Munk) %s'
        % ('on' if s['coriolis'] else 'off',
           'on' if s['coriolis'] and s['added_mass_coriolis'] else 'off'),
        'thrusters:      %s' % (len(s['thrusters']) or '(none)'),
    ]
    if 'signed_quadratic_drag' in s:
        lines.insert(-1, 'signed quadratic drag S (wrench -S_abc nu_b nu_c, both signed): '
                     '%d nonzero terms' % np.count_nonzero(s['signed_quadratic_drag']))
    if np.any(s['forward_speed_drag']):
        # uuv_simulator linear_damping_forward_speed: wrench -u L_u nu, u signed
        lines.insert(-1, 'forward-speed drag L_u (wrench -u L_u nu, u signed): diagonal %s'
                     % _fmt(np.diag(np.asarray(s['forward_speed_drag'], float))))
    for t in s['thrusters']:
        lines.append('  - %s: %s model, %s in %s, thrust %s N, at %s m along %s%s, dynamics '
                     '%s, command topic %s'
                     % (t['joint_name'], t['model'],
                        ' '.join((t['command'], t['command_unit'])).strip(),
                        _fmt(t['command_limits']), _fmt(t['thrust_range']), _fmt(t['point']),
                        _fmt(t['direction']), ' (on moving body %s, at zero joints)'
                        % t['body'] if 'body' in t else '', t['dynamics'], t['command_topic']))
        lines.append('      coefficients: %s' % coefficients_text(t['coefficients']))
    lines.append('fins:           %s' % (len(s['fins']) or '(none)'))
    lines += ['  - %s' % fin_line(f) for f in s['fins']]
    if s.get('tree') is not None:
        lines += tree_lines(s['tree'])
    for e in s['buoyancy_engines']:
        lines.append('buoyancy engine: link %s at %s m, volume %s m^3 (start %g, neutral %g), '
                     'rate %g m^3/s, rho %g, command %s'
                     % (e['link_name'], _fmt(e['position']), _fmt(e['volume_range']),
                        e['initial_volume'], e['neutral_volume'], e['max_inflation_rate'],
                        e['fluid_density'], e['command_topic']))
    if s.get('tether') is not None:
        lines += tether_lines(s['tether'])
    hull = s.get('hull')
    hull_text = '(none)'
    if hull is not None:
        hull_text = ('%.3g m from x = %.3g m, largest diameter %.3g m; body lift %s, '
                     'c_yd_beta %g at x_cp %s; cross-flow C_d %g, %d strips' % (
                         hull['stations'][-1] - hull['stations'][0], hull['stations'][0],
                         max(hull['diameters']), hull['model'], hull['c_yd_beta'],
                         'mid-length' if hull['x_cp'] is None else '%g m' % hull['x_cp'],
                         hull['cd_crossflow'], hull['strips']))
    lines.append('hull:           ' + hull_text)
    lines.append('sensors:' + ('' if s['sensor_lines'] else '        (none)'))
    lines += ['  - %s' % line for line in s['sensor_lines']]
    lines.append('elements:' + ('' if s['elements'] else '       (none recorded)'))
    lines += ['  - %s' % line for line in element_lines(s['elements'])]
    lines.append('sources:')
    lines += ['  %s' % line for line in s['source_report']]
    if s.get('seabed') is not None:
        from uwv_hydro.description.seabed.seabed_file import seabed_lines
        lines += seabed_lines(s['seabed'])
    lines += s.get('contact_lines', [])
    lines += ['note: %s' % note for note in s.get('notes', ())]
    if s['warnings']:
        lines.append('warnings:')
        lines += ['  - %s' % w for w in s['warnings']]
    else:
        lines.append('warnings:       (none)')
    lines.append('valid')
    return '\n'.join(lines)


def _contact_summary(summary: Dict[str, Any], params: VehicleParams, seabed) -> None:
    """Add the seabed contact (points, coefficients, figures) of a check with a seabed."""
    from uwv_hydro.description.contact import contact_lines, contact_summary
    from uwv_hydro.modes.simulate_mode import SimulateMode
    notes = list(params.contact_warnings)
    if params.tree is not None:
        notes.append('seabed contact is not modelled for a vehicle whose links move (the '
                     'articulated simulation): it does not land')
    elif params.contact is None:
        notes.append('seabed contact: no contact points (no collision box, cylinder or '
                     'sphere, no contact_points): the vehicle does not land')
    else:
        mode = SimulateMode(params, dt=0.01)
        mode.set_contact(params.contact, seabed)
        summary['contact'] = contact_summary(params, mode.contact, mode)
        summary['contact_lines'] = contact_lines(params, mode.contact) + [
            '  sub-steps at 100 Hz: %d (%d without contact)' % (
                mode.substeps, SimulateMode(params, dt=0.01).substeps)]
    summary['warnings'] = list(summary['warnings']) + notes


def run(args) -> int:
    """Load, validate and summarise ``args.vehicle``; return 0 (invalid raises)."""
    try:
        params, notes = load_vehicle_with_notes(args)
        seabed = load_seabed_from_args(args)
    except DescriptionError as exc:
        if args.json:
            print(json.dumps({'valid': False, 'error': exc.describe(), 'source': exc.source,
                              'element': exc.element, 'line': exc.line,
                              'reason': exc.reason}))
        raise
    summary = summarize(params)
    summary['notes'] = [n for n in notes if not n.startswith('vehicle fields ')]
    if seabed is not None:
        from uwv_hydro.description.seabed.seabed_file import seabed_summary
        summary['seabed'] = seabed_summary(*seabed)
        summary['units'].update(SEABED_UNITS)
        _contact_summary(summary, params, seabed[0])
    print(json.dumps(json_safe(summary), indent=2, allow_nan=False) if args.json
          else format_summary(summary))
    return 0
