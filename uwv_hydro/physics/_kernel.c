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
 * uwv_hydro.physics._kernel: the compiled core of the vehicle dynamics.
 *
 * The state derivative, the RK4 step (sub-steps, quaternion renormalised after each),
 * the checked step of simulate mode (energy-growth bound, retry, restore), the batch
 * step, the fin lift/drag and the hull's body lift and cross-flow drag (both for the
 * relative twist of the stage, i.e. with the current a field gives at that stage).
 * Every coefficient comes from Python, packed by uwv_hydro/physics/kernel.py (the
 * layout is documented there): nu_dot is
 *
 *     nu_dot = A phi,   phi = [z (9), d (3), f d (3), e (6), z_j z_k (j <= k < 6),
 *                              |nu_p,b| nu_p,c (36), z_j z_k (j <= k, k >= 6)]
 *
 * with z = [nu, v_cb], e = tau + the fin and hull wrenches, nu_p the drag velocity-point
 * twist and A = (M_RB + M_A)^-1 times the feature forms of uwv_hydro/physics/features.py.
 * No numpy C API: arrays arrive through the buffer protocol (doubles, C-contiguous),
 * short vectors also as lists or tuples of floats.
 */
#include "_kernel.h"

#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#ifndef UWV_KERNEL_SOURCE_HASH
#define UWV_KERNEL_SOURCE_HASH "unknown"
#endif

/* Layout of the packed coefficients (must match kernel.py). */
#define LAYOUT_VERSION 3
#define N_STATE 13
#define NF_STILL 78     /* features without current: z_j z_k with k >= 6 vanish */
#define NF_ALL 102
#define FIN_SIZE 50     /* packed doubles per fin */
#define FIN_ROT 13      /* rotated cp, forward, upward, span (+ the deflection) per fin */
#define GUARD_SIZE 40
#define MIN_FIN_SPEED 0.01  /* gz-sim LiftDrag: no force below 1 cm/s */
#define MAX_FINS 64         /* fins per vehicle (stack buffers of rotated fin vectors) */
#define HULL_HEAD 6         /* packed hull: present, k, x_ahead, x_astern, jorgensen, n */

typedef struct {
  int count;
  double rho;
  double *p;            /* count * FIN_SIZE */
} Fins;

typedef struct {
  int present;
  double k;             /* body lift 1/2 rho d^2 c_yd_beta */
  double x_ahead, x_astern;
  int jorgensen;
  int n;                /* cross-flow strips */
  double *p;            /* n strip stations x, then n strip constants 1/2 rho C_d d dx */
} Hull;

typedef struct {
  /* the nonzero columns of A (6 x NF_ALL), column-major: a[c * 6 + i] is A[i, col[c]];
     the first n_still are features < NF_STILL (all n_all with a current) */
  double a[NF_ALL * 6];
  int col[NF_ALL];
  int n_still, n_all;
  double r_v[3];
  double full, out, slope, offset;
  double ma[18];        /* M_A,O[:, :3] (6 x 3, row-major): wrench of a current rate */
  Fins fins;
  Hull hull;
} Model;

/*
 * A current field linearised about the start of a call (physics.current_field):
 * v_c(p, s) = c(s) + G0 (p - p0), s the time since the start, with c(s) the cubic
 * Hermite curve through the values and time rates at p0 at both ends of the span T (v0,
 * a0 at the start, v1, b1 at the end): fourth order in time, exact for a field affine in
 * position and time.  Along the path, dv_c/dt = c'(s) + (a1 - b1) s / T + G(s) p_dot,
 * a1 the rate at the predicted end position p1 (the mixed term d2v/dt dp (p - p0)) and
 * G(s) = G0 + (G1 - G0) s / T, G1 the gradient at p1.  T = 0: c(s) = v0 + a0 s.
 */
typedef struct {
  double v0[3], g[9], a[3], p0[3], g1[9], a1[3], span, v1[3], b1[3];
} Field;

typedef struct {
  double ct[36];        /* C^T with M = C C^T (row-major) */
  double inv_scale, stat, mu, safety;
} Guard;

static const char *MODEL_CAPSULE = "uwv_hydro.kernel.model";
static const char *FINS_CAPSULE = "uwv_hydro.kernel.fins";
static const char *GUARD_CAPSULE = "uwv_hydro.kernel.guard";

/* ------------------------------------------------------------------ argument helpers */

/* Declared in _kernel.h. */
int uwv_read_vector(PyObject *obj, double *out, Py_ssize_t n, const char *what)
{
  if (PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) {
    Py_ssize_t len = PySequence_Fast_GET_SIZE(obj);
    if (len != n) {
      PyErr_Format(PyExc_ValueError, "%s must have %zd values, got %zd", what, n, len);
      return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(obj);
    for (Py_ssize_t i = 0; i < n; i++) {
      double v = PyFloat_AsDouble(items[i]);
      if (v == -1.0 && PyErr_Occurred()) {
        return -1;
      }
      out[i] = v;
    }
    return 0;
  }
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
    int ok = view.format != NULL && strcmp(view.format, "d") == 0 && view.itemsize == 8;
    Py_ssize_t len = view.len / 8;
    if (ok && len == n) {
      memcpy(out, view.buf, (size_t)n * sizeof(double));
    }
    PyBuffer_Release(&view);
    if (ok && len == n) {
      return 0;
    }
    if (ok) {
      PyErr_Format(PyExc_ValueError, "%s must have %zd values, got %zd", what, n, len);
      return -1;
    }
  } else {
    PyErr_Clear();
  }
  /* anything else: any sequence of numbers */
  PyObject *seq = PySequence_Fast(obj, "");
  if (seq == NULL) {
    PyErr_Format(PyExc_ValueError, "%s must be %zd numbers", what, n);
    return -1;
  }
  int rc = uwv_read_vector(seq, out, n, what);
  Py_DECREF(seq);
  return rc;
}

int uwv_read_optional(PyObject *obj, double *out, Py_ssize_t n, const char *what,
                         int *present)
{
  *present = 0;
  if (obj == Py_None) {
    return 0;
  }
  if (uwv_read_vector(obj, out, n, what) < 0) {
    return -1;
  }
  *present = 1;
  return 0;
}

int uwv_get_array(PyObject *obj, Py_buffer *view, Py_ssize_t min_len, int writable,
                     const char *what)
{
  int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj, view, flags) < 0) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous%s float64 array", what,
                 writable ? " writable" : "");
    return -1;
  }
  if (view->format == NULL || strcmp(view->format, "d") != 0 || view->itemsize != 8) {
    PyBuffer_Release(view);
    PyErr_Format(PyExc_TypeError, "%s must hold float64 values", what);
    return -1;
  }
  if (view->len / 8 < min_len) {
    PyBuffer_Release(view);
    PyErr_Format(PyExc_ValueError, "%s must have at least %zd values, got %zd", what,
                 min_len, view->len / 8);
    return -1;
  }
  return 0;
}

