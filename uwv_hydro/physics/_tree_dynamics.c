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
 * The articulated dynamics' calls (part of _kernel): the packed dynamics of a tree -> a
 * capsule (per body its spatial inertia with the added mass and the rigid part, the base's
 * fins and hull; the layout is packed by uwv_hydro/physics/articulated/algorithms/tree_dynamics.py), and the
 * derivative, the RK4 sub-steps, M^-1 and the static joint torques of _tree_aba.c and
 * _tree_rk4.c on a tree capsule (_tree_model.c) and its dynamics capsule.
 */
#include "_tree.h"

#define DYN_VERSION 1
#define MAX_VIEWS 10

const char UWV_TREE_DYN_CAPSULE[] = "uwv_hydro.kernel.tree_dynamics";

static void free_dyn(TreeDyn *d)
{
  PyMem_Free(d->inertia);
  PyMem_Free(d->mem);
  PyMem_Free(d->lock);
  PyMem_Free(d->fins.p);
  PyMem_Free(d->hull.p);
  PyMem_Free(d);
}

static void free_capsule(PyObject *capsule)
{
  TreeDyn *d = PyCapsule_GetPointer(capsule, UWV_TREE_DYN_CAPSULE);
  if (d != NULL) {
    free_dyn(d);
  }
}

/* Carve the work arrays out of one block (TreeDyn's members, _tree.h). */
static int allocate_work(TreeDyn *d)
{
  const int nb = d->nb, n = nb - 1;
  double **arrays[] = {&d->pos, &d->rot, &d->vel, &d->rel, &d->ia, &d->pa, &d->us, &d->ws,
                       &d->dd, &d->uu, &d->cc, &d->acc, &d->fext, &d->rk};
  const Py_ssize_t sizes[] = {3, 9, 6, 12, 36, 6, 6, 6, 1, 1, 6, 6, 6, 0};
  Py_ssize_t total = 5 * (13 + 2 * n) + 2 * n;
  for (int i = 0; i < 13; i++) {
    total += sizes[i] * nb;
  }
  d->mem = PyMem_Calloc((size_t)total, sizeof(double));
  d->lock = PyMem_Calloc((size_t)(2 * nb), 1);
  if (d->mem == NULL || d->lock == NULL) {
    return -1;
  }
  d->at = d->lock + nb;
  double *p = d->mem;
  for (int i = 0; i < 14; i++) {
    *arrays[i] = p;
    p += sizes[i] * nb;
  }
  return 0;
}

/* tree_dynamics_model(packed) -> capsule: [version, B, B x 36 inertias, B x 36 rigid
   parts, fins..., hull...]. */
