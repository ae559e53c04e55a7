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
The YAML guard: same values as PyYAML's safe_load where it is safe, one error otherwise.

Hypothesis generates documents (nested mappings and lists of scalars), dumps them in
block and flow style and sometimes adds anchors and aliases, tags or extra nesting:
parse_yaml returns what yaml.safe_load returns, or raises DescriptionError naming the
source -- never a RecursionError or another exception.
"""

from hypothesis import given, HealthCheck, settings, strategies as st
import pytest
from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.yaml_safe import (
    check_params_files, LOADER, MAX_DEPTH, params_files, parse_yaml)
import yaml

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20),
                    st.floats(allow_nan=False), st.text(max_size=12))
KEYS = st.text(alphabet='abcdefghijklmnopqrstuvwxyz_.', min_size=1, max_size=10)
DOCS = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(KEYS, inner, max_size=5)), max_leaves=30)


def _depth(value):
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def test_the_c_loader_is_used():
    """The event parser is libyaml's (PyYAML's wheels and python3-yaml carry it)."""
    assert yaml.__with_libyaml__ and LOADER is yaml.CSafeLoader


@settings(max_examples=200, deadline=None, derandomize=True)
@given(doc=DOCS, flow=st.booleans())
def test_safe_documents_read_as_safe_load_reads_them(doc, flow):
    text = yaml.safe_dump(doc, default_flow_style=flow)
    assert parse_yaml(text, 'gen.yaml') == yaml.safe_load(text)


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(depth=st.integers(1, 3 * MAX_DEPTH), opener=st.sampled_from(['[', '{a: ', '- ']),
       closed=st.booleans())
def test_nesting_beyond_the_cap_is_an_error_naming_the_file(depth, opener, closed):
    if opener == '- ':
        text = ''.join('  ' * i + '-\n' for i in range(depth)) + '  ' * depth + '1\n'
    else:
        closer = {'[': ']', '{a: ': '}'}[opener]
        text = opener * depth + '1' + (closer * depth if closed else '')
    try:
        value = parse_yaml(text, 'deep.yaml')
    except DescriptionError as exc:
        assert exc.source == 'deep.yaml' and exc.reason
        if depth > MAX_DEPTH:
            return
        assert not closed or opener == '- '  # unclosed flow: malformed
        return
    assert depth <= MAX_DEPTH and _depth(value) == depth


@settings(max_examples=150, deadline=None, derandomize=True)
@given(doc=DOCS.filter(lambda d: isinstance(d, (dict, list)) and d),
       extra=st.sampled_from(['alias', 'tag', 'python', 'set', 'binary', 'duplicate',
                              'complex_key', 'two_documents']))
def test_aliases_tags_and_odd_structures_are_errors(doc, extra):
    body = yaml.safe_dump({'doc': doc}, default_flow_style=False)
    text = {
        'alias': 'a: &x [1, 2]\nb: *x\n' + body,
        'tag': 'a: !custom 1\n' + body,
        'python': 'a: !!python/object/apply:os.system ["true"]\n' + body,
        'set': 'a: !!set {x, y}\n' + body,
        'binary': 'a: !!binary aGVsbG8=\n' + body,
        'duplicate': body + 'doc: 2\n',
        'complex_key': '? [1, 2]\n: 3\n' + body,
        'two_documents': body + '---\n' + body,
    }[extra]
    with pytest.raises(DescriptionError) as info:
        parse_yaml(text, 'odd.yaml')
    assert info.value.source == 'odd.yaml' and info.value.line is not None


@settings(max_examples=200, deadline=None, derandomize=True)
@given(doc=DOCS, data=st.data())
def test_mutated_text_is_a_value_or_a_clear_error(doc, data):
    text = yaml.safe_dump(doc, default_flow_style=data.draw(st.booleans()))
    i = data.draw(st.integers(0, len(text)))
    text = text[:i] + data.draw(st.sampled_from(['[', '{', '&a ', '*a', '!t ', ':', '- ',
                                                 '"', '\t', '? '])) + text[i:]
    try:
        parse_yaml(text, 'm.yaml')
    except DescriptionError as exc:
        assert exc.source == 'm.yaml'


def test_lines_of_keys_and_items():
    doc = parse_yaml('a: 1\nb:\n  c: [1, 2]\n  d: x\n', 's')
    assert doc.key_lines == {'a': 1, 'b': 2} and doc['b'].key_lines == {'c': 3, 'd': 4}
    assert doc['b']['c'].line == 3


def test_params_file_guard(tmp_path):
    good = tmp_path / 'good.yaml'
    good.write_text('/**:\n  ros__parameters:\n    rate_hz: 50.0\n')
    bad = tmp_path / 'bad.yaml'
    bad.write_text('/**:\n  ros__parameters:\n    a: &x [1]\n    b: *x\n')
    argv = ['hydro_node', '--ros-args', '--params-file', str(good), '-p', 'x:=1']
    assert params_files(argv) == [str(good)]
    assert check_params_files(argv)[0]['/**']['ros__parameters']['rate_hz'] == 50.0
    with pytest.raises(DescriptionError, match='aliases') as info:
        check_params_files(argv + ['--params-file', str(bad)])
    assert info.value.source == str(bad) and info.value.line == 4
