#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# This folder is a kselftest collection: the kernel's own lib.mk installs
# it as a self-contained whole, lists it, builds it when placed in a kernel
# tree's tools/testing/selftests/, and the kernel's runner runs it there and,
# installed, in a VM. lib.mk and the runner come from the kernel source
# tools/fetch-linux-tools brings.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"

make_var() { make -s -C "$here" --no-print-directory "print-$1"; }

src=$("$top/tools/fetch-linux-tools") || { echo "Bail out! no kernel tools"; exit $KSFT_FAIL; }
ksft_src=$src/tools/testing/selftests
read -ra progs <<<"$(make_var TEST_PROGS)"
read -ra gen_progs <<<"$(make_var TEST_GEN_PROGS)"
# In .cache, not /tmp: the VM sees the host's files but has a /tmp of its own.
ksft=$top/.cache/check/kselftest
rm -rf "$ksft"
defer rm -rf "$ksft"
coll=$ksft/rxe_cc

# sourced_paths FILE: the files FILE sources by a path relative to its own
# folder ($here/... or the folder of BASH_SOURCE) and the helpers it runs
# from lib/, one per line. (Other $here/../ paths are the project tree's
# defaults for what an installed test is told with a variable.)
sourced_paths() {
	{
		grep -oE '(^|[;{]) *\. "?(\$here|\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\))/[A-Za-z0-9_./-]+' "$1"
		grep -oE '\$here/lib/[A-Za-z0-9_./-]+' "$1"
	} | sed -E 's|^.*(\$here\|\$\{BASH_SOURCE\[0\]\}"\))/||'
}

installs_self_contained() {
	local f p missing=0
	make -s -C "$here" install INSTALL_PATH="$coll" >"$ksft_tmp/install.log" 2>&1 ||
		{ sed 's/^/#   /' "$ksft_tmp/install.log"; fail "make install failed"; return 1; }
	for p in "${progs[@]}" "${gen_progs[@]##*/}" settings config rxe_cc.yaml; do
		[ -f "$coll/$p" ] || { fail "$p not installed"; missing=1; }
	done
	for p in "${progs[@]}" "${gen_progs[@]##*/}"; do
		[ -x "$coll/$p" ] || { fail "$p installed without its execute bit"; missing=1; }
	done
	[ -z "$(find "$coll" -type l)" ] || { fail "links left in the install: $(find "$coll" -type l)"; missing=1; }
	while read -r f; do
		for p in $(sourced_paths "$f"); do
			[ -e "$(dirname "$f")/$p" ] ||
				{ fail "${f#"$coll"/} needs $p, which is not installed"; missing=1; }
		done
	done < <(find "$coll" -name '*.sh')
	[ $missing -eq 0 ]
}

lists_every_test() {
	local want got
	want=$(printf 'rxe_cc:%s\n' "${gen_progs[@]##*/}" "${progs[@]}" | sort)
	got=$(make -s -C "$here" emit_tests COLLECTION=rxe_cc | sort)
	[ "$got" = "$want" ] || fail "emit_tests says: $(echo $got)"
}

# The folder copied into a kernel tree's tools/testing/selftests/, as a
# kernel developer would place it: its Makefile finds the kernel's lib.mk
# there, and the kernel's runner runs the unit tests with the settings.
builds_and_runs_in_kernel_tree() {
	local ktree=$ksft_tmp/linux d
	d=$ktree/tools/testing/selftests
	mkdir -p "$d"
	cp -r "$ksft_src/lib.mk" "$ksft_src/kselftest" "$d/"
	cp -rL "$here" "$d/rxe_cc"
	make -C "$d/rxe_cc" clean >/dev/null 2>&1
	make -C "$d/rxe_cc" RXE_CC_SRC="$top" >"$ksft_tmp/build.log" 2>&1 ||
		{ tail -n 20 "$ksft_tmp/build.log" | sed 's/^/#   /'; fail "build failed"; return 1; }
	grep -q "$d/lib.mk" <(make -C "$d/rxe_cc" -s -f Makefile -f - \
		<<<'p: ; @echo $(KSFT_LIB_MK)' p) || fail "the kernel tree's lib.mk not used" || return 1
	make -s -C "$d/rxe_cc" RXE_CC_SRC="$top" run_tests TEST_PROGS= >"$ksft_tmp/run.log" 2>&1
	sed 's/^/#   /' "$ksft_tmp/run.log" | grep -E '^#   (not )?ok|Totals|not found|rror'
	for p in "${gen_progs[@]##*/}"; do
		grep -q "^ok [0-9]* selftests: rxe_cc: $p\$" "$ksft_tmp/run.log" ||
			fail "the runner did not pass $p" || return 1
	done
	# The runner evaluates each settings line as a shell assignment.
	! grep -qE 'not found' "$ksft_tmp/run.log" || fail "the runner choked on settings"
}

# The installed collection beside the kernel's run_kselftest.sh, as
# `make install` of the kernel's selftests lays it out, run in a VM: one
# test that sets up the topology and moves traffic, with rocectl from PATH.
runs_installed_in_vm() {
	local out=$top/.cache/check/kselftest-vm rc
	cp -r "$ksft_src/run_kselftest.sh" "$ksft_src/kselftest" "$ksft/"
	make -s -C "$here" emit_tests COLLECTION=rxe_cc >"$ksft/kselftest-list.txt"
	"$top/tools/testing/vm/run" -t 300 -o "$out" -- env PATH="$top/tools/rocectl:$PATH" \
		"$ksft/run_kselftest.sh" -t rxe_cc:rxe_cc_traffic.sh >"$ksft_tmp/vm.log" 2>&1
	rc=$?
	grep -E '^(not )?ok|Totals' "$ksft_tmp/vm.log" | sed 's/^/#   /'
	[ $rc -eq 0 ] || fail "the VM run exited with $rc (log: $out)" || return 1
	grep -q '^ok 1 selftests: rxe_cc: rxe_cc_traffic.sh$' "$ksft_tmp/vm.log" ||
		fail "the runner did not pass rxe_cc_traffic.sh" || return 1
	grep -q '^# # Totals: pass:[1-9][0-9]* fail:0 ' "$ksft_tmp/vm.log" ||
		fail "the test's own totals are missing or not clean"
	rm -rf "$out"
}

ktap_print_header
ktap_set_plan 4
ktap_test_result "make install gives a self-contained collection" installs_self_contained
ktap_test_result "make emit_tests lists every test" lists_every_test
ktap_test_result "builds and runs in a kernel tree under the kernel's lib.mk" \
	builds_and_runs_in_kernel_tree
ktap_test_result "the installed collection runs under run_kselftest.sh in a VM" \
	runs_installed_in_vm
ktap_finished
