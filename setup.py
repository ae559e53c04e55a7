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

from glob import glob
import hashlib

from setuptools import Extension, find_packages, setup

package_name = 'uwv_hydro'

# The compiled core (uwv_hydro/physics/kernel.py loads it): build deps are a C compiler
# and the Python headers (rosdep: python3-dev).  Its sources are every _*.c and _*.h of
# uwv_hydro/physics, one file per concern (_kernel.h lists them).  The source hash lets
# the loader refuse a stale binary left in a source tree (symlink install) after a C
# file changed.  (uwv_hydro/physics/kernel.py kernel_sources: the same files, the same
# order)
KERNEL_SOURCES = sorted(glob('uwv_hydro/physics/_*.[ch]'))
KERNEL_DIGEST = hashlib.sha256()
for name in KERNEL_SOURCES:
    with open(name, 'rb') as f:
        KERNEL_DIGEST.update(f.read())
KERNEL_HASH = KERNEL_DIGEST.hexdigest()[:16]

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        ('share/' + package_name + '/launch', glob('launch/*.launch.py')),
        ('share/' + package_name + '/config', glob('config/*.yaml')),
        ('share/' + package_name + '/urdf', glob('urdf/*.urdf') + glob('urdf/*.xacro')
         + glob('urdf/*.sdf')),
        ('share/' + package_name + '/worlds', glob('worlds/*.sdf')),
        # `uwv-hydro` on the PATH of a sourced workspace (colcon adds <prefix>/bin);
        # the console scripts stay in lib/uwv_hydro for `ros2 run` (setup.cfg)
        ('bin', ['bin/uwv-hydro', 'bin/hydro_node']),
    ],
    ext_modules=[Extension(
        'uwv_hydro.physics._kernel',
        sources=[name for name in KERNEL_SOURCES if name.endswith('.c')],
        depends=[name for name in KERNEL_SOURCES if name.endswith('.h')],
        define_macros=[('UWV_KERNEL_SOURCE_HASH', '"%s"' % KERNEL_HASH)],
        extra_compile_args=['-O3', '-fno-math-errno']),
        # exact CSV text of float tables (uwv_hydro/modes/messages/csv_text.py)
        Extension('uwv_hydro.modes.messages._csv_text',
                  sources=['uwv_hydro/modes/messages/_csv_text.c'],
                  extra_compile_args=['-O2'])],
    install_requires=['setuptools'],
    zip_safe=False,
    maintainer='uwv_hydro maintainers',
    maintainer_email='maintainers@uwv-hydro.dev',
    description='Hydrostatics and hydrodynamics for underwater vehicles (dsros_hydro '
                'replacement) with a HIL simulate mode.',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'hydro_node = uwv_hydro.node.main:main',
            'uwv-hydro = uwv_hydro.cli.main:main',
        ],
    },
)
