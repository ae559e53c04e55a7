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
 * The packed dynamics coefficients of one vehicle (kernel.py pack_model) -> a model
 * capsule: the nonzero columns of A = (M_RB + M_A)^-1 times the feature forms, the drag
 * velocity point r_v, the surface band of the buoyancy (f = offset + slope depth between
 * the out-of-water and fully-submerged depths), M_A,O[:, :3] for a current rate, then the
 * fin (_fins.c) and hull (_hull.c) sections.
 */
#include "_kernel.h"

const char UWV_MODEL_CAPSULE[] = "uwv_hydro.kernel.model";

static void free_model(PyObject *capsule)
{
  Model *m = (Model *)PyCapsule_GetPointer(capsule, UWV_MODEL_CAPSULE);
  if (m != NULL) {
    PyMem_Free(m->fins.p);
    PyMem_Free(m->hull.p);
    uwv_contact_clear(&m->contact);
    PyMem_Free(m);
  }
}

PyObject *uwv_py_model(PyObject *self, PyObject *args)
{
  Py_buffer view;
  if (uwv_packed_arg(args, &view, 1, "model") < 0) {
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
  Py_ssize_t used = uwv_parse_fins(p + head, len - head, &m->fins);
  Py_ssize_t used_hull = used < 0 ? -1 : uwv_parse_hull(p + head + used, len - head - used,
                                                        &m->hull);
  PyBuffer_Release(&view);
  if (used_hull < 0) {
    PyMem_Free(m->fins.p);
    PyMem_Free(m);
    return NULL;
  }
  PyObject *cap = PyCapsule_New(m, UWV_MODEL_CAPSULE, free_model);
  if (cap == NULL) {
    PyMem_Free(m->fins.p);
    PyMem_Free(m->hull.p);
    PyMem_Free(m);
  }
  return cap;
}
