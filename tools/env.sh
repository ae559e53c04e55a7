# Copyright 2026 The uwv_hydro Authors
# SPDX-License-Identifier: Apache-2.0
#
# Sourced (bash) by tools/bootstrap and tools/run: puts the ROS 2 environment of this
# checkout in place.  Two cases:
#   * ROS 2 sourced by the user (ROS_DISTRO set and rclpy importable): use it as it is.
#   * otherwise: the .venv/ made by tools/bootstrap from requirements.txt (ROS 2 Kilted
#     wheels from PyPI) plus tf2_msgs, ros_gz_interfaces, marine_acoustic_msgs,
#     mavros_msgs and uuv_sensor_ros_plugins_msgs built into .deps/<pkg>/install.
# Then the colcon workspace (install/) of this package is overlaid.

UWV_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export UWV_ROOT

uwv_system_ros() {
  [ -n "${ROS_DISTRO:-}" ] && [ ! -d "$UWV_ROOT/.venv" ] && python3 -c 'import rclpy' 2>/dev/null
}

uwv_prepend() {  # uwv_prepend VAR DIR: prepend DIR to the path list VAR once
  local var="$1" dir="$2" cur
  cur="${!var:-}"
  case ":$cur:" in *":$dir:"*) ;; *) export "$var=$dir${cur:+:$cur}" ;; esac
}

uwv_env() {
  if uwv_system_ros; then
    export UWV_MODE=system
  else
    export UWV_MODE=venv
    local venv="$UWV_ROOT/.venv"
    [ -x "$venv/bin/python" ] || return 0
    export VIRTUAL_ENV="$venv"
    uwv_prepend PATH "$venv/bin"
    local site libs
    site="$(ls -d "$venv"/lib/python3*/site-packages 2>/dev/null | head -n 1)"
    for libs in "$site"/ros_*.libs; do
      [ -d "$libs" ] && uwv_prepend LD_LIBRARY_PATH "$libs"
    done
    uwv_prepend LD_LIBRARY_PATH "$venv/lib"
    uwv_prepend AMENT_PREFIX_PATH "$venv"
    uwv_prepend CMAKE_PREFIX_PATH "$venv"
    # the wheels re-exec Python to set LD_LIBRARY_PATH unless told it is done
    export _ROS_WHEELS_BOOTSTRAP_COMPLETE=1
    local pkg dep
    for pkg in tf2_msgs ros_gz_interfaces marine_acoustic_msgs mavros_msgs uuv_sensor_ros_plugins_msgs; do
      dep="$UWV_ROOT/.deps/$pkg/install"
      if [ -d "$dep" ]; then
        uwv_prepend LD_LIBRARY_PATH "$dep/lib"
        uwv_prepend AMENT_PREFIX_PATH "$dep"
        uwv_prepend CMAKE_PREFIX_PATH "$dep"
        uwv_prepend PYTHONPATH "$(ls -d "$dep"/lib/python3*/site-packages | head -n 1)"
      fi
    done
  fi
  export RMW_IMPLEMENTATION="${RMW_IMPLEMENTATION:-rmw_fastrtps_cpp}"
  # keep DDS discovery on this machine unless the user chose otherwise
  export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
  export PYTHONDONTWRITEBYTECODE="${PYTHONDONTWRITEBYTECODE:-1}"
  if [ -f "$UWV_ROOT/install/local_setup.bash" ]; then
    # colcon's scripts read unset variables: relax nounset while sourcing
    local had_u=0
    case "$-" in *u*) had_u=1; set +u ;; esac
    # shellcheck disable=SC1091
    COLCON_CURRENT_PREFIX="$UWV_ROOT/install" . "$UWV_ROOT/install/local_setup.bash"
    [ "$had_u" = 1 ] && set -u
    return 0
  fi
}
