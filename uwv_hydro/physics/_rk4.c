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
 * Integration: n classic RK4 sub-steps x += h/6 (k1 + 2 k2 + 2 k3 + k4)
 * (uwv_dynamic_model), the quaternion normalised first and after every sub-step, each
 * stage's derivative from _derivative.c (or _current_field.c with a current field).
 * The single-vehicle calls: step(model, ...) and derivative(model, ...).
 */
#include "_kernel.h"

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

/* The derivative k of one stage at y: under the field f at the time s, or the constant
   current cw (f NULL). */
static inline void stage(const Model *m, const double *y, const double *tau, const double *cw,
                         const double *rot, int frozen, const Field *f, double s, double *k)
{
  if (f == NULL) {
    uwv_derivative(m, y, tau, cw, rot, frozen, k);
  } else {
    uwv_field_derivative(m, y, tau, f, s, rot, frozen, k);
  }
}

/* The state of the next stage: y = x + c k. */
static inline void stage_state(const double *x, double c, const double *k, double *y)
{
  for (int i = 0; i < N_STATE; i++) {
    y[i] = x[i] + c * k[i];
  }
}

/*
 * n classic RK4 sub-steps of h from x (13, in/out), quaternion normalised first and
 * after every sub-step; return -1 for a zero or non-finite quaternion.
 */
int uwv_rk4(const Model *m, double *x, const double *tau, const double *cw,
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
    stage(m, x, tau, cw, rot, frozen, f, s, k1);
    stage_state(x, half, k1, y);
    stage(m, y, tau, cw, rot, frozen, f, s + half, k2);
    stage_state(x, half, k2, y);
    stage(m, y, tau, cw, rot, frozen, f, s + half, k3);
    stage_state(x, h, k3, y);
    stage(m, y, tau, cw, rot, frozen, f, s + h, k4);
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

/* The inputs of one evaluation: state, wrench, current, rotated fins, current field
   (NULL: none). */
typedef struct {
  double x[N_STATE], tau[6], cw[3], rot[MAX_FINS * FIN_ROT];
  Field field;
  const double *tau_p, *cw_p, *rot_p;
  const Field *field_p;
} Inputs;

/* The model of the capsule cap and the inputs of one call; NULL (error set) when wrong. */
static const Model *read_inputs(PyObject *cap, PyObject *x_obj, PyObject *tau_obj,
                                PyObject *cw_obj, PyObject *ang_obj, PyObject *field_obj,
                                Inputs *in)
{
  const Model *m = PyCapsule_GetPointer(cap, UWV_MODEL_CAPSULE);
  int has_tau, has_cw, has_field;
  if (m == NULL || uwv_read_vector(x_obj, in->x, N_STATE, "x") < 0
      || uwv_read_optional(tau_obj, in->tau, 6, "tau_body", &has_tau) < 0
      || uwv_read_optional(cw_obj, in->cw, 3, "current_world", &has_cw) < 0
      || uwv_fin_setup(&m->fins, ang_obj, in->rot) < 0
      || uwv_read_field(field_obj, in->x, &in->field, &has_field) < 0) {
    return NULL;
  }
  in->tau_p = has_tau ? in->tau : NULL;
  in->cw_p = has_cw ? in->cw : NULL;
  in->rot_p = m->fins.count ? in->rot : NULL;
  in->field_p = has_field ? &in->field : NULL;
  return m;
}

/*
 * step(model, x, tau, current, angles, h, n, frozen[, field]) -> list: n RK4 sub-steps
 * of h; field (34 doubles, see uwv_read_field) replaces current at every stage.
 */
PyObject *uwv_py_step(PyObject *self, PyObject *args)
{
  PyObject *cap, *x_obj, *tau_obj, *cw_obj, *ang_obj, *field_obj = Py_None;
  double h;
  long n;
  int frozen;
  if (!PyArg_ParseTuple(args, "OOOOOdlp|O", &cap, &x_obj, &tau_obj, &cw_obj, &ang_obj, &h,
                        &n, &frozen, &field_obj)) {
    return NULL;
  }
  Inputs in;
  const Model *m = read_inputs(cap, x_obj, tau_obj, cw_obj, ang_obj, field_obj, &in);
  if (m == NULL) {
    return NULL;
  }
  if (uwv_rk4(m, in.x, in.tau_p, in.cw_p, in.rot_p, h, n, frozen, in.field_p, 0.0) < 0) {
    PyErr_SetString(PyExc_ValueError, "cannot normalise a zero or non-finite quaternion");
    return NULL;
  }
  return uwv_list_of(in.x, N_STATE);
}

/*
 * derivative(model, x, tau, current, angles[, field]) -> list: d/dt of the state x (13);
 * field (see uwv_read_field) replaces current.
 */
PyObject *uwv_py_derivative(PyObject *self, PyObject *args)
{
  PyObject *cap, *x_obj, *tau_obj, *cw_obj, *ang_obj, *field_obj = Py_None;
  if (!PyArg_ParseTuple(args, "OOOOO|O", &cap, &x_obj, &tau_obj, &cw_obj, &ang_obj,
                        &field_obj)) {
    return NULL;
  }
  Inputs in;
  const Model *m = read_inputs(cap, x_obj, tau_obj, cw_obj, ang_obj, field_obj, &in);
  if (m == NULL) {
    return NULL;
  }
  double out[N_STATE];
  stage(m, in.x, in.tau_p, in.cw_p, in.rot_p, 0, in.field_p, 0.0, out);
  return uwv_list_of(out, N_STATE);
}
