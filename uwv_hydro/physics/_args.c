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
 * Arguments of the core's calls: exactly n doubles from a list, tuple or C-contiguous
 * float64 buffer (any sequence of numbers otherwise), an optional vector (None), a
 * float64 array of at least n values, the packed array of a capsule constructor, and a
 * list of floats back.  Errors name the argument ('what') and the sizes.
 */
#include "_kernel.h"

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

PyObject *uwv_list_of(const double *v, Py_ssize_t n)
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

/* The one argument of a capsule constructor: a packed float64 array. */
int uwv_packed_arg(PyObject *args, Py_buffer *view, Py_ssize_t min_len, const char *what)
{
  PyObject *obj;
  if (!PyArg_ParseTuple(args, "O", &obj)) {
    return -1;
  }
  return uwv_get_array(obj, view, min_len, 0, what);
}
