# Copyright 2026 The uwv_hydro Authors
# SPDX-License-Identifier: Apache-2.0
#
# Sourced (bash) by tools/bootstrap --other-pythons and tools/test_other_python: the extra
# test environments .pyenv-<env>/ of tools/other_pythons.txt (the Python and library
# versions of the ROS 2 distributions on the vehicles: humble, jazzy).
#   uwv_other_envs             the environments the file names
#   uwv_other_python ENV       the interpreter for ENV (UWV_PYTHON_<ENV> overrides)
#   uwv_other_make ENV         create/update .pyenv-ENV (a stamp: the file's ENV lines)
#   uwv_other_build ENV        copy the checkout to .pyenv-ENV/src and build its C
#                              extensions there with ENV's Python (none in the tree)
UWV_OTHER_FILE="$UWV_ROOT/tools/other_pythons.txt"

uwv_other_lines() {  # uwv_other_lines ENV [HOW]: the requirements of ENV (of kind HOW)
  sed -e 's/#.*//' "$UWV_OTHER_FILE" | awk -v env="$1" -v how="${2:-}" \
    'NF >= 3 && $1 == env && (how == "" || $2 == how) { print $3 }'
}

uwv_other_envs() {
  sed -e 's/#.*//' "$UWV_OTHER_FILE" | awk 'NF >= 3 && $2 == "python" { print $1 }'
}

uwv_other_python() {
  local env="$1" version var cand
  var="UWV_PYTHON_$(echo "$env" | tr '[:lower:]' '[:upper:]')"
  if [ -n "${!var:-}" ]; then echo "${!var}"; return 0; fi
  version="$(uwv_other_lines "$env" python)"
  for cand in "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$version".*/bin/python; do
    [ -x "$cand" ] && { echo "$cand"; return 0; }
  done
  command -v "python$version" || return 1
}

uwv_other_make() {
  local env="$1" dir="$UWV_ROOT/.pyenv-$1" base want py cons
  base="$(uwv_other_python "$env")" || {
    echo "[bootstrap] no Python $(uwv_other_lines "$env" python) for environment '$env'" \
         "(pyenv versions/$(uwv_other_lines "$env" python).*, python$(uwv_other_lines "$env" python)" \
         "on PATH, or set UWV_PYTHON_$(echo "$env" | tr '[:lower:]' '[:upper:]'))" >&2
    return 1; }
  want="$( (echo "$base"; grep -E "^$env[[:space:]]" "$UWV_OTHER_FILE") | sha256sum | cut -d' ' -f1)"
  [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$want" ] && return 0
  echo "[bootstrap] creating .pyenv-$env with $base ($(grep -c "^$env " "$UWV_OTHER_FILE") lines" \
       "of tools/other_pythons.txt)" >&2
  rm -rf "$dir"
  "$base" -m venv "$dir"
  touch "$dir/COLCON_IGNORE"
  py="$dir/bin/python"
  cons="$dir/constraints.txt"
  uwv_other_lines "$env" nobuild > "$cons"
  uwv_other_lines "$env" pip >> "$cons"
  local pipq=(-m pip install --disable-pip-version-check -q)
  # shellcheck disable=SC2046
  "$py" "${pipq[@]}" $(uwv_other_lines "$env" build)
  if [ -n "$(uwv_other_lines "$env" nobuild)" ]; then
    # shellcheck disable=SC2046
    "$py" "${pipq[@]}" --no-build-isolation $(uwv_other_lines "$env" nobuild)
  fi
  # shellcheck disable=SC2046
  "$py" "${pipq[@]}" -c "$cons" $(uwv_other_lines "$env" pip)
  echo "$want" > "$dir/.stamp"
}

uwv_other_build() {
  local env="$1" dir="$UWV_ROOT/.pyenv-$1"
  # a copy of the checkout (its tracked and new files) laid anew each run, a module
  # removed from the tree goes from it too; the C extensions built in place in the copy
  # (the object files of build/temp are kept)
  rm -rf "$dir/src"
  mkdir -p "$dir/src"
  (cd "$UWV_ROOT" && git ls-files -coz --exclude-standard | xargs -0 -I{} sh -c '[ -e "{}" ] && printf "%s\0" "{}"' \
     | tar --null -T - -cf -) | tar -xf - -C "$dir/src"
  (cd "$dir/src" && "$dir/bin/python" setup.py -q build_ext --inplace \
     --build-temp "$dir/build/temp" > "$dir/build.log" 2>&1) \
    || { cat "$dir/build.log" >&2; echo "[other-python] build with .pyenv-$env failed" >&2
         return 1; }
}
