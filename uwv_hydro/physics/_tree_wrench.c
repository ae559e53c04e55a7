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
 * The per-link hydro wrench of a kinematic tree in one call (part of _kernel).
 *
 * Forward kinematics of a floating base with revolute and prismatic joints (Featherstone
 * 2008 ch. 3, body frames), then every link part's buoyancy, drag and added-mass terms on
 * its own twist (the equations of uwv_hydro/physics/link_wrench.py), summed per link, per
 * body and at the base.  The layouts (packed model, outputs) are documented and packed by
 * uwv_hydro/physics/tree_wrench.py; the Python implementation the node used before
 * (Pinocchio's forward kinematics and PartWrenches) is the reference of its tests.
 */
#include "_kernel.h"

#include <math.h>
#include <string.h>

#define TREE_VERSION 1
#define TREE_HEAD 15
#define TREE_BODY 34
#define TREE_PART 347
#define TREE_ROW 13
#define TREE_HYDRO 5    /* buoyancy, linear, quadratic, added mass, added-mass Coriolis */

static const char *TREE_CAPSULE = "uwv_hydro.kernel.tree";

typedef struct {
  int parent, prismatic, row;  /* row: the body's link row for its weight (-1: none) */
  double ra[9], pa[3];         /* the joint frame at q = 0 in the parent body frame */
  double rc[9], pc[3];         /* the body frame in the joint frame */
  double axis[3];              /* unit joint axis, joint frame */
  double s[6];                 /* motion subspace in body axes */
  double weight, com[3];       /* m g and the centre of mass, body frame */
} TreeBody;

typedef struct {
  int body, row, surface, continuous;
  double full, out, scale;     /* the surface transition (surface != 0) */
  double r[9], p[3];           /* the part frame in its body */
  double buoyancy, cob[3];     /* rho V g and the centre of buoyancy, part frame */
  double lin[36];              /* H_c^T L H_v: linear drag about the origin */
  double hv[36];               /* H(r_v): the drag velocity point's twist */
  double quad[216];            /* H_c^T Q (6 x 36): quadratic drag about the origin */
  double ma[36];               /* M_A */
} TreePart;

typedef struct {
  int body;
  double r[9], p[3];           /* the link frame in its body */
} TreeRow;

typedef struct {
  int nb, np, nl;
  int has_linear, has_quadratic, has_added_mass, coriolis;
  int n_comp, c_weight, c_hydro[TREE_HYDRO];
  TreeBody *bodies;
  TreePart *parts;
  TreeRow *rows;
} Tree;

/* ------------------------------------------------------------------ 3-vector algebra */

static void cross3(const double *a, const double *b, double *out)
{
  /* a x b */
  double x = a[1] * b[2] - a[2] * b[1];
  double y = a[2] * b[0] - a[0] * b[2];
  double z = a[0] * b[1] - a[1] * b[0];
  out[0] = x;
  out[1] = y;
  out[2] = z;
}

static void mul3(const double *r, const double *v, double *out)
{
  /* R v (row-major R) */
  for (int i = 0; i < 3; i++) {
    out[i] = r[3 * i] * v[0] + r[3 * i + 1] * v[1] + r[3 * i + 2] * v[2];
  }
}

static void mul3t(const double *r, const double *v, double *out)
{
  /* R^T v */
  for (int i = 0; i < 3; i++) {
    out[i] = r[i] * v[0] + r[3 + i] * v[1] + r[6 + i] * v[2];
  }
}

static void matmul3(const double *a, const double *b, double *out)
{
  /* A B */
  double t[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    }
  }
  memcpy(out, t, sizeof(t));
}

static void mul6(const double *m, const double *v, double *out)
{
  /* M v (6 x 6, row-major) */
  for (int i = 0; i < 6; i++) {
    double s = 0.0;
    for (int j = 0; j < 6; j++) {
      s += m[6 * i + j] * v[j];
    }
    out[i] = s;
  }
}

/* The twist of a child frame at (r, p) in its parent: [R^T (v + w x p), R^T w]. */
static void motion_to_child(const double *r, const double *p, const double *twist,
                            double *out)
{
  double lin[3];
  cross3(twist + 3, p, lin);
  lin[0] += twist[0];
  lin[1] += twist[1];
  lin[2] += twist[2];
  mul3t(r, lin, out);
  mul3t(r, twist + 3, out + 3);
}

