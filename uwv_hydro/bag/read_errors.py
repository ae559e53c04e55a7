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

"""Why a bag could not be read, in words that name what the path is."""
import pathlib


def error_reason(exc: BaseException) -> str:
    """Return why ``exc`` was raised: a ValueError's text, else its type and text."""
    if isinstance(exc, ValueError) and str(exc):
        return str(exc)
    return '%s: %s' % (type(exc).__name__, exc) if str(exc) else type(exc).__name__


def unreadable_reason(path, exc: BaseException) -> str:
    """
    Return why the bag at ``path`` did not open.

    rosbags calls a missing path or a directory without ``metadata.yaml`` a missing
    metadata file; say what the path is instead (a rosbag2 bag is a directory holding
    ``metadata.yaml`` or one ``.mcap`` file).
    """
    p = pathlib.Path(path)
    if not p.exists():
        return 'no such file or directory (a bag is a rosbag2 directory or an .mcap file)'
    if p.is_dir() and not (p / 'metadata.yaml').is_file():
        return 'a directory without metadata.yaml, not a rosbag2 bag'
    return error_reason(exc)
