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
Parse untrusted YAML safely while keeping the line of every key and item.

The text goes through libyaml's event parser (``yaml.CSafeLoader`` when PyYAML was
built with it, else the pure-Python ``SafeLoader``) and is built into plain dicts and
lists by one loop over the events -- no recursion, so 5000 nested ``[`` cannot
overflow the stack.  Limits, each an error naming the file and line:

* :data:`MAX_YAML_BYTES` of text, :data:`MAX_DEPTH` levels of nesting,
  :data:`MAX_NODES` scalars and collections in all, :data:`MAX_KEYS` keys in one
  mapping (a 4 MB file of 200 000 keys stops at the limit instead of being built);
* aliases (``*name``: no "billion laughs" graphs), tags other than the standard
  scalar/map/seq ones (no ``!!python/object``, no ``!custom``), keys that are not
  scalars, duplicate keys in one mapping, more than one document.

Mappings come back as :class:`YamlMap` (a dict with ``line`` and ``key_lines``),
sequences as :class:`YamlList` (a list with ``line``); lines are 1-based.
:func:`check_params_files` is the same guard for the ROS parameter files a node is
given (``--params-file`` in its arguments), to call before rcl parses them.
"""
import json
import sys
from typing import Any, Dict, List, Optional, Sequence

from uwv_hydro.description.errors import DescriptionError
from uwv_hydro.description.xml_safe import read_text_file
import yaml

#: Largest YAML text accepted (bytes).
MAX_YAML_BYTES = 5 * 1024 * 1024
#: Deepest nesting of mappings and sequences.
MAX_DEPTH = 32
#: Most scalars, mappings and sequences in one document.
MAX_NODES = 100_000
#: Most keys in one mapping.
MAX_KEYS = 10_000

#: The C parser when PyYAML has it (about 10x faster), else the Python one.
LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)

_STANDARD = 'tag:yaml.org,2002:'
_SCALAR_TAGS = tuple(_STANDARD + t for t in ('str', 'int', 'float', 'bool', 'null'))
_COLLECTION_TAGS = (None, '!', _STANDARD + 'map', _STANDARD + 'seq')


class YamlMap(dict):
    """A YAML mapping: a dict that knows its line and the line of each key."""

    def __init__(self, line: Optional[int] = None):
        super().__init__()
        self.line = line
        self.key_lines: Dict[Any, int] = {}

    def line_of(self, key) -> Optional[int]:
        """Return the line of ``key`` (the mapping's own line if unknown)."""
        return self.key_lines.get(key, self.line)


class YamlList(list):
    """A YAML sequence: a list that knows its line."""

    def __init__(self, line: Optional[int] = None):
        super().__init__()
        self.line = line


_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCTOR = yaml.constructor.SafeConstructor()
_FLOAT_MAX = sys.float_info.max


def _line(event) -> Optional[int]:
    mark = getattr(event, 'start_mark', None)
    return mark.line + 1 if mark is not None else None


def _scalar(event, source: str, key: Any = None):
    """Construct one scalar the way SafeLoader would (int, float, bool, null, str...)."""
    tag = event.tag
    if tag in (None, '!'):
        tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
    elif tag not in _SCALAR_TAGS:
        raise DescriptionError('unsupported YAML tag %s' % tag, source, line=_line(event))
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
    constructor = _CONSTRUCTOR.yaml_constructors.get(tag)
    if constructor is None:
        raise DescriptionError('unsupported YAML tag %s' % tag, source, line=_line(event))
    try:
        value = constructor(_CONSTRUCTOR, node)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        raise DescriptionError('bad YAML scalar %r: %s' % (event.value[:40], exc), source,
                               line=_line(event)) from None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _FLOAT_MAX:
        # every number is used as a float: an integer beyond ~1.8e308 has none
        raise DescriptionError('integer %s... (%d digits) is too large to be a number'
                               % (event.value[:12], len(event.value)), source,
                               None if key is None else str(key), line=_line(event))
    return value


class _Builder:
    """Build the document from events with an explicit stack."""

    def __init__(self, source: str):
        self.source = source
        self.stack: List[list] = []  # [container, pending_key, key_line]
        self.root: Any = None
        self.done = False
        self.nodes = 0

    def error(self, reason: str, event) -> DescriptionError:
        return DescriptionError(reason, self.source, line=_line(event))

    def add(self, value, event) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.error('more than %d YAML nodes (limit)' % MAX_NODES, event)
        if not self.stack:
            if self.done:
                raise self.error('more than one YAML document', event)
            self.root, self.done = value, True
            return
        frame = self.stack[-1]
        container = frame[0]
        if isinstance(container, YamlList):
            container.append(value)
        elif frame[1] is _NO_KEY:
            if isinstance(value, (YamlMap, YamlList)):
                raise self.error('a YAML key must be a scalar', event)
            try:
                hash(value)
            except TypeError:
                raise self.error('a YAML key must be a scalar', event) from None
            if value in container:
                raise self.error('duplicate key %r (first on line %s)'
                                 % (value, container.key_lines.get(value)), event)
            if len(container) >= MAX_KEYS:
                raise self.error('more than %d keys in one YAML mapping (limit)' % MAX_KEYS,
                                 event)
            frame[1], frame[2] = value, _line(event)
        else:
            container[frame[1]] = value
            container.key_lines[frame[1]] = frame[2]
            frame[1] = _NO_KEY

    def push(self, container, event) -> None:
        if event.tag not in _COLLECTION_TAGS:
            raise self.error('unsupported YAML tag %s' % event.tag, event)
        if len(self.stack) >= MAX_DEPTH:
            raise self.error('YAML nested deeper than %d levels (limit)' % MAX_DEPTH, event)
        self.add(container, event)
        self.stack.append([container, _NO_KEY, None])

    def feed(self, event) -> None:
        if isinstance(event, yaml.AliasEvent):
            raise self.error('YAML aliases (*%s) are not supported' % event.anchor, event)
        if isinstance(event, yaml.ScalarEvent):
            frame = self.stack[-1] if self.stack else None
            key = frame[1] if frame and isinstance(frame[0], YamlMap) else None
            self.add(_scalar(event, self.source, None if key is _NO_KEY else key), event)
        elif isinstance(event, yaml.MappingStartEvent):
            self.push(YamlMap(_line(event)), event)
        elif isinstance(event, yaml.SequenceStartEvent):
            self.push(YamlList(_line(event)), event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.stack.pop()


_NO_KEY = object()


def parse_yaml(text, source: str = '<yaml>') -> Any:
    """Return the one document of ``text`` as YamlMap/YamlList/scalars (None if empty)."""
    size = len(text.encode('utf-8') if isinstance(text, str) else text)
    if size > MAX_YAML_BYTES:
        raise DescriptionError('YAML text is %d bytes, larger than the %d-byte limit'
                               % (size, MAX_YAML_BYTES), source)
    builder = _Builder(source)
    loader = LOADER(text)
    try:
        while loader.check_event():
            builder.feed(loader.get_event())
    except yaml.YAMLError as exc:
        mark = getattr(exc, 'problem_mark', None)
        raise DescriptionError('malformed YAML: %s' % (getattr(exc, 'problem', None) or exc),
                               source, line=mark.line + 1 if mark is not None else None
                               ) from None
    finally:
        loader.dispose()
    return builder.root


def load_yaml_text_file(path: str) -> Any:
    """Read (size-capped) and parse the YAML file at ``path``."""
    return parse_yaml(read_text_file(path, MAX_YAML_BYTES), path)


def params_files(argv: Sequence[str]) -> List[str]:
    """Return the paths given with ``--params-file`` in a ROS command line."""
    return [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == '--params-file']


def check_params_files(argv: Sequence[str]) -> List[Any]:
    """
    Guard the ``--params-file`` YAML files of ``argv`` before rcl reads them.

    Raises DescriptionError (file, line, reason) on anything :func:`parse_yaml`
    rejects (size, depth, key count, aliases, tags, syntax); returns the documents.
    """
    return [load_yaml_text_file(path) for path in params_files(argv)]


def yaml_string(value: str) -> str:
    """Return a double-quoted YAML scalar (JSON string syntax is valid YAML)."""
    return json.dumps(str(value))
