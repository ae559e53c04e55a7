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
 * What the sources of the kinematic tree's per-link wrench share (part of _kernel):
 * the packed layout's sizes, the parsed tree (bodies, parts, link rows) and the flow
 * around it, and the two steps of a call: the forward kinematics
 * (_tree_kinematics.c) and one part's hydro rows (_tree_part.c).  _tree_model.c
 * parses the packed model, _tree_wrench.c is the call.  The layout is documented and
 * packed by uwv_hydro/physics/articulated/algorithms/tree_wrench.py.
 */
#ifndef UWV_HYDRO_TREE_H
#define UWV_HYDRO_TREE_H

#include "_kernel.h"

#define TREE_VERSION 1
#define TREE_HEAD 15
#define TREE_BODY 34
#define TREE_PART 347
#define TREE_ROW 13
#define TREE_HYDRO 5    /* buoyancy, linear, quadratic, added mass, added-mass Coriolis */

/* The capsule name of a tree (_tree_model.c). */
extern const char UWV_TREE_CAPSULE[];

typedef struct {
  int parent, prismatic, row;  /* row: the body's link row for its weight (-1: none) */
  double ra[9], pa[3];         /* the joint frame at q = 0 in the parent body frame */
  double rc[9], pc[3];         /* the body frame in the joint frame */
  double axis[3];              /* unit joint axis, joint frame */
  double s[6];                 /* motion subspace in body axes */
  double weight, com[3];       /* m g and the centre of mass, body frame */
} TreeBody;

typedef struct {
  int body, row, surface, continuous;
  double full, out, scale;     /* the surface transition (surface != 0) */
  double r[9], p[3];           /* the part frame in its body */
  double buoyancy, cob[3];     /* rho V g and the centre of buoyancy, part frame */
  double lin[36];              /* H_c^T L H_v: linear drag about the origin */
  double hv[36];               /* H(r_v): the drag velocity point's twist */
  double quad[216];            /* H_c^T Q (6 x 36): quadratic drag about the origin */
  double ma[36];               /* M_A */
} TreePart;

typedef struct {
  int body;
  double r[9], p[3];           /* the link frame in its body */
} TreeRow;

typedef struct {
  int nb, np, nl;
  int has_linear, has_quadratic, has_added_mass, coriolis;
  int n_comp, c_weight, c_hydro[TREE_HYDRO];
  TreeBody *bodies;
  TreePart *parts;
  TreeRow *rows;
} Tree;

typedef struct {
  int submerged_only;          /* no position: every part fully submerged */
  int have_current, have_rate, engine_added_mass;
  double current[3], rate[3];
} Flow;

/* Every body's pose, twist and acceleration (acc NULL: none) and its frame in its parent
   body's (rel, 12 per body: R, p; NULL: none) (_tree_kinematics.c). */
void uwv_tree_kinematics(const Tree *t, const double *p0, const double *quat,
                         const double *nu, const double *q, const double *qd,
                         const double *acc0, const double *qdd, double *pos, double *rot,
                         double *vel, double *acc, double *rel);

/*
 * The dynamics of a tree (_tree_dynamics.c packs it, physics/articulated/algorithms/tree_dynamics.py documents
 * the layout): per body its spatial inertia with its parts' added mass and the rigid part
 * alone (body frame, about its origin, [v, w] order), the base's fins and hull; and the
 * work arrays of one evaluation of the articulated-body algorithm (_tree_aba.c).
 */
typedef struct {
  int nb;
  double *inertia, *rigid;     /* nb x 36 each */
  Fins fins;
  Hull hull;
  double *mem;                 /* the work arrays below, one block */
  double *pos, *rot, *vel, *rel, *ia, *pa, *us, *ws, *dd, *uu, *cc, *acc, *fext;
  double *rk;                  /* the RK4 stages and torques (_tree_rk4.c) */
  unsigned char *lock, *at;    /* per joint: braked, at a limit (_tree_rk4.c) */
  double lu[36];               /* the base's articulated inertia, LU factors */
  int piv[6];
} TreeDyn;

