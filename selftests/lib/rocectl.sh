# SPDX-License-Identifier: GPL-2.0
#
# rocectl in selftests: the shared helpers (testing/ is a link to
# tools/testing/lib, installed as a copy) and the assertion that rocectl
# refuses input as it should. Needs ktap.sh and defer.sh.

. "$(dirname "${BASH_SOURCE[0]}")/testing/rocectl.sh"

# refused WANT_EXIT PATTERN ROCECTL-ARGS...: rocectl must exit WANT_EXIT
# with one line on stderr matching PATTERN.
refused() {
	local want=$1 pattern=$2 rc out=$ksft_tmp/rocectl-refused.out
	shift 2
	rocectl "$@" >/dev/null 2>"$out"
	rc=$?
	ktap_print_msg "rocectl $*: $(cat "$out")"
	[ $rc -eq "$want" ] || fail "exit $rc, want $want" || return 1
	[ "$(wc -l <"$out")" -eq 1 ] || fail "want one line of reason" || return 1
	grep -q -- "$pattern" "$out" || fail "reason does not match '$pattern'"
}
