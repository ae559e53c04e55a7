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

"""The one exception type every loader raises for bad input."""

from typing import Optional


class DescriptionError(ValueError):
    """A vehicle description is invalid: names the file, element, line and reason."""

    def __init__(self, reason: str, source: str = '', element: str = '',
                 line: Optional[int] = None):
        self.reason = reason
        self.source = source
        self.element = element
        self.line = line
        super().__init__(self.describe())

    def describe(self) -> str:
        """Return 'file:line: element: reason' with the parts that are known."""
        # a command-line option names no file: 'element: reason' (element: the option)
        where = self.source
        if self.line is not None:
            where = '%s:%d' % (self.source or '<description>', self.line)
        return ': '.join(part for part in (where, self.element, self.reason) if part)


def missing_file(path: str, element: str = '', what: str = 'vehicle description file') -> None:
    """Raise DescriptionError unless ``path`` is a file: name what it is instead."""
    import os
    if os.path.isdir(path):
        raise DescriptionError('a directory, not a %s' % what, path, element)
    if not os.path.isfile(path):
        raise DescriptionError('no such file', path, element)
