# SPDX-License-Identifier: GPL-2.0
#
# KTAP output for shell selftests, in the kselftest style:
#   ktap_plan 3; ktap_result "name" <status>; ...; ktap_finish
# A test's status: 0 pass, 4 skip (the feature is truly absent), other fail.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

ktap_n=0
ktap_passed=0
ktap_failed=0
ktap_skipped=0

ktap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

ktap_info() {
	echo "# $*"
}

# ktap_result NAME STATUS [REASON]
ktap_result() {
	ktap_n=$((ktap_n + 1))
	case $2 in
	0) echo "ok $ktap_n $1"; ktap_passed=$((ktap_passed + 1)) ;;
	4) echo "ok $ktap_n $1 # SKIP ${3:-}"; ktap_skipped=$((ktap_skipped + 1)) ;;
	*) echo "not ok $ktap_n $1${3:+ # $3}"; ktap_failed=$((ktap_failed + 1)) ;;
	esac
}

# ktap_run NAME FUNCTION [ARG...]: run a test function, record its status.
ktap_run() {
	local name=$1 rc
	shift
	"$@"
	rc=$?
	ktap_result "$name" "$rc"
}

ktap_finish() {
	echo "# totals: pass:$ktap_passed fail:$ktap_failed skip:$ktap_skipped"
	[ $ktap_failed -eq 0 ] || exit $KSFT_FAIL
	[ $ktap_passed -gt 0 ] || [ $ktap_skipped -eq 0 ] || exit $KSFT_SKIP
	exit $KSFT_PASS
}

# fail MESSAGE: report why a check failed and return non-zero from the test.
fail() {
	echo "# FAIL: $*"
	return 1
}

# ktap_run_starved NAME FUNCTION [ARG...]: run a test whose figures need a
# VM that gets its CPUs, with the probe of tools/testing/lib/lateness.sh
# (which the test sources) running. A failure while the probe
# saw a starved VM is reported as such and the test runs once more; that
# second result stands, starved or not. A failure on a VM that was not
# starved is a failure at once.
ktap_run_starved() {
	local name=$1 rc
	shift
	lateness_start
	"$@"
	rc=$?
	lateness_stop
	ktap_info "timer lateness: p99 $lateness_p99_ms ms, max $lateness_max_ms ms" \
		"over $lateness_ticks ticks of $((LATENESS_TICK_US / 1000)) ms"
	if [ $rc -ne 0 ] && lateness_starved; then
		ktap_info "RETRY: '$name' failed while the VM was starved" \
			"(timer lateness p99 $lateness_p99_ms ms > $LATENESS_STARVED_MS ms);" \
			"running it once more"
		lateness_start
		"$@"
		rc=$?
		lateness_stop
		ktap_info "timer lateness of the retry: p99 $lateness_p99_ms ms," \
			"max $lateness_max_ms ms"
	fi
	ktap_result "$name" "$rc"
}
