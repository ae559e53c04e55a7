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
 * CSV text of a table of doubles, exactly as Python writes repr() of each float: the
 * shortest decimal that reads back to the same double, the closest such one, in repr's
 * layout (uwv_hydro/modes/messages/csv_text.py loads it; its tests compare with repr()).
 *
 * How: v = m 2^e2 is scaled to D = v 10^q in [1e16, 1e17) in 64.64 fixed point from a
 * 128-bit table of 10^q (made exactly with Python integers by csv_text.py), with the
 * half-gaps to the neighbouring doubles h- and h+ in the same units.  For n = 1..17 the
 * two n-digit decimals around D are tried; the first n with one strictly inside
 * (D - h-, D + h+) gives the shortest, the closer of the two if both are (David Gay's
 * dtoa mode 0, which repr uses, picks the same).  The fixed-point error is below 2^-60 of
 * a unit in the 17th digit; where a distance is within 2^-40 units of a boundary (ties
 * and exact boundaries: round-half-even decides there) the value goes to Python's own
 * PyOS_double_to_string instead.  So the output is repr's, byte for byte.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

/* The longest repr of a double ("-2.2250738585072014e-308") is 24 characters. */
#define MAX_REPR 32
#define QMIN (-292)
#define QMAX 340
#define NQ (QMAX - QMIN + 1)

/* 10^q ~= (hi 2^64 + lo) 2^exp, the mantissa in [2^127, 2^128). */
static uint64_t pow_hi[NQ], pow_lo[NQ];
static int pow_exp[NQ];
static int table_ready = 0;

static const uint64_t POW10[18] = {
  1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
  100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
  10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
  100000000000000000ULL,
};

/* (m * (hi 2^64 + lo)) >> s as 128 bits, for 0 < s < 192 with the result below 2^128. */
static int mul_shift(uint64_t m, uint64_t hi, uint64_t lo, int s, u128 *out)
{
  u128 a = (u128)m * lo, b = (u128)m * hi;
  uint64_t l0 = (uint64_t)a;
  u128 mid = (a >> 64) + (uint64_t)b;
  uint64_t l1 = (uint64_t)mid;
  uint64_t l2 = (uint64_t)((b >> 64) + (mid >> 64));
  if (s <= 0 || s >= 192) {
    return 0;
  }
  if (s >= 128) {
    *out = (u128)(l2 >> (s - 128));
  } else if (s >= 64) {
    *out = (((u128)l2 << 64) | l1) >> (s - 64);
  } else {
    if ((l2 >> s) != 0) {            /* the result would not fit in 128 bits */
      return 0;
    }
    *out = ((((u128)l2 << 64) | l1) << (64 - s)) | (l0 >> s);
  }
  return 1;
}

/* The two decimals on the grid of ``step`` units around D = d_int + d_frac 2^-64: 1 and
   the closer one inside (D - h_low, D + h_high) in *pick, 0 when neither is, -1 when a
   distance is too near a boundary (or the two too near each other) to decide here. */
static int probe(uint64_t d_int, uint64_t d_frac, uint64_t step, u128 h_low, u128 h_high,
                 uint64_t *pick)
{
  const u128 margin = (u128)1 << 24;   /* 2^-40 of a unit in the 17th digit */
  uint64_t rem = d_int % step;
  u128 dlo = ((u128)rem << 64) | d_frac;
  u128 dhi = ((u128)step << 64) - dlo;
  if ((dlo > h_low ? dlo - h_low : h_low - dlo) <= margin
      || (dhi > h_high ? dhi - h_high : h_high - dhi) <= margin) {
    return -1;
  }
  int in_lo = dlo < h_low, in_hi = dhi < h_high;
  if (!in_lo && !in_hi) {
    return 0;
  }
  if (in_lo && in_hi) {
    if ((dlo > dhi ? dlo - dhi : dhi - dlo) <= margin) {
      return -1;
    }
    in_lo = dlo < dhi;
  }
  *pick = in_lo ? d_int - rem : d_int - rem + step;
  return 1;
}

