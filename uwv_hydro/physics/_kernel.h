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
 * What the sources of uwv_hydro.physics._kernel share: the argument helpers (defined in
 * _kernel.c) and the per-link wrench of a kinematic tree (_tree_wrench.c), which
 * _kernel.c's method table exports.
 */
#ifndef UWV_HYDRO_KERNEL_H
#define UWV_HYDRO_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Read exactly n doubles from a list, tuple or C-contiguous float64 buffer. */
int uwv_read_vector(PyObject *obj, double *out, Py_ssize_t n, const char *what);

/* Optional vector: None gives *present = 0 (rc 0). */
int uwv_read_optional(PyObject *obj, double *out, Py_ssize_t n, const char *what,
                      int *present);

/* A C-contiguous float64 buffer of at least min_len doubles (writable if asked). */
int uwv_get_array(PyObject *obj, Py_buffer *view, Py_ssize_t min_len, int writable,
                  const char *what);

/* tree_model(packed) -> capsule; tree_wrench(tree, ...): see _tree_wrench.c. */
PyObject *uwv_py_tree_model(PyObject *self, PyObject *args);
PyObject *uwv_py_tree_wrench(PyObject *self, PyObject *args);

#endif  /* UWV_HYDRO_KERNEL_H */
