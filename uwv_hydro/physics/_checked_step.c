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
 * Simulate mode's checked step (physics/body/stability.py EnergyGuard): each step must keep
 * |nu|_M = |C^T nu| (M = C C^T, the square root of twice the kinetic energy) within the
 * bound ds/dt <= drive + rate s integrated over dt (Gronwall) times a safety factor;
 * else the step is retried with more sub-steps, and if that fails too the state stays.
 * With a seabed contact the bound starts from sqrt(2 (E_kin + E_spring)): the contact is
 * passive, so the kinetic energy it gives back is at most the energy its springs held.
 */
#include "_kernel.h"

typedef struct {
  double ct[36];        /* C^T with M = C C^T (row-major) */
  double inv_scale, stat, mu, safety;
} Guard;

static const char *GUARD_CAPSULE = "uwv_hydro.kernel.guard";

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

static void free_guard(PyObject *capsule)
{
  PyMem_Free(PyCapsule_GetPointer(capsule, GUARD_CAPSULE));
}

PyObject *uwv_py_guard(PyObject *self, PyObject *args)
{
  Py_buffer view;
  if (uwv_packed_arg(args, &view, GUARD_SIZE, "guard") < 0) {
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

/* Verdicts of one try of a checked step. */
enum { OK = 0, NON_FINITE = 1, IMPLAUSIBLE = 2 };

/* One try: x_new from x; verdict, and *s_after = |nu_new|_M when OK. */
static int checked_try(const Model *m, const Guard *g, const double *x, double *x_new,
                       const double *tau, const double *cw, const double *rot, double h,
                       long n, double s_before, double bound_args[4], double *s_after,
                       const Field *f, double s0)
{
  memcpy(x_new, x, N_STATE * sizeof(double));
  if (uwv_rk4(m, x_new, tau, cw, rot, h, n, 0, f, s0) < 0) {
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
  /* with the contact springs' energy: sqrt(2 (E_kin + E_spring)) carries to the next step */
  *s_after = m->contact.n ? sqrt(s * s + 2.0 * uwv_contact_energy(&m->contact, x_new)) : s;
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
 * rows (None or n x 13 writable): the state after each step.  field (None or 34 doubles,
 * see uwv_read_field; linearised about x, step k starting at the time k dt) replaces
 * current.
 */
PyObject *uwv_py_advance(PyObject *self, PyObject *args)
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
  Model *m = PyCapsule_GetPointer(cap, UWV_MODEL_CAPSULE);
  Guard *g = m == NULL ? NULL : PyCapsule_GetPointer(gcap, GUARD_CAPSULE);
  if (g == NULL) {
    return NULL;
  }
  double x[N_STATE], cw[3];
  int has_cw, has_field;
  Field field;
  if (uwv_read_vector(x_obj, x, N_STATE, "x") < 0
      || uwv_read_optional(cw_obj, cw, 3, "current_world", &has_cw) < 0
      || uwv_read_field(field_obj, x, &field, &has_field) < 0) {
    return NULL;
  }
  const Field *fp = has_field ? &field : NULL;
  double rot[MAX_FINS * FIN_ROT];
  if (uwv_fin_setup(&m->fins, ang_obj, rot) < 0) {
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
  if (m->contact.n) {
    /* the contact is passive: the kinetic energy after a step is bounded by the
       kinetic and spring energy before it plus the work of the other forces, so the
       bound starts from sqrt(2 (E_kin + E_spring)) (_contact.c) */
    s_before = sqrt(s_before * s_before + 2.0 * uwv_contact_energy(&m->contact, x));
  }
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
  PyObject *xl = uwv_list_of(x, N_STATE);
  if (xl == NULL) {
    return NULL;
  }
  return Py_BuildValue("(Nliid)", xl, k, verdict, verdict == OK ? OK : second, nu_before);
}

PyObject *uwv_py_guard_norm(PyObject *self, PyObject *args)
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

PyObject *uwv_py_guard_max_norm(PyObject *self, PyObject *args)
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
