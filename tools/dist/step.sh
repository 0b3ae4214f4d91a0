#!/usr/bin/env bash
# Runs one build step of make dist / dist-cross with its output in a log, and stops the target when it
# fails: the step's name, its exit status and the end of its log go to stderr.
#
# usage: step.sh NAME LOG COMMAND...
set -uo pipefail
name=$1 log=$2
shift 2
mkdir -p "$(dirname "$log")"
"$@" >"$log" 2>&1 && exit 0
status=$?
echo "dist: FAILED: $name (exit status $status). The end of $log:" >&2
tail -n 60 "$log" | sed 's/^/  | /' >&2
exit "$status"
