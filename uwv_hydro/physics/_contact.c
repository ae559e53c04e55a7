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
 * Seabed contact of one vehicle (physics/environment/seabed_contact.py; kernel.py pack_contact the
 * layout): a compliant point contact at every body-frame contact point p_i, evaluated in
 * the state derivative, so that it acts at every RK4 stage.
 *
 * At the world point x_i = p + R p_i over the seabed height h(x, y) with the gradient
 * (h_x, h_y), the outward normal is n = (-h_x, -h_y, 1) / |.|, the penetration along it
 * d = (h - z_i) n_z (the distance to the tangent plane) and its rate d_dot = -v_i . n,
 * v_i = R (v + w x p_i).  The force on the vehicle is
 *
 *     f_n = max(0, k d + c d_dot)                  (Kelvin-Voigt, as ODE / gz-physics kp, kd)
 *     f_t = -mu f_n v_t / max(|v_t|, v_s)          (regularised Coulomb, Drake's stiction
 *                                                   tolerance v_s)
 *
 * with v_t = v_i - (v_i . n) n, applied at p_i: F = R^T (f_n n + f_t), M = p_i x F.
 * The normal force is passive (d/dt (E_kin + 1/2 k d^2) = (k d - f_n) d_dot <= 0) and
 * the friction dissipative (v_t . f_t <= 0): see uwv_contact_energy and the checked step.
 */
#include "_kernel.h"

/* Rotation matrix R (row-major) of the quaternion q / |q| (Fossen 2021 ch. 2). */
static void rotation_of(const double *q, double *r)
{
  double qw = q[0], qx = q[1], qy = q[2], qz = q[3];
  double s = 2.0 / (qw * qw + qx * qx + qy * qy + qz * qz);
  double sx = s * qx, sy = s * qy, sz = s * qz;
  double xx = sx * qx, yy = sy * qy, zz = sz * qz;
  double xy = sx * qy, xz = sx * qz, yz = sy * qz;
  double wx = sx * qw, wy = sy * qw, wz = sz * qw;
  r[0] = 1.0 - (yy + zz); r[1] = xy - wz; r[2] = xz + wy;
  r[3] = xy + wz; r[4] = 1.0 - (xx + zz); r[5] = yz - wx;
  r[6] = xz - wy; r[7] = yz + wx; r[8] = 1.0 - (xx + yy);
}

/*
 * The penetration of the sphere of radius pb[3] about the point pb (body; radius 0: a
 * point) at the pose (p, R): returns d (<= 0, or no surface: no contact), the world
 * centre in xw and the normal in n.
 */
static double penetration(const Contact *c, const double *pos, const double *r,
                          const double *pb, double *xw, double *n)
{
  for (int a = 0; a < 3; a++) {
    xw[a] = pos[a] + r[3 * a] * pb[0] + r[3 * a + 1] * pb[1] + r[3 * a + 2] * pb[2];
  }
  double h, g[2];
  /* the seabed's height and gradient under the point (_seabed.c); none: no contact */
  if (!uwv_seabed_height(c->seabed, xw[0], xw[1], &h, g) || !(h + pb[3] > xw[2])) {
    return 0.0;
  }
  /* outward normal of the surface z = h(x, y): (-h_x, -h_y, 1) / sqrt(1 + |grad h|^2) */
  double inv = 1.0 / sqrt(1.0 + g[0] * g[0] + g[1] * g[1]);
  n[0] = -g[0] * inv;
  n[1] = -g[1] * inv;
  n[2] = inv;
  /* depth of the lowest point centre - radius n below the tangent plane: (h - z) n_z + r */
  return (h - xw[2]) * n[2] + pb[3];
}

void uwv_contact_wrench(const Contact *c, const double *x, const double *r, double *w)
{
  const double *nu = x + 7;
  for (int i = 0; i < c->n; i++) {
    const double *ps = c->p + 4 * i;
    double xw[3], n[3];
    double d = penetration(c, x, r, ps, xw, n);
    if (d <= 0.0) {
      continue;
    }
    /* the contact point, the lowest point of the sphere: centre - radius R^T n (body) */
    double pb[3];
    for (int a = 0; a < 3; a++) {
      pb[a] = ps[a] - ps[3] * (r[a] * n[0] + r[3 + a] * n[1] + r[6 + a] * n[2]);
    }
    /* point velocity v + w x p_i (body), then in the world R (.) */
    double vb[3] = {nu[0] + nu[4] * pb[2] - nu[5] * pb[1],
                    nu[1] + nu[5] * pb[0] - nu[3] * pb[2],
                    nu[2] + nu[3] * pb[1] - nu[4] * pb[0]};
    double vw[3];
    for (int a = 0; a < 3; a++) {
      vw[a] = r[3 * a] * vb[0] + r[3 * a + 1] * vb[1] + r[3 * a + 2] * vb[2];
    }
    double vn = vw[0] * n[0] + vw[1] * n[1] + vw[2] * n[2];
    /* Kelvin-Voigt normal force, never pulling: f_n = max(0, k d + c d_dot), d_dot = -v.n */
    double fn = c->k * d - c->c * vn;
    if (fn <= 0.0) {
      continue;
    }
    double vt[3] = {vw[0] - vn * n[0], vw[1] - vn * n[1], vw[2] - vn * n[2]};
    double st = sqrt(vt[0] * vt[0] + vt[1] * vt[1] + vt[2] * vt[2]);
    /* regularised Coulomb friction: f_t = -mu f_n v_t / max(|v_t|, v_s) */
    double ft = -c->mu * fn / (st > c->vs ? st : c->vs);
    double fw[3] = {fn * n[0] + ft * vt[0], fn * n[1] + ft * vt[1], fn * n[2] + ft * vt[2]};
    /* body force R^T f and its moment p_i x F about the origin */
    double fb[3];
    for (int a = 0; a < 3; a++) {
      fb[a] = r[a] * fw[0] + r[3 + a] * fw[1] + r[6 + a] * fw[2];
    }
    w[0] += fb[0];
    w[1] += fb[1];
    w[2] += fb[2];
    w[3] += pb[1] * fb[2] - pb[2] * fb[1];
    w[4] += pb[2] * fb[0] - pb[0] * fb[2];
    w[5] += pb[0] * fb[1] - pb[1] * fb[0];
  }
}

