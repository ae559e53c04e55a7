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
 * Classic RK4 sub-steps of an articulated vehicle (_tree_aba.c) with its joint servos,
 * brakes and the joints held at their position limits, as the Python sub-step of
 * uwv_hydro/modes/articulated_simulate_mode.py and modes/joint_stops.py does them when no
 * limit is crossed.  What needs the stops' impulse or the cut of a sub-step at a crossing
 * is left to Python: the call returns before such a sub-step.
 */
#include "_tree.h"

static double clamp(double v, double bound)
{
  return v > bound ? bound : (v < -bound ? -bound : v);
}

/* The servo torques at (q, qd) (articulated_simulate_mode.py _servo): a cascade, qdot_ref
   = clamp(w / 4 (q_cmd - q)) or the velocity command, torque = clamp(tau_s + I w (qdot_ref
   - qdot)); an effort command clamped; a locked joint's torque is solved for. */
static void servo_torques(const Servo *s, int n, const double *q, const double *qd,
                          double *tau)
{
  for (int j = 0; j < n; j++) {
    const int kind = (int)s->kind[j];
    if (kind == 2) {
      tau[j] = clamp(s->value[j], s->emax[j]);
    } else if (kind == 3) {
      tau[j] = 0.0;
    } else {
      double ref = kind == 0 ? 0.25 * s->w * (s->value[j] - q[j]) : s->value[j];
      ref = clamp(ref, s->vmax[j]);
      tau[j] = clamp(s->stat[j] + s->apparent[j] * s->w * (ref - qd[j]), s->emax[j]);
    }
  }
}

/* k = d/dt s = [dx, qd, qdd] with the joints in d->lock braked. */
static int stage(const Tree *t, TreeDyn *d, const double *s, double *k, const Servo *servo,
                 const double *wrench, const Flow *flow, const double *fin_rot)
{
  const int n = t->nb - 1;
  double *tau = d->rk + 5 * (13 + 2 * n), *torques = tau + n;
  servo_torques(servo, n, s + 13, s + 13 + n, tau);
  memcpy(k + 13, s + 13 + n, (size_t)n * sizeof(double));
  return uwv_tree_aba(t, d, s, s + 13, s + 13 + n, wrench, flow, fin_rot, tau, d->lock, k,
                      k + 13 + n, torques);
}

/* The free joints at a limit that the dynamics push outward, added to d->lock until none
   is (joint_stops.py JointStops.held); 1 when a joint is at a limit moving outward (the
   stop's impulse: Python's), -1 on an error. */
static int hold_at_limits(const Tree *t, TreeDyn *d, const double *s, const Servo *servo,
                          const double *lower, const double *upper, const double *wrench,
                          const Flow *flow, const double *fin_rot)
{
  const int n = t->nb - 1;
  const double *q = s + 13, *qd = s + 13 + n;
  int at = 0;
  for (int j = 0; j < n; j++) {
    d->at[j] = 0;
    if (d->lock[j]) {
      continue;
    }
    if ((q[j] <= lower[j] && qd[j] < 0.0) || (q[j] >= upper[j] && qd[j] > 0.0)) {
      return 1;
    }
    if ((q[j] <= lower[j] && qd[j] <= 0.0) || (q[j] >= upper[j] && qd[j] >= 0.0)) {
      d->at[j] = 1;
      at++;
    }
  }
  double *k = d->rk;
  for (int round = 0; round < at; round++) {
    if (stage(t, d, s, k, servo, wrench, flow, fin_rot) < 0) {
      return -1;
    }
    int more = 0;
    for (int j = 0; j < n; j++) {
      const double qdd = k[13 + n + j];
      if (d->at[j] && !d->lock[j] && (q[j] <= lower[j] ? qdd <= 0.0 : qdd >= 0.0)) {
        d->lock[j] = 1;
        more = 1;
      }
    }
    if (!more) {
      break;
    }
  }
  return 0;
}

