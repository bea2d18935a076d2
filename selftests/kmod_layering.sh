#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's units call each other one way only: no unit calls one that
# calls it back, directly or round a loop (rxe_cc.h lists the units). Read
# from the objects of a build against the default test kernel, so that
# calls made by inline functions in headers count where they are inlined.
# The checker is shown a planted cycle first, so that a clean result means
# something.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
callgraph=$here/lib/callgraph.py


ktap_print_header
ktap_set_plan 3

planted_cycle_found() {
	mkdir -p "$work/planted"
	echo 'void b(void); void a(void) { b(); }' >"$work/planted/a.c"
	echo 'void c(void); void b(void) { c(); }' >"$work/planted/b.c"
	echo 'void a(void); void c(void) { a(); }' >"$work/planted/c.c"
	echo 'void a(void); void d(void) { a(); }' >"$work/planted/d.c"
	for u in a b c d; do
		cc -c -o "$work/planted/$u.o" "$work/planted/$u.c" || return 1
	done
	"$callgraph" "$work"/planted/*.o >"$work/planted.out"
	local rc=$?
	sed 's/^/#   /' "$work/planted.out"
	[ $rc -eq 1 ] || fail "exit status $rc, not 1" || return 1
	grep -qx 'cycle: a b c: .*' "$work/planted.out" || fail "the cycle a b c not named" ||
		return 1
	! grep -q '^cycle: .*\bd\b' "$work/planted.out" || fail "d, outside the cycle, named"
}

module_objects() {
	local kroot abi
	kroot=$("$top/tools/testing/vm/fetch-kernel") || { fail "no test kernel"; return 1; }
	abi=$(basename "$kroot")
	# A copy, so that the tree's own build products stay as they are.
	mkdir -p "$work/src"
	cp -r "$top/Kbuild" "$top/kmod" "$top/uapi" "$work/src/"
	rm -f "$work/src/kmod/"*.o
	make -C "$kroot/root/usr/src/linux-headers-$abi" M="$work/src" CC="$(cat "$kroot/compiler")" \
		modules >"$work/build.log" 2>&1 ||
		{ tail -n 20 "$work/build.log" | sed 's/^/#   /'; fail "build failed"; }
}

no_cycle() {
	local objs=() kmod=$work/src/kmod
	# genl.c is netlink.c's op table, written by the generator from the
	# spec: the table names the handlers, the handlers use its policies.
	# One unit, as it would be if the generator wrote into netlink.c.
	ld -r -o "$kmod/netlink+genl.o" "$kmod/netlink.o" "$kmod/genl.o" &&
		rm "$kmod/netlink.o" "$kmod/genl.o" || fail "could not join genl.o to netlink.o" ||
		return 1
	for o in "$kmod"/*.o; do
		case ${o##*/} in rxe_cc.o | rxe_cc.mod.o) continue ;; esac
		objs+=("$o")
	done
	[ ${#objs[@]} -gt 5 ] || fail "only ${#objs[@]} objects" || return 1
	"$callgraph" "${objs[@]}" | sed 's/^/#   /'
	[ "${PIPESTATUS[0]}" -eq 0 ] || fail "kmod has a call cycle"
}

ktap_test_result "the checker names a planted cycle and nothing outside it" planted_cycle_found
ktap_test_result "the module's objects build against the default test kernel" module_objects
ktap_test_result "no call cycle among the module's units" no_cycle
ktap_finished
