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
 * What the sources of uwv_hydro.physics._kernel share (one file per concern):
 *
 *   _kernel.c          the module: method table, layout constants, source hash
 *   _args.c            reading vectors and arrays from Python, lists back
 *   _model.c           the packed dynamics coefficients -> a model capsule
 *   _derivative.c      the state derivative: rigid-body kinematics, the features phi
 *                      (hydrostatics, drag, added mass, Coriolis) and nu_dot = A phi
 *   _current_field.c   a current field linearised about the start of a call
 *   _fins.c            fin lift and drag (gz-sim LiftDrag, uuv_simulator)
 *   _hull.c            the hull's body lift and cross-flow drag
 *   _contact.c         the seabed contact (compliant normal force, regularised Coulomb)
 *   _rk4.c             the RK4 integration and the single-vehicle calls
 *   _checked_step.c    simulate mode's checked step (the energy bound, retry, restore)
 *   _batch.c           N vehicles stepped in one call
 *   _tree*.c, _tree.h  the per-link wrench of a kinematic tree (_vec3.h: its algebra) and
 *                      its articulated dynamics (_tree_aba.c, _tree_rk4.c, _tree_dynamics.c)
 *   _seabed.c          the seabed (flat or a grid of heights): height, gradient, ray cast
 *
 * Every coefficient comes from Python, packed by uwv_hydro/physics/kernel.py (the
 * layout is documented there).  No numpy C API: arrays arrive through the buffer
 * protocol (doubles, C-contiguous), short vectors also as lists or tuples of floats.
 */
#ifndef UWV_HYDRO_KERNEL_H
#define UWV_HYDRO_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Layout of the packed coefficients (must match kernel.py). */
#define LAYOUT_VERSION 3
#define N_STATE 13
#define NF_STILL 78     /* features without current: z_j z_k with k >= 6 vanish */
#define NF_ALL 102
#define FIN_SIZE 50     /* packed doubles per fin */
#define FIN_ROT 13      /* rotated cp, forward, upward, span (+ the deflection) per fin */
#define GUARD_SIZE 40
#define MIN_FIN_SPEED 0.01  /* gz-sim LiftDrag: no force below 1 cm/s */
#define MAX_FINS 64         /* fins per vehicle (stack buffers of rotated fin vectors) */
#define HULL_HEAD 6         /* packed hull: present, k, x_ahead, x_astern, jorgensen, n */
#define CONTACT_HEAD 5      /* packed contact: n, k, c, mu, v_s */

typedef struct {
  int count;
  double rho;
  double *p;            /* count * FIN_SIZE */
} Fins;

typedef struct {
  int present;
  double k;             /* body lift 1/2 rho d^2 c_yd_beta */
  double x_ahead, x_astern;
  int jorgensen;
  int n;                /* cross-flow strips */
  double *p;            /* n strip stations x, then n strip constants 1/2 rho C_d d dx */
} Hull;


/*
 * A current field linearised about the start of a call (physics.environment.current_field):
 * v_c(p, s) = c(s) + G0 (p - p0), s the time since the start, with c(s) the cubic
 * Hermite curve through the values and time rates at p0 at both ends of the span T (v0,
 * a0 at the start, v1, b1 at the end): fourth order in time, exact for a field affine in
 * position and time.  Along the path, dv_c/dt = c'(s) + (a1 - b1) s / T + G(s) p_dot,
 * a1 the rate at the predicted end position p1 (the mixed term d2v/dt dp (p - p0)) and
 * G(s) = G0 + (G1 - G0) s / T, G1 the gradient at p1.  T = 0: c(s) = v0 + a0 s.
 */
typedef struct {
  double v0[3], g[9], a[3], p0[3], g1[9], a1[3], span, v1[3], b1[3];
} Field;

/* The capsule name of a model (_model.c). */
extern const char UWV_MODEL_CAPSULE[];

/*
 * The seabed of physics/environment/seabed.py (FlatSeabed, GridSeabed), in the ENU world (m, z up):
 * the solid is {z <= h(x, y)}.  Flat: h = -depth everywhere.  Grid: the heights
 * h[j * nx + i] at the nodes (x0 + i dx, y0 + j dy), bilinear in each cell; a cell with a
 * NaN node is a hole, and outside the nodes there is no bottom.  A point on a node line
 * belongs to the cell above it (floor), the last line to the last cell.
 */
