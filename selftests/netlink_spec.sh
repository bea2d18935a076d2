#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink spec (Documentation/netlink/specs/rxe_cc.yaml) is the one
# place the API is typed: the kernel's own YNL generator makes the uAPI
# header and the module's policies and op table from it (tools/ynl-regen).
# Here: the spec passes the genetlink-c schema, the files in the tree are
# exactly what it makes, the DCQCN core's table of knobs (rocectl's keys
# and ranges) agrees with it, and checkpatch --strict is clean on the
# kernel code we write. The kernel side is held to the spec in the VM (rxe_cc_ynl.sh).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"

SPEC=$top/Documentation/netlink/specs/rxe_cc.yaml
UAPI=$top/uapi/linux/rxe_cc.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT


ktap_print_header
ktap_set_plan 4
src=$("$top/tools/fetch-linux-tools") || { echo "Bail out! no kernel tools"; exit $KSFT_FAIL; }

# The generator refuses a spec its schema refuses, so a clean --check
# says both.
regenerated() {
	"$top/tools/ynl-regen" --check >"$work/regen.log" 2>&1
	local rc=$?
	sed 's/^/#   /' "$work/regen.log"
	[ $rc -eq 0 ] || fail "the generated files are not what the spec makes (tools/ynl-regen)"
}

# The check itself can fail: in a copy of the tree, a hand edit of a
# generated file must be named.
regen_catches_edits() {
	local copy=$work/tree
	mkdir -p "$copy/tools" "$copy/uapi/linux" "$copy/kmod" "$copy/Documentation/netlink/specs"
	cp "$top/tools/ynl-regen" "$top/tools/fetch-linux-tools" "$copy/tools/"
	cp "$UAPI" "$copy/uapi/linux/"
	cp "$top"/kmod/genl.[ch] "$copy/kmod/"
	cp "$SPEC" "$copy/Documentation/netlink/specs/"
	sed -i 's/^#define RXE_CC_RATE_MAX_MBPS.*/#define RXE_CC_RATE_MAX_MBPS\t500000/' \
		"$copy/uapi/linux/rxe_cc.h"
	RXECC_CACHE=$top/.cache "$copy/tools/ynl-regen" --check >"$work/planted.log" 2>&1 &&
		fail "a hand edit of uapi/linux/rxe_cc.h went unseen" && return 1
	grep -q 'uapi/linux/rxe_cc.h is not what' "$work/planted.log" ||
		fail "$(head -3 "$work/planted.log")"
}

# rocectl and dcqcn-sim name and bound the RP's knobs by the DCQCN core's
# table (dcqcn-sim -L prints it): each key is the spec's attribute name,
# in the spec's order, and each range the spec's check.
knobs_are_the_specs() {
	make -s -C "$top/tools/dcqcn-sim" >/dev/null || { fail "dcqcn-sim does not build"; return 1; }
	"$top/tools/dcqcn-sim/dcqcn-sim" -L | awk 'NR > 1 { print $1, $4 }' >"$work/table"
	/usr/bin/python3 - "$SPEC" >"$work/spec" <<'PY' || { fail "the spec does not read"; return 1; }
import sys
import yaml
spec = yaml.safe_load(open(sys.argv[1]))
consts = {d["name"]: d["value"] for d in spec["definitions"] if d["type"] == "const"}
dcqcn = next(s for s in spec["attribute-sets"] if s["name"] == "dcqcn")
for a in dcqcn["attributes"]:
    if a["name"] in ("unspec", "enable", "preset"):
        continue
    c = a["checks"]
    lo, hi = (consts.get(v, v) for v in (c.get("min", 0), c["max"]))
    print(a["name"], f"{lo}..{hi}")
PY
	diff "$work/spec" "$work/table" | sed 's/^/#   /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "dcqcn_param_info[] differs from the spec (< spec, > table)"
}

checkpatch_clean() {
	"$src/scripts/checkpatch.pl" --no-tree --strict --terse --show-types -f \
		$(ls "$top"/kmod/*.[ch] | grep -v '/kmod/genl\.[ch]$') 2>&1 | grep -v '^total:' |
		grep -v '/kmod/rxe_cc.mod.c:' >"$work/checkpatch.log"
	sed 's/^/#   /' "$work/checkpatch.log"
	[ ! -s "$work/checkpatch.log" ] || fail "checkpatch --strict has findings"
}

ktap_test_result "the uAPI header and kmod/genl.[ch] are what the spec makes" regenerated
ktap_test_result "a hand edit of a generated file is caught" regen_catches_edits
ktap_test_result "the DCQCN core's knobs have the spec's names, order and ranges" knobs_are_the_specs
ktap_test_result "checkpatch --strict is clean on the kernel code we write" checkpatch_clean
ktap_finished
