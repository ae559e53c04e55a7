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
Bags: rosbag2 and MCAP reading and writing, offline replay through the model.

Reading (topics, reasons a message is skipped) and writing (``simulate``'s trajectory,
joint and tether bags, CDR encoding), ``replay`` of a recording through the wrench mode (also
per link) and ``replay --simulate`` (the simulate mode driven by recorded thrust,
compared with recorded odometry), and progress reporting.
"""
