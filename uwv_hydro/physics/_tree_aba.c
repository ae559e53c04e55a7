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
 * The articulated-body algorithm of a floating base with revolute and prismatic joints
 * (Featherstone 2008 table 9.6, body frames), with each body's added mass inside its
 * spatial inertia: ABA propagates general 6 x 6 spatial inertias, so I_k = I_RB + M_A
 * (its parts' M_A moved to the body frame, X^T M_A X) needs no separate solve.  The bias
 * force of body k is p_k = v_k x* (I_RB v_k) - f_k, f_k its external wrench: every part's
 * buoyancy, drag, added-mass Coriolis -C_A(nu_r) nu_r and the current's M_A nu_dot_c
 * (_tree_part.c with a zero own acceleration), its weight, the wrenches given (thrusters)
 * and, on the base, the fins and the hull.  The added mass's inertial term -M_A a_k is
 * I_k's.  Locked joints (brakes) keep qdd = 0: their articulated inertia passes whole to
 * the parent and their torque is S^T (I^A a + p^A).  Also M(q)^-1 by unit forces through
 * the same passes, and the static joint torques by inverse dynamics at rest.  The Python
 * reference is uwv_hydro/physics/articulated/algorithms/articulated_dynamics.py (Pinocchio).
 */
#include "_tree.h"
#include "_vec3.h"

/* out = v x* (I v) = [w x h1, v x h1 + w x h2], h = I v (Featherstone 2008 eq. 2.32). */
static void velocity_product(const double *inertia, const double *v, double *out)
{
  double h[6], t[3];
  mul6(inertia, v, h);
  cross3(v + 3, h, out);
  cross3(v, h, out + 3);
  cross3(v + 3, h + 3, t);
  out[3] += t[0];
  out[4] += t[1];
  out[5] += t[2];
}

/* The motion transform X = [[R^T, -R^T S(p)], [0, R^T]] of a frame at (R, p) (eq. 2.24). */
static void motion_matrix(const double *r, const double *p, double *x)
{
  memset(x, 0, 36 * sizeof(double));
  for (int i = 0; i < 3; i++) {
    /* row i of R^T S(p): (R^T)_i . S(p) columns, S(p) e_j = p x e_j */
    const double a = r[i], b = r[3 + i], c = r[6 + i];
    x[6 * i] = x[6 * (i + 3) + 3] = a;
    x[6 * i + 1] = x[6 * (i + 3) + 4] = b;
    x[6 * i + 2] = x[6 * (i + 3) + 5] = c;
    x[6 * i + 3] = -(b * p[2] - c * p[1]);
    x[6 * i + 4] = -(c * p[0] - a * p[2]);
    x[6 * i + 5] = -(a * p[1] - b * p[0]);
  }
}

/* out += X^T A X (a spatial inertia moved to the parent, Featherstone 2008 eq. 2.66). */
static void add_congruence(const double *x, const double *a, double *out)
{
  double ax[36];
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      double s = 0.0;
      for (int m = 0; m < 6; m++) {
        s += a[6 * i + m] * x[6 * m + j];
      }
      ax[6 * i + j] = s;
    }
  }
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < 6; j++) {
      double s = 0.0;
      for (int m = 0; m < 6; m++) {
        s += x[6 * m + i] * ax[6 * m + j];
      }
      out[6 * i + j] += s;
    }
  }
}

