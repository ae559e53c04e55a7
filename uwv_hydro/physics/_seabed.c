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
 * The seabed (uwv_hydro/physics/environment/seabed.py): a flat plane or a regular grid of heights in
 * a capsule, its bilinear height and gradient, and the exact ray cast.
 *
 * A ray o + t d is clipped to the grid's nodes (slab clipping, Kay and Kajiya, 1986),
 * then walks the cells it crosses (the grid traversal of Amanatides and Woo, 1987).  In
 * a cell's coordinates s, r in [0, 1] the patch is h = a + b s + c r + e s r, so the
 * height of the ray over it is a quadratic in the range, and the first crossing is the
 * first root of that quadratic within the cell's range interval.
 */
#include "_kernel.h"

const char UWV_SEABED_CAPSULE[] = "uwv_hydro.kernel.seabed";

/* Declared in _kernel.h. */
int uwv_seabed_height(const Seabed *s, double x, double y, double *h, double grad[2])
{
  if (!s->grid) {
    *h = -s->depth;
    if (grad != NULL) {
      grad[0] = grad[1] = 0.0;
    }
    return 1;
  }
  double u = (x - s->x0) / s->dx, v = (y - s->y0) / s->dy;
  if (!(u >= 0.0 && u <= s->nx - 1 && v >= 0.0 && v <= s->ny - 1)) {
    goto none;
  }
  int i = (int)floor(u), j = (int)floor(v);
  i = i > s->nx - 2 ? s->nx - 2 : i;
  j = j > s->ny - 2 ? s->ny - 2 : j;
  double fs = u - i, fr = v - j;
  const double *row = s->h + (size_t)j * s->nx + i;
  double h00 = row[0], h10 = row[1], h01 = row[s->nx], h11 = row[s->nx + 1];
  /* Bilinear interpolation: h00 (1-s)(1-r) + h10 s (1-r) + h01 (1-s) r + h11 s r */
  double z = (h00 * (1.0 - fs) + h10 * fs) * (1.0 - fr) + (h01 * (1.0 - fs) + h11 * fs) * fr;
  if (isnan(z)) {
    goto none;
  }
  *h = z;
  if (grad != NULL) {
    /* its derivatives: dh/ds = (h10 - h00)(1-r) + (h11 - h01) r, ds/dx = 1/dx (and r, y) */
    grad[0] = ((h10 - h00) * (1.0 - fr) + (h11 - h01) * fr) / s->dx;
    grad[1] = ((h01 - h00) * (1.0 - fs) + (h11 - h10) * fs) / s->dy;
  }
  return 1;
none:
  *h = NAN;
  if (grad != NULL) {
    grad[0] = grad[1] = NAN;
  }
  return 0;
}

/*
 * The first root in [0, length] of qa t^2 + qb t + qc (qc > 0), else INFINITY.  Roots by
 * the cancellation-free form q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2, t = q / a and
 * t = c / q (Press et al., Numerical Recipes, sec. 5.6), which also gives the root of
 * the linear case a = 0.
 */
static double first_root(double qa, double qb, double qc, double length)
{
  double disc = qb * qb - 4.0 * qa * qc;
  if (!(disc >= 0.0)) {
    return INFINITY;
  }
  double sq = sqrt(disc);
  double q = -0.5 * (qb + (qb < 0.0 ? -sq : sq));
  double t1 = q / qa, t2 = qc / q, best = INFINITY;
  if (t1 >= 0.0 && t1 <= length) {
    best = t1;
  }
  if (t2 >= 0.0 && t2 <= length && t2 < best) {
    best = t2;
  }
  return best;
}

/* Slab clipping of w0 + dw t to [0, top] (Kay and Kajiya, 1986) into [*t_in, *t_out]. */
static void clip_slab(double w0, double dw, double top, double *t_in, double *t_out)
{
  double lo, hi;
  if (dw != 0.0) {
    double ta = (0.0 - w0) / dw, tb = (top - w0) / dw;
    lo = ta < tb ? ta : tb;
    hi = ta < tb ? tb : ta;
  } else if (w0 < 0.0 || w0 > top) {
    lo = INFINITY;
    hi = -INFINITY;
  } else {
    lo = -INFINITY;
    hi = INFINITY;
  }
  if (lo > *t_in) {
    *t_in = lo;
  }
  if (hi < *t_out) {
    *t_out = hi;
  }
}

