# What the benchmarks (ci/bench-*.sh) share, sourced by each: the wall time
# of a command and the median of figures.  A benchmark prints figures and
# never fails: a command that fails is timed as it ran.

seconds() { # wall time of a command, in seconds, its output discarded
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
