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
gz-sim Hydrodynamics' signed quadratic terms (<xUU>, <yVW>, ...: coefficient * U * U).

gz-sim (Garden and later) reads, for force i and velocities j, k of ``xyzkmn`` /
``UVWPQR``, ``<ijk>`` as D_sig[i, j, k] and ``<ijabsk>`` as D_abs[i, j, k], builds
D(nu)[i, j] = -D_lin[i, j] - sum_k D_abs[i, j, k] |nu_k| - sum_k D_sig[i, j, k] nu_k
(HydrodynamicsUtils.hh, buildDampingMatrix) and applies -D(nu) nu at the link origin
(Hydrodynamics.cc), warning whenever a signed term is present.  The test re-derives
that on a look-alike (our own numbers) whose block sits on a second link, rotated and
offset from the base, and compares with the loaded vehicle's drag about the base origin.
"""
import numpy as np
import pytest

from uwv_hydro.description.conventions import rpy_to_matrix
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.loader import load_vehicle_string
from uwv_hydro.physics.hydro.hydro_model import HydroModel

F, V = 'xyzkmn', 'UVWPQR'
#: (force, signed velocity, velocity) -> D_sig (gz-sim signs: negative damps)
SIGNED = {(0, 0, 0): -25.0, (1, 1, 1): -60.0, (2, 2, 2): -70.0, (1, 0, 5): 3.5,
          (5, 5, 5): -0.8, (4, 2, 0): 1.2}
ABS = {(0, 0, 0): -10.0, (3, 3, 3): -0.4}
LINEAR = {(0, 0): -4.0, (1, 1): -9.0, (5, 5): -1.5}
#: the hydro link in the base: any pose for the signed terms; the |U| U terms combine
#: exactly only for axes turned by multiples of 90 degrees (link_hydrodynamics.py)
POSES = {'turned_90': ((0.3, -0.1, 0.05, 0.0, 0.0, np.pi / 2), True),
         'skewed': ((0.3, -0.1, 0.05, 0.2, -0.1, 0.4), False)}
POSE = POSES['turned_90'][0]


def _block(with_abs=True):
    tags = ['<%s%s%s>%r</%s%s%s>' % (F[i], V[j], V[k], v, F[i], V[j], V[k])
            for (i, j, k), v in SIGNED.items()]
    tags += ['<%s%sabs%s>%r</%s%sabs%s>' % (F[i], V[j], V[k], v, F[i], V[j], V[k])
             for (i, j, k), v in ABS.items() if with_abs]
    tags += ['<%s%s>%r</%s%s>' % (F[i], V[j], v, F[i], V[j]) for (i, j), v in LINEAR.items()]
    return ('<plugin filename="gz-sim-hydrodynamics-system" '
            'name="gz::sim::systems::Hydrodynamics"><link_name>fin</link_name>%s</plugin>'
            % ''.join(tags))


TEMPLATE = """<?xml version="1.0"?>
<sdf version="1.10"><model name="lookalike">
  <link name="body"><inertial><mass>40</mass>
    <inertia><ixx>1</ixx><iyy>3</iyy><izz>3</izz></inertia></inertial></link>
  <link name="fin"><pose>%s</pose><inertial><mass>1</mass>
    <inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
  <joint name="fixed" type="fixed"><parent>body</parent><child>fin</child></joint>
  %s
</model></sdf>
"""


def lookalike(pose=POSE, with_abs=True):
    return TEMPLATE % (' '.join(repr(float(v)) for v in pose), _block(with_abs))


SDF = lookalike()


def gz_link_wrench(nu_l, with_abs=True):
    """Return the link's wrench in its frame, as buildDampingMatrix and -D nu give it."""
    d = np.zeros((6, 6))
    for (i, j), v in LINEAR.items():
        d[i, j] -= v
    for (i, j, k), v in ABS.items():
        d[i, j] -= v * abs(nu_l[k]) * with_abs
    for (i, j, k), v in SIGNED.items():
        d[i, j] -= v * nu_l[k]
    return -d @ nu_l


