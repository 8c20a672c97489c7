#!/bin/sh
# Runs the tests with every core busy: one busy loop per core for the whole run, so that any test which leans
# on a wall-clock window shows it. Arguments go to `vitest run` unchanged (e.g. a file filter); the exit code is
# vitest's. The loops stop when this script ends, however it ends.
#   npm run test:load                       # the whole suite under load
#   npm run test:load -- test/serve/keys.test.ts
set -u
cd "$(dirname "$0")/.." || exit 1
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 2)
hogs=""
tests=""

stop() {
  for pid in $tests $hogs; do kill "$pid" 2>/dev/null; done
  for pid in $tests $hogs; do wait "$pid" 2>/dev/null; done
  tests=""
  hogs=""
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

i=0
while [ "$i" -lt "$cores" ]; do
  # A shell spinning on a builtin: all of one core, no I/O, no forks.
  sh -c 'while :; do :; done' &
  hogs="$hogs $!"
  i=$((i + 1))
done
echo "load-test: $cores busy loop(s) running (pids$hogs)" >&2

# In the background and waited for, so that a signal to this script reaches the trap at once.
node_modules/.bin/vitest run "$@" &
tests=$!
wait "$tests"
code=$?
tests=""
stop
exit "$code"