/* A joint servo law per joint (physics/articulated/algorithms/tree_dynamics.py rk4): kind 0 position, 1
   velocity, 2 effort, 3 locked; value, apparent inertia, static torque, velocity and
   effort limits; w the bandwidth (_tree_rk4.c). */
typedef struct {
  const double *kind, *value, *vmax, *emax;
  double *apparent, *stat;
  double w;
} Servo;

/* n RK4 sub-steps of h of the state s = [x (13), q, qd] under the servos (their apparent
   inertias and static torques computed first when terms is set), stopping before a
   sub-step that starts with a free joint at a limit moving out or would end past one;
   return the sub-steps done (*ended: end = [d/dt x, qdd, torques] at the last state
   when all were done and no joint is moving out of a limit there), -1 (ValueError set)
   on an error (_tree_rk4.c). */
int uwv_tree_rk4(const Tree *t, TreeDyn *d, double *s, double h, int n, const Servo *servo,
                 int terms, const double *lower, const double *upper, const double *wrench,
                 const Flow *flow, const double *fin_rot, double *end, int *ended);

/* The capsule name of a tree's dynamics (_tree_dynamics.c). */
extern const char UWV_TREE_DYN_CAPSULE[];

/* Every body's external wrench (body frame): its parts' hydro, its weight, the given
   wrenches (nb x 6 or NULL), the base's fins (fin_rot NULL: none) and hull, at the
   kinematics in d (_tree_aba.c); -1 (ValueError set) on a NaN depth. */
int uwv_tree_forces(const Tree *t, TreeDyn *d, const double *wrench, const Flow *flow,
                    const double *fin_rot);

/* The articulated-body algorithm at the state x (13), q, qd: the base's acceleration
   (dx: d/dt x, 13), qdd and the joint torques (tau, the locked joints' solved for);
   -1 (ValueError set) on a NaN depth or a singular base inertia (_tree_aba.c). */
int uwv_tree_aba(const Tree *t, TreeDyn *d, const double *x, const double *q,
                 const double *qd, const double *wrench, const Flow *flow,
                 const double *fin_rot, const double *tau, const unsigned char *locked,
                 double *dx, double *qdd, double *torques);

/* M(q)^-1 ((6 + n) x (6 + n), row-major) with the added mass, at the base pose x and q
   (_tree_aba.c); -1 (ValueError set) on a singular base inertia. */
int uwv_tree_minverse(const Tree *t, TreeDyn *d, const double *x, const double *q,
                      double *out);

/* Each joint's apparent inertia 1 / (M^-1)_jj (n), at the pose x, q (_tree_aba.c); -1
   (ValueError set) on a singular base inertia. */
int uwv_tree_apparent(const Tree *t, TreeDyn *d, const double *x, const double *q,
                      double *out);

/* The joint torques holding the joints at rest against weight and buoyancy, the base held
   (inverse dynamics at rest, _tree_aba.c); -1 (ValueError set) on a NaN depth. */
int uwv_tree_static(const Tree *t, TreeDyn *d, const double *x, const double *q,
                    double *out);

/* A part's world pose (r, p) and twist nu (its axes) from its body's pose (rb, pb) and
   twist vb (_tree_part.c). */
void uwv_tree_part_frame(const TreePart *q, const double *rb, const double *pb,
                         const double *vb, double *r, double *p, double *nu);

/* A body's weight wr (6, body axes about its origin) at its world rotation rb
   (_tree_part.c). */
void uwv_tree_weight(const TreeBody *b, const double *rb, double *wr);

/* The hydro rows of one part at world pose (r, p) (_tree_part.c); -1 on a NaN depth. */
int uwv_tree_part_rows(const Tree *t, const TreePart *q, const double *r, const double *p,
                       const double *nu, const double *a, const Flow *flow,
                       double rows[TREE_HYDRO][6]);

#endif  /* UWV_HYDRO_TREE_H */
