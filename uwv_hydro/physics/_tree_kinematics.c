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
 * Forward kinematics of a floating base with revolute and prismatic joints (Featherstone
 * 2008 ch. 3, body frames): every body's world pose, twist and acceleration from the
 * base's and the joints' positions, velocities and accelerations.
 */
#include "_tree.h"
#include "_vec3.h"

/*
 * Every body's pose (world), twist and acceleration (body axes; the acceleration is
 * d/dt of the twist components) from the base's and the joints' (Featherstone 2008
 * eqs. 3.33-3.34): v_k = X_k v_parent + S q_dot, a_k = X_k a_parent + S q_ddot +
 * v_k x (S q_dot), X_k the motion transform of T_k(q) = A_k M(q_k) C_k.
 */
void uwv_tree_kinematics(const Tree *t, const double *p0, const double *quat,
                         const double *nu, const double *q, const double *qd,
                         const double *acc0, const double *qdd, double *pos, double *rot,
                         double *vel, double *acc, double *rel)
{
  double w = quat[0], x = quat[1], y = quat[2], z = quat[3];
  /* rotation matrix of the unit quaternion [w, x, y, z] (Fossen 2021 ch. 2) */
  rot[0] = 1.0 - 2.0 * (y * y + z * z);
  rot[1] = 2.0 * (x * y - z * w);
  rot[2] = 2.0 * (x * z + y * w);
  rot[3] = 2.0 * (x * y + z * w);
  rot[4] = 1.0 - 2.0 * (x * x + z * z);
  rot[5] = 2.0 * (y * z - x * w);
  rot[6] = 2.0 * (x * z - y * w);
  rot[7] = 2.0 * (y * z + x * w);
  rot[8] = 1.0 - 2.0 * (x * x + y * y);
  memcpy(pos, p0, 3 * sizeof(double));
  memcpy(vel, nu, 6 * sizeof(double));
  if (acc != NULL) {
    memcpy(acc, acc0, 6 * sizeof(double));
  }
  for (int k = 1; k < t->nb; k++) {
    const TreeBody *b = &t->bodies[k];
    const int j = b->parent;
    const double qk = q[k - 1];
    /* the joint's motion M(q): Rodrigues R = I + sin q K + (1 - cos q) K^2, or a
       translation q u */
    double rm[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0}, pm[3] = {0.0, 0.0, 0.0};
    const double *u = b->axis;
    if (b->prismatic) {
      pm[0] = qk * u[0];
      pm[1] = qk * u[1];
      pm[2] = qk * u[2];
    } else {
      double s = sin(qk), c = 1.0 - cos(qk);
      rm[0] += c * (u[0] * u[0] - 1.0);
      rm[4] += c * (u[1] * u[1] - 1.0);
      rm[8] += c * (u[2] * u[2] - 1.0);
      rm[1] = -s * u[2] + c * u[0] * u[1];
      rm[3] = s * u[2] + c * u[0] * u[1];
      rm[2] = s * u[1] + c * u[0] * u[2];
      rm[6] = -s * u[1] + c * u[0] * u[2];
      rm[5] = -s * u[0] + c * u[1] * u[2];
      rm[7] = s * u[0] + c * u[1] * u[2];
    }
    /* T = A M C: R_T = R_A R_M R_C, p_T = p_A + R_A (p_M + R_M p_C) */
    double rt[9], pt[3], tmp[3];
    matmul3(b->ra, rm, rt);
    mul3(rm, b->pc, tmp);
    tmp[0] += pm[0];
    tmp[1] += pm[1];
    tmp[2] += pm[2];
    mul3(b->ra, tmp, pt);
    pt[0] += b->pa[0];
    pt[1] += b->pa[1];
    pt[2] += b->pa[2];
    matmul3(rt, b->rc, rt);
    if (rel != NULL) {
      memcpy(rel + 12 * k, rt, 9 * sizeof(double));
      memcpy(rel + 12 * k + 9, pt, 3 * sizeof(double));
    }
    /* world pose: R_k = R_j R_T, p_k = p_j + R_j p_T */
    double *rk = rot + 9 * k, *pk = pos + 3 * k;
    matmul3(rot + 9 * j, rt, rk);
    mul3(rot + 9 * j, pt, pk);
    pk[0] += pos[3 * j];
    pk[1] += pos[3 * j + 1];
    pk[2] += pos[3 * j + 2];
    /* v_k = X_k v_j + S q_dot */
    double *vk = vel + 6 * k;
    motion_to_child(rt, pt, vel + 6 * j, vk);
    for (int i = 0; i < 6; i++) {
      vk[i] += b->s[i] * qd[k - 1];
    }
    if (acc != NULL) {
      /* a_k = X_k a_j + S q_ddot + v_k x (S q_dot), the motion cross product
         [w x m_v + v x m_w, w x m_w] */
      double *ak = acc + 6 * k, vj[6], c1[3], c2[3];
      motion_to_child(rt, pt, acc + 6 * j, ak);
      for (int i = 0; i < 6; i++) {
        vj[i] = b->s[i] * qd[k - 1];
        ak[i] += b->s[i] * (qdd != NULL ? qdd[k - 1] : 0.0);
      }
      cross3(vk + 3, vj, c1);
      cross3(vk, vj + 3, c2);
      ak[0] += c1[0] + c2[0];
      ak[1] += c1[1] + c2[1];
      ak[2] += c1[2] + c2[2];
      cross3(vk + 3, vj + 3, c1);
      ak[3] += c1[0];
      ak[4] += c1[1];
      ak[5] += c1[2];
    }
  }
}
