#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab by hand (tools/lab/shell): what a newcomer types, fed to the
# VM's shell. DCQCN's parameters show and change, flows start, rocectl
# monitor shows CNPs and rate changes live, and a QP's counters read as JSON.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"

OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT

# Lines are marked so that the echo of the typed commands cannot match.
session() {
	cat <<'IN'
echo started
rocectl dcqcn set dev rxe1 ai-rate 10
echo "AI=$(rocectl -j dcqcn show dev rxe1 | jq -M '.[0]["ai-rate"]')"
flow 1 8; flow 2 8
sleep 2
timeout 4 rocectl -j monitor dev rxe1 >/tmp/events
echo "HANDLED=$(jq -Ms '[.[] | select(.event == "cnp-handled")] | length' /tmp/events)"
echo "CUTS=$(jq -Ms '[.[] | select(.event == "rate" and .reason == "cut")] | length' /tmp/events)"
echo "QPS=$(rocectl -j -s qp show dev rxe1 | jq -M '[.[] | select(.stats["rp-cnp-handled"] > 0)] | length')"
wait
exit
IN
}

value() { # NAME
	sed -n "s/^$1=\([0-9]*\)\r\{0,1\}$/\1/p" "$OUT" | tail -n 1
}


ktap_print_header
ktap_set_plan 4
session | "$top/tools/lab/shell" >"$OUT" 2>&1
status=$?
sed 's/^/# /' "$OUT" | grep -E '^# (lab:|[A-Z]+=)'
ktap_test_status "the shell boots, shows its guide and exits with the session" \
	$([ $status -eq 0 ] && grep -q '^lab: DCQCN: preset mlx5' "$OUT" && echo 0 || echo 1)
ktap_test_status "a DCQCN parameter changes and reads back" \
	$([ "$(value AI)" = 10 ] && echo 0 || echo 1)
ktap_test_status "rocectl monitor shows CNPs handled and rate cuts live" \
	$([ "$(value HANDLED)" -gt 0 ] 2>/dev/null && [ "$(value CUTS)" -gt 0 ] && echo 0 || echo 1)
ktap_test_status "a QP's counters read as JSON" \
	$([ "$(value QPS)" -ge 1 ] 2>/dev/null && echo 0 || echo 1)
ktap_finished
