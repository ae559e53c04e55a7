/*
 * Copyright 2026 The uwv_hydro Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

/*
 * The state derivative of one vehicle, x = [p (3), q (4), nu (6)]:
 *
 *     p_dot = R(q) v                    (Fossen 2021 ch. 2)
 *     q_dot = 1/2 q (x) [0, w]          (Fossen 2021 ch. 2)
 *     nu_dot = A phi,   phi = [z (9), d (3), f d (3), e (6), z_j z_k (j <= k < 6),
 *                              |nu_p,b| nu_p,c (36), z_j z_k (j <= k, k >= 6)]
 *
 * with z = [nu, v_cb] (v_cb = R^T v_c, the body-frame current), d = R^T [0, 0, -1] the
 * down direction, f the surface fraction of the buoyancy (hydrostatics), e = tau + the
 * fin (_fins.c), hull (_hull.c) and seabed contact (_contact.c) wrenches, nu_p the
 * drag velocity-point twist H(r_v) nu_r, and A = (M_RB + M_A)^-1 times the feature forms of physics/hydro/wrench_forms.py:
 * the restoring forces, linear and quadratic drag, the added mass and the rigid-body and
 * added-mass Coriolis terms all enter through A (packed by kernel.py).
 */
#include "_kernel.h"

/*
 * d/dt of the state x = [p (3), q (4), nu (6)] under the body wrench tau (NULL: zero),
 * the world current cw (NULL: still water) and the rotated fins rot (NULL: no fins).
 * frozen: pose derivatives zero (dynamics_only).
 */
