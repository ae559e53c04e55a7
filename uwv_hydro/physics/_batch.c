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
 * N vehicles stepped in one call (physics/body/batch.py BatchSimulator): vehicle v with the
 * coefficients of its parameter set, its fins rotated once per set or per vehicle, then
 * the same RK4 sub-steps as one vehicle (_rk4.c).
 */
#include "_kernel.h"

/*
 * batch_step(models, group, state (3 arrays), out (3 arrays), taus, tau_stride, current,
 *            current_stride, angles, angle_stride, h, n): N vehicles, vehicle v with the
 * coefficients models[group[v]]; state and out are positions (N x 3), quaternions
 * (N x 4) and twists (N x 6); a stride of 0 shares one row among all vehicles.  Return
 * -1 when every quaternion was fine, else the first vehicle whose was zero/non-finite.
 */
PyObject *uwv_py_batch_step(PyObject *self, PyObject *args)
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
    mods[g] = PyCapsule_GetPointer(PyTuple_GET_ITEM(models, g), UWV_MODEL_CAPSULE);
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
        uwv_fins_rotate(&m->fins, have[8] ? (const double *)buf[8].buf + v * stride[2] : NULL,
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
    if (uwv_rk4(m, x, tau, cw, nfin ? rot : NULL, h, n, 0, NULL, 0.0) < 0) {
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
