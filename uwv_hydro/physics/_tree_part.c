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
 * One link part's frame and hydro terms on its own twist, its axes about its origin, and a
 * body's weight (the equations
 * of uwv_hydro/physics/articulated/algorithms/link_wrench.py): Archimedes' buoyancy through the dsros_hydro
 * surface transition, dsros_hydro linear and quadratic drag at the drag centre, the
 * added mass -M_A nu_dot_r and its Coriolis -C_A(nu_r) nu_r (Fossen 2011 eq. 6.43;
 * Fossen 2021 ch. 10), or only their current terms when the engine computes the added mass.
 */
#include "_tree.h"
#include "_vec3.h"

void uwv_tree_part_frame(const TreePart *q, const double *rb, const double *pb,
                         const double *vb, double *r, double *p, double *nu)
{
  /* the part's pose: R = R_b R_P, p = p_b + R_b p_P; its twist X_P v_b */
  matmul3(rb, q->r, r);
  mul3(rb, q->p, p);
  p[0] += pb[0];
  p[1] += pb[1];
  p[2] += pb[2];
  motion_to_child(q->r, q->p, vb, nu);
}

void uwv_tree_weight(const TreeBody *b, const double *rb, double *wr)
{
  /* weight m g along world down (-R[2, :] in body axes) at the body's CoM */
  wr[0] = -b->weight * rb[6];
  wr[1] = -b->weight * rb[7];
  wr[2] = -b->weight * rb[8];
  cross3(b->com, wr, wr + 3);
}

/* -C_A(nu) nu = [a1 x w, a1 x v + a2 x w], a = M_A nu (Fossen 2011 eq. 6.43). */
static void coriolis_wrench(const double *ma, const double *nu, double *out)
{
  double a[6], t[3];
  mul6(ma, nu, a);
  cross3(a, nu + 3, out);
  cross3(a, nu, out + 3);
  cross3(a + 3, nu + 3, t);
  out[3] += t[0];
  out[4] += t[1];
  out[5] += t[2];
}

/*
 * The hydro rows (buoyancy, linear, quadratic, added mass, Coriolis) of one part at
 * world pose (r, p) with twist nu and acceleration a (or NULL), its axes about its
 * origin (uwv_hydro/physics/articulated/algorithms/link_wrench.py); -1 (ValueError set) on a NaN depth.
 */
int uwv_tree_part_rows(const Tree *t, const TreePart *q, const double *r, const double *p,
                       const double *nu, const double *a, const Flow *flow,
                       double rows[TREE_HYDRO][6])
{
  memset(rows, 0, TREE_HYDRO * 6 * sizeof(double));
  double fraction = 1.0;
  if (q->surface && !flow->submerged_only) {
    /* the CoB's depth: -(z of the origin + R[2, :] . cob) */
    double depth = -(p[2] + r[6] * q->cob[0] + r[7] * q->cob[1] + r[8] * q->cob[2]);
    if (depth != depth) {
      PyErr_SetString(PyExc_ValueError, "depth is not a number");
      return -1;
    }
    if (depth >= q->full) {
      fraction = 1.0;
    } else if (depth <= q->out) {
      fraction = 0.0;
    } else {
      /* dsros_hydro: linear in depth between the two depths, f = s frac + (1 - s) */
      double frac = (depth - q->out) / (q->full - q->out);
      fraction = q->continuous ? frac : q->scale * frac + (1.0 - q->scale);
    }
  }
  /* Archimedes: f rho V g along world up (R^T e_z = R[2, :]) at the CoB */
  double b = fraction * q->buoyancy;
  rows[0][0] = b * r[6];
  rows[0][1] = b * r[7];
  rows[0][2] = b * r[8];
  cross3(q->cob, rows[0], rows[0] + 3);
  double nu_r[6], v_c[3] = {0.0, 0.0, 0.0};
  memcpy(nu_r, nu, sizeof(nu_r));
  if (flow->have_current) {
    /* the current in part axes v_cl = R^T v_c (Fossen 2021 ch. 10) */
    mul3t(r, flow->current, v_c);
    nu_r[0] -= v_c[0];
    nu_r[1] -= v_c[1];
    nu_r[2] -= v_c[2];
  }
  if (t->has_linear) {
    /* dsros_hydro linear drag -L nu_p at r_c, about the origin: -H_c^T L H_v nu_r */
    mul6(q->lin, nu_r, rows[1]);
    for (int i = 0; i < 6; i++) {
      rows[1][i] = -rows[1][i];
    }
  }
  if (t->has_quadratic) {
    /* dsros_hydro quadratic drag -Q |nu_p| nu_p at r_c, nu_p = H_v nu_r */
    double nu_p[6];
    mul6(q->hv, nu_r, nu_p);
    for (int i = 0; i < 6; i++) {
      const double *row = q->quad + 36 * i;
      double s = 0.0;
      for (int m = 0; m < 6; m++) {
        double am = fabs(nu_p[m]);
        for (int n = 0; n < 6; n++) {
          s += row[6 * m + n] * am * nu_p[n];
        }
      }
      rows[2][i] = -s;
    }
  }
  if (!t->has_added_mass) {
    return 0;
  }
  int have_ndc = flow->have_current || flow->have_rate;
  double ndc[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (flow->have_current) {
    /* Fossen 2021 ch. 10: d/dt (R^T v_c) = -w x R^T v_c for a constant v_c */
    cross3(nu + 3, v_c, ndc);
    ndc[0] = -ndc[0];
    ndc[1] = -ndc[1];
    ndc[2] = -ndc[2];
  }
  if (flow->have_rate) {
    /* ... plus R^T dv_c/dt for a changing current */
    double rr[3];
    mul3t(r, flow->rate, rr);
    ndc[0] += rr[0];
    ndc[1] += rr[1];
    ndc[2] += rr[2];
  }
  if (flow->engine_added_mass) {
    if (have_ndc) {
      /* Fossen 2021 ch. 10: M_A nu_dot_c, the part of -M_A nu_dot_r left over */
      mul6(q->ma, ndc, rows[3]);
    }
    if (t->coriolis && flow->have_current) {
      /* C_A(nu) nu - C_A(nu_r) nu_r: the engine computes -C_A(nu) nu itself */
      double c_nu[6];
      coriolis_wrench(q->ma, nu_r, rows[4]);
      coriolis_wrench(q->ma, nu, c_nu);
      for (int i = 0; i < 6; i++) {
        rows[4][i] -= c_nu[i];
      }
    }
    return 0;
  }
  if (a != NULL) {
    /* Fossen 2021 ch. 10: -M_A nu_dot_r, nu_dot_r = a - nu_dot_c */
    double nd[6];
    for (int i = 0; i < 6; i++) {
      nd[i] = a[i] - ndc[i];
    }
    mul6(q->ma, nd, rows[3]);
    for (int i = 0; i < 6; i++) {
      rows[3][i] = -rows[3][i];
    }
  }
  if (t->coriolis) {
    /* Fossen 2011 eq. 6.43: -C_A(nu_r) nu_r */
    coriolis_wrench(q->ma, nu_r, rows[4]);
  }
  return 0;
}