typedef struct {
  int grid;             /* 0: flat, 1: grid */
  double depth;         /* flat: the seabed is at z = -depth */
  int nx, ny;           /* grid: nodes along x and along y (>= 2 each) */
  double x0, y0, dx, dy;
  double *h;            /* grid: ny * nx heights (a copy), row j at y = y0 + j dy */
} Seabed;

/* The capsule name of a seabed (_seabed.c). */
extern const char UWV_SEABED_CAPSULE[];

typedef struct {
  int n;                /* contact points (0: no contact) */
  double k, c;          /* normal stiffness (N/m) and damping (N s/m) per point */
  double mu, vs;        /* Coulomb friction coefficient, stiction speed (m/s) */
  const Seabed *seabed; /* the seabed (_seabed.c), NULL: none */
  PyObject *seabed_ref; /* the object holding it (a reference kept) */
  double *p;            /* n body-frame points and their radii (4 n: x, y, z, r) */
} Contact;

typedef struct {
  /* the nonzero columns of A (6 x NF_ALL), column-major: a[c * 6 + i] is A[i, col[c]];
     the first n_still are features < NF_STILL (all n_all with a current) */
  double a[NF_ALL * 6];
  int col[NF_ALL];
  int n_still, n_all;
  double r_v[3];
  double full, out, slope, offset;
  double ma[18];        /* M_A,O[:, :3] (6 x 3, row-major): wrench of a current rate */
  Fins fins;
  Hull hull;
  Contact contact;
} Model;

/* ------------------------------------------------------------------ _args.c */

/* Read exactly n doubles from a list, tuple or C-contiguous float64 buffer. */
int uwv_read_vector(PyObject *obj, double *out, Py_ssize_t n, const char *what);

/* Optional vector: None gives *present = 0 (rc 0). */
int uwv_read_optional(PyObject *obj, double *out, Py_ssize_t n, const char *what,
                      int *present);

/* A C-contiguous float64 buffer of at least min_len doubles (writable if asked). */
int uwv_get_array(PyObject *obj, Py_buffer *view, Py_ssize_t min_len, int writable,
                  const char *what);

/* A new list of the n floats v. */
PyObject *uwv_list_of(const double *v, Py_ssize_t n);

/* The one argument of a capsule constructor: a packed float64 array. */
int uwv_packed_arg(PyObject *args, Py_buffer *view, Py_ssize_t min_len, const char *what);

/* ------------------------------------------------------------------ physics */

/* d/dt of the state x under tau, the world current cw and the rotated fins rot
   (_derivative.c; NULL: none). */
void uwv_derivative(const Model *m, const double *x, const double *tau, const double *cw,
                    const double *rot, int frozen, double *out);

/* d/dt of x under the linearised current field f at the time s (_current_field.c). */
void uwv_field_derivative(const Model *m, const double *x, const double *tau,
                          const Field *f, double s, const double *rot, int frozen,
                          double *out);

/* Read a linearised current field (34 doubles, or None) about the state x. */
int uwv_read_field(PyObject *obj, const double *x, Field *f, int *present);

/* n RK4 sub-steps of h from x (_rk4.c); -1 for a zero or non-finite quaternion. */
int uwv_rk4(const Model *m, double *x, const double *tau, const double *cw,
            const double *rot, double h, long n, int frozen, const Field *f, double s0);

/* Rotate every fin's vectors by its deflection (_fins.c; angles NULL: zero). */
void uwv_fins_rotate(const Fins *fins, const double *angles, double *rot);

/* Add the fins' wrench about the origin for the relative twist nu_r to w (6). */
void uwv_fins_wrench(const Fins *fins, const double *rot, const double *nu_r, double *w);

/* Fin angles of a model (None: zero); rot gets the rotated fin vectors.  0 on success. */
int uwv_fin_setup(const Fins *fins, PyObject *angles_obj, double *rot);

/* Parse a packed fin section into fins; return the doubles used (-1: error set). */
Py_ssize_t uwv_parse_fins(const double *p, Py_ssize_t len, Fins *fins);

