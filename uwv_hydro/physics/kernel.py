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
The compiled core (``_kernel``, a C extension built by setup.py) and what it runs on.

The extension evaluates the state derivative, the RK4 step, the checked step of simulate
mode, the batch step, the fin lift/drag, a kinematic tree's per-link wrench and the
seabed (its height, gradient and ray cast: physics/environment/seabed.py), from C files per concern
(``_kernel.h`` lists them: ``_derivative.c``, ``_rk4.c``, ``_fins.c``, ``_hull.c``,
``_seabed.c``, ...); this module loads it (with a clear error when it is missing or stale:
there is no slow fallback) and packs the coefficients it runs on into flat float64
arrays.  Layouts (doubles):

* model: ``[3 (layout version), A (6 x 102, column-major), r_v (3), full, out, slope,
  offset, M_A,O[:, :3] (6 x 3, row-major), fins..., hull...]``.  nu_dot = A phi with the
  features phi of ``_derivative.c``: A is
  (M_RB + M_A)^-1 times the affine and bilinear forms of
  :class:`uwv_hydro.physics.hydro.wrench_forms.FeatureForms`; r_v is the drag velocity point;
  the surface fraction is f = offset + slope depth inside the band (out, full);
  M_A,O[:, :3] turns a current field's rate along the path into a wrench.
* fins: ``[K, rho, K x 50]``, per fin its position (3), the Rodrigues parts
  (parallel, perpendicular, k x v; 9 each) of cp, forward, upward and spanwise, then
  the model (0 quadratic, 1 two_line, 2 uuv_two_lines), area (times the fin's density
  over rho), cla, cda, alpha_stall, cla_stall, cda_stall, a0, control_joint_rad_to_cl,
  lift_constant, drag_constant.
* hull: ``[present, k, x_ahead, x_astern, jorgensen, n, x (n), k (n)]``: the body
  lift constant and centres of pressure of :class:`uwv_hydro.physics.hydro.hull_lift.HullLift`,
  then the cross-flow strips of :class:`uwv_hydro.physics.hydro.crossflow_drag.CrossflowDrag`.
* guard: ``[C^T (6 x 6, row-major), sqrt(lambda_max(M^-1)), static force, mu, safety]``
  of :class:`uwv_hydro.physics.body.stability.EnergyGuard`.
