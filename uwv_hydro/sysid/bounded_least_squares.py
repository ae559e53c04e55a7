# Copyright 2026 The uwv_hydro Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Least squares with sign bounds, column scaling and ridge regularisation (numpy only).

Solves  min ||A x - b||^2 + ridge ||D x||^2  subject to  x_j >= 0 for the columns in
``nonnegative`` (the others are free), where D scales every column of A to unit norm
(so ``ridge`` is relative and unit-free).  The algorithm is Lawson and Hanson's
active-set NNLS (Solving Least Squares Problems, 1974, ch. 23) with the free columns
always in the passive set; it terminates in finitely many steps and is exact for the
small problems here (tens of unknowns).
"""

from dataclasses import dataclass

import numpy as np


@dataclass
class BoundedSolution:
    """Solution of :func:`bounded_lstsq`."""

    x: np.ndarray          # (p,) estimate
    at_bound: np.ndarray   # (p,) bool: a nonnegative coefficient held at 0
    residual: np.ndarray   # (n,) b - A x
    iterations: int


def _solve(a, b, cols, ridge):
    """Return the ridge least-squares solution restricted to ``cols`` (others zero)."""
    x = np.zeros(a.shape[1])
    if not cols:
        return x
    sub = a[:, cols]
    if ridge > 0.0:
        # Ridge as extra rows sqrt(ridge) I (columns are unit norm here)
        sub = np.vstack([sub, np.sqrt(ridge) * np.eye(len(cols))])
        rhs = np.concatenate([b, np.zeros(len(cols))])
    else:
        rhs = b
    x[cols] = np.linalg.lstsq(sub, rhs, rcond=None)[0]
    return x


def bounded_lstsq(a, b, nonnegative=None, ridge: float = 0.0,
                  max_iterations: int = 500) -> BoundedSolution:
    """
    Return the bounded, ridge-regularised least-squares solution of A x = b.

    ``nonnegative``: (p,) bool mask of coefficients constrained to x >= 0 (None: none).
    ``ridge``: relative Tikhonov weight on the column-normalised unknowns.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    p = a.shape[1]
    nonneg = np.zeros(p, bool) if nonnegative is None else np.asarray(nonnegative, bool)
    norms = np.linalg.norm(a, axis=0)
    norms[norms == 0.0] = 1.0
    an = a / norms
    free = [j for j in range(p) if not nonneg[j]]
    passive = set(free)
    x = _solve(an, b, sorted(passive), ridge)
    if len(passive) < p:
        # The unconstrained solution within the bounds is the optimum (every KKT
        # multiplier zero): the very solve the active set would end with, done at once
        full = _solve(an, b, list(range(p)), ridge)
        if np.all(full[nonneg] > 0.0):
            x, passive = full, set(range(p))
    tol = 10.0 * np.finfo(float).eps * max(1.0, np.linalg.norm(an, 1)) * max(
        1.0, float(np.linalg.norm(b)))
    it = 0
    # Ridge gradient term: the objective is ||A x - b||^2 + ridge ||x||^2 (scaled x)
    while it < max_iterations:
        it += 1
        w = an.T @ (b - an @ x) - ridge * x
        candidates = [j for j in range(p) if nonneg[j] and j not in passive and w[j] > tol]
        if not candidates:
            break
        passive.add(max(candidates, key=lambda j: w[j]))
        # Lawson-Hanson inner loop: step back until the passive bounded set is feasible
        while True:
            z = _solve(an, b, sorted(passive), ridge)
            bad = [j for j in passive if nonneg[j] and z[j] <= 0.0]
            if not bad:
                x = z
                break
            alpha = min(x[j] / (x[j] - z[j]) for j in bad)
            x = x + alpha * (z - x)
            for j in list(passive):
                if nonneg[j] and x[j] <= tol:
                    passive.discard(j)
                    x[j] = 0.0
    x = np.where(nonneg & (x < 0.0), 0.0, x)
    at_bound = nonneg & np.array([j not in passive for j in range(p)])
    xs = x / norms
    return BoundedSolution(xs, at_bound, b - a @ xs, it)


def covariance(a, residual, free_mask, dof_factor: float = 1.0) -> np.ndarray:
    """
    Return the (p, p) covariance sigma^2 (A_f^T A_f)^-1 of the free (not at bound) columns.

    sigma^2 = RSS / (n - p_f), multiplied by ``dof_factor`` (>= 1) to account for
    correlated residuals (n / n_effective).  Rows/columns of bound coefficients are 0.
    """
    a = np.asarray(a, dtype=float)
    p = a.shape[1]
    cols = np.flatnonzero(np.asarray(free_mask, bool))
    cov = np.zeros((p, p))
    if cols.size == 0:
        return cov
    n = a.shape[0]
    dof = max(n - cols.size, 1)
    sigma2 = float(residual @ residual) / dof * dof_factor
    sub = a[:, cols]
    norms = np.linalg.norm(sub, axis=0)
    norms[norms == 0.0] = 1.0
    gram = (sub / norms).T @ (sub / norms)
    inv = np.linalg.pinv(gram) / np.outer(norms, norms)
    cov[np.ix_(cols, cols)] = sigma2 * inv
    return cov
