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
 * The packed model of a kinematic tree (tree_wrench.py) -> a tree capsule: per body its
 * parent, joint frames and axis, weight and centre of mass, and its joint's motion
 * subspace in body axes (revolute S = [r x u_b, u_b], prismatic S = [u_b, 0]); per part
 * its frame, surface transition, buoyancy and centre of buoyancy, drag and added-mass
 * matrices; per link row its frame in its body.
 */
#include "_tree.h"
#include "_vec3.h"

const char UWV_TREE_CAPSULE[] = "uwv_hydro.kernel.tree";

static void free_members(Tree *t)
{
  PyMem_Free(t->bodies);
  PyMem_Free(t->parts);
  PyMem_Free(t->rows);
  PyMem_Free(t);
}

static void free_tree(PyObject *capsule)
{
  Tree *t = PyCapsule_GetPointer(capsule, UWV_TREE_CAPSULE);
  if (t != NULL) {
    free_members(t);
  }
}

static int index_in(double value, int count, const char *what, int allow_none)
{
  int k = (int)value;
  if ((double)k != value || k < (allow_none ? -1 : 0) || k >= count) {
    PyErr_Format(PyExc_ValueError, "tree: %s index %g out of range", what, value);
    return -2;
  }
  return k;
}

static int parse_tree(const double *d, Py_ssize_t len, Tree *t)
{
  if (len < TREE_HEAD || (int)d[0] != TREE_VERSION) {
    PyErr_SetString(PyExc_ValueError, "tree: packed layout of another version");
    return -1;
  }
  t->nb = (int)d[1];
  t->np = (int)d[2];
  t->nl = (int)d[3];
  t->has_linear = d[4] != 0.0;
  t->has_quadratic = d[5] != 0.0;
  t->has_added_mass = d[6] != 0.0;
  t->coriolis = d[7] != 0.0;
  t->n_comp = (int)d[8];
  if (t->nb < 1 || t->np < 0 || t->nl < 1 || t->n_comp < 1 + TREE_HYDRO
      || len != TREE_HEAD + (Py_ssize_t)t->nb * TREE_BODY + (Py_ssize_t)t->np * TREE_PART
      + (Py_ssize_t)t->nl * TREE_ROW) {
    PyErr_SetString(PyExc_ValueError, "tree: packed sizes do not match its length");
    return -1;
  }
  if ((t->c_weight = index_in(d[9], t->n_comp, "component", 0)) < 0) {
    return -1;
  }
  for (int c = 0; c < TREE_HYDRO; c++) {
    if ((t->c_hydro[c] = index_in(d[10 + c], t->n_comp, "component", 0)) < 0) {
      return -1;
    }
  }
  t->bodies = PyMem_Calloc((size_t)t->nb, sizeof(TreeBody));
  t->parts = PyMem_Calloc((size_t)(t->np ? t->np : 1), sizeof(TreePart));
  t->rows = PyMem_Calloc((size_t)t->nl, sizeof(TreeRow));
  if (t->bodies == NULL || t->parts == NULL || t->rows == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  const double *p = d + TREE_HEAD;
  for (int k = 0; k < t->nb; k++, p += TREE_BODY) {
    TreeBody *b = &t->bodies[k];
    /* the parents come before their children: the base alone has none */
    b->parent = k == 0 ? -1 : index_in(p[0], k, "parent body", 0);
    b->row = index_in(p[2], t->nl, "body row", 1);
    if ((k > 0 && b->parent < 0) || b->row < -1) {
      return -1;
    }
    b->prismatic = p[1] != 0.0;
    memcpy(b->ra, p + 3, 9 * sizeof(double));
    memcpy(b->pa, p + 12, 3 * sizeof(double));
    memcpy(b->rc, p + 15, 9 * sizeof(double));
    memcpy(b->pc, p + 24, 3 * sizeof(double));
    memcpy(b->axis, p + 27, 3 * sizeof(double));
    b->weight = p[30];
    memcpy(b->com, p + 31, 3 * sizeof(double));
    /* motion subspace in body axes: the axis u_b = R_C^T u through the joint origin
       r = -R_C^T p_C; revolute S = [r x u_b, u_b], prismatic S = [u_b, 0] */
    double u[3], r[3];
    mul3t(b->rc, b->axis, u);
    mul3t(b->rc, b->pc, r);
    r[0] = -r[0];
    r[1] = -r[1];
    r[2] = -r[2];
    if (b->prismatic) {
      memcpy(b->s, u, sizeof(u));
      memset(b->s + 3, 0, 3 * sizeof(double));
    } else {
      cross3(r, u, b->s);
      memcpy(b->s + 3, u, sizeof(u));
    }
  }
  for (int k = 0; k < t->np; k++, p += TREE_PART) {
    TreePart *q = &t->parts[k];
    q->body = index_in(p[0], t->nb, "part body", 0);
    q->row = index_in(p[1], t->nl, "part row", 0);
    if (q->body < 0 || q->row < 0) {
      return -1;
    }
    q->surface = p[2] != 0.0;
    q->continuous = p[3] != 0.0;
    q->full = p[4];
    q->out = p[5];
    q->scale = p[6];
    memcpy(q->r, p + 7, 9 * sizeof(double));
    memcpy(q->p, p + 16, 3 * sizeof(double));
    q->buoyancy = p[19];
    memcpy(q->cob, p + 20, 3 * sizeof(double));
    memcpy(q->lin, p + 23, 36 * sizeof(double));
    memcpy(q->hv, p + 59, 36 * sizeof(double));
    memcpy(q->quad, p + 95, 216 * sizeof(double));
    memcpy(q->ma, p + 311, 36 * sizeof(double));
  }
  for (int k = 0; k < t->nl; k++, p += TREE_ROW) {
    TreeRow *w = &t->rows[k];
    if ((w->body = index_in(p[0], t->nb, "row body", 0)) < 0) {
      return -1;
    }
    memcpy(w->r, p + 1, 9 * sizeof(double));
    memcpy(w->p, p + 10, 3 * sizeof(double));
  }
  return 0;
}

PyObject *uwv_py_tree_model(PyObject *self, PyObject *args)
{
  PyObject *obj;
  if (!PyArg_ParseTuple(args, "O", &obj)) {
    return NULL;
  }
  Py_buffer view;
  if (uwv_get_array(obj, &view, TREE_HEAD, 0, "packed tree") < 0) {
    return NULL;
  }
  Tree *t = PyMem_Calloc(1, sizeof(Tree));
  if (t == NULL) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  int rc = parse_tree((const double *)view.buf, view.len / 8, t);
  PyBuffer_Release(&view);
  PyObject *cap = rc < 0 ? NULL : PyCapsule_New(t, UWV_TREE_CAPSULE, free_tree);
  if (cap == NULL) {
    free_members(t);
  }
  return cap;
}
