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
Name the OpenBLAS kernel numpy runs here, and pick another one for a second test run.

``python tools/openblas_core.py`` prints the core in effect (OpenBLAS chooses it from the
CPU unless ``OPENBLAS_CORETYPE`` says otherwise).  ``--alternate`` prints a core type
that this CPU can run and that rounds differently (x86_64: the SSE3 ``Prescott`` kernels,
or ``Nehalem`` when Prescott is already in use; aarch64: the generic ``ARMV8``), or
nothing when there is none or when the machine sets ``OPENBLAS_CORETYPE`` itself (it
does so where older kernels compute wrong results: that choice is left alone).
"""
import ctypes
import glob
import os
import platform
import sys

import numpy


def core_name() -> str:
    """Return the name of the OpenBLAS kernel numpy's BLAS runs, or '' if not OpenBLAS."""
    libs = os.path.join(os.path.dirname(numpy.__path__[0]), 'numpy.libs')
    for path in glob.glob(os.path.join(libs, '*openblas*.so*')):
        lib = ctypes.CDLL(path)
        for symbol in ('scipy_openblas_get_corename64_', 'scipy_openblas_get_corename',
                       'openblas_get_corename64_', 'openblas_get_corename'):
            func = getattr(lib, symbol, None)
            if func is not None:
                func.restype = ctypes.c_char_p
                return func().decode()
    return ''


def alternate(current: str) -> str:
    """Return a core type other than ``current`` that this CPU runs, or ''."""
    if os.environ.get('OPENBLAS_CORETYPE') or not current:
        return ''
    machine = platform.machine().lower()
    if machine in ('x86_64', 'amd64'):
        # OpenBLAS maps Prescott to its SSE3 kernels (reported as Katmai)
        return 'Nehalem' if current.lower() in ('prescott', 'katmai') else 'Prescott'
    if machine in ('aarch64', 'arm64'):
        return '' if current.upper() == 'ARMV8' else 'ARMV8'
    return ''


if __name__ == '__main__':
    name = core_name()
    print(alternate(name) if sys.argv[1:] == ['--alternate'] else name)
