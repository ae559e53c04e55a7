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
 * uwv_hydro.physics._kernel: the compiled core of the vehicle dynamics, its method table
 * and constants.  What each call computes lives in a file per concern (listed in
 * _kernel.h); uwv_hydro/physics/kernel.py loads the module and packs its coefficients.
 */
#include "_kernel.h"

#ifndef UWV_KERNEL_SOURCE_HASH
#define UWV_KERNEL_SOURCE_HASH "unknown"
#endif

static PyMethodDef methods[] = {
  {"model", uwv_py_model, METH_VARARGS, "model(packed) -> capsule of the dynamics coefficients"},
  {"fins", uwv_py_fins, METH_VARARGS, "fins(packed) -> capsule of a fin set"},
  {"guard", uwv_py_guard, METH_VARARGS, "guard(packed) -> capsule of the energy bound"},
  {"contact", uwv_py_contact, METH_VARARGS, "contact(model, packed): set the seabed contact"},
  {"contact_energy", uwv_py_contact_energy, METH_VARARGS,
   "contact_energy(model, x) -> the contact springs' energy (J)"},
  {"step", uwv_py_step, METH_VARARGS, "step(model, x, tau, current, angles, h, n, frozen)"},
  {"derivative", uwv_py_derivative, METH_VARARGS,
   "derivative(model, x, tau, current, angles)"},
  {"advance", uwv_py_advance, METH_VARARGS, "advance(model, guard, x, taus, n, ...): checked"},
  {"guard_norm", uwv_py_guard_norm, METH_VARARGS, "guard_norm(guard, twist) -> |nu|_M"},
  {"guard_max_norm", uwv_py_guard_max_norm, METH_VARARGS,
   "guard_max_norm(guard, s, |tau|, dt, current force, current rate)"},
  {"batch_step", uwv_py_batch_step, METH_VARARGS, "batch_step(models, group, state, out, ...)"},
  {"fin_wrench", uwv_py_fin_wrench, METH_VARARGS, "fin_wrench(fins, nu_r, angles) -> list"},
  {"fin_eval", uwv_py_fin_eval, METH_VARARGS, "fin_eval(fins, nu_r, angles, stride, outputs...)"},
  {"tree_model", uwv_py_tree_model, METH_VARARGS, "tree_model(packed) -> capsule of a tree"},
  {"tree_wrench", uwv_py_tree_wrench, METH_VARARGS,
   "tree_wrench(tree, position, quaternion, nu, q, qd, ..., out): per-link wrenches"},
  {"tree_dynamics_model", uwv_py_tree_dynamics_model, METH_VARARGS,
   "tree_dynamics_model(packed) -> capsule of a tree's inertias, fins and hull"},
  {"tree_derivative", uwv_py_tree_derivative, METH_VARARGS,
   "tree_derivative(tree, dyn, x, q, qd, wrench, current, angles, tau, locked, out)"},
  {"tree_rk4", uwv_py_tree_rk4, METH_VARARGS,
   "tree_rk4(tree, dyn, state, h, n, servo, w, lower, upper, wrench, current, angles)"},
  {"tree_minverse", uwv_py_tree_minverse, METH_VARARGS, "tree_minverse(tree, dyn, x, q, out)"},
  {"tree_static", uwv_py_tree_static, METH_VARARGS, "tree_static(tree, dyn, x, q, out)"},
  {"seabed_flat", uwv_py_seabed_flat, METH_VARARGS, "seabed_flat(depth) -> capsule"},
  {"seabed_grid", uwv_py_seabed_grid, METH_VARARGS,
   "seabed_grid(heights, nx, ny, x0, y0, dx, dy) -> capsule (heights copied)"},
  {"seabed_height", uwv_py_seabed_height, METH_VARARGS,
   "seabed_height(seabed, x, y, h, grad): h NaN where no bottom, grad (n, 2) or None"},
  {"seabed_cast", uwv_py_seabed_cast, METH_VARARGS,
   "seabed_cast(seabed, origins, directions, max_range, out): ranges of n rays"},
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
      || PyModule_AddIntConstant(mod, "CONTACT_HEAD", CONTACT_HEAD) < 0
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
