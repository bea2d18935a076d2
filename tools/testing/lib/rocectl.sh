# SPDX-License-Identifier: GPL-2.0
#
# rocectl in the VM, for the selftests and the lab: rxe_cc's counters
# through its JSON.

# The one built in this tree, else the installed one: an installed selftest
# collection has no tree around it. A path, never the bare name: the
# function below would call itself.
if [ -z "${ROCECTL:-}" ]; then
	ROCECTL=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../rocectl/rocectl
	[ -x "$ROCECTL" ] || ROCECTL=$(type -P rocectl) ||
		echo "rocectl is neither built here (make -C tools) nor installed" >&2
fi

# ROCECTL_AS: a command to run rocectl through (runuser -u nobody --).
rocectl() { ${ROCECTL_AS:-} "$ROCECTL" "$@"; }

# dev_stat DEV NAME: a device counter (rocectl stats show). Tests poll it:
# read from rocectl's compact JSON by the shell, as jq takes half a second
# to start in the VM.
dev_stat() {
	local json
	json=$(rocectl -j stats show dev "$1") || return 1
	[[ $json =~ \"$2\":([0-9]+)[,}] ]] ||
		{ echo "dev_stat: $1 has no counter $2" >&2; return 1; }
	echo "${BASH_REMATCH[1]}"
}

# qp_json DEV: the device's QPs with their counters, as a JSON array.
qp_json() {
	rocectl -j -s qp show dev "$1"
}

# qp_sum DEV NAME: a counter summed over the device's QPs.
qp_sum() {
	qp_json "$1" | jq "[.[].stats[\"$2\"]] | add // 0"
}

# red_stat HOST NAME: a counter of the RED queue on the switch port to HOST.
red_stat() {
	topo_qdisc_stats "$1" | jq ".[0][\"$2\"]"
}
