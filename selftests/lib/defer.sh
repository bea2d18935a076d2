# SPDX-License-Identifier: GPL-2.0
#
# Cleanup that cannot be forgotten, in the manner of the kernel's
# selftests/net/lib.sh: `defer CMD ARG...` right after making a thing
# that needs undoing; at exit, whatever the way out, the deferred commands
# run, the last one first. ksft_tmp is a folder of the test's own for its
# files, removed at exit, so that no two tests share a name in /tmp.

__defer_cmds=()

defer() {
	__defer_cmds+=("$(printf '%q ' "$@")")
}

__defer_run() {
	local i

	for ((i = ${#__defer_cmds[@]} - 1; i >= 0; i--)); do
		eval "${__defer_cmds[i]}"
	done
	__defer_cmds=()
}
trap __defer_run EXIT

ksft_tmp=$(mktemp -d)
defer rm -rf "$ksft_tmp"