/* Add a frame's wrench (its axes, its origin) moved to a parent where it sits at (r, p):
   F = R f, M = R m + p x F (the dual map X^T f). */
static void add_wrench_in_parent(const double *r, const double *p, const double *f,
                                 double *acc)
{
  double force[3], moment[3], arm[3];
  mul3(r, f, force);
  mul3(r, f + 3, moment);
  cross3(p, force, arm);
  for (int i = 0; i < 3; i++) {
    acc[i] += force[i];
    acc[3 + i] += moment[i] + arm[i];
  }
}

/* The pose of a frame (world r, p) in the base frame (world r0, p0): R_0^T R, R_0^T (p - p0). */
static void pose_in_base(const double *r0, const double *p0, const double *r, const double *p,
                         double *rel, double *rel_p)
{
  double d[3];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      rel[3 * i + j] = r0[i] * r[j] + r0[3 + i] * r[3 + j] + r0[6 + i] * r[6 + j];
    }
    d[i] = p[i] - p0[i];
  }
  mul3t(r0, d, rel_p);
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

/* ------------------------------------------------------------------ the model */

static void free_members(Tree *t)
{
  PyMem_Free(t->bodies);
  PyMem_Free(t->parts);
  PyMem_Free(t->rows);
  PyMem_Free(t);
}

static void free_tree(PyObject *capsule)
{
  Tree *t = PyCapsule_GetPointer(capsule, TREE_CAPSULE);
  if (t != NULL) {
    free_members(t);
  }
}

static int index_in(double value, int count, const char *what, int allow_none)
{
  int k = (int)value;
  if ((double)k != value || k < (allow_none ? -1 : 0) || k >= count) {
    PyErr_Format(PyExc_ValueError, "tree: %s index %g out of range", what, value);
    return -2;
  }
  return k;
}