/* Add the hull's body lift to lift and its cross-flow drag to cross (_hull.c). */
void uwv_hull_wrench(const Hull *h, const double *nu_r, double *lift, double *cross);

/* Parse a packed hull section into hull; return the doubles used (-1: error set). */
Py_ssize_t uwv_parse_hull(const double *p, Py_ssize_t len, Hull *hull);

/* Add the seabed contact's body wrench at the state x (R: its rotation, row-major) to w. */
void uwv_contact_wrench(const Contact *c, const double *x, const double *r, double *w);

/* The contact springs' energy sum 1/2 k d^2 (J) at the state x (_contact.c). */
double uwv_contact_energy(const Contact *c, const double *x);

/* Drop a model's contact: free its points, release its seabed. */
void uwv_contact_clear(Contact *c);

/* ------------------------------------------------------------------ the seabed (_seabed.c) */

/* The seabed's height h (m, up) and its gradient grad = (dh/dx, dh/dy) at (x, y): 1, or
   0 where there is no bottom (a hole, outside the grid; *h and grad get NaN).  grad may
   be NULL. */
int uwv_seabed_height(const Seabed *s, double x, double y, double *h, double grad[2]);

/* The range (m) along the ray o + t d (d a unit vector) to the first point of the solid
   within max_range: 0 for o in the solid, INFINITY for none (or a non-finite ray). */
double uwv_seabed_cast(const Seabed *s, const double o[3], const double d[3],
                       double max_range);

/* The seabed of obj: a seabed capsule or an object whose attribute `capsule` is one
   (FlatSeabed, GridSeabed); None gives *s = NULL (no seabed).  0, or -1 with a TypeError.
   *s lives as long as obj: code keeping it past the call keeps a reference to obj. */
int uwv_read_seabed(PyObject *obj, const Seabed **s);

/* ------------------------------------------------------------------ the module's calls */

PyObject *uwv_py_model(PyObject *self, PyObject *args);          /* _model.c */
PyObject *uwv_py_fins(PyObject *self, PyObject *args);           /* _fins.c */
PyObject *uwv_py_fin_wrench(PyObject *self, PyObject *args);
PyObject *uwv_py_fin_eval(PyObject *self, PyObject *args);
PyObject *uwv_py_contact(PyObject *self, PyObject *args);        /* _contact.c */
PyObject *uwv_py_contact_energy(PyObject *self, PyObject *args);
PyObject *uwv_py_step(PyObject *self, PyObject *args);           /* _rk4.c */
PyObject *uwv_py_derivative(PyObject *self, PyObject *args);
PyObject *uwv_py_guard(PyObject *self, PyObject *args);          /* _checked_step.c */
PyObject *uwv_py_advance(PyObject *self, PyObject *args);
PyObject *uwv_py_guard_norm(PyObject *self, PyObject *args);
PyObject *uwv_py_guard_max_norm(PyObject *self, PyObject *args);
PyObject *uwv_py_batch_step(PyObject *self, PyObject *args);     /* _batch.c */
PyObject *uwv_py_tree_model(PyObject *self, PyObject *args);     /* _tree_model.c */
PyObject *uwv_py_tree_wrench(PyObject *self, PyObject *args);    /* _tree_wrench.c */
PyObject *uwv_py_tree_dynamics_model(PyObject *self, PyObject *args);  /* _tree_dynamics.c */
PyObject *uwv_py_tree_derivative(PyObject *self, PyObject *args);
PyObject *uwv_py_tree_rk4(PyObject *self, PyObject *args);
PyObject *uwv_py_tree_minverse(PyObject *self, PyObject *args);
PyObject *uwv_py_tree_static(PyObject *self, PyObject *args);
PyObject *uwv_py_seabed_flat(PyObject *self, PyObject *args);    /* _seabed.c */
PyObject *uwv_py_seabed_grid(PyObject *self, PyObject *args);
PyObject *uwv_py_seabed_height(PyObject *self, PyObject *args);
PyObject *uwv_py_seabed_cast(PyObject *self, PyObject *args);

#endif  /* UWV_HYDRO_KERNEL_H */
