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

"""Text summary, YAML header comments and the PNG of a :class:`FitResult`."""

from typing import List

import numpy as np

from uwv_hydro.sysid.regressors import AXIS_FORCE_UNITS

_WRENCH_LABELS = ('Fx', 'Fy', 'Fz', 'Tx', 'Ty', 'Tz')


def _value(e) -> str:
    if e.at_bound:
        return '0 (at bound >= 0; upper 95%% %.4g)' % e.half_width
    return '%.5g +- %.3g' % (e.value, e.half_width)


def coefficient_table(result) -> List[str]:
    """Return the per-coefficient table lines."""
    lines = ['%-22s %-32s %-12s %s' % ('coefficient', 'estimate +- 95% CI', 'description',
                                       'units')]
    for e in result.estimates:
        lines.append('%-22s %-32s %-12.5g %s' % (e.coefficient.tag, _value(e), e.prior,
                                                 e.coefficient.units()))
    for p in result.kept:
        lines.append('%-22s kept from the description (%s)'
                     % (p.coefficient.tag, p.message()))
    return lines


def _validation_line(name, v) -> str:
    return ('%s: RMS position error %.4g m, velocity %.4g m/s, angular velocity %.4g rad/s,'
            ' attitude %.3g deg; final position error %.4g m'
            % (name, v.rms_position, v.rms_velocity, v.rms_angular_velocity,
               v.rms_attitude_deg, v.final_position))


def summary(result, options) -> List[str]:
    """Return the human-readable report lines."""
    r = result
    lines = ['fitted %s (%s) on %d samples, t = %.3f..%.3f s, dt %.4g s; smoothing: '
             'Savitzky-Golay %d samples (%.3g s), order %d'
             % (', '.join(options.terms), 'coupled' if options.coupled else 'diagonal',
                r.n_samples, r.t[0], r.t[-1], r.dt, r.window_samples,
                r.window_samples * r.dt, options.order)]
    lines.append('odometry twist noise estimate [u v w p q r]: %s'
                 % ' '.join('%.3g' % v for v in r.velocity_noise))
    lines += coefficient_table(r)
    lines.append('fit residual RMS: %s' % ', '.join(
        '%s %.3g %s' % (_WRENCH_LABELS[a], r.rms_residual[a], AXIS_FORCE_UNITS[a])
        for a in range(6)))
    lines.append('R^2 per axis: %s' % ' '.join('%.5f' % v for v in r.r_squared))
    lines.append('condition number (scaled regressors) %.3g; residual autocorrelation time '
                 '%.3g samples (confidence intervals widened by its square root)'
                 % (r.condition_number, r.autocorrelation_time))
    if r.validation is not None:
        v = r.validation
        lines.append('validation on the held-out last %.0f%% (t = %.3f..%.3f s, open loop '
                     'with the recorded thrust):'
                     % (100 * options.validation_fraction, v.recorded.t[0], v.recorded.t[-1]))
        lines.append('  ' + _validation_line('fitted model', v))
        lines.append('  ' + _validation_line('description model', r.prior_validation))
    lines += ['note: %s' % n for n in r.notes]
    return lines


def yaml_comments(result, options, bag: str, vehicle: str) -> List[str]:
    """Return the header comment lines of the fitted YAML."""
    lines = ['Vehicle description fitted by `uwv-hydro fit` (uwv_hydro.sysid).',
             'bag: %s; prior description: %s' % (bag, vehicle),
             'terms: %s (%s); mass, inertia, CoM, buoyancy and reference points kept from '
             'the prior' % (', '.join(options.terms),
                            'coupled' if options.coupled else 'diagonal'), '']
    lines += coefficient_table(result)
    if result.validation is not None:
        lines += ['', _validation_line('held-out validation', result.validation)]
    return lines


def max_relative_error(result, truth) -> float:
    """Return max |estimate - truth| / |truth| over the estimates (for tests/README)."""
    errs = [abs(e.value - t) / abs(t) for e, t in zip(result.estimates, truth) if t != 0.0]
    return float(np.max(errs)) if errs else 0.0