/* Shortest digits of finite v > 0: returns the digit count, 0 when undecided. */
static int shortest(double v, uint64_t *digits, int *decpt)
{
  int e;
  double fr = frexp(v, &e);            /* v = fr 2^e, fr in [0.5, 1) */
  uint64_t m = (uint64_t)ldexp(fr, 53);
  int e2 = e - 53;
  int is_sub = 0;
  if (e2 < -1074) {                    /* subnormal: integer mantissa at 2^-1074 */
    m >>= (-1074 - e2);
    e2 = -1074;
    is_sub = 1;
  }
  int k = (int)floor(log10(v));
  for (int attempt = 0; attempt < 3; ++attempt) {
    int q = 16 - k;
    if (q < QMIN || q > QMAX) {
      return 0;
    }
    int i = q - QMIN;
    int s = -(e2 + pow_exp[i] + 64);
    u128 d;
    if (!mul_shift(m, pow_hi[i], pow_lo[i], s, &d)) {
      return 0;
    }
    u128 low = (u128)POW10[16] << 64, high = (u128)POW10[17] << 64;
    if (d < low) {
      --k;
      continue;
    }
    if (d >= high) {
      ++k;
      continue;
    }
    u128 h;
    if (!mul_shift(1, pow_hi[i], pow_lo[i], s + 1, &h)) {
      return 0;
    }
    /* below a power of two the gap to the lower neighbour is half as large */
    u128 h_low = (!is_sub && m == (1ULL << 52) && e2 > -1074) ? h / 2 : h;
    u128 h_high = h;
    uint64_t d_int = (uint64_t)(d >> 64), d_frac = (uint64_t)d;
    /* inside(n) is monotone in n (an n-digit decimal is also an (n+1)-digit one) and
       true at n = 17 (the nearest integer is within 0.5 units, a half-gap is >= 0.55):
       bisect for the smallest n where it holds */
    int lo_n = 0, hi_n = 17, have = 0;
    uint64_t best = 0, pick = 0;
    while (hi_n - lo_n > 1) {
      int n = (lo_n + hi_n) / 2;
      int r = probe(d_int, d_frac, POW10[17 - n], h_low, h_high, &pick);
      if (r < 0) {
        return 0;
      }
      if (r > 0) {
        hi_n = n;
        best = pick;
        have = 1;
      } else {
        lo_n = n;
      }
    }
    if (!have) {
      if (probe(d_int, d_frac, 1, h_low, h_high, &best) <= 0) {
        return 0;
      }
    }
    int n = hi_n;
    uint64_t dg = best / POW10[17 - n];
    int dp = k + 1;
    if (dg == POW10[n]) {              /* 9.99.. rounded up to 10.0 */
      dg = POW10[n - 1];
      ++dp;
    }
    int count = n;
    while (count > 1 && dg % 10 == 0) {
      dg /= 10;
      --count;
    }
    *digits = dg;
    *decpt = dp;
    return count;
  }
  return 0;
}

/* repr's layout (float_repr_style 'short'): fixed for -4 < decpt <= 16, else exponent. */
static char *layout(char *dst, int negative, uint64_t digits, int count, int decpt)
{
  char buf[20];
  for (int j = count - 1; j >= 0; --j) {
    buf[j] = (char)('0' + digits % 10);
    digits /= 10;
  }
  if (negative) {
    *dst++ = '-';
  }
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      *dst++ = '0';
      *dst++ = '.';
      for (int j = 0; j < -decpt; ++j) {
        *dst++ = '0';
      }
      memcpy(dst, buf, count);
      dst += count;
    } else if (decpt >= count) {
      memcpy(dst, buf, count);
      dst += count;
      for (int j = count; j < decpt; ++j) {
        *dst++ = '0';
      }
      *dst++ = '.';
      *dst++ = '0';
    } else {
      memcpy(dst, buf, decpt);
      dst += decpt;
      *dst++ = '.';
      memcpy(dst, buf + decpt, count - decpt);
      dst += count - decpt;
    }
    return dst;
  }
  *dst++ = buf[0];
  if (count > 1) {
    *dst++ = '.';
    memcpy(dst, buf + 1, count - 1);
    dst += count - 1;
  }
  int x = decpt - 1;
  *dst++ = 'e';
  *dst++ = x < 0 ? '-' : '+';
  if (x < 0) {
    x = -x;
  }
  if (x >= 100) {
    *dst++ = (char)('0' + x / 100);
  }
  *dst++ = (char)('0' + (x / 10) % 10);
  *dst++ = (char)('0' + x % 10);
  return dst;
}

