# SPDX-License-Identifier: GPL-2.0
#
# What the lab's tests from the host (lab_*.sh) share. Needs ktap.sh, and
# $top, the project's tree.

# lab_refuses OUT [ARG...]: each line of stdin, "ARGS|REASON", is a command
# line tools/lab/run must refuse (its ARGs, then ARGS), saying REASON,
# before it makes its results folder (OUT.bad).
lab_refuses() {
	local out=$1 args want cmd
	shift
	while IFS='|' read -r args want; do
		cmd="run${*:+ $*} $args"
		# shellcheck disable=SC2086 # one argument per word
		if "$top/tools/lab/run" "$@" $args --out "$out.bad" >"$out.bad.log" 2>&1; then
			fail "$cmd was accepted"
			return 1
		fi
		grep -qF -- "$want" "$out.bad.log" ||
			fail "$cmd: no \"$want\" in: $(head -n 1 "$out.bad.log")" || return 1
		[ ! -e "$out.bad" ] || fail "$cmd made its folder" || return 1
	done
}