static PyObject *list_of(const double *v, Py_ssize_t n)
{
  PyObject *out = PyList_New(n);
  if (out == NULL) {
    return NULL;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *f = PyFloat_FromDouble(v[i]);
    if (f == NULL) {
      Py_DECREF(out);
      return NULL;
    }
    PyList_SET_ITEM(out, i, f);
  }
  return out;
}

/* ------------------------------------------------------------------ fins */

/*
 * Rotate every fin's cp, forward, upward and spanwise vectors by its deflection
 * (held over a step): rot[j * FIN_ROT + ...] = r (3), f (3), u (3), s (3), delta.
 */
static void fins_rotate(const Fins *fins, const double *angles, double *rot)
{
  for (int j = 0; j < fins->count; j++) {
    const double *p = fins->p + (size_t)j * FIN_SIZE;
    double *o = rot + (size_t)j * FIN_ROT;
    double delta = angles == NULL ? 0.0 : angles[j];
    double c = cos(delta), sn = sin(delta);
    /* Rodrigues: v' = par + perp cos d + (k x v) sin d; r = position + cp' */
    for (int a = 0; a < 3; a++) {
      o[a] = p[a] + p[3 + a] + p[6 + a] * c + p[9 + a] * sn;
    }
    for (int v = 1; v < 4; v++) {
      const double *q = p + 3 + 9 * v;
      for (int a = 0; a < 3; a++) {
        /* Rodrigues' rotation of forward, upward, spanwise about the joint axis */
        o[3 * v + a] = q[a] + q[3 + a] * c + q[6 + a] * sn;
      }
    }
    o[12] = delta;
  }
}

/*
 * Force of fin j (body frame, acting at r = rot[0:3]) for the relative twist nu_r;
 * *alpha gets the angle of attack.  Return 0 when the fin has no force.
 */
static int fin_force(const Fins *fins, int j, const double *rot, const double *nu_r,
                     double *force, double *alpha_out)
{
  const double *p = fins->p + (size_t)j * FIN_SIZE;
  const double *o = rot + (size_t)j * FIN_ROT;
  const double *r = o, *f = o + 3, *u = o + 6, *s = o + 9;
  double delta = o[12];
  int two_line = p[39] != 0.0;
  double area = p[40], cla = p[41], cda = p[42], a_s = p[43], cla_s = p[44];
  double cda_s = p[45], a0 = p[46], k_cl = p[47], k_lift = p[48], k_drag = p[49];
  /* Velocity of the centre of pressure through the water: v_r + w x r */
  double v0 = nu_r[0] + nu_r[4] * r[2] - nu_r[5] * r[1];
  double v1 = nu_r[1] + nu_r[5] * r[0] - nu_r[3] * r[2];
  double v2 = nu_r[2] + nu_r[3] * r[1] - nu_r[4] * r[0];
  double speed2 = v0 * v0 + v1 * v1 + v2 * v2;
  double vs = v0 * s[0] + v1 * s[1] + v2 * s[2];
  /* Flow in the lift/drag plane: v_p = v - (v.s) s */
  double p0 = v0 - vs * s[0], p1 = v1 - vs * s[1], p2 = v2 - vs * s[2];
  double pp = p0 * p0 + p1 * p1 + p2 * p2;
  /* gz-sim LiftDrag: alpha = a0 + angle between the in-plane flow and forward */
  double alpha = a0 + atan2(-(v0 * u[0] + v1 * u[1] + v2 * u[2]),
                            v0 * f[0] + v1 * f[1] + v2 * f[2]);
  /* wrap into [-pi/2, pi/2): (alpha + pi/2) mod pi - pi/2 (floored modulo) */
  double m = fmod(alpha + 0.5 * M_PI, M_PI);
  if (m != 0.0) {
    if (m < 0.0) {
      m += M_PI;
    }
  } else {
    m = 0.0;
  }
  alpha = m - 0.5 * M_PI;
  *alpha_out = alpha;
  force[0] = force[1] = force[2] = 0.0;
  if (!(speed2 > MIN_FIN_SPEED * MIN_FIN_SPEED && pp > 1e-24)) {
    return 0;
  }
  double lift, drag;
  if (two_line) {
    /* gz-sim LiftDrag sweep correction 1 - sin^2(sweep), sin(sweep) = s.v / |v| */
    double ratio = vs * vs / speed2;
    double sweep = 1.0 - (ratio < 1.0 ? ratio : 1.0);
    double cl, cd;
    if (alpha > a_s) {
      /* gz-sim LiftDrag two-line model past +alpha_stall (C_L kept >= 0) */
      cl = (cla * a_s + cla_s * (alpha - a_s)) * sweep;
      cl = cl > 0.0 ? cl : 0.0;
      cd = (cda * a_s + cda_s * (alpha - a_s)) * sweep;
    } else if (alpha < -a_s) {
      /* gz-sim LiftDrag two-line model past -alpha_stall (C_L kept <= 0) */
      cl = (-cla * a_s + cla_s * (alpha + a_s)) * sweep;
      cl = cl < 0.0 ? cl : 0.0;
      cd = (-cda * a_s + cda_s * (alpha + a_s)) * sweep;
    } else {
      /* gz-sim LiftDrag below the stall: C_L = cla alpha, C_D = cda alpha */
      cl = cla * alpha * sweep;
      cd = cda * alpha * sweep;
    }
    /* L = (C_L + k delta) q A, D = |C_D| q A, q = 1/2 rho |v_p|^2 (gz-sim LiftDrag) */
    double qa = 0.5 * fins->rho * pp * area;
    lift = (cl + k_cl * delta) * qa;
    drag = fabs(cd) * qa;
  } else {
    /* uuv_simulator quadratic model: L = c_L alpha |v|^2, D = c_D alpha^2 |v|^2 */
    lift = k_lift * alpha * pp;
    drag = k_drag * alpha * alpha * pp;
  }
  double inv = 1.0 / sqrt(pp);
  double a = lift * inv, b = drag * inv;
  /* Lift along s x v_p / |v_p|, drag along -v_p / |v_p| */
  force[0] = a * (s[1] * p2 - s[2] * p1) - b * p0;
  force[1] = a * (s[2] * p0 - s[0] * p2) - b * p1;
  force[2] = a * (s[0] * p1 - s[1] * p0) - b * p2;
  return 1;
}

/* Add the fins' wrench about the origin for the relative twist nu_r to w (6). */
static void fins_wrench(const Fins *fins, const double *rot, const double *nu_r, double *w)
{
  for (int j = 0; j < fins->count; j++) {
    double g[3], alpha;
    if (!fin_force(fins, j, rot, nu_r, g, &alpha)) {
      continue;
    }
    const double *r = rot + (size_t)j * FIN_ROT;
    w[0] += g[0];
    w[1] += g[1];
    w[2] += g[2];
    /* Force at r moved to the origin: torque r x F (Fossen 2011, tau_O = H(r)^T tau_r) */
    w[3] += r[1] * g[2] - r[2] * g[1];
    w[4] += r[2] * g[0] - r[0] * g[2];
    w[5] += r[0] * g[1] - r[1] * g[0];
  }
}

