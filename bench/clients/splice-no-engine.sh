#!/bin/sh
# splice's bin, run in-process: what the set-up test puts in place of /ABS/PATH/splice/bin/splice.
# A warm engine started from a run's temp HOME would outlive the run (and write to its project).
SPLICE_ENGINE=0 exec node "$(dirname "$0")/../../bin/splice" "$@"