static int parse_tree(const double *d, Py_ssize_t len, Tree *t)
{
  if (len < TREE_HEAD || (int)d[0] != TREE_VERSION) {
    PyErr_SetString(PyExc_ValueError, "tree: packed layout of another version");
    return -1;
  }
  t->nb = (int)d[1];
  t->np = (int)d[2];
  t->nl = (int)d[3];
  t->has_linear = d[4] != 0.0;
  t->has_quadratic = d[5] != 0.0;
  t->has_added_mass = d[6] != 0.0;
  t->coriolis = d[7] != 0.0;
  t->n_comp = (int)d[8];
  if (t->nb < 1 || t->np < 0 || t->nl < 1 || t->n_comp < 1 + TREE_HYDRO
      || len != TREE_HEAD + (Py_ssize_t)t->nb * TREE_BODY + (Py_ssize_t)t->np * TREE_PART
      + (Py_ssize_t)t->nl * TREE_ROW) {
    PyErr_SetString(PyExc_ValueError, "tree: packed sizes do not match its length");
    return -1;
  }
  if ((t->c_weight = index_in(d[9], t->n_comp, "component", 0)) < 0) {
    return -1;
  }
  for (int c = 0; c < TREE_HYDRO; c++) {
    if ((t->c_hydro[c] = index_in(d[10 + c], t->n_comp, "component", 0)) < 0) {
      return -1;
    }
  }
  t->bodies = PyMem_Calloc((size_t)t->nb, sizeof(TreeBody));
  t->parts = PyMem_Calloc((size_t)(t->np ? t->np : 1), sizeof(TreePart));
  t->rows = PyMem_Calloc((size_t)t->nl, sizeof(TreeRow));
  if (t->bodies == NULL || t->parts == NULL || t->rows == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  const double *p = d + TREE_HEAD;
  for (int k = 0; k < t->nb; k++, p += TREE_BODY) {
    TreeBody *b = &t->bodies[k];
    /* the parents come before their children: the base alone has none */
    b->parent = k == 0 ? -1 : index_in(p[0], k, "parent body", 0);
    b->row = index_in(p[2], t->nl, "body row", 1);
    if ((k > 0 && b->parent < 0) || b->row < -1) {
      return -1;
    }
    b->prismatic = p[1] != 0.0;
    memcpy(b->ra, p + 3, 9 * sizeof(double));
    memcpy(b->pa, p + 12, 3 * sizeof(double));
    memcpy(b->rc, p + 15, 9 * sizeof(double));
    memcpy(b->pc, p + 24, 3 * sizeof(double));
    memcpy(b->axis, p + 27, 3 * sizeof(double));
    b->weight = p[30];
    memcpy(b->com, p + 31, 3 * sizeof(double));
    /* motion subspace in body axes: the axis u_b = R_C^T u through the joint origin
       r = -R_C^T p_C; revolute S = [r x u_b, u_b], prismatic S = [u_b, 0] */
    double u[3], r[3];
    mul3t(b->rc, b->axis, u);
    mul3t(b->rc, b->pc, r);
    r[0] = -r[0];
    r[1] = -r[1];
    r[2] = -r[2];
    if (b->prismatic) {
      memcpy(b->s, u, sizeof(u));
      memset(b->s + 3, 0, 3 * sizeof(double));
    } else {
      cross3(r, u, b->s);
      memcpy(b->s + 3, u, sizeof(u));
    }
  }
  for (int k = 0; k < t->np; k++, p += TREE_PART) {
    TreePart *q = &t->parts[k];
    q->body = index_in(p[0], t->nb, "part body", 0);
    q->row = index_in(p[1], t->nl, "part row", 0);
    if (q->body < 0 || q->row < 0) {
      return -1;
    }
    q->surface = p[2] != 0.0;
    q->continuous = p[3] != 0.0;
    q->full = p[4];
    q->out = p[5];
    q->scale = p[6];
    memcpy(q->r, p + 7, 9 * sizeof(double));
    memcpy(q->p, p + 16, 3 * sizeof(double));
    q->buoyancy = p[19];
    memcpy(q->cob, p + 20, 3 * sizeof(double));
    memcpy(q->lin, p + 23, 36 * sizeof(double));
    memcpy(q->hv, p + 59, 36 * sizeof(double));
    memcpy(q->quad, p + 95, 216 * sizeof(double));
    memcpy(q->ma, p + 311, 36 * sizeof(double));
  }
  for (int k = 0; k < t->nl; k++, p += TREE_ROW) {
    TreeRow *w = &t->rows[k];
    if ((w->body = index_in(p[0], t->nb, "row body", 0)) < 0) {
      return -1;
    }
    memcpy(w->r, p + 1, 9 * sizeof(double));
    memcpy(w->p, p + 10, 3 * sizeof(double));
  }
  return 0;
}

PyObject *uwv_py_tree_model(PyObject *self, PyObject *args)
{
  PyObject *obj;
  if (!PyArg_ParseTuple(args, "O", &obj)) {
    return NULL;
  }
  Py_buffer view;
  if (uwv_get_array(obj, &view, TREE_HEAD, 0, "packed tree") < 0) {
    return NULL;
  }
  Tree *t = PyMem_Calloc(1, sizeof(Tree));
  if (t == NULL) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  int rc = parse_tree((const double *)view.buf, view.len / 8, t);
  PyBuffer_Release(&view);
  PyObject *cap = rc < 0 ? NULL : PyCapsule_New(t, TREE_CAPSULE, free_tree);
  if (cap == NULL) {
    free_members(t);
  }
  return cap;
}

/* ------------------------------------------------------------------ kinematics */

/*
 * Every body's pose (world), twist and acceleration (body axes; the acceleration is
 * d/dt of the twist components) from the base's and the joints' (Featherstone 2008
 * eqs. 3.33-3.34): v_k = X_k v_parent + S q_dot, a_k = X_k a_parent + S q_ddot +
 * v_k x (S q_dot), X_k the motion transform of T_k(q) = A_k M(q_k) C_k.
 */
static void kinematics(const Tree *t, const double *p0, const double *quat, const double *nu,
                       const double *q, const double *qd, const double *acc0,
                       const double *qdd, double *pos, double *rot, double *vel, double *acc)
{
  double w = quat[0], x = quat[1], y = quat[2], z = quat[3];
  /* rotation matrix of the unit quaternion [w, x, y, z] (Fossen 2011 eq. 2.72) */
  rot[0] = 1.0 - 2.0 * (y * y + z * z);
  rot[1] = 2.0 * (x * y - z * w);
  rot[2] = 2.0 * (x * z + y * w);
  rot[3] = 2.0 * (x * y + z * w);
  rot[4] = 1.0 - 2.0 * (x * x + z * z);
  rot[5] = 2.0 * (y * z - x * w);
  rot[6] = 2.0 * (x * z - y * w);
  rot[7] = 2.0 * (y * z + x * w);
  rot[8] = 1.0 - 2.0 * (x * x + y * y);
  memcpy(pos, p0, 3 * sizeof(double));
  memcpy(vel, nu, 6 * sizeof(double));
  if (acc != NULL) {
    memcpy(acc, acc0, 6 * sizeof(double));
  }
  for (int k = 1; k < t->nb; k++) {
    const TreeBody *b = &t->bodies[k];
    const int j = b->parent;
    const double qk = q[k - 1];
    /* the joint's motion M(q): Rodrigues R = I + sin q K + (1 - cos q) K^2, or a
       translation q u */
    double rm[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0}, pm[3] = {0.0, 0.0, 0.0};
    const double *u = b->axis;
    if (b->prismatic) {
      pm[0] = qk * u[0];
      pm[1] = qk * u[1];
      pm[2] = qk * u[2];
    } else {
      double s = sin(qk), c = 1.0 - cos(qk);
      rm[0] += c * (u[0] * u[0] - 1.0);
      rm[4] += c * (u[1] * u[1] - 1.0);
      rm[8] += c * (u[2] * u[2] - 1.0);
      rm[1] = -s * u[2] + c * u[0] * u[1];
      rm[3] = s * u[2] + c * u[0] * u[1];
      rm[2] = s * u[1] + c * u[0] * u[2];
      rm[6] = -s * u[1] + c * u[0] * u[2];
      rm[5] = -s * u[0] + c * u[1] * u[2];
      rm[7] = s * u[0] + c * u[1] * u[2];
    }
    /* T = A M C: R_T = R_A R_M R_C, p_T = p_A + R_A (p_M + R_M p_C) */
    double rt[9], pt[3], tmp[3];
    matmul3(b->ra, rm, rt);
    mul3(rm, b->pc, tmp);
    tmp[0] += pm[0];
    tmp[1] += pm[1];
    tmp[2] += pm[2];
    mul3(b->ra, tmp, pt);
    pt[0] += b->pa[0];
    pt[1] += b->pa[1];
    pt[2] += b->pa[2];
    matmul3(rt, b->rc, rt);
    /* world pose: R_k = R_j R_T, p_k = p_j + R_j p_T */
    double *rk = rot + 9 * k, *pk = pos + 3 * k;
    matmul3(rot + 9 * j, rt, rk);
    mul3(rot + 9 * j, pt, pk);
    pk[0] += pos[3 * j];
    pk[1] += pos[3 * j + 1];
    pk[2] += pos[3 * j + 2];
    /* v_k = X_k v_j + S q_dot */
    double *vk = vel + 6 * k;
    motion_to_child(rt, pt, vel + 6 * j, vk);
    for (int i = 0; i < 6; i++) {
      vk[i] += b->s[i] * qd[k - 1];
    }
    if (acc != NULL) {
      /* a_k = X_k a_j + S q_ddot + v_k x (S q_dot), the motion cross product
         [w x m_v + v x m_w, w x m_w] */
      double *ak = acc + 6 * k, vj[6], c1[3], c2[3];
      motion_to_child(rt, pt, acc + 6 * j, ak);
      for (int i = 0; i < 6; i++) {
        vj[i] = b->s[i] * qd[k - 1];
        ak[i] += b->s[i] * (qdd != NULL ? qdd[k - 1] : 0.0);
      }
      cross3(vk + 3, vj, c1);
      cross3(vk, vj + 3, c2);
      ak[0] += c1[0] + c2[0];
      ak[1] += c1[1] + c2[1];
      ak[2] += c1[2] + c2[2];
      cross3(vk + 3, vj + 3, c1);
      ak[3] += c1[0];
      ak[4] += c1[1];
      ak[5] += c1[2];
    }
  }
}

/* ------------------------------------------------------------------ one part */

typedef struct {
  int submerged_only;          /* no position: every part fully submerged */
  int have_current, have_rate, engine_added_mass;
  double current[3], rate[3];
} Flow;

/*
 * The hydro rows (buoyancy, linear, quadratic, added mass, Coriolis) of one part at
 * world pose (r, p) with twist nu and acceleration a (or NULL), its axes about its
 * origin (uwv_hydro/physics/link_wrench.py); -1 (ValueError set) on a NaN depth.
 */
static int part_rows(const Tree *t, const TreePart *q, const double *r, const double *p,
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
    /* the current in part axes v_cl = R^T v_c (Fossen 2011 sec. 10.3) */
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
    /* Fossen 2011 sec. 10.3: d/dt (R^T v_c) = -w x R^T v_c for a constant v_c */
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
      /* Fossen 2011 sec. 10.3: M_A nu_dot_c, the part of -M_A nu_dot_r left over */
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
    /* Fossen 2011 sec. 10.3: -M_A nu_dot_r, nu_dot_r = a - nu_dot_c */
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

/* ------------------------------------------------------------------ the call */

/*
 * tree_wrench(tree, position|None, quaternion [w x y z], nu, q, qd, base_acc|None,
 *             qdd|None, current|None, current_rate|None, engine_added_mass, apply_weight,
 *             out): fills out (tree_wrench.py's layout) with the components at the base,
 *             every link's and body's wrench and pose, every body's twist and acceleration.
 */
PyObject *uwv_py_tree_wrench(PyObject *self, PyObject *args)
{
  PyObject *cap, *pos_obj, *quat_obj, *nu_obj, *q_obj, *qd_obj, *acc_obj, *qdd_obj;
  PyObject *cur_obj, *rate_obj, *out_obj;
  int engine_added_mass, apply_weight;
  if (!PyArg_ParseTuple(args, "OOOOOOOOOOppO", &cap, &pos_obj, &quat_obj, &nu_obj, &q_obj,
                        &qd_obj, &acc_obj, &qdd_obj, &cur_obj, &rate_obj,
                        &engine_added_mass, &apply_weight, &out_obj)) {
    return NULL;
  }
  Tree *t = PyCapsule_GetPointer(cap, TREE_CAPSULE);
  if (t == NULL) {
    return NULL;
  }
  const int nb = t->nb, nl = t->nl, nj = t->nb - 1;
  double p0[3] = {0.0, 0.0, 0.0}, quat[4], nu[6], acc0[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  int have_pos, have_acc, have_qdd;
  Flow flow;
  if (uwv_read_optional(pos_obj, p0, 3, "position", &have_pos) < 0
      || uwv_read_vector(quat_obj, quat, 4, "quaternion") < 0
      || uwv_read_vector(nu_obj, nu, 6, "twist") < 0
      || uwv_read_optional(acc_obj, acc0, 6, "base acceleration", &have_acc) < 0
      || uwv_read_optional(cur_obj, flow.current, 3, "current", &flow.have_current) < 0
      || uwv_read_optional(rate_obj, flow.rate, 3, "current rate", &flow.have_rate) < 0) {
    return NULL;
  }
  flow.submerged_only = !have_pos;
  flow.engine_added_mass = engine_added_mass;
  have_qdd = qdd_obj != Py_None;
  Py_buffer qb, qdb, qddb, ob;
  int got = 0;
  PyObject *result = NULL;
  if (uwv_get_array(q_obj, &qb, nj, 0, "joint positions") < 0) {
    return NULL;
  }
  got = 1;
  if (uwv_get_array(qd_obj, &qdb, nj, 0, "joint velocities") < 0) {
    goto done;
  }
  got = 2;
  if (have_qdd) {
    if (uwv_get_array(qdd_obj, &qddb, nj, 0, "joint accelerations") < 0) {
      goto done;
    }
  }
  got = 3;
  const Py_ssize_t size = (Py_ssize_t)t->n_comp * 6 + (Py_ssize_t)nl * 18
      + (Py_ssize_t)nb * 30;
  if (uwv_get_array(out_obj, &ob, size, 1, "out") < 0) {
    goto done;
  }
  got = 4;
  double *values = ob.buf;
  double *links = values + t->n_comp * 6, *link_pos = links + nl * 6;
  double *link_rot = link_pos + nl * 3, *body_total = link_rot + nl * 9;
  double *pos = body_total + nb * 6, *rot = pos + nb * 3, *vel = rot + nb * 9;
  double *acc = vel + nb * 6;
  const int with_acc = have_acc || have_qdd;
  memset(values, 0, (size_t)(t->n_comp * 6 + nl * 6) * sizeof(double));
  memset(body_total, 0, (size_t)nb * 6 * sizeof(double));
  kinematics(t, p0, quat, nu, qb.buf, qdb.buf, acc0, have_qdd ? qddb.buf : NULL, pos, rot,
             vel, with_acc ? acc : NULL);
  if (!with_acc) {
    memset(acc, 0, (size_t)nb * 6 * sizeof(double));
  }
  const double *r0 = rot;
  for (int k = 0; k < t->np; k++) {
    const TreePart *q = &t->parts[k];
    const double *rb = rot + 9 * q->body, *pb = pos + 3 * q->body;
    /* the part's pose: R = R_b R_P, p = p_b + R_b p_P; twist and acceleration by X_P */
    double r[9], p[3], nu_l[6], a_l[6], rows[TREE_HYDRO][6];
    matmul3(rb, q->r, r);
    mul3(rb, q->p, p);
    p[0] += pb[0];
    p[1] += pb[1];
    p[2] += pb[2];
    motion_to_child(q->r, q->p, vel + 6 * q->body, nu_l);
    if (with_acc) {
      motion_to_child(q->r, q->p, acc + 6 * q->body, a_l);
    }
    if (part_rows(t, q, r, p, nu_l, with_acc ? a_l : NULL, &flow, rows) < 0) {
      goto done;
    }
    double rel[9], rel_p[3], total[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    pose_in_base(r0, p0, r, p, rel, rel_p);
    for (int c = 0; c < TREE_HYDRO; c++) {
      add_wrench_in_parent(rel, rel_p, rows[c], values + 6 * t->c_hydro[c]);
      for (int i = 0; i < 6; i++) {
        total[i] += rows[c][i];
      }
    }
    /* the link's wrench (the part frame is its link's), the body's (moved by X_P^T) */
    for (int i = 0; i < 6; i++) {
      links[6 * q->row + i] += total[i];
    }
    add_wrench_in_parent(q->r, q->p, total, body_total + 6 * q->body);
  }
  if (apply_weight) {
    for (int k = 0; k < nb; k++) {
      const TreeBody *b = &t->bodies[k];
      const double *rb = rot + 9 * k;
      /* weight m g along world down (-R[2, :] in body axes) at the body's CoM */
      double wr[6] = {-b->weight * rb[6], -b->weight * rb[7], -b->weight * rb[8]};
      cross3(b->com, wr, wr + 3);
      double rel[9], rel_p[3];
      pose_in_base(r0, p0, rb, pos + 3 * k, rel, rel_p);
      add_wrench_in_parent(rel, rel_p, wr, values + 6 * t->c_weight);
      for (int i = 0; i < 6; i++) {
        if (b->row >= 0) {
          links[6 * b->row + i] += wr[i];
        }
        body_total[6 * k + i] += wr[i];
      }
    }
  }
  for (int k = 0; k < nl; k++) {
    /* each link's world pose: p_b + R_b p_l, R_b R_l */
    const TreeRow *w = &t->rows[k];
    const double *rb = rot + 9 * w->body;
    mul3(rb, w->p, link_pos + 3 * k);
    for (int i = 0; i < 3; i++) {
      link_pos[3 * k + i] += pos[3 * w->body + i];
    }
    matmul3(rb, w->r, link_rot + 9 * k);
  }
  result = Py_None;
  Py_INCREF(result);
done:
  if (got >= 1) {
    PyBuffer_Release(&qb);
  }
  if (got >= 2) {
    PyBuffer_Release(&qdb);
  }
  if (got >= 3 && have_qdd) {
    PyBuffer_Release(&qddb);
  }
  if (got >= 4) {
    PyBuffer_Release(&ob);
  }
  return result;
}