/* ------------------------------------------------------------------ hull */

/*
 * Add the hull's body lift and cross-flow drag about the origin for the relative twist
 * nu_r to w (6), or to lift and cross (each 6) when they are not NULL
 * (physics/hull_lift.py, physics/crossflow_drag.py).
 */
static void hull_wrench(const Hull *h, const double *nu_r, double *lift, double *cross)
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
    /* strip cross-flow velocity c = [v + r x, w - q x] (Fossen 2011 eq. 7.236) */
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

/* ------------------------------------------------------------------ dynamics */

/*
 * d/dt of the state x = [p (3), q (4), nu (6)] under the body wrench tau (NULL: zero),
 * the world current cw (NULL: still water) and the rotated fins rot (NULL: no fins).
 * frozen: pose derivatives zero (dynamics_only).
 */
static void derivative(const Model *m, const double *x, const double *tau, const double *cw,
                       const double *rot, int frozen, double *out)
{
  double qw = x[3], qx = x[4], qy = x[5], qz = x[6];
  /* Fossen 2011 eq. 2.72 for q / |q|: R = I + 2/|q|^2 (w S(e) + S(e)^2) */
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
    /* Body-frame current v_cb = R^T v_c (Fossen 2011 sec. 10.3) */
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
  /* Relative twist nu_r = nu - [v_cb, 0] (Fossen 2011 sec. 10.3) */
  double nu_r[6] = {nu[0] - phi[6], nu[1] - phi[7], nu[2] - phi[8], nu[3], nu[4], nu[5]};
  if (rot != NULL) {
    /* the fins' wrench enters with tau (physics.fins) */
    fins_wrench(&m->fins, rot, nu_r, phi + 15);
  }
  if (m->hull.present) {
    /* the hull's body lift and cross-flow drag enter with tau (physics.hull_lift, ...) */
    hull_wrench(&m->hull, nu_r, phi + 15, phi + 15);
  }
  int k = 21;
  /* z_j z_k, j <= k < 6: the bilinear Coriolis terms (Fossen 2011 eqs. 3.56, 6.43) */
  for (int a = 0; a < 6; a++) {
    for (int b = a; b < 6; b++) {
      phi[k++] = phi[a] * phi[b];
    }
  }
  /* Drag velocity-point twist nu_p = H(r_v) nu_r: v_r + w x r_v, w (Fossen 2011 eq. 7.236) */
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
    /* z_j z_k with k >= 6 (current terms of Coriolis and of M_A nu_dot_c, sec. 10.3) */
    for (int b = 6; b < 9; b++) {
      for (int a = 0; a <= b; a++) {
        phi[k++] = phi[a] * phi[b];
      }
    }
    nf = m->n_all;
  }
  /* nu_dot = (M_RB + M_A)^-1 (affine + bilinear terms) = A phi (Fossen 2011 eq. 10.x) */
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
    /* Fossen 2011 eq. 2.83: p_dot = R(q) v */
    out[0] = r00 * nu[0] + r01 * nu[1] + r02 * nu[2];
    out[1] = r10 * nu[0] + r11 * nu[1] + r12 * nu[2];
    out[2] = r20 * nu[0] + r21 * nu[1] + r22 * nu[2];
    /* Fossen 2011 eq. 2.86: q_dot = 1/2 q (x) [0, w] */
    out[3] = 0.5 * (-qx * nu[3] - qy * nu[4] - qz * nu[5]);
    out[4] = 0.5 * (qw * nu[3] + qy * nu[5] - qz * nu[4]);
    out[5] = 0.5 * (qw * nu[4] - qx * nu[5] + qz * nu[3]);
    out[6] = 0.5 * (qw * nu[5] + qx * nu[4] - qy * nu[3]);
  }
  for (int i = 0; i < 6; i++) {
    out[7 + i] = acc[i];
  }
}

/*
 * d/dt of x under the linearised current field f at the time s since its start: the
 * current at the stage position and its rate along the path dv_c/dt = a + G p_dot enter
 * the added-mass term as M_A,O [R^T dv_c/dt, 0] (Fossen 2011 sec. 10.3, nu_dot_c).
 */
static void field_derivative(const Model *m, const double *x, const double *tau,
                             const Field *f, double s, const double *rot, int frozen,
                             double *out)
{
  double qw = x[3], qx = x[4], qy = x[5], qz = x[6];
  /* Fossen 2011 eq. 2.72 for q / |q| (as derivative()) */
  double n2 = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz);
  double r[9] = {1.0 - n2 * (qy * qy + qz * qz), n2 * (qx * qy - qw * qz),
                 n2 * (qx * qz + qw * qy), n2 * (qx * qy + qw * qz),
                 1.0 - n2 * (qx * qx + qz * qz), n2 * (qy * qz - qw * qx),
                 n2 * (qx * qz - qw * qy), n2 * (qy * qz + qw * qx),
                 1.0 - n2 * (qx * qx + qy * qy)};
  const double *nu = x + 7;
  double cw[3], rate[3], pdot[3];
  for (int i = 0; i < 3; i++) {
    /* Fossen 2011 eq. 2.83: p_dot = R(q) v */
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
  /* body-frame rate R^T dv_c/dt (Fossen 2011 sec. 10.3) */
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
  derivative(m, x, e, cw, rot, frozen, out);
}

/* Scale q = x[3:7] to unit norm; return -1 when it is zero or not finite. */
static int unit_quaternion(double *x)
{
  double n = sqrt(x[3] * x[3] + x[4] * x[4] + x[5] * x[5] + x[6] * x[6]);
  if (!(n > 0.0) || !isfinite(n)) {
    return -1;
  }
  /* Unit quaternion: q / |q| */
  x[3] /= n;
  x[4] /= n;
  x[5] /= n;
  x[6] /= n;
  return 0;
}

/*
 * n classic RK4 sub-steps of h from x (13, in/out), quaternion normalised first and
 * after every sub-step; return -1 for a zero or non-finite quaternion.
 */
