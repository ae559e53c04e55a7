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


"""The ``executor`` parameter's choice against what the installed rclpy has (issue 47)."""
import importlib.util

import pytest
from required_modules import require

from uwv_hydro.node.executor_choice import choose, events_executor_class

require('rclpy')  # the choice is between the installed rclpy's executors


def _rclpy_has_events() -> bool:
    """Return whether rclpy.experimental has an EventsExecutor (found without executor_choice)."""
    if importlib.util.find_spec('rclpy.experimental') is None:
        return False
    return hasattr(importlib.import_module('rclpy.experimental'), 'EventsExecutor')


def test_detection_agrees_with_the_installed_rclpy():
    assert (events_executor_class() is not None) == _rclpy_has_events()


def test_auto_takes_events_exactly_where_rclpy_has_it_and_the_update_has_its_thread():
    assert choose('auto', True)[0] == ('events' if _rclpy_has_events() else 'single_threaded')
    name, reason = choose('auto', False)
    assert name == 'single_threaded' and 'loop: timer' in reason


def test_single_threaded_is_always_served():
    assert choose('single_threaded', True)[0] == 'single_threaded'
    assert choose('single_threaded', False)[0] == 'single_threaded'


def test_events_under_the_timer_loop_is_refused_with_the_reason():
    with pytest.raises(ValueError, match='loop: timer'):
        choose('events', False)


def test_an_unknown_executor_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match='auto, events, single_threaded'):
        choose('multi_threaded', True)
