#!/bin/sh
# other_secret.sh PROGRAM [ARGS...]: run as every rank of a job; rank 1 claims another job's secret,
# as a stray or hostile process would. Its tcp hello must be refused, logged, and the job must end.
if [ "${SKIFF_RANK:-}" = 1 ]; then
    SKIFF_SECRET=0badc0ffee
    export SKIFF_SECRET
fi
exec "$@"