void uwv_derivative(const Model *m, const double *x, const double *tau, const double *cw,
                    const double *rot, int frozen, double *out)
{
  double qw = x[3], qx = x[4], qy = x[5], qz = x[6];
  /* Fossen 2021 ch. 2 for q / |q|: R = I + 2/|q|^2 (w S(e) + S(e)^2) */
  double s = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz);
  double sx = s * qx, sy = s * qy, sz = s * qz;
  double xx = sx * qx, yy = sy * qy, zz = sz * qz;
  double xy = sx * qy, xz = sx * qz, yz = sy * qz;
  double wx = sx * qw, wy = sy * qw, wz = sz * qw;
  double r00 = 1.0 - (yy + zz), r01 = xy - wz, r02 = xz + wy;
  double r10 = xy + wz, r11 = 1.0 - (xx + zz), r12 = yz - wx;
  double r20 = xz - wy, r21 = yz + wx, r22 = 1.0 - (xx + yy);
  const double *nu = x + 7;
  double phi[NF_ALL];
  for (int i = 0; i < 6; i++) {
    phi[i] = nu[i];
  }
  if (cw != NULL) {
    /* Body-frame current v_cb = R^T v_c (Fossen 2021 ch. 10) */
    phi[6] = r00 * cw[0] + r10 * cw[1] + r20 * cw[2];
    phi[7] = r01 * cw[0] + r11 * cw[1] + r21 * cw[2];
    phi[8] = r02 * cw[0] + r12 * cw[1] + r22 * cw[2];
  } else {
    phi[6] = phi[7] = phi[8] = 0.0;
  }
  double depth = -x[2];
  double f;
  if (depth >= m->full) {
    f = 1.0;
  } else if (depth <= m->out) {
    f = 0.0;
  } else {
    /* surface band: hydrostatics.transition_interior, affine in depth (NaN stays NaN) */
    f = m->offset + m->slope * depth;
  }
  /* Down direction d = R^T [0, 0, -1] = -R[2, :] (hydrostatics.down_direction) */
  phi[9] = -r20;
  phi[10] = -r21;
  phi[11] = -r22;
  /* Buoyancy feature f d (surface fraction times down) */
  phi[12] = f * phi[9];
  phi[13] = f * phi[10];
  phi[14] = f * phi[11];
  for (int i = 0; i < 6; i++) {
    phi[15 + i] = tau == NULL ? 0.0 : tau[i];
  }
  /* Relative twist nu_r = nu - [v_cb, 0] (Fossen 2021 ch. 10) */
  double nu_r[6] = {nu[0] - phi[6], nu[1] - phi[7], nu[2] - phi[8], nu[3], nu[4], nu[5]};
  if (rot != NULL) {
    /* the fins' wrench enters with tau (physics.actuators.fins) */
    uwv_fins_wrench(&m->fins, rot, nu_r, phi + 15);
  }
  if (m->hull.present) {
    /* the hull's body lift and cross-flow drag enter with tau (physics.hydro.hull_lift, ...) */
    uwv_hull_wrench(&m->hull, nu_r, phi + 15, phi + 15);
  }
  if (m->contact.n) {
    /* the seabed contact's wrench enters with tau (_contact.c) */
    double r[9] = {r00, r01, r02, r10, r11, r12, r20, r21, r22};
    uwv_contact_wrench(&m->contact, x, r, phi + 15);
  }
  int k = 21;
  /* z_j z_k, j <= k < 6: the bilinear Coriolis terms (Fossen 2021 Theorem 3.2; 2011 eq. 6.43) */
  for (int a = 0; a < 6; a++) {
    for (int b = a; b < 6; b++) {
      phi[k++] = phi[a] * phi[b];
    }
  }
  /* Drag velocity-point twist nu_p = H(r_v) nu_r: v_r + w x r_v, w (Fossen's H(r), MSS Hmtrx) */
  const double *rv = m->r_v;
  double np[6] = {nu_r[0] + nu_r[4] * rv[2] - nu_r[5] * rv[1],
                  nu_r[1] + nu_r[5] * rv[0] - nu_r[3] * rv[2],
                  nu_r[2] + nu_r[3] * rv[1] - nu_r[4] * rv[0], nu_r[3], nu_r[4], nu_r[5]};
  /* |nu_p,b| nu_p,c: dsros quadratic drag Q_abc |nu_b| nu_c */
  for (int b = 0; b < 6; b++) {
    double ab = fabs(np[b]);
    for (int c = 0; c < 6; c++) {
      phi[k++] = ab * np[c];
    }
  }
  int nf = m->n_still;
  if (cw != NULL) {
    /* z_j z_k with k >= 6 (current terms of Coriolis and of M_A nu_dot_c, Fossen 2021 ch. 10) */
    for (int b = 6; b < 9; b++) {
      for (int a = 0; a <= b; a++) {
        phi[k++] = phi[a] * phi[b];
      }
    }
    nf = m->n_all;
  }
  /* nu_dot = (M_RB + M_A)^-1 (affine + bilinear terms) = A phi (Fossen 2021 ch. 8) */
  /* (nonzero columns only; two partial sums, independent add chains) */
  double acc[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  double acc2[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  const double *a = m->a;
  const int *cols = m->col;
  int j = 0;
  for (; j + 1 < nf; j += 2) {
    double v = phi[cols[j]], w = phi[cols[j + 1]];
    const double *col = a + 6 * j;
    for (int i = 0; i < 6; i++) {
      acc[i] += col[i] * v;
      acc2[i] += col[6 + i] * w;
    }
  }
  if (j < nf) {
    double v = phi[cols[j]];
    const double *col = a + 6 * j;
    for (int i = 0; i < 6; i++) {
      acc[i] += col[i] * v;
    }
  }
  for (int i = 0; i < 6; i++) {
    acc[i] += acc2[i];
  }
  if (frozen) {
    for (int i = 0; i < 7; i++) {
      out[i] = 0.0;
    }
  } else {
    /* Fossen 2021 ch. 2: p_dot = R(q) v */
    out[0] = r00 * nu[0] + r01 * nu[1] + r02 * nu[2];
    out[1] = r10 * nu[0] + r11 * nu[1] + r12 * nu[2];
    out[2] = r20 * nu[0] + r21 * nu[1] + r22 * nu[2];
    /* Fossen 2021 ch. 2: q_dot = 1/2 q (x) [0, w] */
    out[3] = 0.5 * (-qx * nu[3] - qy * nu[4] - qz * nu[5]);
    out[4] = 0.5 * (qw * nu[3] + qy * nu[5] - qz * nu[4]);
    out[5] = 0.5 * (qw * nu[4] - qx * nu[5] + qz * nu[3]);
    out[6] = 0.5 * (qw * nu[5] + qx * nu[4] - qy * nu[3]);
  }
  for (int i = 0; i < 6; i++) {
    out[7 + i] = acc[i];
  }
}