@pytest.mark.parametrize('layout', sorted(POSES))
def test_signed_terms_give_gz_sims_wrench_moved_to_the_base(layout):
    pose, with_abs = POSES[layout]
    params = load_vehicle_string(lookalike(pose, with_abs), 'lookalike.sdf')
    assert any('signed quadratic' in w and 'U * U' in w for w in params.warnings)
    model = HydroModel(params)
    p, rot = np.array(pose[:3]), rpy_to_matrix(pose[3:])
    rng = np.random.default_rng(4)
    for _ in range(6):
        nu = rng.uniform(-1.5, 1.5, 6)
        # link-origin twist in link axes: v_l = R^T (v + w x p), w_l = R^T w
        nu_l = np.concatenate([rot.T @ (nu[:3] + np.cross(nu[3:], p)), rot.T @ nu[3:]])
        f_l = gz_link_wrench(nu_l, with_abs)
        force = rot @ f_l[:3]  # AddWorldWrench at the link origin
        expected = np.concatenate([force, rot @ f_l[3:] + np.cross(p, force)])
        w = model.wrench(nu).components
        ours = w['linear_drag'] + w['quadratic_drag']
        # the same sums in another order: 1e-12 of the largest term
        assert np.allclose(ours, expected, rtol=0, atol=1e-12 * np.abs(expected).max())


def test_signed_terms_in_simulate_match_the_wrench():
    """The compiled core's feature forms carry the signed terms as the term-by-term wrench."""
    from uwv_hydro.physics.body.dynamics import Simulator
    nu = np.array([0.8, -0.3, 0.2, 0.1, -0.2, 0.4])
    x = [0.0, 0.0, -10.0, 1.0, 0.0, 0.0, 0.0] + nu.tolist()
    out = []
    for keep in (True, False):
        params = load_vehicle_string(SDF, 'lookalike.sdf')
        if not keep:
            params.signed_quadratic_drag = np.zeros((6, 6, 6))
        model = HydroModel(params)
        acc = np.array(Simulator(params, dt=0.01).state_acceleration(x, None, None))
        out.append((model.mass_matrix(), acc, model.dynamics_wrench(nu, np.eye(3), 1.0)))
    (mass, a1, w1), (_, a0, w0) = out
    # M (a1 - a0) = w1 - w0: the signed terms' wrench, all else being equal
    assert np.abs(w1 - w0).max() > 1.0
    assert np.allclose(mass @ (a1 - a0), w1 - w0, rtol=0, atol=1e-9 * np.abs(w1 - w0).max())


def test_signed_terms_are_refused_on_links_that_move():
    moving = SDF.replace('<joint name="fixed" type="fixed">',
                         '<joint name="fixed" type="revolute"><axis><xyz>0 0 1</xyz>'
                         '<limit><lower>-1</lower><upper>1</upper></limit></axis>')
    with pytest.raises(DescriptionError, match='signed quadratic terms'):
        load_vehicle_string(moving, 'lookalike.sdf')


def test_yaml_key_round_trips_and_reads_frd():
    from uwv_hydro.description.yaml.export import export_yaml
    params = load_vehicle_string(SDF, 'lookalike.sdf')
    again = load_vehicle_string(export_yaml(params), 'again.yaml')
    assert np.allclose(again.signed_quadratic_drag, params.signed_quadratic_drag,
                       rtol=1e-12, atol=0)
    # FRD -> FLU: F_a and both velocities flip with T = diag(1, -1, -1, 1, -1, -1)
    frd = ('vehicle:\n  mass: 10.0\n  inertia: {ixx: 1.0, iyy: 1.0, izz: 1.0}\n'
           '  convention: frd\n  signed_quadratic_drag: {yxy: 2.0, xyy: 3.0}\n')
    got = load_vehicle_string(frd, 'frd.yaml').signed_quadratic_drag
    t = np.array([1.0, -1.0, -1.0, 1.0, -1.0, -1.0])
    assert got[1, 0, 1] == t[1] * t[0] * t[1] * 2.0 and got[0, 1, 1] == 3.0