PyObject *uwv_py_tree_dynamics_model(PyObject *self, PyObject *args)
{
  Py_buffer view;
  if (uwv_packed_arg(args, &view, 2, "packed tree dynamics") < 0) {
    return NULL;
  }
  const double *p = view.buf;
  const Py_ssize_t len = view.len / 8;
  TreeDyn *d = PyMem_Calloc(1, sizeof(TreeDyn));
  PyObject *cap = NULL;
  if (d == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  d->nb = (int)p[1];
  if ((int)p[0] != DYN_VERSION || d->nb < 1 || (double)d->nb != p[1]
      || len < 2 + 72 * (Py_ssize_t)d->nb) {
    PyErr_SetString(PyExc_ValueError, "tree dynamics: packed layout of another version or "
                    "size");
    goto done;
  }
  d->inertia = PyMem_Calloc((size_t)(72 * d->nb), sizeof(double));
  if (d->inertia == NULL || allocate_work(d) < 0) {
    PyErr_NoMemory();
    goto done;
  }
  d->rigid = d->inertia + 36 * d->nb;
  memcpy(d->inertia, p + 2, (size_t)(72 * d->nb) * sizeof(double));
  Py_ssize_t at = 2 + 72 * (Py_ssize_t)d->nb;
  Py_ssize_t used = uwv_parse_fins(p + at, len - at, &d->fins);
  if (used < 0) {
    goto done;
  }
  at += used;
  used = uwv_parse_hull(p + at, len - at, &d->hull);
  if (used < 0) {
    goto done;
  }
  if (at + used != len) {
    PyErr_SetString(PyExc_ValueError, "tree dynamics: packed sizes do not match its length");
    goto done;
  }
  cap = PyCapsule_New(d, UWV_TREE_DYN_CAPSULE, free_capsule);
done:
  PyBuffer_Release(&view);
  if (cap == NULL && d != NULL) {
    free_dyn(d);
  }
  return cap;
}

/* The buffers of one call, released together. */
typedef struct {
  Py_buffer v[MAX_VIEWS];
  int n;
} Views;

static double *array_arg(Views *vs, PyObject *obj, Py_ssize_t len, int writable,
                         const char *what)
{
  if (uwv_get_array(obj, &vs->v[vs->n], len, writable, what) < 0) {
    return NULL;
  }
  return vs->v[vs->n++].buf;
}

/* None gives NULL without an error (*ok stays 1). */
static double *optional_arg(Views *vs, PyObject *obj, Py_ssize_t len, const char *what,
                            int *ok)
{
  if (obj == Py_None) {
    return NULL;
  }
  double *out = array_arg(vs, obj, len, 0, what);
  *ok = out != NULL;
  return out;
}

static void release(Views *vs)
{
  for (int i = 0; i < vs->n; i++) {
    PyBuffer_Release(&vs->v[i]);
  }
}

/* The tree and its dynamics from their capsules (the same bodies). */
static int capsules(PyObject *tree_obj, PyObject *dyn_obj, const Tree **t, TreeDyn **d)
{
  *t = PyCapsule_GetPointer(tree_obj, UWV_TREE_CAPSULE);
  *d = *t == NULL ? NULL : PyCapsule_GetPointer(dyn_obj, UWV_TREE_DYN_CAPSULE);
  if (*d == NULL) {
    return -1;
  }
  if ((*d)->nb != (*t)->nb) {
    PyErr_SetString(PyExc_ValueError, "tree dynamics of another tree");
    return -1;
  }
  return 0;
}

/* The current (None: still water) and the fins' rotated vectors (None: zero angles). */
static int flow_and_fins(const TreeDyn *d, PyObject *cur_obj, PyObject *ang_obj, Flow *flow,
                         double *rot)
{
  memset(flow, 0, sizeof(*flow));
  if (uwv_read_optional(cur_obj, flow->current, 3, "current", &flow->have_current) < 0) {
    return -1;
  }
  return uwv_fin_setup(&d->fins, ang_obj, rot);
}

/* tree_derivative(tree, dyn, x, q, qd, wrench|None, current|None, angles|None, tau, locked,
   out): out = [d/dt x (13), qdd (n), joint torques (n)]. */
PyObject *uwv_py_tree_derivative(PyObject *self, PyObject *args)
{
  PyObject *tc, *dc, *x_obj, *q_obj, *qd_obj, *w_obj, *cur_obj, *ang_obj, *tau_obj, *lk_obj;
  PyObject *out_obj;
  if (!PyArg_ParseTuple(args, "OOOOOOOOOOO", &tc, &dc, &x_obj, &q_obj, &qd_obj, &w_obj,
                        &cur_obj, &ang_obj, &tau_obj, &lk_obj, &out_obj)) {
    return NULL;
  }
  const Tree *t;
  TreeDyn *d;
  double x[N_STATE], rot[FIN_ROT * MAX_FINS];
  Flow flow;
  if (capsules(tc, dc, &t, &d) < 0 || uwv_read_vector(x_obj, x, N_STATE, "state") < 0
      || flow_and_fins(d, cur_obj, ang_obj, &flow, rot) < 0) {
    return NULL;
  }
  const int n = t->nb - 1;
  Views vs = {.n = 0};
  int ok = 1;
  PyObject *result = NULL;
  double *q = array_arg(&vs, q_obj, n, 0, "joint positions");
  double *qd = q ? array_arg(&vs, qd_obj, n, 0, "joint velocities") : NULL;
  double *tau = qd ? array_arg(&vs, tau_obj, n, 0, "joint torques") : NULL;
  double *locked = tau ? array_arg(&vs, lk_obj, n, 0, "locked joints") : NULL;
  double *wrench = locked ? optional_arg(&vs, w_obj, 6 * t->nb, "body wrenches", &ok) : NULL;
  double *out = locked && ok ? array_arg(&vs, out_obj, N_STATE + 2 * n, 1, "out") : NULL;
  if (out != NULL) {
    for (int j = 0; j < n; j++) {
      d->lock[j] = locked[j] != 0.0;
    }
    if (uwv_tree_aba(t, d, x, q, qd, wrench, &flow, d->fins.count ? rot : NULL, tau,
                     d->lock, out, out + N_STATE, out + N_STATE + n) == 0) {
      result = Py_None;
      Py_INCREF(result);
    }
  }
  release(&vs);
  return result;
}

/* tree_rk4(tree, dyn, state, h, n, servo, w, lower, upper, wrench|None, current|None,
   angles|None, terms, end|None) -> (sub-steps done, end filled); state = [x (13), q, qd]
   advanced in place; servo = [kind, value, apparent inertia, static torque, velocity
   limit, effort limit] (6 x n; rows 2 and 3 computed when terms is true); end = [d/dt x,
   qdd, torques] at the last state. */
PyObject *uwv_py_tree_rk4(PyObject *self, PyObject *args)
{
  PyObject *tc, *dc, *s_obj, *sv_obj, *lo_obj, *up_obj, *w_obj, *cur_obj, *ang_obj, *end_obj;
  double h, w;
  int n_sub, terms;
  if (!PyArg_ParseTuple(args, "OOOdiOdOOOOOpO", &tc, &dc, &s_obj, &h, &n_sub, &sv_obj, &w,
                        &lo_obj, &up_obj, &w_obj, &cur_obj, &ang_obj, &terms, &end_obj)) {
    return NULL;
  }
  const Tree *t;
  TreeDyn *d;
  double rot[FIN_ROT * MAX_FINS];
  Flow flow;
  if (capsules(tc, dc, &t, &d) < 0 || flow_and_fins(d, cur_obj, ang_obj, &flow, rot) < 0) {
    return NULL;
  }
  const int n = t->nb - 1;
  Views vs = {.n = 0};
  int ok = 1, done = -1, ended = 0;
  double *s = array_arg(&vs, s_obj, N_STATE + 2 * n, 1, "state");
  double *sv = s ? array_arg(&vs, sv_obj, 6 * n, 1, "servo") : NULL;
  double *lower = sv ? array_arg(&vs, lo_obj, n, 0, "lower limits") : NULL;
  double *upper = lower ? array_arg(&vs, up_obj, n, 0, "upper limits") : NULL;
  double *wrench = upper ? optional_arg(&vs, w_obj, 6 * t->nb, "body wrenches", &ok) : NULL;
  double *end = NULL;
  if (upper != NULL && ok && end_obj != Py_None) {
    end = array_arg(&vs, end_obj, N_STATE + 2 * n, 1, "end");
    ok = end != NULL;
  }
  if (upper != NULL && ok) {
    Servo servo = {sv, sv + n, sv + 4 * n, sv + 5 * n, sv + 2 * n, sv + 3 * n, w};
    done = uwv_tree_rk4(t, d, s, h, n_sub, &servo, terms, lower, upper, wrench, &flow,
                        d->fins.count ? rot : NULL, end, &ended);
  }
  release(&vs);
  return done < 0 ? NULL : Py_BuildValue("(iO)", done, ended ? Py_True : Py_False);
}

/* tree_minverse(tree, dyn, x, q, out) / tree_static(tree, dyn, x, q, out): M(q)^-1
   ((6 + n)^2) or the static joint torques (n) at the pose x (13), q. */
static PyObject *at_pose(PyObject *args, int which)
{
  PyObject *tc, *dc, *x_obj, *q_obj, *out_obj;
  if (!PyArg_ParseTuple(args, "OOOOO", &tc, &dc, &x_obj, &q_obj, &out_obj)) {
    return NULL;
  }
  const Tree *t;
  TreeDyn *d;
  double x[N_STATE];
  if (capsules(tc, dc, &t, &d) < 0 || uwv_read_vector(x_obj, x, N_STATE, "state") < 0) {
    return NULL;
  }
  const int n = t->nb - 1;
  Views vs = {.n = 0};
  int rc = -1;
  double *q = array_arg(&vs, q_obj, n, 0, "joint positions");
  double *out = q ? array_arg(&vs, out_obj, which ? n : (6 + n) * (6 + n), 1, "out") : NULL;
  if (out != NULL) {
    rc = which ? uwv_tree_static(t, d, x, q, out) : uwv_tree_minverse(t, d, x, q, out);
  }
  release(&vs);
  if (rc < 0) {
    return NULL;
  }
  Py_RETURN_NONE;
}

PyObject *uwv_py_tree_minverse(PyObject *self, PyObject *args)
{
  return at_pose(args, 0);
}

PyObject *uwv_py_tree_static(PyObject *self, PyObject *args)
{
  return at_pose(args, 1);
}