static double cast_flat(const Seabed *s, const double o[3], const double d[3],
                        double max_range)
{
  double above = o[2] + s->depth;  /* height of the origin above the seabed */
  /* Ray-plane intersection: z0 + t d_z = -depth  ->  t = (z0 + depth) / (-d_z) */
  double t = above <= 0.0 ? 0.0 : (d[2] < 0.0 ? above / -d[2] : INFINITY);
  return t <= max_range ? t : INFINITY;
}

static double cast_grid(const Seabed *s, const double o[3], const double d[3],
                        double max_range)
{
  const int nx = s->nx, ny = s->ny;
  /* grid coordinates along the ray: u = u0 + du t, v = v0 + dv t */
  const double u0 = (o[0] - s->x0) / s->dx, v0 = (o[1] - s->y0) / s->dy;
  const double du = d[0] / s->dx, dv = d[1] / s->dy, dz = d[2];
  double t_cur = 0.0, t_out = max_range;
  clip_slab(u0, du, nx - 1, &t_cur, &t_out);
  clip_slab(v0, dv, ny - 1, &t_cur, &t_out);
  if (!(t_cur <= t_out)) {
    return INFINITY;
  }
  /* the cell the ray enters: on a node line, the one in the direction of travel */
  double us = u0 + du * t_cur, vs = v0 + dv * t_cur;
  double fi = du >= 0.0 ? floor(us) : ceil(us) - 1.0;
  double fj = dv >= 0.0 ? floor(vs) : ceil(vs) - 1.0;
  int i = !(fi >= 0.0) ? 0 : (fi > nx - 2 ? nx - 2 : (int)fi);
  int j = !(fj >= 0.0) ? 0 : (fj > ny - 2 ? ny - 2 : (int)fj);
  const int step_i = du > 0.0 ? 1 : -1, step_j = dv > 0.0 ? 1 : -1;
  for (;;) {
    /* range at which the ray leaves the cell across a node line of u, of v */
    double tx = du > 0.0 ? (i + 1 - u0) / du : (du < 0.0 ? (i - u0) / du : INFINITY);
    double ty = dv > 0.0 ? (j + 1 - v0) / dv : (dv < 0.0 ? (j - v0) / dv : INFINITY);
    double t_next = tx < ty ? tx : ty;
    t_next = t_next < t_out ? t_next : t_out;
    const double *row = s->h + (size_t)j * nx + i;
    double h00 = row[0], h10 = row[1], h01 = row[nx], h11 = row[nx + 1];
    /* the patch h = a + b s + c r + e s r in the cell's coordinates s, r in [0, 1] */
    double b = h10 - h00, c = h01 - h00, e = h00 - h10 - h01 + h11;
    if (!isnan(e)) {  /* a NaN node: a hole */
      double s0 = u0 + du * t_cur - i, r0 = v0 + dv * t_cur - j;
      double z0 = o[2] + dz * t_cur;
      /* height of the ray over the patch, f(t') = A t'^2 + B t' + C, t' = t - t_cur */
      double qc = z0 - (h00 + b * s0 + c * r0 + e * s0 * r0);
      double qb = dz - (b + e * r0) * du - (c + e * s0) * dv;
      double qa = -e * du * dv;
      double length = t_next - t_cur > 0.0 ? t_next - t_cur : 0.0;
      double root = qc <= 0.0 ? 0.0 : first_root(qa, qb, qc, length);
      if (isfinite(root)) {
        return t_cur + root;
      }
    }
    i += tx <= t_next ? step_i : 0;
    j += ty <= t_next ? step_j : 0;
    if (t_next >= t_out || i < 0 || i > nx - 2 || j < 0 || j > ny - 2) {
      return INFINITY;
    }
    t_cur = t_next;
  }
}

double uwv_seabed_cast(const Seabed *s, const double o[3], const double d[3],
                       double max_range)
{
  for (int k = 0; k < 3; k++) {
    if (!isfinite(o[k]) || !isfinite(d[k])) {
      return INFINITY;
    }
  }
  return s->grid ? cast_grid(s, o, d, max_range) : cast_flat(s, o, d, max_range);
}

