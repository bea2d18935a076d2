#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The netlink spec (Documentation/netlink/specs/rxe_cc.yaml) against the
# kernel's own tools: it passes the genetlink-c schema, the kernel's YNL
# generator makes a uAPI header from it whose every constant our
# uapi/linux/rxe_cc.h has with the same value, and ours has nothing the spec
# lacks but aliases of spec names. The kernel side is held to the spec in
# the VM (rxe_cc_ynl.sh). Also checkpatch --strict on the kernel code.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"

PYTHON=/usr/bin/python3
SPEC=$top/Documentation/netlink/specs/rxe_cc.yaml
UAPI=$top/uapi/linux/rxe_cc.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ktap_plan 4
src=$("$here/fetch-linux-tools") || { echo "Bail out! no kernel tools"; exit $KSFT_FAIL; }
# YNL finds the schema from the spec's place in a kernel tree.
cp "$SPEC" "$src/Documentation/netlink/specs/rxe_cc.yaml"

generate() {
	"$PYTHON" "$src/tools/net/ynl/ynl-gen-c.py" --mode uapi --header \
		--spec "$src/Documentation/netlink/specs/rxe_cc.yaml" -o "$work/gen.h" \
		>"$work/gen.log" 2>&1 || { sed 's/^/#   /' "$work/gen.log"; fail "ynl-gen-c refused the spec"; }
}

# constants HEADER: its enum members and defines, one name a line.
constants() {
	sed -n -e 's/^#define \([A-Z_][A-Z0-9_]*\)[ \t].*/\1/p' \
		-e 's/^[ \t]*\(_*[A-Z][A-Z0-9_]*\)\( =.*\)\{0,1\},.*/\1/p' \
		-e 's/^[ \t]*\(_*[A-Z][A-Z0-9_]*\) = (\{0,1\}__.*/\1/p' "$1" |
		grep -v '^_UAPI_LINUX_RXE_CC_H$' | sort -u
}

# values HEADER NAMES-FILE: NAME=VALUE for each name, compiled against HEADER.
values() {
	{
		echo "#include <stdio.h>"
		echo "#include \"$1\""
		echo "int main(void) {"
		while read -r n; do
			if grep -qE "^#define $n[[:space:]]+\"" "$1"; then
				echo "printf(\"$n=%s\\n\", $n);"
			else
				echo "printf(\"$n=%lld\\n\", (long long)($n));"
			fi
		done <"$2"
		echo "return 0; }"
	} >"$work/values.c"
	cc -o "$work/values" "$work/values.c" && "$work/values"
}

same_values() {
	constants "$work/gen.h" >"$work/gen.names"
	values "$work/gen.h" "$work/gen.names" >"$work/gen.values" || fail "generated header" ||
		return 1
	values "$UAPI" "$work/gen.names" >"$work/uapi.values" 2>"$work/cc.log" ||
		{ sed 's/^/#   /' "$work/cc.log" | head; fail "uapi lacks names of the spec"; return 1; }
	ktap_info "$(wc -l <"$work/gen.names") constants"
	diff "$work/gen.values" "$work/uapi.values" | sed 's/^/#   /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "uapi values differ from the spec's"
}

nothing_extra() {
	local n extra=0
	constants "$UAPI" >"$work/uapi.names"
	for n in $(comm -13 "$work/gen.names" "$work/uapi.names"); do
		# An alias: #define N OTHER, OTHER a spec name.
		if grep -qE "^#define $n[[:space:]]+[A-Z_]+$" "$UAPI" &&
			grep -qx "$(sed -n "s/^#define $n[[:space:]]*//p" "$UAPI")" "$work/gen.names"; then
			continue
		fi
		ktap_info "not in the spec: $n"
		extra=1
	done
	[ $extra -eq 0 ] || fail "uapi has constants the spec lacks"
}

checkpatch_clean() {
	"$src/scripts/checkpatch.pl" --no-tree --strict --terse --show-types -f \
		"$top"/kmod/*.[ch] "$UAPI" 2>&1 | grep -v '^total:' |
		grep -v '/kmod/rxe_cc.mod.c:' >"$work/checkpatch.log"
	sed 's/^/#   /' "$work/checkpatch.log"
	[ ! -s "$work/checkpatch.log" ] || fail "checkpatch --strict has findings"
}

ktap_run "ynl-gen-c makes a uAPI header from the spec (schema checked)" generate
ktap_run "every constant of the spec has its value in uapi/linux/rxe_cc.h" same_values
ktap_run "uapi/linux/rxe_cc.h has nothing the spec lacks but aliases" nothing_extra
ktap_run "checkpatch --strict is clean on kmod/ and uapi/" checkpatch_clean
ktap_finish
