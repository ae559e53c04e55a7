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
 * The state derivative under a current field linearised about the start of a call
 * (physics/environment/current_field.py; the Field type in _kernel.h): the current at each stage's
 * position and time from the cubic Hermite curve of its two samples plus the gradient
 * term, and its rate along the path dv_c/dt = dc/ds + G p_dot entering the added-mass
 * term as M_A,O [R^T dv_c/dt, 0] (Fossen 2021 ch. 10, nu_dot_c).
 */
#include "_kernel.h"

/*
 * d/dt of x under the linearised current field f at the time s since its start: the
 * current at the stage position and its rate along the path dv_c/dt = a + G p_dot enter
 * the added-mass term as M_A,O [R^T dv_c/dt, 0] (Fossen 2021 ch. 10, nu_dot_c).
 */
void uwv_field_derivative(const Model *m, const double *x, const double *tau,
                          const Field *f, double s, const double *rot, int frozen,
                          double *out)
{
  double qw = x[3], qx = x[4], qy = x[5], qz = x[6];
  /* Fossen 2021 ch. 2 for q / |q| (as uwv_derivative()) */
  double n2 = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz);
  double r[9] = {1.0 - n2 * (qy * qy + qz * qz), n2 * (qx * qy - qw * qz),
                 n2 * (qx * qz + qw * qy), n2 * (qx * qy + qw * qz),
                 1.0 - n2 * (qx * qx + qz * qz), n2 * (qy * qz - qw * qx),
                 n2 * (qx * qz - qw * qy), n2 * (qy * qz + qw * qx),
                 1.0 - n2 * (qx * qx + qy * qy)};
  const double *nu = x + 7;
  double cw[3], rate[3], pdot[3];
  for (int i = 0; i < 3; i++) {
    /* Fossen 2021 ch. 2: p_dot = R(q) v */
    pdot[i] = r[3 * i] * nu[0] + r[3 * i + 1] * nu[1] + r[3 * i + 2] * nu[2];
  }
  /* interpolation weight of the end sample (time over the span) */
  double span = f->span, w = span > 0.0 ? s / span : 0.0;
  /* cubic Hermite basis h00, h10, h01, h11 on w and their d/ds (zero span: v0 + a0 s) */
  double h00 = 1.0, h10 = s, h01 = 0.0, h11 = 0.0, d00 = 0.0, d10 = 1.0, d01 = 0.0;
  double d11 = 0.0;
  if (span > 0.0) {
    h00 = (2.0 * w - 3.0) * w * w + 1.0;
    h10 = span * ((w - 2.0) * w + 1.0) * w;
    h01 = (3.0 - 2.0 * w) * w * w;
    h11 = span * (w - 1.0) * w * w;
    d00 = 6.0 * (w - 1.0) * w / span;
    d10 = (3.0 * w - 4.0) * w + 1.0;
    d01 = -d00;
    d11 = (3.0 * w - 2.0) * w;
  }
  for (int i = 0; i < 3; i++) {
    const double *gi = f->g + 3 * i;
    const double *ei = f->g1 + 3 * i;
    /* v_c = c(s) + G0 (p - p0), c the cubic Hermite curve of the two samples */
    cw[i] = h00 * f->v0[i] + h10 * f->a[i] + h01 * f->v1[i] + h11 * f->b1[i]
            + gi[0] * (x[0] - f->p0[0]) + gi[1] * (x[1] - f->p0[1])
            + gi[2] * (x[2] - f->p0[2]);
    /* total derivative along the path: dv_c/dt = dc/ds + grad(v_c) p_dot, with G
       interpolated linearly in time between the two samples */
    double g0 = gi[0] + w * (ei[0] - gi[0]);
    double g1 = gi[1] + w * (ei[1] - gi[1]);
    double g2 = gi[2] + w * (ei[2] - gi[2]);
    rate[i] = d00 * f->v0[i] + d10 * f->a[i] + d01 * f->v1[i] + d11 * f->b1[i]
              + w * (f->a1[i] - f->b1[i]) + g0 * pdot[0] + g1 * pdot[1] + g2 * pdot[2];
  }
  /* body-frame rate R^T dv_c/dt (Fossen 2021 ch. 10) */
  double rb[3];
  for (int j = 0; j < 3; j++) {
    rb[j] = r[j] * rate[0] + r[3 + j] * rate[1] + r[6 + j] * rate[2];
  }
  double e[6];
  for (int i = 0; i < 6; i++) {
    /* M_A,O [R^T dv_c/dt, 0] joins the applied wrench (its column block of A is M^-1) */
    e[i] = (tau == NULL ? 0.0 : tau[i]) + m->ma[3 * i] * rb[0] + m->ma[3 * i + 1] * rb[1]
           + m->ma[3 * i + 2] * rb[2];
  }
  uwv_derivative(m, x, e, cw, rot, frozen, out);
}

/*
 * A linearised current field (None: none): 34 doubles v0 (3), G0 (3 x 3, row-major,
 * G[i][j] = d v_i / d p_j), a0 (3) about the position p0 of the state x, then G1 (9), a1
 * (3) at the end of the span and position p1, the span T (s; 0: v0 + a0 s and G0
 * throughout), and v1 (3), b1 (3): the velocity and time rate at p0 at the end time.
 */
int uwv_read_field(PyObject *obj, const double *x, Field *f, int *present)
{
  double v[34];
  if (uwv_read_optional(obj, v, 34, "current field", present) < 0) {
    return -1;
  }
  if (*present) {
    memcpy(f->v0, v, sizeof(f->v0));
    memcpy(f->g, v + 3, sizeof(f->g));
    memcpy(f->a, v + 12, sizeof(f->a));
    memcpy(f->p0, x, sizeof(f->p0));
    memcpy(f->g1, v + 15, sizeof(f->g1));
    memcpy(f->a1, v + 24, sizeof(f->a1));
    f->span = v[27];
    memcpy(f->v1, v + 28, sizeof(f->v1));
    memcpy(f->b1, v + 31, sizeof(f->b1));
  }
  return 0;
}
