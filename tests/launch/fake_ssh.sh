#!/bin/sh
# Stands in for ssh in the launch tests (installed as "ssh" first in PATH): "ssh [-o opt]... host
# command" runs command on this machine the way sshd would - one string through sh -c, from the
# home directory, in an environment as bare as a fresh login's - with SKIFF_TEST_HOST=host so the
# test can see which host a rank was sent to. Host "unreachable" fails as ssh does (exit 255).
while [ $# -gt 0 ]; do
    case $1 in
    -o) shift 2 ;;
    -*) shift ;;
    *) break ;;
    esac
done
host=$1
shift
if [ "$host" = unreachable ]; then
    echo "ssh: connect to host unreachable port 22: Connection refused" >&2
    exit 255
fi
[ $# -eq 1 ] || { echo "fake ssh: expected one command string, got $#: $*" >&2; exit 255; }
cd "${HOME:-/}" 2>/dev/null || cd /
exec env -i PATH="$PATH" HOME="${HOME:-/}" SKIFF_TEST_HOST="$host" sh -c "$1"
