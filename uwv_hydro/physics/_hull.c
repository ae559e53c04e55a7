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
 * The hull's body lift and cross-flow drag for the relative twist nu_r
 * (physics/hydro/hull_lift.py, physics/hydro/crossflow_drag.py; kernel.py pack_hull the layout):
 *
 * - Prestero's body lift in flow-angle form F_n = -1/2 rho d^2 c_yd_beta |u| v_n at the
 *   centre of pressure ahead or astern, optionally times Jorgensen's (1973) cos(a/2);
 * - Hoerner's cross-flow drag -1/2 rho C_d d dx |c| c summed over the strips, c the
 *   strip's cross-flow velocity [v + r x, w - q x] (Fossen's H(r), MSS Hmtrx).
 */
#include "_kernel.h"

/*
 * Add the hull's body lift and cross-flow drag about the origin for the relative twist
 * nu_r to w (6), or to lift and cross (each 6) when they are not NULL
 * (physics/hydro/hull_lift.py, physics/hydro/crossflow_drag.py).
 */
void uwv_hull_wrench(const Hull *h, const double *nu_r, double *lift, double *cross)
{
  double u = nu_r[0], v = nu_r[1], w = nu_r[2];
  /* Prestero body lift in flow-angle form: F_n = -1/2 rho d^2 c_yd_beta |u| v_n */
  double gain = -h->k * fabs(u);
  if (h->jorgensen) {
    double speed = sqrt(u * u + v * v + w * w);
    /* Jorgensen 1973: times cos(a/2) = sqrt((1 + cos a) / 2), cos a = |u| / U */
    gain *= sqrt(0.5 * (1.0 + (speed > 0.0 ? fabs(u) / speed : 1.0)));
  }
  double x = u >= 0.0 ? h->x_ahead : h->x_astern;
  double fy = gain * v, fz = gain * w;
  lift[1] += fy;
  lift[2] += fz;
  /* moment of the force at [x, 0, 0] about the origin: [0, -x F_z, x F_y] */
  lift[4] -= x * fz;
  lift[5] += x * fy;
  const double *xs = h->p, *ks = h->p + h->n;
  double sy = 0.0, sz = 0.0, my = 0.0, mz = 0.0;
  for (int i = 0; i < h->n; i++) {
    /* strip cross-flow velocity c = [v + r x, w - q x] (Fossen's H(r), MSS Hmtrx) */
    double cy = v + nu_r[5] * xs[i], cz = w - nu_r[4] * xs[i];
    /* Hoerner cross-flow drag of the strip: -1/2 rho C_d d dx |c| c */
    double a = -ks[i] * sqrt(cy * cy + cz * cz);
    double gy = a * cy, gz = a * cz;
    sy += gy;
    sz += gz;
    my -= xs[i] * gz;
    mz += xs[i] * gy;
  }
  cross[1] += sy;
  cross[2] += sz;
  cross[4] += my;
  cross[5] += mz;
}

/* Parse a packed hull section [HULL_HEAD, 2 n] into hull; return doubles used. */
Py_ssize_t uwv_parse_hull(const double *p, Py_ssize_t len, Hull *hull)
{
  if (len < HULL_HEAD || p[5] < 0.0 || p[5] != floor(p[5]) || p[5] > 1e6) {
    PyErr_SetString(PyExc_ValueError, "bad hull section");
    return -1;
  }
  int n = (int)p[5];
  Py_ssize_t need = HULL_HEAD + 2 * (Py_ssize_t)n;
  if (len < need) {
    PyErr_SetString(PyExc_ValueError, "hull section too short");
    return -1;
  }
  hull->present = p[0] != 0.0;
  hull->k = p[1];
  hull->x_ahead = p[2];
  hull->x_astern = p[3];
  hull->jorgensen = p[4] != 0.0;
  hull->n = n;
  hull->p = NULL;
  if (n > 0) {
    hull->p = PyMem_Malloc(2 * (size_t)n * sizeof(double));
    if (hull->p == NULL) {
      PyErr_NoMemory();
      return -1;
    }
    memcpy(hull->p, p + HULL_HEAD, 2 * (size_t)n * sizeof(double));
  }
  return need;
}