int uwv_read_seabed(PyObject *obj, const Seabed **s)
{
  *s = NULL;
  if (obj == Py_None) {
    return 0;
  }
  if (PyCapsule_IsValid(obj, UWV_SEABED_CAPSULE)) {
    *s = PyCapsule_GetPointer(obj, UWV_SEABED_CAPSULE);
    return 0;
  }
  PyObject *cap = PyObject_GetAttrString(obj, "capsule");
  if (cap == NULL) {
    PyErr_Clear();
  } else {
    /* the object holds its capsule: the pointer lives as long as obj */
    if (PyCapsule_IsValid(cap, UWV_SEABED_CAPSULE)) {
      *s = PyCapsule_GetPointer(cap, UWV_SEABED_CAPSULE);
    }
    Py_DECREF(cap);
    if (*s != NULL) {
      return 0;
    }
  }
  PyErr_Format(PyExc_TypeError, "seabed must be a FlatSeabed, a GridSeabed, its capsule or "
               "None, got %.100s", Py_TYPE(obj)->tp_name);
  return -1;
}

/* ------------------------------------------------------------------ the module's calls */

static void free_seabed(PyObject *capsule)
{
  Seabed *s = (Seabed *)PyCapsule_GetPointer(capsule, UWV_SEABED_CAPSULE);
  if (s != NULL) {
    PyMem_Free(s->h);
    PyMem_Free(s);
  }
}

static PyObject *seabed_capsule(Seabed *s)
{
  PyObject *cap = PyCapsule_New(s, UWV_SEABED_CAPSULE, free_seabed);
  if (cap == NULL) {
    PyMem_Free(s->h);
    PyMem_Free(s);
  }
  return cap;
}

PyObject *uwv_py_seabed_flat(PyObject *self, PyObject *args)
{
  double depth;
  if (!PyArg_ParseTuple(args, "d", &depth)) {
    return NULL;
  }
  if (!isfinite(depth)) {
    PyErr_Format(PyExc_ValueError, "flat seabed: depth %R is not finite",
                 PyTuple_GET_ITEM(args, 0));
    return NULL;
  }
  Seabed *s = PyMem_Calloc(1, sizeof(Seabed));
  if (s == NULL) {
    return PyErr_NoMemory();
  }
  s->depth = depth;
  return seabed_capsule(s);
}

PyObject *uwv_py_seabed_grid(PyObject *self, PyObject *args)
{
  PyObject *heights;
  int nx, ny;
  double x0, y0, dx, dy;
  if (!PyArg_ParseTuple(args, "Oiidddd", &heights, &nx, &ny, &x0, &y0, &dx, &dy)) {
    return NULL;
  }
  if (nx < 2 || ny < 2) {
    PyErr_Format(PyExc_ValueError, "seabed grid: %d x %d nodes, need at least 2 x 2", nx, ny);
    return NULL;
  }
  if (!(isfinite(x0) && isfinite(y0) && isfinite(dx) && isfinite(dy) && dx > 0.0
        && dy > 0.0)) {
    PyErr_SetString(PyExc_ValueError, "seabed grid: x0, y0 must be finite, dx, dy > 0");
    return NULL;
  }
  Py_buffer view;
  Py_ssize_t n = (Py_ssize_t)nx * ny;
  if (uwv_get_array(heights, &view, n, 0, "seabed grid heights") < 0) {
    return NULL;
  }
  Seabed *s = PyMem_Calloc(1, sizeof(Seabed));
  double *h = s == NULL ? NULL : PyMem_Malloc((size_t)n * sizeof(double));
  if (h == NULL) {
    PyBuffer_Release(&view);
    PyMem_Free(s);
    return PyErr_NoMemory();
  }
  memcpy(h, view.buf, (size_t)n * sizeof(double));
  PyBuffer_Release(&view);
  for (Py_ssize_t k = 0; k < n; k++) {
    if (isinf(h[k])) {
      PyMem_Free(h);
      PyMem_Free(s);
      PyErr_Format(PyExc_ValueError, "seabed grid: infinite height at node %zd (holes are "
                   "NaN)", k);
      return NULL;
    }
  }
  s->grid = 1;
  s->nx = nx;
  s->ny = ny;
  s->x0 = x0;
  s->y0 = y0;
  s->dx = dx;
  s->dy = dy;
  s->h = h;
  return seabed_capsule(s);
}