/* One value as repr writes it; returns the end of the text. */
static char *repr_double(char *dst, double v)
{
  if (v == 0.0 || !isfinite(v)) {
    const char *text = isnan(v) ? "nan" : isinf(v) ? (v > 0 ? "inf" : "-inf")
      : (signbit(v) ? "-0.0" : "0.0");
    size_t len = strlen(text);
    memcpy(dst, text, len);
    return dst + len;
  }
  uint64_t digits;
  int decpt;
  int count = shortest(fabs(v), &digits, &decpt);
  if (count > 0) {
    return layout(dst, v < 0, digits, count, decpt);
  }
  char *text = PyOS_double_to_string(v, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
  if (text == NULL) {
    return NULL;
  }
  size_t len = strlen(text);
  if (len > MAX_REPR) {
    len = MAX_REPR;
  }
  memcpy(dst, text, len);
  PyMem_Free(text);
  return dst + len;
}

static PyObject *py_set_table(PyObject *self, PyObject *args)
{
  Py_buffer hi, lo, ex;
  (void)self;
  if (!PyArg_ParseTuple(args, "y*y*y*", &hi, &lo, &ex)) {
    return NULL;
  }
  int ok = hi.len == NQ * 8 && lo.len == NQ * 8 && ex.len == NQ * 8;
  if (ok) {
    const int64_t *e = (const int64_t *)ex.buf;
    memcpy(pow_hi, hi.buf, sizeof(pow_hi));
    memcpy(pow_lo, lo.buf, sizeof(pow_lo));
    for (int i = 0; i < NQ; ++i) {
      pow_exp[i] = (int)e[i];
    }
    table_ready = 1;
  }
  PyBuffer_Release(&hi);
  PyBuffer_Release(&lo);
  PyBuffer_Release(&ex);
  if (!ok) {
    PyErr_Format(PyExc_ValueError, "set_table: need %d entries of 8 bytes each", NQ);
    return NULL;
  }
  Py_RETURN_NONE;
}

static PyObject *py_rows(PyObject *self, PyObject *args)
{
  Py_buffer view;
  Py_ssize_t ncols;
  (void)self;
  if (!table_ready) {
    PyErr_SetString(PyExc_RuntimeError, "rows: set_table() first");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "y*n", &view, &ncols)) {
    return NULL;
  }
  Py_ssize_t count = view.len / (Py_ssize_t)sizeof(double);
  if (ncols < 1 || view.len % (Py_ssize_t)sizeof(double) != 0 || count % ncols != 0) {
    PyBuffer_Release(&view);
    PyErr_SetString(PyExc_ValueError, "rows: need a whole number of rows of doubles");
    return NULL;
  }
  const double *values = (const double *)view.buf;
  PyObject *out = PyBytes_FromStringAndSize(NULL, count * (MAX_REPR + 1) + 1);
  if (out == NULL) {
    PyBuffer_Release(&view);
    return NULL;
  }
  char *dst = PyBytes_AS_STRING(out);
  char *start = dst;
  for (Py_ssize_t i = 0; i < count; ++i) {
    dst = repr_double(dst, values[i]);
    if (dst == NULL) {
      Py_DECREF(out);
      PyBuffer_Release(&view);
      return NULL;
    }
    *dst++ = ((i + 1) % ncols == 0) ? '\n' : ',';
  }
  PyBuffer_Release(&view);
  if (_PyBytes_Resize(&out, dst - start) < 0) {
    return NULL;
  }
  return out;
}

static PyMethodDef methods[] = {
  {"set_table", py_set_table, METH_VARARGS,
   "set_table(hi, lo, exp): the 128-bit powers of ten 10^q, q = QMIN..QMAX"},
  {"rows", py_rows, METH_VARARGS,
   "rows(buffer of float64, ncols) -> bytes: one CSV line per row, each value as repr"},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
  PyModuleDef_HEAD_INIT, "_csv_text",
  "Exact CSV text of float tables (see uwv_hydro/modes/messages/csv_text.py).", -1,
  methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__csv_text(void)
{
  PyObject *mod = PyModule_Create(&module);
  if (mod == NULL) {
    return NULL;
  }
  if (PyModule_AddIntConstant(mod, "QMIN", QMIN) < 0
      || PyModule_AddIntConstant(mod, "QMAX", QMAX) < 0) {
    Py_DECREF(mod);
    return NULL;
  }
  return mod;
}
