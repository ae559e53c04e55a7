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
Golden `uwv-hydro check --json` summaries of every vehicle file of the repository.

Vehicles: config/*, urdf/*, worlds/*, test/corpus/** (every file: a part that is not a
vehicle has its error as golden).  Regenerate after a change meant to alter a summary,
and read the diff of test/golden/check_json/ before committing it:

    tools/run python test/helpers/check_json_golden.py
"""
import contextlib
import io
import json
import pathlib
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = REPO / 'test' / 'golden' / 'check_json'


def vehicles():
    """Return the vehicle files, relative to the repository, sorted."""
    found = []
    for pattern in ('config/*', 'urdf/*', 'worlds/*', 'test/corpus/**/*'):
        found += [p for p in REPO.glob(pattern) if p.is_file()]
    return sorted(p.relative_to(REPO).as_posix() for p in found)


def golden_path(vehicle):
    """Return the golden file of a vehicle."""
    return GOLDEN / (vehicle.replace('/', '__') + '.json')


def check_json(vehicle):
    """Return {'exit': code, 'stdout': parsed JSON or text, 'stderr': text} of check --json."""
    from uwv_hydro.cli.main import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(['check', str(REPO / vehicle), '--json'])
    text = out.getvalue().replace(str(REPO), '<REPO>')
    try:
        stdout = json.loads(text)
    except ValueError:
        stdout = text
    return {'exit': code, 'stdout': stdout,
            'stderr': err.getvalue().replace(str(REPO), '<REPO>')}


def main():
    """Write the golden file of every vehicle (and drop those of vehicles gone)."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    names = set()
    for vehicle in vehicles():
        path = golden_path(vehicle)
        names.add(path.name)
        path.write_text(json.dumps(check_json(vehicle), indent=1, sort_keys=True) + '\n',
                        encoding='utf-8')
    for path in GOLDEN.glob('*.json'):
        if path.name not in names:
            path.unlink()
    print('%d golden summaries in %s' % (len(names), GOLDEN.relative_to(REPO)))


if __name__ == '__main__':
    sys.path.insert(0, str(REPO))
    main()
