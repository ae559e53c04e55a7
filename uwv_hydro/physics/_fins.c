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
 * Fin lift and drag, per fin at its centre of pressure, for the relative twist of the
 * vehicle (physics/actuators/fins.py describes the model; kernel.py pack_fins the layout):
 *
 * - the fin's vectors rotated by its deflection delta (Rodrigues' rotation formula);
 * - gz-sim LiftDrag: alpha = a0 + the angle between the in-plane flow and forward,
 *   wrapped into [-pi/2, pi/2), C_L and C_D of the two-line model (cla, cda up to
 *   alpha_stall, cla_stall, cda_stall past it) times the sweep correction
 *   1 - sin^2(sweep), L = (C_L + k delta) q A, D = |C_D| q A, q = 1/2 rho |v_p|^2,
 *   no force below MIN_FIN_SPEED;
 * - or uuv_simulator's quadratic model: L = c_L alpha |v|^2, D = c_D alpha^2 |v|^2;
 * - or uuv_simulator's TwoLines (LiftDragModel.cc): C_L, C_D of its two lines with no
 *   sweep correction, D = C_D q A signed, as uuv computes them;
 * - lift along s x v_p / |v_p|, drag along -v_p / |v_p|, the force moved to the origin
 *   as r x F (Fossen 2011, tau_O = H(r)^T tau_r).
 *
 * Also the fins alone (fin_wrench, fin_eval) for the wrench mode and the checks.
 */
#include "_kernel.h"

static const char *FINS_CAPSULE = "uwv_hydro.kernel.fins";

/*
 * Rotate every fin's cp, forward, upward and spanwise vectors by its deflection
 * (held over a step): rot[j * FIN_ROT + ...] = r (3), f (3), u (3), s (3), delta.
 */
void uwv_fins_rotate(const Fins *fins, const double *angles, double *rot)
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
  int model = (int)p[39]; /* 0 quadratic, 1 two_line (gz-sim), 2 uuv_two_lines */
  int two_line = model == 1;
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
  } else if (model == 2) {
    double cl, cd;
    if (alpha > a_s) {
      /* uuv LiftDragTwoLines::compute past +alpha_stall */
      cl = cla * a_s + cla_s * (alpha - a_s);
      cd = cda * a_s + cda_s * (alpha - a_s);
    } else if (alpha < -a_s) {
      /* uuv LiftDragTwoLines::compute past -alpha_stall (its C_L slope is cda_stall) */
      cl = -cla * a_s + cda_s * (alpha + a_s);
      cd = -cda * a_s + cda_s * (alpha + a_s);
    } else {
      /* uuv LiftDragTwoLines::compute below the stall */
      cl = cla * alpha;
      cd = cda * alpha;
    }
    /* L = C_L q A, D = C_D q A (C_D signed), q = 1/2 rho |v_p|^2 (uuv LiftDragTwoLines) */
    double qa = 0.5 * fins->rho * pp * area;
    lift = cl * qa;
    drag = cd * qa;
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
void uwv_fins_wrench(const Fins *fins, const double *rot, const double *nu_r, double *w)
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

static void free_fins(PyObject *capsule)
{
  Fins *f = (Fins *)PyCapsule_GetPointer(capsule, FINS_CAPSULE);
  if (f != NULL) {
    PyMem_Free(f->p);
    PyMem_Free(f);
  }
}

/* Parse a packed fin section [count, rho, count * FIN_SIZE] into fins; return doubles used. */
Py_ssize_t uwv_parse_fins(const double *p, Py_ssize_t len, Fins *fins)
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

PyObject *uwv_py_fins(PyObject *self, PyObject *args)
{
  Py_buffer view;
  if (uwv_packed_arg(args, &view, 2, "fins") < 0) {
    return NULL;
  }
  Fins *f = PyMem_Calloc(1, sizeof(Fins));
  if (f == NULL) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  Py_ssize_t used = uwv_parse_fins(view.buf, view.len / 8, f);
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

/* Fin angles of a model (None: zero); rot gets the rotated fin vectors.  0 on success. */
int uwv_fin_setup(const Fins *fins, PyObject *angles_obj, double *rot)
{
  if (fins->count == 0) {
    return 0;
  }
  double angles[MAX_FINS];
  int present;
  if (uwv_read_optional(angles_obj, angles, fins->count, "fin angles", &present) < 0) {
    return -1;
  }
  uwv_fins_rotate(fins, present ? angles : NULL, rot);
  return 0;
}

/* fin_wrench(fins, nu_r, angles) -> list(6): the fins' wrench about the origin. */
PyObject *uwv_py_fin_wrench(PyObject *self, PyObject *args)
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
  if (uwv_fin_setup(f, ang_obj, rot) < 0) {
    return NULL;
  }
  double w[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  uwv_fins_wrench(f, rot, nu_r, w);
  return uwv_list_of(w, 6);
}

/*
 * fin_eval(fins, nu_r (N x 6), angles (N x K, or K with angle_stride 0), angle_stride,
 *          wrench, r, force, alpha): for N relative twists, each output None or a writable
 * array: the fins' wrench about the origin (N x 6), and per fin the centre of pressure
 * and force (N x K x 3) and the angle of attack (N x K).
 */
PyObject *uwv_py_fin_eval(PyObject *self, PyObject *args)
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
      uwv_fins_rotate(fins, (const double *)ab.buf + i * ang_stride, rot);
    }
    const double *nu_r = (const double *)nub.buf + 6 * i;
    if (have[0]) {
      double *w = (double *)out[0].buf + 6 * i;
      memset(w, 0, 6 * sizeof(double));
      uwv_fins_wrench(fins, rot, nu_r, w);
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
