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
        where = self.source or '<description>'
        if self.line is not None:
            where += ':%d' % self.line
        if self.element:
            where += ': ' + self.element
        return '%s: %s' % (where, self.reason)