static double dot6(const double *a, const double *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* LU with partial pivoting of the base's articulated inertia (6 x 6) into lu, piv. */
static int lu6(const double *a, double *lu, int *piv)
{
  memcpy(lu, a, 36 * sizeof(double));
  for (int k = 0; k < 6; k++) {
    int best = k;
    for (int i = k + 1; i < 6; i++) {
      if (fabs(lu[6 * i + k]) > fabs(lu[6 * best + k])) {
        best = i;
      }
    }
    piv[k] = best;
    if (!(lu[6 * best + k] != 0.0) || !isfinite(lu[6 * best + k])) {
      PyErr_SetString(PyExc_ValueError, "tree dynamics: the base's articulated inertia is "
                      "singular or not finite");
      return -1;
    }
    if (best != k) {
      for (int j = 0; j < 6; j++) {
        double t = lu[6 * k + j];
        lu[6 * k + j] = lu[6 * best + j];
        lu[6 * best + j] = t;
      }
    }
    for (int i = k + 1; i < 6; i++) {
      double f = lu[6 * i + k] /= lu[6 * k + k];
      for (int j = k + 1; j < 6; j++) {
        lu[6 * i + j] -= f * lu[6 * k + j];
      }
    }
  }
  return 0;
}

/* x = -A^-1 b by the factors of lu6. */
static void solve6_neg(const double *lu, const int *piv, const double *b, double *x)
{
  double y[6];
  for (int i = 0; i < 6; i++) {
    y[i] = -b[i];
  }
  for (int k = 0; k < 6; k++) {
    double t = y[k];
    y[k] = y[piv[k]];
    y[piv[k]] = t;
  }
  for (int i = 0; i < 6; i++) {
    for (int j = 0; j < i; j++) {
      y[i] -= lu[6 * i + j] * y[j];
    }
  }
  for (int i = 5; i >= 0; i--) {
    for (int j = i + 1; j < 6; j++) {
      y[i] -= lu[6 * i + j] * y[j];
    }
    y[i] /= lu[6 * i + i];
  }
  memcpy(x, y, sizeof(y));
}

int uwv_tree_forces(const Tree *t, TreeDyn *d, const double *wrench, const Flow *flow,
                    const double *fin_rot)
{
  const int nb = t->nb;
  const int own_acc = flow->have_current || flow->have_rate;
  const double zero[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  memset(d->fext, 0, (size_t)nb * 6 * sizeof(double));
  for (int k = 0; k < t->np; k++) {
    const TreePart *q = &t->parts[k];
    double r[9], p[3], nu_l[6], rows[TREE_HYDRO][6], total[6] = {0.0};
    uwv_tree_part_frame(q, d->rot + 9 * q->body, d->pos + 3 * q->body, d->vel + 6 * q->body,
                        r, p, nu_l);
    /* a zero own acceleration: only the current's M_A nu_dot_c (-M_A a is I_k's) */
    if (uwv_tree_part_rows(t, q, r, p, nu_l, own_acc ? zero : NULL, flow, rows) < 0) {
      return -1;
    }
    for (int c = 0; c < TREE_HYDRO; c++) {
      for (int i = 0; i < 6; i++) {
        total[i] += rows[c][i];
      }
    }
    add_wrench_in_parent(q->r, q->p, total, d->fext + 6 * q->body);
  }
  for (int k = 0; k < nb; k++) {
    double *f = d->fext + 6 * k, wr[6];
    uwv_tree_weight(&t->bodies[k], d->rot + 9 * k, wr);
    for (int i = 0; i < 6; i++) {
      f[i] += wr[i];
    }
    if (wrench != NULL) {
      for (int i = 0; i < 6; i++) {
        f[i] += wrench[6 * k + i];
      }
    }
  }
  if (fin_rot != NULL || d->hull.present) {
    /* the base's relative twist nu_r = nu - [R^T v_c, 0] (Fossen 2021 ch. 10) */
    double nu_r[6], v_c[3] = {0.0, 0.0, 0.0};
    memcpy(nu_r, d->vel, sizeof(nu_r));
    if (flow->have_current) {
      mul3t(d->rot, flow->current, v_c);
    }
    nu_r[0] -= v_c[0];
    nu_r[1] -= v_c[1];
    nu_r[2] -= v_c[2];
    if (fin_rot != NULL) {
      uwv_fins_wrench(&d->fins, fin_rot, nu_r, d->fext);
    }
    if (d->hull.present) {
      uwv_hull_wrench(&d->hull, nu_r, d->fext, d->fext);
    }
  }
  return 0;
}

/* The inertia pass: articulated inertias ia (from the bodies' own), U = I^A S, W = S^T I^A,
   D = S^T I^A S of each free joint, the base's factors (Featherstone 2008 table 7.1). */
static int inertia_pass(const Tree *t, TreeDyn *d, const unsigned char *locked)
{
  const int nb = t->nb;
  memcpy(d->ia, d->inertia, (size_t)nb * 36 * sizeof(double));
  for (int k = nb - 1; k >= 1; k--) {
    const TreeBody *b = &t->bodies[k];
    const double *ia = d->ia + 36 * k, *s = b->s;
    double *u = d->us + 6 * k, *w = d->ws + 6 * k, proj[36], x[36];
    if (locked != NULL && locked[k - 1]) {
      memcpy(proj, ia, sizeof(proj));  /* a brake: the whole inertia passes */
    } else {
      mul6(ia, s, u);
      for (int i = 0; i < 6; i++) {
        w[i] = ia[i] * s[0] + ia[6 + i] * s[1] + ia[12 + i] * s[2] + ia[18 + i] * s[3]
            + ia[24 + i] * s[4] + ia[30 + i] * s[5];
      }
      d->dd[k] = dot6(w, s);
      /* I^a = I^A - U W / D */
      for (int i = 0; i < 6; i++) {
        for (int j = 0; j < 6; j++) {
          proj[6 * i + j] = ia[6 * i + j] - u[i] * w[j] / d->dd[k];
        }
      }
    }
    const double *rel = d->rel + 12 * k;
    motion_matrix(rel, rel + 9, x);
    add_congruence(x, proj, d->ia + 36 * b->parent);
  }
  return lu6(d->ia, d->lu, d->piv);
}

/* The vector passes from the biases pa and velocity terms cc: every body's acceleration
   (acc), qdd and the torques (tau given; the locked joints' solved for). */
static void vector_pass(const Tree *t, TreeDyn *d, const double *tau,
                        const unsigned char *locked, double *qdd, double *torques)
{
  const int nb = t->nb;
  for (int k = nb - 1; k >= 1; k--) {
    const TreeBody *b = &t->bodies[k];
    const double *ia = d->ia + 36 * k, *c = d->cc + 6 * k, *s = b->s;
    const double *pk = d->pa + 6 * k, *rel = d->rel + 12 * k;
    double out[6];
    /* p^a = p^A + I^a c + U u / D, I^a c = I^A c - U (W . c) / D */
    mul6(ia, c, out);
    for (int i = 0; i < 6; i++) {
      out[i] += pk[i];
    }
    if (locked == NULL || !locked[k - 1]) {
      const double *u = d->us + 6 * k, *w = d->ws + 6 * k;
      d->uu[k] = tau[k - 1] - dot6(s, pk);
      const double f = (d->uu[k] - dot6(w, c)) / d->dd[k];
      for (int i = 0; i < 6; i++) {
        out[i] += u[i] * f;
      }
    }
    add_wrench_in_parent(rel, rel + 9, out, d->pa + 6 * b->parent);
  }
  /* the base: a_0 = -(I^A_0)^-1 p^A_0 (gravity enters as the weights) */
  solve6_neg(d->lu, d->piv, d->pa, d->acc);
  for (int k = 1; k < nb; k++) {
    const TreeBody *b = &t->bodies[k];
    const double *s = b->s, *rel = d->rel + 12 * k;
    double *a = d->acc + 6 * k;
    /* a_k = X a_parent + c_k */
    motion_to_child(rel, rel + 9, d->acc + 6 * b->parent, a);
    for (int i = 0; i < 6; i++) {
      a[i] += d->cc[6 * k + i];
    }
    if (locked != NULL && locked[k - 1]) {
      double f[6];
      /* the brake's torque S^T (I^A a + p^A) */
      mul6(d->ia + 36 * k, a, f);
      for (int i = 0; i < 6; i++) {
        f[i] += d->pa[6 * k + i];
      }
      qdd[k - 1] = 0.0;
      torques[k - 1] = dot6(s, f);
    } else {
      qdd[k - 1] = (d->uu[k] - dot6(d->ws + 6 * k, a)) / d->dd[k];
      for (int i = 0; i < 6; i++) {
        a[i] += s[i] * qdd[k - 1];
      }
      torques[k - 1] = tau[k - 1];
    }
  }
}

static void unit_quaternion(const double *x, double *quat)
{
  const double n = sqrt(x[3] * x[3] + x[4] * x[4] + x[5] * x[5] + x[6] * x[6]);
  for (int i = 0; i < 4; i++) {
    quat[i] = x[3 + i] / n;
  }
}

int uwv_tree_aba(const Tree *t, TreeDyn *d, const double *x, const double *q,
                 const double *qd, const double *wrench, const Flow *flow,
                 const double *fin_rot, const double *tau, const unsigned char *locked,
                 double *dx, double *qdd, double *torques)
{
  const int nb = t->nb;
  double quat[4];
  unit_quaternion(x, quat);
  uwv_tree_kinematics(t, x, quat, x + 7, q, qd, NULL, NULL, d->pos, d->rot, d->vel, NULL,
                      d->rel);
  if (uwv_tree_forces(t, d, wrench, flow, fin_rot) < 0 || inertia_pass(t, d, locked) < 0) {
    return -1;
  }
  for (int k = 0; k < nb; k++) {
    double *p = d->pa + 6 * k, *c = d->cc + 6 * k;
    const double *v = d->vel + 6 * k;
    /* p = v x* (I_RB v) - f (Featherstone 2008 table 7.1) */
    velocity_product(d->rigid + 36 * k, v, p);
    for (int i = 0; i < 6; i++) {
      p[i] -= d->fext[6 * k + i];
    }
    memset(c, 0, 6 * sizeof(double));
    if (k > 0) {
      /* c = v x (S qdot) = [w x s1 + v x s2, w x s2] qdot (eq. 3.34) */
      const double *s = t->bodies[k].s;
      double sv[6], t1[3];
      for (int i = 0; i < 6; i++) {
        sv[i] = s[i] * qd[k - 1];
      }
      cross3(v + 3, sv, c);
      cross3(v, sv + 3, t1);
      c[0] += t1[0];
      c[1] += t1[1];
      c[2] += t1[2];
      cross3(v + 3, sv + 3, c + 3);
    }
  }
  vector_pass(t, d, tau, locked, qdd, torques);
  const double *r = d->rot, *nu = x + 7;
  /* Fossen 2021 ch. 2: p_dot = R(q) v */
  mul3(r, nu, dx);
  /* Fossen 2021 ch. 2: q_dot = 1/2 q (x) [0, w] */
  const double qw = x[3], qx = x[4], qy = x[5], qz = x[6];
  dx[3] = 0.5 * (-qx * nu[3] - qy * nu[4] - qz * nu[5]);
  dx[4] = 0.5 * (qw * nu[3] + qy * nu[5] - qz * nu[4]);
  dx[5] = 0.5 * (qw * nu[4] - qx * nu[5] + qz * nu[3]);
  dx[6] = 0.5 * (qw * nu[5] + qx * nu[4] - qy * nu[3]);
  memcpy(dx + 7, d->acc, 6 * sizeof(double));
  return 0;
}

/* The kinematics at rest (zero twist and joint speeds) of the pose x, q. */
static void at_rest(const Tree *t, TreeDyn *d, const double *x, const double *q)
{
  double quat[4];
  const double zero[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  unit_quaternion(x, quat);
  memset(d->uu, 0, (size_t)t->nb * sizeof(double));
  uwv_tree_kinematics(t, x, quat, zero, q, d->uu, NULL, NULL, d->pos, d->rot, d->vel, NULL,
                      d->rel);
}

/* Columns first..nv - 1 of M^-1 at the inertia pass in d (at rest): the responses to
   unit generalised forces (the base's: a unit wrench on it, bias -e); column c's rows go
   to out[c * stride + i] (i < nv), or its own joint's row alone to diag[c - 6]. */
static void columns(const Tree *t, TreeDyn *d, int first, double *out, double *diag)
{
  const int nb = t->nb, nv = 5 + nb;
  double *tau = d->fext, *qdd = d->fext + nb;  /* nb - 1 torques, accelerations, ... */
  memset(d->cc, 0, (size_t)nb * 6 * sizeof(double));
  for (int col = first; col < nv; col++) {
    memset(d->pa, 0, (size_t)nb * 6 * sizeof(double));
    memset(tau, 0, (size_t)nb * sizeof(double));
    if (col < 6) {
      d->pa[col] = -1.0;
    } else {
      tau[col - 6] = 1.0;
    }
    vector_pass(t, d, tau, NULL, qdd, qdd + nb);
    if (diag != NULL) {
      diag[col - 6] = qdd[col - 6];
      continue;
    }
    for (int i = 0; i < 6; i++) {
      out[nv * i + col] = d->acc[i];
    }
    for (int j = 0; j < nb - 1; j++) {
      out[nv * (6 + j) + col] = qdd[j];
    }
  }
}

/* Columns first.. of M^-1 at the pose x, q (columns()); -1 on a singular base inertia. */
static int inverse(const Tree *t, TreeDyn *d, const double *x, const double *q, int first,
                   double *out, double *diag)
{
  at_rest(t, d, x, q);
  if (inertia_pass(t, d, NULL) < 0) {
    return -1;
  }
  columns(t, d, first, out, diag);
  return 0;
}

int uwv_tree_minverse(const Tree *t, TreeDyn *d, const double *x, const double *q,
                      double *out)
{
  return inverse(t, d, x, q, 0, out, NULL);
}

int uwv_tree_apparent(const Tree *t, TreeDyn *d, const double *x, const double *q,
                      double *out)
{
  if (inverse(t, d, x, q, 6, NULL, out) < 0) {
    return -1;
  }
  for (int j = 0; j < t->nb - 1; j++) {
    /* the joint's apparent inertia 1 / (M^-1)_jj */
    out[j] = 1.0 / out[j];
  }
  return 0;
}

int uwv_tree_static(const Tree *t, TreeDyn *d, const double *x, const double *q,
                    double *out)
{
  const int nb = t->nb;
  Flow still = {0, 0, 0, 0, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}};
  at_rest(t, d, x, q);
  if (uwv_tree_forces(t, d, NULL, &still, NULL) < 0) {
    return -1;
  }
  /* inverse dynamics at rest (RNEA, Featherstone 2008 table 5.1): f_k = -f_ext,k plus the
     children's, tau = S^T f */
  for (int k = nb - 1; k >= 1; k--) {
    const double *rel = d->rel + 12 * k;
    double f[6];
    for (int i = 0; i < 6; i++) {
      f[i] = -d->fext[6 * k + i];
    }
    out[k - 1] = dot6(t->bodies[k].s, f);
    for (int i = 0; i < 6; i++) {
      d->fext[6 * k + i] = f[i];
    }
    /* the parent's external wrench less the child's reaction */
    double back[6] = {0.0};
    add_wrench_in_parent(rel, rel + 9, f, back);
    for (int i = 0; i < 6; i++) {
      d->fext[6 * t->bodies[k].parent + i] -= back[i];
    }
  }
  return 0;
}