"""
import hashlib
import pathlib

import numpy as np

from uwv_hydro.physics.hydro.hydrostatics import transition_interior

_HERE = pathlib.Path(__file__).resolve().parent


def kernel_sources(directory) -> list:
    """
    Return the extension's sources in directory: every _*.c and _*.h, by name.

    setup.py builds and hashes the same files in the same order into SOURCE_HASH; an
    installed copy of the package has none (a source tree has them).
    """
    return sorted(path.name for path in pathlib.Path(directory).glob('_*.[ch]'))


_INSTALL_HINT = (
    'it is a C extension built with the package: install a C compiler and the Python '
    'headers (Debian/Ubuntu: apt install build-essential python3-dev; rosdep installs '
    'python3-dev from package.xml), then rebuild: tools/bootstrap in a source checkout, '
    'or colcon build in a ROS 2 workspace')


def _load():
    """Import the extension; ImportError naming what to install when it is missing/stale."""
    try:
        from uwv_hydro.physics import _kernel
    except ImportError as exc:
        raise ImportError('uwv_hydro: the compiled core uwv_hydro.physics._kernel cannot be '
                          'imported (%s): %s' % (exc, _INSTALL_HINT)) from exc
    sources = [_HERE / name for name in kernel_sources(_HERE)]
    if sources:  # a source tree (symlink install)
        digest = hashlib.sha256(b''.join(s.read_bytes() for s in sources)).hexdigest()[:16]
        if digest != _kernel.SOURCE_HASH:  # refuse a stale binary
            raise ImportError('uwv_hydro: the compiled core %s was built from another '
                              'version of its sources %s/_*.c, _*.h (%s, source %s): '
                              'rebuild it (tools/bootstrap, or colcon build)'
                              % (_kernel.__file__, _HERE, _kernel.SOURCE_HASH, digest))
    return _kernel


#: The extension module (step, derivative, advance, batch_step, fin_wrench, ...).
core = _load()

#: Columns of A: z (9), d (3), f d (3), e (6), then the products of _derivative.c.
_PAIRS_NU = [(a, b) for a in range(6) for b in range(a, 6)]
_PAIRS_CURRENT = [(a, b) for b in range(6, 9) for a in range(b + 1)]


def dynamics_matrix(forms, m_inv) -> np.ndarray:
    """
    Return A (6, 102): nu_dot = A phi for the feature forms ``forms`` of one vehicle.

    The bilinear terms (Coriolis, current inertia, forward-speed and signed quadratic
    drag) enter once per pair j <= k
    (B_jk + B_kj), the quadratic drag as Q_abc on |nu_p,b| nu_p,c.
    """
    bilinear = np.einsum('ia,ajk->ijk', m_inv, forms.rigid_body_coriolis
                         + forms.added_mass_coriolis + forms.current_inertia
                         + forms.forward_speed + forms.signed_quadratic)

    def pair(j, k):
        return bilinear[:, j, j] if j == k else bilinear[:, j, k] + bilinear[:, k, j]
    columns = [m_inv @ forms.linear, m_inv @ forms.weight, m_inv @ forms.buoyancy, m_inv,
               np.array([pair(j, k) for j, k in _PAIRS_NU]).T,
               np.einsum('ia,abc->ibc', m_inv, forms.quadratic_point).reshape(6, 36),
               np.array([pair(j, k) for j, k in _PAIRS_CURRENT]).T]
    a = np.hstack(columns)
    assert a.shape == (6, core.NF_ALL)
    return a


def pack_fins(fins) -> np.ndarray:
    """Return the packed fin section of a :class:`~.actuators.fins.FinSet` (or None)."""
    if fins is None:
        return np.zeros(2)
    rows = []
    for j in range(fins.count):
        row = list(fins.position[:, j])
        for key in ('cp', 'f', 'u', 's'):
            row += list(fins.rotation_parts[key][:, :, j].reshape(9))
        # a fin's own density enters q = 1/2 rho v^2 through its area: A rho_fin / rho
        area = fins.area[j] * (fins.density[j] / fins.rho) if fins.rho else fins.area[j]
        row += [float(fins.model_code[j]), float(area)] + [float(a[j]) for a in (
            fins.cla, fins.cda, fins.alpha_stall, fins.cla_stall, fins.cda_stall,
            fins.a0, fins.k_cl, fins.lift_constant, fins.drag_constant)]
        assert len(row) == core.FIN_SIZE
        rows += row
    return np.array([float(fins.count), fins.rho] + rows)


def pack_hull(lift, crossflow) -> np.ndarray:
    """Return the packed hull section of a HullLift and a CrossflowDrag (None: no hull)."""
    if lift is None:
        return np.zeros(core.HULL_HEAD)
    head = [1.0, lift.k, lift.x_ahead, lift.x_astern, 1.0 if lift.jorgensen else 0.0,
            float(len(crossflow.x))]
    return np.concatenate((np.array(head), crossflow.x, crossflow.k))


def pack_model(model, m_inv) -> np.ndarray:
    """Return the packed dynamics of a :class:`uwv_hydro.physics.hydro.hydro_model.HydroModel`."""
    from uwv_hydro.physics.hydro.wrench_forms import FeatureForms
    a = dynamics_matrix(FeatureForms(model), m_inv)
    surface = model.hydrostatics.surface
    full, out = float(surface.fully_submerged_depth), float(surface.out_of_water_depth)
    slope = offset = float('nan')
    if full > out:
        band = (full, out, float(surface.scale_factor),
                1.0 if surface.model == 'continuous' else 0.0)
        # the transition is affine in depth: its two ends give it exactly
        at_out, at_full = transition_interior(out, *band), transition_interior(full, *band)
        slope = (at_full - at_out) / (full - out)
        offset = at_out - slope * out
    # M_A,O[:, :3]: the wrench M_A,O [R^T dv_c/dt, 0] of a changing current (Fossen 2021 ch. 10)
    ma = np.asarray(model.added_mass.origin_matrix, dtype=float)[:, :3].reshape(18)
    head = [float(core.LAYOUT_VERSION)] + list(a.T.reshape(-1)) + list(
        model.drag.velocity_point) + [full, out, slope, offset] + ma.tolist()
    return np.concatenate((np.array(head), pack_fins(model.fins),
                           pack_hull(model.hull_lift, model.crossflow)))


def pack_guard(chol, inv_scale: float, static: float, mu: float, safety: float) -> np.ndarray:
    """Return the packed energy bound (``chol``: C with M = C C^T)."""
    return np.concatenate((np.ascontiguousarray(np.asarray(chol, float).T).reshape(36),
                           [inv_scale, static, mu, safety]))
