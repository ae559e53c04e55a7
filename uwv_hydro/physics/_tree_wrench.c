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
 * The per-link hydro wrench of a kinematic tree in one call (part of _kernel).
 *
 * Forward kinematics of a floating base with revolute and prismatic joints
 * (_tree_kinematics.c), then every link part's buoyancy, drag and added-mass terms on
 * its own twist (_tree_part.c, the equations of uwv_hydro/physics/articulated/algorithms/link_wrench.py),
 * summed per link, per body and at the base.  The layouts (packed model, outputs) are
 * documented and packed by uwv_hydro/physics/articulated/algorithms/tree_wrench.py; the Python implementation
 * the node used before (Pinocchio's forward kinematics and PartWrenches) is the
 * reference of its tests.
 */
#include "_tree.h"
#include "_vec3.h"

/*
 * tree_wrench(tree, position|None, quaternion [w x y z], nu, q, qd, base_acc|None,
 *             qdd|None, current|None, current_rate|None, engine_added_mass, apply_weight,
 *             out): fills out (tree_wrench.py's layout) with the components at the base,
 *             every link's and body's wrench and pose, every body's twist and acceleration.
 */
PyObject *uwv_py_tree_wrench(PyObject *self, PyObject *args)
{
  PyObject *cap, *pos_obj, *quat_obj, *nu_obj, *q_obj, *qd_obj, *acc_obj, *qdd_obj;
  PyObject *cur_obj, *rate_obj, *out_obj;
  int engine_added_mass, apply_weight;
  if (!PyArg_ParseTuple(args, "OOOOOOOOOOppO", &cap, &pos_obj, &quat_obj, &nu_obj, &q_obj,
                        &qd_obj, &acc_obj, &qdd_obj, &cur_obj, &rate_obj,
                        &engine_added_mass, &apply_weight, &out_obj)) {
    return NULL;
  }
  Tree *t = PyCapsule_GetPointer(cap, UWV_TREE_CAPSULE);
  if (t == NULL) {
    return NULL;
  }
  const int nb = t->nb, nl = t->nl, nj = t->nb - 1;
  double p0[3] = {0.0, 0.0, 0.0}, quat[4], nu[6], acc0[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  int have_pos, have_acc, have_qdd;
  Flow flow;
  if (uwv_read_optional(pos_obj, p0, 3, "position", &have_pos) < 0
      || uwv_read_vector(quat_obj, quat, 4, "quaternion") < 0
      || uwv_read_vector(nu_obj, nu, 6, "twist") < 0
      || uwv_read_optional(acc_obj, acc0, 6, "base acceleration", &have_acc) < 0
      || uwv_read_optional(cur_obj, flow.current, 3, "current", &flow.have_current) < 0
      || uwv_read_optional(rate_obj, flow.rate, 3, "current rate", &flow.have_rate) < 0) {
    return NULL;
  }
  flow.submerged_only = !have_pos;
  flow.engine_added_mass = engine_added_mass;
  have_qdd = qdd_obj != Py_None;
  Py_buffer qb, qdb, qddb, ob;
  int got = 0;
  PyObject *result = NULL;
  if (uwv_get_array(q_obj, &qb, nj, 0, "joint positions") < 0) {
    return NULL;
  }
  got = 1;
  if (uwv_get_array(qd_obj, &qdb, nj, 0, "joint velocities") < 0) {
    goto done;
  }
  got = 2;
  if (have_qdd) {
    if (uwv_get_array(qdd_obj, &qddb, nj, 0, "joint accelerations") < 0) {
      goto done;
    }
  }
  got = 3;
  const Py_ssize_t size = (Py_ssize_t)t->n_comp * 6 + (Py_ssize_t)nl * 18
      + (Py_ssize_t)nb * 30;
  if (uwv_get_array(out_obj, &ob, size, 1, "out") < 0) {
    goto done;
  }
  got = 4;
  double *values = ob.buf;
  double *links = values + t->n_comp * 6, *link_pos = links + nl * 6;
  double *link_rot = link_pos + nl * 3, *body_total = link_rot + nl * 9;
  double *pos = body_total + nb * 6, *rot = pos + nb * 3, *vel = rot + nb * 9;
  double *acc = vel + nb * 6;
  const int with_acc = have_acc || have_qdd;
  memset(values, 0, (size_t)(t->n_comp * 6 + nl * 6) * sizeof(double));
  memset(body_total, 0, (size_t)nb * 6 * sizeof(double));
  uwv_tree_kinematics(t, p0, quat, nu, qb.buf, qdb.buf, acc0, have_qdd ? qddb.buf : NULL,
                      pos, rot, vel, with_acc ? acc : NULL, NULL);
  if (!with_acc) {
    memset(acc, 0, (size_t)nb * 6 * sizeof(double));
  }
  const double *r0 = rot;
  for (int k = 0; k < t->np; k++) {
    const TreePart *q = &t->parts[k];
    /* the part's pose and twist, its acceleration by X_P */
    double r[9], p[3], nu_l[6], a_l[6], rows[TREE_HYDRO][6];
    uwv_tree_part_frame(q, rot + 9 * q->body, pos + 3 * q->body, vel + 6 * q->body, r, p,
                        nu_l);
    if (with_acc) {
      motion_to_child(q->r, q->p, acc + 6 * q->body, a_l);
    }
    if (uwv_tree_part_rows(t, q, r, p, nu_l, with_acc ? a_l : NULL, &flow, rows) < 0) {
      goto done;
    }
    double rel[9], rel_p[3], total[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    pose_in_base(r0, p0, r, p, rel, rel_p);
    for (int c = 0; c < TREE_HYDRO; c++) {
      add_wrench_in_parent(rel, rel_p, rows[c], values + 6 * t->c_hydro[c]);
      for (int i = 0; i < 6; i++) {
        total[i] += rows[c][i];
      }
    }
    /* the link's wrench (the part frame is its link's), the body's (moved by X_P^T) */
    for (int i = 0; i < 6; i++) {
      links[6 * q->row + i] += total[i];
    }
    add_wrench_in_parent(q->r, q->p, total, body_total + 6 * q->body);
  }
  if (apply_weight) {
    for (int k = 0; k < nb; k++) {
      const TreeBody *b = &t->bodies[k];
      const double *rb = rot + 9 * k;
      double wr[6], rel[9], rel_p[3];
      uwv_tree_weight(b, rb, wr);
      pose_in_base(r0, p0, rb, pos + 3 * k, rel, rel_p);
      add_wrench_in_parent(rel, rel_p, wr, values + 6 * t->c_weight);
      for (int i = 0; i < 6; i++) {
        if (b->row >= 0) {
          links[6 * b->row + i] += wr[i];
        }
        body_total[6 * k + i] += wr[i];
      }
    }
  }
  for (int k = 0; k < nl; k++) {
    /* each link's world pose: p_b + R_b p_l, R_b R_l */
    const TreeRow *w = &t->rows[k];
    const double *rb = rot + 9 * w->body;
    mul3(rb, w->p, link_pos + 3 * k);
    for (int i = 0; i < 3; i++) {
      link_pos[3 * k + i] += pos[3 * w->body + i];
    }
    matmul3(rb, w->r, link_rot + 9 * k);
  }
  result = Py_None;
  Py_INCREF(result);
done:
  if (got >= 1) {
    PyBuffer_Release(&qb);
  }
  if (got >= 2) {
    PyBuffer_Release(&qdb);
  }
  if (got >= 3 && have_qdd) {
    PyBuffer_Release(&qddb);
  }
  if (got >= 4) {
    PyBuffer_Release(&ob);
  }
  return result;
}