static int rk4(const Model *m, double *x, const double *tau, const double *cw,
               const double *rot, double h, long n, int frozen, const Field *f, double s0)
{
  if (unit_quaternion(x) < 0) {
    return -1;
  }
  double k1[N_STATE], k2[N_STATE], k3[N_STATE], k4[N_STATE], y[N_STATE];
  double half = 0.5 * h, sixth = h / 6.0;
  for (long step = 0; step < n; step++) {
    /* Classic RK4 (uwv_dynamic_model): x += h/6 (k1 + 2 k2 + 2 k3 + k4) */
    /* a field: the current at every stage's position and time (s0 + stage time) */
    double s = s0 + (double)step * h;
    if (f == NULL) {
      derivative(m, x, tau, cw, rot, frozen, k1);
    } else {
      field_derivative(m, x, tau, f, s, rot, frozen, k1);
    }
    for (int i = 0; i < N_STATE; i++) {
      y[i] = x[i] + half * k1[i];
    }
    if (f == NULL) {
      derivative(m, y, tau, cw, rot, frozen, k2);
    } else {
      field_derivative(m, y, tau, f, s + half, rot, frozen, k2);
    }
    for (int i = 0; i < N_STATE; i++) {
      y[i] = x[i] + half * k2[i];
    }
    if (f == NULL) {
      derivative(m, y, tau, cw, rot, frozen, k3);
    } else {
      field_derivative(m, y, tau, f, s + half, rot, frozen, k3);
    }
    for (int i = 0; i < N_STATE; i++) {
      y[i] = x[i] + h * k3[i];
    }
    if (f == NULL) {
      derivative(m, y, tau, cw, rot, frozen, k4);
    } else {
      field_derivative(m, y, tau, f, s + h, rot, frozen, k4);
    }
    for (int i = 0; i < N_STATE; i++) {
      x[i] = x[i] + sixth * (k1[i] + 2.0 * (k2[i] + k3[i]) + k4[i]);
    }
    /* Renormalise the quaternion after every sub-step */
    if (unit_quaternion(x) < 0) {
      return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------ energy guard */

/* |nu|_M = |C^T nu| with M = C C^T (sqrt of twice the kinetic energy). */
static double guard_norm(const Guard *g, const double *nu)
{
  double sum = 0.0;
  for (int i = 0; i < 6; i++) {
    double v = 0.0;
    for (int j = 0; j < 6; j++) {
      v += g->ct[6 * i + j] * nu[j];
    }
    sum += v * v;
  }
  return sqrt(sum);
}

/* Largest |nu|_M physically reachable from s_before in dt (stability.EnergyGuard). */
static double guard_max_norm(const Guard *g, double s_before, double tau_norm, double dt,
                             double c_force, double c_rate)
{
  double drive = g->inv_scale * (tau_norm + g->stat + c_force);
  double rate = g->mu + c_rate;
  double k = g->safety;
  double e = k * rate * dt;
  /* ds/dt <= drive + rate s, integrated over dt (Gronwall), times the safety factor */
  double grow = exp(e < 700.0 ? e : 700.0);
  return s_before * grow + k * drive * dt * grow + 1e-9 * (1.0 + s_before);
}

/* ------------------------------------------------------------------ capsules */

static void free_model(PyObject *capsule)
{
  Model *m = (Model *)PyCapsule_GetPointer(capsule, MODEL_CAPSULE);
  if (m != NULL) {
    PyMem_Free(m->fins.p);
    PyMem_Free(m->hull.p);
    PyMem_Free(m);
  }
}

static void free_fins(PyObject *capsule)
{
  Fins *f = (Fins *)PyCapsule_GetPointer(capsule, FINS_CAPSULE);
  if (f != NULL) {
    PyMem_Free(f->p);
    PyMem_Free(f);
  }
}

static void free_guard(PyObject *capsule)
{
  PyMem_Free(PyCapsule_GetPointer(capsule, GUARD_CAPSULE));
}

/* Parse a packed fin section [count, rho, count * FIN_SIZE] into fins; return doubles used. */
static Py_ssize_t parse_fins(const double *p, Py_ssize_t len, Fins *fins)
{
  if (len < 2 || p[0] < 0.0 || p[0] != floor(p[0])) {
    PyErr_SetString(PyExc_ValueError, "bad fin section");
    return -1;
  }
  if (p[0] > MAX_FINS) {
    PyErr_Format(PyExc_ValueError, "at most %d fins per vehicle, got %d", MAX_FINS, (int)p[0]);
    return -1;
  }
  int count = (int)p[0];
  Py_ssize_t need = 2 + (Py_ssize_t)count * FIN_SIZE;
  if (len < need) {
    PyErr_SetString(PyExc_ValueError, "fin section too short");
    return -1;
  }
  fins->count = count;
  fins->rho = p[1];
  fins->p = NULL;
  if (count > 0) {
    fins->p = PyMem_Malloc((size_t)count * FIN_SIZE * sizeof(double));
    if (fins->p == NULL) {
      PyErr_NoMemory();
      return -1;
    }
    memcpy(fins->p, p + 2, (size_t)count * FIN_SIZE * sizeof(double));
  }
  return need;
}

/* Parse a packed hull section [HULL_HEAD, 2 n] into hull; return doubles used. */
static Py_ssize_t parse_hull(const double *p, Py_ssize_t len, Hull *hull)
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

/* The one argument of a capsule constructor: a packed float64 array. */
static int packed_arg(PyObject *args, Py_buffer *view, Py_ssize_t min_len, const char *what)
{
  PyObject *obj;
  if (!PyArg_ParseTuple(args, "O", &obj)) {
    return -1;
  }
  return uwv_get_array(obj, view, min_len, 0, what);
}

static PyObject *py_model(PyObject *self, PyObject *args)
{
  Py_buffer view;
  if (packed_arg(args, &view, 1, "model") < 0) {
    return NULL;
  }
  const double *p = view.buf;
  Py_ssize_t len = view.len / 8;
  Py_ssize_t head = 1 + 6 * NF_ALL + 3 + 4 + 18;
  if (p[0] != LAYOUT_VERSION || len < head + 2) {
    PyBuffer_Release(&view);
    PyErr_SetString(PyExc_ValueError, "packed model: wrong layout (rebuild uwv_hydro)");
    return NULL;
  }
  Model *m = PyMem_Calloc(1, sizeof(Model));
  if (m == NULL) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  /* keep the nonzero columns of A only (about half of them for real vehicles) */
  const double *a = p + 1;
  for (int j = 0; j < NF_ALL; j++) {
    int nonzero = 0;
    for (int i = 0; i < 6; i++) {
      nonzero |= a[6 * j + i] != 0.0;
    }
    if (nonzero) {
      memcpy(m->a + 6 * m->n_all, a + 6 * j, 6 * sizeof(double));
      m->col[m->n_all++] = j;
      m->n_still += j < NF_STILL;
    }
  }
  memcpy(m->r_v, p + 1 + 6 * NF_ALL, sizeof(m->r_v));
  const double *s = p + 1 + 6 * NF_ALL + 3;
  m->full = s[0];
  m->out = s[1];
  m->slope = s[2];
  m->offset = s[3];
  memcpy(m->ma, s + 4, sizeof(m->ma));
  Py_ssize_t used = parse_fins(p + head, len - head, &m->fins);
  Py_ssize_t used_hull = used < 0 ? -1 : parse_hull(p + head + used, len - head - used,
                                                    &m->hull);
  PyBuffer_Release(&view);
  if (used_hull < 0) {
    PyMem_Free(m->fins.p);
    PyMem_Free(m);
    return NULL;
  }
  PyObject *cap = PyCapsule_New(m, MODEL_CAPSULE, free_model);
  if (cap == NULL) {
    PyMem_Free(m->fins.p);
    PyMem_Free(m->hull.p);
    PyMem_Free(m);
  }
  return cap;
}

static PyObject *py_fins(PyObject *self, PyObject *args)
{
  Py_buffer view;
  if (packed_arg(args, &view, 2, "fins") < 0) {
    return NULL;
  }
  Fins *f = PyMem_Calloc(1, sizeof(Fins));
  if (f == NULL) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  Py_ssize_t used = parse_fins(view.buf, view.len / 8, f);
  PyBuffer_Release(&view);
  if (used < 0) {
    PyMem_Free(f);
    return NULL;
  }
  PyObject *cap = PyCapsule_New(f, FINS_CAPSULE, free_fins);
  if (cap == NULL) {
    PyMem_Free(f->p);
    PyMem_Free(f);
  }
  return cap;
}

static PyObject *py_guard(PyObject *self, PyObject *args)
{
  Py_buffer view;
  if (packed_arg(args, &view, GUARD_SIZE, "guard") < 0) {
    return NULL;
  }
  Guard *g = PyMem_Malloc(sizeof(Guard));
  if (g == NULL) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  const double *p = view.buf;
  memcpy(g->ct, p, sizeof(g->ct));
  g->inv_scale = p[36];
  g->stat = p[37];
  g->mu = p[38];
  g->safety = p[39];
  PyBuffer_Release(&view);
  PyObject *cap = PyCapsule_New(g, GUARD_CAPSULE, free_guard);
  if (cap == NULL) {
    PyMem_Free(g);
  }
  return cap;
}

/* Fin angles of a model (None: zero); rot gets the rotated fin vectors.  0 on success. */
static int fin_setup(const Fins *fins, PyObject *angles_obj, double *rot)
{
  if (fins->count == 0) {
    return 0;
  }
  double angles[MAX_FINS];
  int present;
  if (uwv_read_optional(angles_obj, angles, fins->count, "fin angles", &present) < 0) {
    return -1;
  }
  fins_rotate(fins, present ? angles : NULL, rot);
  return 0;
}

/* ------------------------------------------------------------------ single vehicle */

/*
 * A linearised current field (None: none): 34 doubles v0 (3), G0 (3 x 3, row-major,
 * G[i][j] = d v_i / d p_j), a0 (3) about the position p0 of the state x, then G1 (9), a1
 * (3) at the end of the span and position p1, the span T (s; 0: v0 + a0 s and G0
 * throughout), and v1 (3), b1 (3): the velocity and time rate at p0 at the end time.
 */
static int read_field(PyObject *obj, const double *x, Field *f, int *present)
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

/* The inputs of one evaluation: state, wrench, current, rotated fins (NULL: none). */
typedef struct {
  double x[N_STATE], tau[6], cw[3], rot[MAX_FINS * FIN_ROT];
  const double *tau_p, *cw_p, *rot_p;
} Inputs;

static int read_inputs(const Model *m, PyObject *x_obj, PyObject *tau_obj, PyObject *cw_obj,
                       PyObject *ang_obj, Inputs *in)
{
  int has_tau, has_cw;
  if (uwv_read_vector(x_obj, in->x, N_STATE, "x") < 0
      || uwv_read_optional(tau_obj, in->tau, 6, "tau_body", &has_tau) < 0
      || uwv_read_optional(cw_obj, in->cw, 3, "current_world", &has_cw) < 0
      || fin_setup(&m->fins, ang_obj, in->rot) < 0) {
    return -1;
  }
  in->tau_p = has_tau ? in->tau : NULL;
  in->cw_p = has_cw ? in->cw : NULL;
  in->rot_p = m->fins.count ? in->rot : NULL;
  return 0;
}

/*
 * step(model, x, tau, current, angles, h, n, frozen[, field]) -> list: n RK4 sub-steps
 * of h; field (34 doubles, see read_field) replaces current at every stage.
 */
static PyObject *py_step(PyObject *self, PyObject *args)
{
  PyObject *cap, *x_obj, *tau_obj, *cw_obj, *ang_obj, *field_obj = Py_None;
  double h;
  long n;
  int frozen;
  if (!PyArg_ParseTuple(args, "OOOOOdlp|O", &cap, &x_obj, &tau_obj, &cw_obj, &ang_obj, &h,
                        &n, &frozen, &field_obj)) {
    return NULL;
  }
  Model *m = PyCapsule_GetPointer(cap, MODEL_CAPSULE);
  Inputs in;
  Field field;
  int has_field;
  if (m == NULL || read_inputs(m, x_obj, tau_obj, cw_obj, ang_obj, &in) < 0
      || read_field(field_obj, in.x, &field, &has_field) < 0) {
    return NULL;
  }
  if (rk4(m, in.x, in.tau_p, in.cw_p, in.rot_p, h, n, frozen, has_field ? &field : NULL,
          0.0) < 0) {
    PyErr_SetString(PyExc_ValueError, "cannot normalise a zero or non-finite quaternion");
    return NULL;
  }
  return list_of(in.x, N_STATE);
}

/*
 * derivative(model, x, tau, current, angles[, field]) -> list: d/dt of the state x (13);
 * field (see read_field) replaces current.
 */
static PyObject *py_derivative(PyObject *self, PyObject *args)
{
  PyObject *cap, *x_obj, *tau_obj, *cw_obj, *ang_obj, *field_obj = Py_None;
  if (!PyArg_ParseTuple(args, "OOOOO|O", &cap, &x_obj, &tau_obj, &cw_obj, &ang_obj,
                        &field_obj)) {
    return NULL;
  }
  Model *m = PyCapsule_GetPointer(cap, MODEL_CAPSULE);
  Inputs in;
  Field field;
  int has_field;
  if (m == NULL || read_inputs(m, x_obj, tau_obj, cw_obj, ang_obj, &in) < 0
      || read_field(field_obj, in.x, &field, &has_field) < 0) {
    return NULL;
  }
  double out[N_STATE];
  if (has_field) {
    field_derivative(m, in.x, in.tau_p, &field, 0.0, in.rot_p, 0, out);
  } else {
    derivative(m, in.x, in.tau_p, in.cw_p, in.rot_p, 0, out);
  }
  return list_of(out, N_STATE);
}

/* Verdicts of one try of a checked step. */
enum { OK = 0, NON_FINITE = 1, IMPLAUSIBLE = 2 };

/* One try: x_new from x; verdict, and *s_after = |nu_new|_M when OK. */
static int checked_try(const Model *m, const Guard *g, const double *x, double *x_new,
                       const double *tau, const double *cw, const double *rot, double h,
                       long n, double s_before, double bound_args[4], double *s_after,
                       const Field *f, double s0)
{
  memcpy(x_new, x, N_STATE * sizeof(double));
  if (rk4(m, x_new, tau, cw, rot, h, n, 0, f, s0) < 0) {
    return NON_FINITE;
  }
  for (int i = 0; i < N_STATE; i++) {
    if (!isfinite(x_new[i])) {
      return NON_FINITE;
    }
  }
  double s = guard_norm(g, x_new + 7);
  double bound = guard_max_norm(g, s_before, bound_args[0], bound_args[1], bound_args[2],
                                bound_args[3]);
  /* !(s <= bound) also catches a NaN norm */
  if (!(s <= bound)) {
    return IMPLAUSIBLE;
  }
  *s_after = s;
  return OK;
}

/*
 * advance(model, guard, x, taus, n, current, angles, h, substeps, h_retry, substeps_retry,
 *         dt, c_force, c_rate[, rows[, field]]) -> (x, steps, verdict, retry_verdict,
 *         |nu| before)
 *
 * Checked steps (simulate mode): each step of dt (n RK4 sub-steps of h) under the body
 * wrench taus[k] (None: zero; one row of 6 for all steps, or n rows) must keep |nu|_M
 * within the energy bound; else it is retried with substeps_retry sub-steps of h_retry,
 * and if that fails too x stays (restore).  Stops after n steps or after the first step
 * that was retried or restored, returning the steps done, that step's two verdicts
 * (0 ok, 1 non-finite, 2 implausible) and the Euclidean |nu| of the state before it.
 * rows (None or n x 13 writable): the state after each step.  field (None or 15 doubles,
 * see read_field; linearised about x, step k starting at the time k dt) replaces
 * current.
 */
static PyObject *py_advance(PyObject *self, PyObject *args)
{
  PyObject *cap, *gcap, *x_obj, *taus_obj, *cw_obj, *ang_obj, *rows_obj = Py_None;
  PyObject *field_obj = Py_None;
  long n, sub, sub_retry;
  double h, h_retry, dt, c_force, c_rate;
  if (!PyArg_ParseTuple(args, "OOOOlOOdldlddd|OO", &cap, &gcap, &x_obj, &taus_obj, &n,
                        &cw_obj, &ang_obj, &h, &sub, &h_retry, &sub_retry, &dt, &c_force,
                        &c_rate, &rows_obj, &field_obj)) {
    return NULL;
  }
  Model *m = PyCapsule_GetPointer(cap, MODEL_CAPSULE);
  Guard *g = m == NULL ? NULL : PyCapsule_GetPointer(gcap, GUARD_CAPSULE);
  if (g == NULL) {
    return NULL;
  }
  double x[N_STATE], cw[3];
  int has_cw, has_field;
  Field field;
  if (uwv_read_vector(x_obj, x, N_STATE, "x") < 0
      || uwv_read_optional(cw_obj, cw, 3, "current_world", &has_cw) < 0
      || read_field(field_obj, x, &field, &has_field) < 0) {
    return NULL;
  }
  const Field *fp = has_field ? &field : NULL;
  double rot[MAX_FINS * FIN_ROT];
  if (fin_setup(&m->fins, ang_obj, rot) < 0) {
    return NULL;
  }
  Py_buffer taus = {0}, rows = {0};
  int has_taus = taus_obj != Py_None, has_rows = rows_obj != Py_None;
  double tau_one[6];
  const double *tau_base = NULL;
  Py_ssize_t tau_stride = 0;
  if (has_taus) {
    /* per-step wrenches: a C-contiguous float64 array of n x 6 (n > 1) */
    int per_step = 0;
    if (n > 1 && PyObject_GetBuffer(taus_obj, &taus, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
      per_step = taus.format != NULL && strcmp(taus.format, "d") == 0 && taus.itemsize == 8
                 && taus.len / 8 != 6;
      if (per_step && taus.len / 8 < 6 * n) {
        PyBuffer_Release(&taus);
        PyErr_Format(PyExc_ValueError, "taus must hold 6 or %ld x 6 values", n);
        return NULL;
      }
      if (!per_step) {
        PyBuffer_Release(&taus);
      }
    }
    PyErr_Clear();
    if (per_step) {
      tau_base = taus.buf;
      tau_stride = 6;
    } else {
      /* one wrench for every step (any sequence of 6 numbers) */
      if (uwv_read_vector(taus_obj, tau_one, 6, "tau_body") < 0) {
        return NULL;
      }
      tau_base = tau_one;
      has_taus = 0;   /* nothing to release */
    }
  }
  if (has_rows && uwv_get_array(rows_obj, &rows, (Py_ssize_t)n * N_STATE, 1, "rows") < 0) {
    if (has_taus) {
      PyBuffer_Release(&taus);
    }
    return NULL;
  }
  const double *cwp = has_cw ? cw : NULL;
  const double *rotp = m->fins.count ? rot : NULL;
  double bound_args[4] = {0.0, dt, c_force, c_rate};
  double s_before = guard_norm(g, x + 7);
  double x_new[N_STATE], s_after = 0.0, nu_before = 0.0;
  long k = 0;
  int verdict = OK, second = OK;
  while (k < n) {
    const double *tau = tau_base == NULL ? NULL : tau_base + tau_stride * k;
    double tn = 0.0;
    if (tau != NULL) {
      for (int i = 0; i < 6; i++) {
        tn += tau[i] * tau[i];
      }
    }
    bound_args[0] = sqrt(tn);
    /* the field's time at the start of step k */
    double s0 = (double)k * dt;
    verdict = checked_try(m, g, x, x_new, tau, cwp, rotp, h, sub, s_before, bound_args,
                          &s_after, fp, s0);
    if (verdict != OK) {
      nu_before = sqrt(x[7] * x[7] + x[8] * x[8] + x[9] * x[9] + x[10] * x[10]
                       + x[11] * x[11] + x[12] * x[12]);
      /* a divergence: retried once with more sub-steps */
      second = checked_try(m, g, x, x_new, tau, cwp, rotp, h_retry, sub_retry, s_before,
                           bound_args, &s_after, fp, s0);
    }
    if (verdict == OK || second == OK) {
      memcpy(x, x_new, sizeof(x));
      s_before = s_after;
    }
    /* else: the last good state (x before the step) is kept */
    if (has_rows) {
      memcpy((double *)rows.buf + (size_t)k * N_STATE, x, sizeof(x));
    }
    k++;
    if (verdict != OK) {
      break;
    }
  }
  if (has_taus) {
    PyBuffer_Release(&taus);
  }
  if (has_rows) {
    PyBuffer_Release(&rows);
  }
  PyObject *xl = list_of(x, N_STATE);
  if (xl == NULL) {
    return NULL;
  }
  return Py_BuildValue("(Nliid)", xl, k, verdict, verdict == OK ? OK : second, nu_before);
}

static PyObject *py_guard_norm(PyObject *self, PyObject *args)
{
  PyObject *gcap, *nu_obj;
  if (!PyArg_ParseTuple(args, "OO", &gcap, &nu_obj)) {
    return NULL;
  }
  Guard *g = PyCapsule_GetPointer(gcap, GUARD_CAPSULE);
  double nu[6];
  if (g == NULL || uwv_read_vector(nu_obj, nu, 6, "twist") < 0) {
    return NULL;
  }
  return PyFloat_FromDouble(guard_norm(g, nu));
}

static PyObject *py_guard_max_norm(PyObject *self, PyObject *args)
{
  PyObject *gcap;
  double s, tn, dt, c_force, c_rate;
  if (!PyArg_ParseTuple(args, "Oddddd", &gcap, &s, &tn, &dt, &c_force, &c_rate)) {
    return NULL;
  }
  Guard *g = PyCapsule_GetPointer(gcap, GUARD_CAPSULE);
  if (g == NULL) {
    return NULL;
  }
  return PyFloat_FromDouble(guard_max_norm(g, s, tn, dt, c_force, c_rate));
}

/* ------------------------------------------------------------------ batch */

/*
 * batch_step(models, group, state (3 arrays), out (3 arrays), taus, tau_stride, current,
 *            current_stride, angles, angle_stride, h, n): N vehicles, vehicle v with the
 * coefficients models[group[v]]; state and out are positions (N x 3), quaternions
 * (N x 4) and twists (N x 6); a stride of 0 shares one row among all vehicles.  Return
 * -1 when every quaternion was fine, else the first vehicle whose was zero/non-finite.
 */
static PyObject *py_batch_step(PyObject *self, PyObject *args)
{
  PyObject *models, *group_obj, *arr_obj[9];
  Py_ssize_t stride[3];
  double h;
  long n;
  if (!PyArg_ParseTuple(args, "O!OOOOOOOOnOnOndl", &PyTuple_Type, &models, &group_obj,
                        &arr_obj[0], &arr_obj[1], &arr_obj[2], &arr_obj[3], &arr_obj[4],
                        &arr_obj[5], &arr_obj[6], &stride[0], &arr_obj[7], &stride[1],
                        &arr_obj[8], &stride[2], &h, &n)) {
    return NULL;
  }
  Py_ssize_t n_models = PyTuple_GET_SIZE(models);
  const Model **mods = PyMem_Malloc((size_t)(n_models > 0 ? n_models : 1) * sizeof(Model *));
  if (mods == NULL) {
    return PyErr_NoMemory();
  }
  for (Py_ssize_t g = 0; g < n_models; g++) {
    mods[g] = PyCapsule_GetPointer(PyTuple_GET_ITEM(models, g), MODEL_CAPSULE);
    if (mods[g] == NULL) {
      PyMem_Free(mods);
      return NULL;
    }
  }
  Py_buffer gb;
  if (PyObject_GetBuffer(group_obj, &gb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
    PyMem_Free(mods);
    return NULL;
  }
  PyObject *result = NULL;
  Py_buffer buf[9];
  int have[9] = {0};
  const long long *group = gb.buf;
  Py_ssize_t nv = gb.len / 8;
  if (gb.itemsize != 8 || gb.format == NULL
      || (strcmp(gb.format, "q") != 0 && strcmp(gb.format, "l") != 0)) {
    PyErr_SetString(PyExc_TypeError, "group must be an int64 array");
    goto done;
  }
  for (Py_ssize_t v = 0; v < nv; v++) {
    if (group[v] < 0 || group[v] >= n_models) {
      PyErr_SetString(PyExc_ValueError, "group index out of range");
      goto done;
    }
  }
  /* positions, quaternions, twists in and out, taus, currents, fin angles */
  static const int width[9] = {3, 4, 6, 3, 4, 6, 6, 3, 0};
  static const char *names[9] = {"position", "quaternion", "twist", "position out",
                                 "quaternion out", "twist out", "tau", "current_world",
                                 "fin_angles"};
  for (int i = 0; i < 9; i++) {
    if (arr_obj[i] == Py_None) {
      if (i < 6) {
        PyErr_Format(PyExc_TypeError, "%s is required", names[i]);
        goto done;
      }
      continue;
    }
    Py_ssize_t st = i < 6 ? width[i] : stride[i - 6];
    Py_ssize_t need = i == 8 ? (st ? nv * st : 1) : (st ? nv * width[i] : width[i]);
    if (uwv_get_array(arr_obj[i], &buf[i], need, i >= 3 && i < 6, names[i]) < 0) {
      goto done;
    }
    have[i] = 1;
  }
  long bad = -1;
  const Model *last = NULL;
  double rot[MAX_FINS * FIN_ROT];
  for (Py_ssize_t v = 0; v < nv; v++) {
    const Model *m = mods[group[v]];
    int nfin = m->fins.count;
    if (nfin > 0) {
      if (have[8] && buf[8].len / 8 < (stride[2] ? nv * stride[2] : nfin)) {
        PyErr_SetString(PyExc_ValueError, "fin_angles too short");
        goto done;
      }
      if ((have[8] && stride[2]) || m != last) {
        /* fins held at this vehicle's deflections over the step */
        fins_rotate(&m->fins, have[8] ? (const double *)buf[8].buf + v * stride[2] : NULL,
                    rot);
      }
    }
    last = m;
    double x[N_STATE];
    memcpy(x, (const double *)buf[0].buf + 3 * v, 3 * sizeof(double));
    memcpy(x + 3, (const double *)buf[1].buf + 4 * v, 4 * sizeof(double));
    memcpy(x + 7, (const double *)buf[2].buf + 6 * v, 6 * sizeof(double));
    const double *tau = have[6] ? (const double *)buf[6].buf + v * stride[0] : NULL;
    const double *cw = have[7] ? (const double *)buf[7].buf + v * stride[1] : NULL;
    if (rk4(m, x, tau, cw, nfin ? rot : NULL, h, n, 0, NULL, 0.0) < 0) {
      bad = (long)v;
      break;
    }
    memcpy((double *)buf[3].buf + 3 * v, x, 3 * sizeof(double));
    memcpy((double *)buf[4].buf + 4 * v, x + 3, 4 * sizeof(double));
    memcpy((double *)buf[5].buf + 6 * v, x + 7, 6 * sizeof(double));
  }
  result = PyLong_FromLong(bad);
done:
  PyBuffer_Release(&gb);
  PyMem_Free(mods);
  for (int i = 0; i < 9; i++) {
    if (have[i]) {
      PyBuffer_Release(&buf[i]);
    }
  }
  return result;
}

/* ------------------------------------------------------------------ fins alone */

/* fin_wrench(fins, nu_r, angles) -> list(6): the fins' wrench about the origin. */
static PyObject *py_fin_wrench(PyObject *self, PyObject *args)
{
  PyObject *cap, *nu_obj, *ang_obj;
  if (!PyArg_ParseTuple(args, "OOO", &cap, &nu_obj, &ang_obj)) {
    return NULL;
  }
  Fins *f = PyCapsule_GetPointer(cap, FINS_CAPSULE);
  double nu_r[6];
  if (f == NULL || uwv_read_vector(nu_obj, nu_r, 6, "nu_r") < 0) {
    return NULL;
  }
  double rot[MAX_FINS * FIN_ROT];
  if (fin_setup(f, ang_obj, rot) < 0) {
    return NULL;
  }
  double w[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  fins_wrench(f, rot, nu_r, w);
  return list_of(w, 6);
}

/*
 * fin_eval(fins, nu_r (N x 6), angles (N x K, or K with angle_stride 0), angle_stride,
 *          wrench, r, force, alpha): for N relative twists, each output None or a writable
 * array: the fins' wrench about the origin (N x 6), and per fin the centre of pressure
 * and force (N x K x 3) and the angle of attack (N x K).
 */
static PyObject *py_fin_eval(PyObject *self, PyObject *args)
{
  PyObject *cap, *nu_obj, *ang_obj, *out_obj[4];
  Py_ssize_t ang_stride;
  if (!PyArg_ParseTuple(args, "OOOnOOOO", &cap, &nu_obj, &ang_obj, &ang_stride, &out_obj[0],
                        &out_obj[1], &out_obj[2], &out_obj[3])) {
    return NULL;
  }
  Fins *fins = PyCapsule_GetPointer(cap, FINS_CAPSULE);
  if (fins == NULL) {
    return NULL;
  }
  Py_buffer nub, ab, out[4];
  int have[4] = {0, 0, 0, 0};
  PyObject *result = NULL;
  if (uwv_get_array(nu_obj, &nub, 0, 0, "nu_r") < 0) {
    return NULL;
  }
  Py_ssize_t n = nub.len / 8 / 6, k = fins->count;
  if (uwv_get_array(ang_obj, &ab, ang_stride ? n * ang_stride : k, 0, "angles") < 0) {
    PyBuffer_Release(&nub);
    return NULL;
  }
  const Py_ssize_t sizes[4] = {n * 6, n * k * 3, n * k * 3, n * k};
  const char *names[4] = {"wrench", "r", "force", "alpha"};
  for (int o = 0; o < 4; o++) {
    if (out_obj[o] != Py_None) {
      if (uwv_get_array(out_obj[o], &out[o], sizes[o], 1, names[o]) < 0) {
        goto done;
      }
      have[o] = 1;
    }
  }
  double rot[MAX_FINS * FIN_ROT];
  for (Py_ssize_t i = 0; i < n; i++) {
    if (i == 0 || ang_stride) {
      fins_rotate(fins, (const double *)ab.buf + i * ang_stride, rot);
    }
    const double *nu_r = (const double *)nub.buf + 6 * i;
    if (have[0]) {
      double *w = (double *)out[0].buf + 6 * i;
      memset(w, 0, 6 * sizeof(double));
      fins_wrench(fins, rot, nu_r, w);
    }
    if (have[1] || have[2] || have[3]) {
      for (Py_ssize_t j = 0; j < k; j++) {
        double force[3], alpha;
        fin_force(fins, (int)j, rot, nu_r, force, &alpha);
        if (have[1]) {
          memcpy((double *)out[1].buf + 3 * (i * k + j), rot + j * FIN_ROT, 3 * sizeof(double));
        }
        if (have[2]) {
          memcpy((double *)out[2].buf + 3 * (i * k + j), force, 3 * sizeof(double));
        }
        if (have[3]) {
          ((double *)out[3].buf)[i * k + j] = alpha;
        }
      }
    }
  }
  result = Py_None;
  Py_INCREF(result);
done:
  PyBuffer_Release(&nub);
  PyBuffer_Release(&ab);
  for (int o = 0; o < 4; o++) {
    if (have[o]) {
      PyBuffer_Release(&out[o]);
    }
  }
  return result;
}

/* ------------------------------------------------------------------ module */

static PyMethodDef methods[] = {
  {"model", py_model, METH_VARARGS, "model(packed) -> capsule of the dynamics coefficients"},
  {"fins", py_fins, METH_VARARGS, "fins(packed) -> capsule of a fin set"},
  {"guard", py_guard, METH_VARARGS, "guard(packed) -> capsule of the energy bound"},
  {"step", py_step, METH_VARARGS, "step(model, x, tau, current, angles, h, n, frozen)"},
  {"derivative", py_derivative, METH_VARARGS, "derivative(model, x, tau, current, angles)"},
  {"advance", py_advance, METH_VARARGS, "advance(model, guard, x, taus, n, ...): checked"},
  {"guard_norm", py_guard_norm, METH_VARARGS, "guard_norm(guard, twist) -> |nu|_M"},
  {"guard_max_norm", py_guard_max_norm, METH_VARARGS,
   "guard_max_norm(guard, s, |tau|, dt, current force, current rate)"},
  {"batch_step", py_batch_step, METH_VARARGS, "batch_step(models, group, state, out, ...)"},
  {"fin_wrench", py_fin_wrench, METH_VARARGS, "fin_wrench(fins, nu_r, angles) -> list"},
  {"fin_eval", py_fin_eval, METH_VARARGS, "fin_eval(fins, nu_r, angles, stride, outputs...)"},
  {"tree_model", uwv_py_tree_model, METH_VARARGS, "tree_model(packed) -> capsule of a tree"},
  {"tree_wrench", uwv_py_tree_wrench, METH_VARARGS,
   "tree_wrench(tree, position, quaternion, nu, q, qd, ..., out): per-link wrenches"},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
  PyModuleDef_HEAD_INIT, "_kernel",
  "The compiled core of uwv_hydro's dynamics (see uwv_hydro/physics/kernel.py).", -1,
  methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void)
{
  PyObject *mod = PyModule_Create(&module);
  if (mod == NULL) {
    return NULL;
  }
  if (PyModule_AddIntConstant(mod, "LAYOUT_VERSION", LAYOUT_VERSION) < 0
      || PyModule_AddIntConstant(mod, "FIN_SIZE", FIN_SIZE) < 0
      || PyModule_AddIntConstant(mod, "HULL_HEAD", HULL_HEAD) < 0
      || PyModule_AddIntConstant(mod, "NF_STILL", NF_STILL) < 0
      || PyModule_AddIntConstant(mod, "NF_ALL", NF_ALL) < 0
      || PyModule_AddIntConstant(mod, "GUARD_SIZE", GUARD_SIZE) < 0
      || PyModule_AddStringConstant(mod, "SOURCE_HASH", UWV_KERNEL_SOURCE_HASH) < 0
      || PyModule_AddObject(mod, "MIN_FIN_SPEED", PyFloat_FromDouble(MIN_FIN_SPEED)) < 0) {
    Py_DECREF(mod);
    return NULL;
  }
  return mod;
}
