# SPDX-License-Identifier: GPL-2.0
#
# KTAP output for shell selftests, with the names of the kernel's
# tools/testing/selftests/kselftest/ktap_helpers.sh, so that a test reads
# as one written for the kernel:
#   ktap_print_header; ktap_set_plan 3
#   ktap_test_result "name" function args...   (or ktap_test_pass/fail/skip)
#   ktap_print_msg "diagnostic"; ...; ktap_finished
# One extension: a test function that returns 4 ($KSFT_SKIP) is a skip,
# for a feature that is truly absent.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_XFAIL=2
KSFT_XPASS=3
KSFT_SKIP=4

KTAP_TESTNO=1
KTAP_CNT_PASS=0
KTAP_CNT_FAIL=0
KTAP_CNT_SKIP=0

ktap_print_header() {
	echo "TAP version 13"
}

ktap_set_plan() {
	echo "1..$1"
}

ktap_print_msg() {
	echo "# $*"
}

ktap_test_pass() {
	echo "ok $KTAP_TESTNO $1"
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
}

ktap_test_skip() {
	echo "ok $KTAP_TESTNO $1 # SKIP${2:+ $2}"
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
}

ktap_test_fail() {
	echo "not ok $KTAP_TESTNO $1"
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
}

# ktap_test_status NAME STATUS: report a status a test already has.
ktap_test_status() {
	case $2 in
	"$KSFT_PASS") ktap_test_pass "$1" ;;
	"$KSFT_SKIP") ktap_test_skip "$1" ;;
	*) ktap_test_fail "$1" ;;
	esac
}

# ktap_test_result NAME COMMAND [ARG...]: run a test, report its status.
ktap_test_result() {
	local name=$1 rc
	shift
	"$@"
	rc=$?
	ktap_test_status "$name" "$rc"
}

ktap_print_totals() {
	echo "# Totals: pass:$KTAP_CNT_PASS fail:$KTAP_CNT_FAIL xfail:0 xpass:0" \
		"skip:$KTAP_CNT_SKIP error:0"
}

# ktap_finished: the totals, and the exit status kselftest expects.
ktap_finished() {
	ktap_print_totals
	[ "$KTAP_CNT_FAIL" -eq 0 ] || exit $KSFT_FAIL
	[ "$KTAP_CNT_PASS" -gt 0 ] || [ "$KTAP_CNT_SKIP" -eq 0 ] || exit $KSFT_SKIP
	exit $KSFT_PASS
}

# fail MESSAGE: report why a check failed and return non-zero from the test.
fail() {
	echo "# FAIL: $*"
	return 1
}

# ktap_test_result_starved NAME FUNCTION [ARG...]: run a test whose figures need a
# VM that gets its CPUs, with the probe of tools/testing/lib/lateness.sh
# (which the test sources) running. A failure while the probe
# saw a starved VM is reported as such and the test runs once more; that
# second result stands, starved or not. A failure on a VM that was not
# starved is a failure at once.
ktap_test_result_starved() {
	local name=$1 rc
	shift
	lateness_start
	"$@"
	rc=$?
	lateness_stop
	ktap_print_msg "timer lateness: p99 $lateness_p99_ms ms, max $lateness_max_ms ms" \
		"over $lateness_ticks ticks of $((LATENESS_TICK_US / 1000)) ms"
	if [ $rc -ne 0 ] && lateness_starved; then
		ktap_print_msg "RETRY: '$name' failed while the VM was starved" \
			"(timer lateness p99 $lateness_p99_ms ms > $LATENESS_STARVED_MS ms);" \
			"running it once more"
		lateness_start
		"$@"
		rc=$?
		lateness_stop
		ktap_print_msg "timer lateness of the retry: p99 $lateness_p99_ms ms," \
			"max $lateness_max_ms ms"
	fi
	ktap_test_status "$name" "$rc"
}
