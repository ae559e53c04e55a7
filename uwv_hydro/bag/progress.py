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

"""A dependency-free progress bar on stderr (only drawn on a terminal)."""

import sys
import time


class Progress:
    """Draw 'label [#####     ] 52% 1234/2345' at most every 0.2 s."""

    def __init__(self, total: int, label: str = '', stream=None, width: int = 30):
        self.total = max(int(total), 0)
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.enabled = hasattr(self.stream, 'isatty') and self.stream.isatty()
        self._last = 0.0
        self.count = 0

    def update(self, n: int = 1) -> None:
        """Advance by n items and redraw when due."""
        self.count += n
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.2 or self.count >= self.total):
            self._last = now
            self._draw()

    def _draw(self) -> None:
        frac = min(self.count / self.total, 1.0) if self.total else 1.0
        bar = '#' * int(frac * self.width)
        self.stream.write('\r%s [%-*s] %3d%% %d/%d' % (
            self.label, self.width, bar, int(frac * 100), self.count, self.total))
        self.stream.flush()

    def close(self) -> None:
        """Finish the line."""
        if self.enabled:
            self._draw()
            self.stream.write('\n')
            self.stream.flush()
