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
 * The 3-vector and frame algebra of the kinematic tree (_tree*.c): cross products,
 * rotations R v and R^T v (row-major R), products of 3 x 3 and 6 x 6 matrices, the
 * motion transform of a twist into a child frame and the dual map of a wrench into a
 * parent frame (Featherstone 2008 ch. 2), and a pose relative to the base.
 */
#ifndef UWV_HYDRO_VEC3_H
#define UWV_HYDRO_VEC3_H

#include <string.h>

static inline void cross3(const double *a, const double *b, double *out)
{
  /* a x b */
  double x = a[1] * b[2] - a[2] * b[1];
  double y = a[2] * b[0] - a[0] * b[2];
  double z = a[0] * b[1] - a[1] * b[0];
  out[0] = x;
  out[1] = y;
  out[2] = z;
}

static inline void mul3(const double *r, const double *v, double *out)
{
  /* R v (row-major R) */
  for (int i = 0; i < 3; i++) {
    out[i] = r[3 * i] * v[0] + r[3 * i + 1] * v[1] + r[3 * i + 2] * v[2];
  }
}

static inline void mul3t(const double *r, const double *v, double *out)
{
  /* R^T v */
  for (int i = 0; i < 3; i++) {
    out[i] = r[i] * v[0] + r[3 + i] * v[1] + r[6 + i] * v[2];
  }
}

static inline void matmul3(const double *a, const double *b, double *out)
{
  /* A B */
  double t[9];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    }
  }
  memcpy(out, t, sizeof(t));
}

static inline void mul6(const double *m, const double *v, double *out)
{
  /* M v (6 x 6, row-major) */
  for (int i = 0; i < 6; i++) {
    double s = 0.0;
    for (int j = 0; j < 6; j++) {
      s += m[6 * i + j] * v[j];
    }
    out[i] = s;
  }
}

/* The twist of a child frame at (r, p) in its parent: [R^T (v + w x p), R^T w]. */
static inline void motion_to_child(const double *r, const double *p,
                                   const double *twist, double *out)
{
  double lin[3];
  cross3(twist + 3, p, lin);
  lin[0] += twist[0];
  lin[1] += twist[1];
  lin[2] += twist[2];
  mul3t(r, lin, out);
  mul3t(r, twist + 3, out + 3);
}

/* Add a frame's wrench (its axes, its origin) moved to a parent where it sits at (r, p):
   F = R f, M = R m + p x F (the dual map X^T f). */
static inline void add_wrench_in_parent(const double *r, const double *p,
                                        const double *f, double *acc)
{
  double force[3], moment[3], arm[3];
  mul3(r, f, force);
  mul3(r, f + 3, moment);
  cross3(p, force, arm);
  for (int i = 0; i < 3; i++) {
    acc[i] += force[i];
    acc[3 + i] += moment[i] + arm[i];
  }
}

/* The pose of a frame (world r, p) in the base frame (world r0, p0): R_0^T R,
   R_0^T (p - p0). */
static inline void pose_in_base(const double *r0, const double *p0, const double *r,
                                const double *p, double *rel, double *rel_p)
{
  double d[3];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      rel[3 * i + j] = r0[i] * r[j] + r0[3 + i] * r[3 + j] + r0[6 + i] * r[6 + j];
    }
    d[i] = p[i] - p0[i];
  }
  mul3t(r0, d, rel_p);
}

#endif  /* UWV_HYDRO_VEC3_H */