double uwv_contact_energy(const Contact *c, const double *x)
{
  if (c->n == 0) {
    return 0.0;
  }
  double r[9], e = 0.0;
  rotation_of(x + 3, r);
  for (int i = 0; i < c->n; i++) {
    double xw[3], n[3];
    double d = penetration(c, x, r, c->p + 4 * i, xw, n);
    /* spring energy 1/2 k d^2 of a penetrating point */
    e += d > 0.0 ? 0.5 * c->k * d * d : 0.0;
  }
  return e;
}

/* Drop a model's contact (points and the reference to its seabed). */
void uwv_contact_clear(Contact *c)
{
  PyMem_Free(c->p);
  Py_XDECREF(c->seabed_ref);
  memset(c, 0, sizeof(*c));
}

/*
 * contact(model, packed, seabed) -> None: set the model's seabed contact, packed as
 * [n, k, c, mu, v_s, (p, radius) (4 n)] (n = 0 or seabed None: none), over seabed (a FlatSeabed,
 * GridSeabed or their capsule: uwv_read_seabed; a reference is kept).
 */
PyObject *uwv_py_contact(PyObject *self, PyObject *args)
{
  PyObject *cap, *packed, *seabed_obj;
  Py_buffer view;
  if (!PyArg_ParseTuple(args, "OOO", &cap, &packed, &seabed_obj)) {
    return NULL;
  }
  Model *m = PyCapsule_GetPointer(cap, UWV_MODEL_CAPSULE);
  const Seabed *seabed = NULL;
  if (m == NULL || uwv_read_seabed(seabed_obj, &seabed) < 0
      || uwv_get_array(packed, &view, CONTACT_HEAD, 0, "contact") < 0) {
    return NULL;
  }
  const double *p = view.buf;
  Py_ssize_t len = view.len / 8;
  double nd = p[0];
  if (!(nd >= 0.0 && nd == floor(nd) && nd <= 1e6)
      || len < CONTACT_HEAD + 4 * (Py_ssize_t)nd) {
    PyBuffer_Release(&view);
    PyErr_SetString(PyExc_ValueError, "bad contact section");
    return NULL;
  }
  int n = seabed == NULL ? 0 : (int)nd;
  double *pts = NULL;
  if (n > 0) {
    pts = PyMem_Malloc(4 * (size_t)n * sizeof(double));
    if (pts == NULL) {
      PyBuffer_Release(&view);
      return PyErr_NoMemory();
    }
    memcpy(pts, p + CONTACT_HEAD, 4 * (size_t)n * sizeof(double));
  }
  uwv_contact_clear(&m->contact);
  m->contact.n = n;
  m->contact.k = p[1];
  m->contact.c = p[2];
  m->contact.mu = p[3];
  m->contact.vs = p[4];
  m->contact.p = pts;
  if (n > 0) {
    /* the seabed lives as long as the object holding it */
    m->contact.seabed = seabed;
    m->contact.seabed_ref = seabed_obj;
    Py_INCREF(seabed_obj);
  }
  PyBuffer_Release(&view);
  Py_RETURN_NONE;
}

/* contact_energy(model, x) -> the spring energy sum 1/2 k d^2 (J) at the state x. */
PyObject *uwv_py_contact_energy(PyObject *self, PyObject *args)
{
  PyObject *cap, *x_obj;
  if (!PyArg_ParseTuple(args, "OO", &cap, &x_obj)) {
    return NULL;
  }
  Model *m = PyCapsule_GetPointer(cap, UWV_MODEL_CAPSULE);
  double x[N_STATE];
  if (m == NULL || uwv_read_vector(x_obj, x, N_STATE, "x") < 0) {
    return NULL;
  }
  return PyFloat_FromDouble(uwv_contact_energy(&m->contact, x));
}