/* The servos' apparent inertias and static torques at the step's start (held over it):
   zero when no joint has a position or velocity command. */
static int servo_terms(const Tree *t, TreeDyn *d, const double *s, const Servo *servo)
{
  const int n = t->nb - 1;
  int any = 0;
  for (int j = 0; j < n; j++) {
    const int kind = (int)servo->kind[j];
    any |= kind == 0 || kind == 1;
  }
  if (!any) {
    memset(servo->apparent, 0, (size_t)n * sizeof(double));
    memset(servo->stat, 0, (size_t)n * sizeof(double));
    return 0;
  }
  if (uwv_tree_apparent(t, d, s, s + 13, servo->apparent) < 0) {
    return -1;
  }
  return uwv_tree_static(t, d, s, s + 13, servo->stat);
}

int uwv_tree_rk4(const Tree *t, TreeDyn *d, double *s, double h, int n_sub,
                 const Servo *servo, int terms, const double *lower, const double *upper,
                 const double *wrench, const Flow *flow, const double *fin_rot, double *end,
                 int *ended)
{
  const int n = t->nb - 1, m = 13 + 2 * n;
  double *k1 = d->rk, *k2 = k1 + m, *k3 = k2 + m, *k4 = k3 + m, *y = k4 + m;
  *ended = 0;
  if (terms && servo_terms(t, d, s, servo) < 0) {
    return -1;
  }
  for (int i = 0; i <= n_sub; i++) {
    for (int j = 0; j < n; j++) {
      d->lock[j] = (int)servo->kind[j] == 3;
    }
    int rc = hold_at_limits(t, d, s, servo, lower, upper, wrench, flow, fin_rot);
    if (rc != 0) {
      return rc < 0 ? -1 : i;
    }
    if (i == n_sub) {
      /* the last state's derivative and torques, with the joints held there */
      double *tau = d->rk + 5 * m;
      servo_torques(servo, n, s + 13, s + 13 + n, tau);
      if (end != NULL && uwv_tree_aba(t, d, s, s + 13, s + 13 + n, wrench, flow, fin_rot,
                                      tau, d->lock, end, end + 13, end + 13 + n) < 0) {
        return -1;
      }
      *ended = end != NULL;
      break;
    }
    /* classic RK4 */
    if (stage(t, d, s, k1, servo, wrench, flow, fin_rot) < 0) {
      return -1;
    }
    for (int e = 0; e < m; e++) {
      y[e] = s[e] + 0.5 * h * k1[e];
    }
    if (stage(t, d, y, k2, servo, wrench, flow, fin_rot) < 0) {
      return -1;
    }
    for (int e = 0; e < m; e++) {
      y[e] = s[e] + 0.5 * h * k2[e];
    }
    if (stage(t, d, y, k3, servo, wrench, flow, fin_rot) < 0) {
      return -1;
    }
    for (int e = 0; e < m; e++) {
      y[e] = s[e] + h * k3[e];
    }
    if (stage(t, d, y, k4, servo, wrench, flow, fin_rot) < 0) {
      return -1;
    }
    for (int e = 0; e < m; e++) {
      y[e] = s[e] + (h / 6.0) * (k1[e] + 2.0 * k2[e] + 2.0 * k3[e] + k4[e]);
    }
    const double norm = sqrt(y[3] * y[3] + y[4] * y[4] + y[5] * y[5] + y[6] * y[6]);
    for (int e = 3; e < 7; e++) {
      y[e] /= norm;
    }
    /* a free joint past a limit: the cut at the crossing and the stop are Python's */
    for (int j = 0; j < n; j++) {
      const double qj = y[13 + j];
      if (!d->lock[j] && (qj < lower[j] || qj > upper[j])) {
        return i;
      }
    }
    memcpy(s, y, (size_t)m * sizeof(double));
  }
  return n_sub;
}