PyObject *uwv_py_seabed_height(PyObject *self, PyObject *args)
{
  PyObject *seabed, *xo, *yo, *ho, *go;
  if (!PyArg_ParseTuple(args, "OOOOO", &seabed, &xo, &yo, &ho, &go)) {
    return NULL;
  }
  const Seabed *s;
  if (uwv_read_seabed(seabed, &s) < 0) {
    return NULL;
  }
  if (s == NULL) {
    PyErr_SetString(PyExc_TypeError, "seabed_height: seabed is None");
    return NULL;
  }
  Py_buffer vx, vy, vh, vg;
  if (uwv_get_array(xo, &vx, 0, 0, "x") < 0) {
    return NULL;
  }
  Py_ssize_t n = vx.len / 8;
  int have_grad = go != Py_None;
  if (uwv_get_array(yo, &vy, n, 0, "y") < 0) {
    PyBuffer_Release(&vx);
    return NULL;
  }
  if (uwv_get_array(ho, &vh, n, 1, "h") < 0) {
    PyBuffer_Release(&vx);
    PyBuffer_Release(&vy);
    return NULL;
  }
  if (have_grad && uwv_get_array(go, &vg, 2 * n, 1, "grad") < 0) {
    PyBuffer_Release(&vx);
    PyBuffer_Release(&vy);
    PyBuffer_Release(&vh);
    return NULL;
  }
  const double *x = vx.buf, *y = vy.buf;
  double *h = vh.buf, *grad = have_grad ? vg.buf : NULL;
  for (Py_ssize_t k = 0; k < n; k++) {
    uwv_seabed_height(s, x[k], y[k], h + k, have_grad ? grad + 2 * k : NULL);
  }
  PyBuffer_Release(&vx);
  PyBuffer_Release(&vy);
  PyBuffer_Release(&vh);
  if (have_grad) {
    PyBuffer_Release(&vg);
  }
  Py_RETURN_NONE;
}

PyObject *uwv_py_seabed_cast(PyObject *self, PyObject *args)
{
  PyObject *seabed, *oo, *dobj, *ro, *out;
  if (!PyArg_ParseTuple(args, "OOOOO", &seabed, &oo, &dobj, &ro, &out)) {
    return NULL;
  }
  const Seabed *s;
  if (uwv_read_seabed(seabed, &s) < 0) {
    return NULL;
  }
  if (s == NULL) {
    PyErr_SetString(PyExc_TypeError, "seabed_cast: seabed is None");
    return NULL;
  }
  Py_buffer vo, vd, vr, vt;
  if (uwv_get_array(out, &vt, 0, 1, "ranges") < 0) {
    return NULL;
  }
  Py_ssize_t n = vt.len / 8;
  double scalar_range = 0.0;
  int scalar = PyFloat_Check(ro) || PyLong_Check(ro);
  if (scalar) {
    scalar_range = PyFloat_AsDouble(ro);
    if (scalar_range == -1.0 && PyErr_Occurred()) {
      PyBuffer_Release(&vt);
      return NULL;
    }
  }
  if (uwv_get_array(oo, &vo, 3 * n, 0, "origins") < 0) {
    PyBuffer_Release(&vt);
    return NULL;
  }
  if (uwv_get_array(dobj, &vd, 3 * n, 0, "directions") < 0) {
    PyBuffer_Release(&vt);
    PyBuffer_Release(&vo);
    return NULL;
  }
  if (!scalar && uwv_get_array(ro, &vr, n, 0, "max_range") < 0) {
    PyBuffer_Release(&vt);
    PyBuffer_Release(&vo);
    PyBuffer_Release(&vd);
    return NULL;
  }
  const double *o = vo.buf, *d = vd.buf, *r = scalar ? NULL : vr.buf;
  double *t = vt.buf;
  for (Py_ssize_t k = 0; k < n; k++) {
    t[k] = uwv_seabed_cast(s, o + 3 * k, d + 3 * k, scalar ? scalar_range : r[k]);
  }
  PyBuffer_Release(&vt);
  PyBuffer_Release(&vo);
  PyBuffer_Release(&vd);
  if (!scalar) {
    PyBuffer_Release(&vr);
  }
  Py_RETURN_NONE;
}
