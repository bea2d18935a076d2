#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS, as README promises it, from the host: Debian's dkms adds and builds
# rxe_cc from dkms.conf against the test kernel's headers (here: compiling
# in the VM would take minutes under emulation), then in the VM `dkms
# install` puts it into the running kernel's modules tree and modprobe
# loads the module DKMS installed. The VM's modules tree is read-only: a
# tmpfs overlay takes what dkms and depmod write there.
#
#   dkms.sh            the test (boots a VM)
#   dkms.sh --guest T  its part in the VM, with the dkms tree T built here

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"

version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")

# dkms_args TREE ABI HEADERS: where dkms keeps its tree and finds the
# source and the kernel, for this module.
dkms_args() {
	echo -m rxe_cc -v "$version" -k "$2" --kernelsourcedir "$3" \
		--sourcetree "$1/src" --dkmstree "$1/tree"
}

guest() {
	local tree=$1 abi moddir tmp args
	abi=$(uname -r)
	moddir=/lib/modules/$abi
	tmp=$(mktemp -d)
	# The tree as the host left it, writable: dkms logs into it.
	cp -a "$tree" "$tmp/dkms"
	read -ra args <<<"$(dkms_args "$tmp/dkms" "$abi" "$(cat "$tmp/dkms/headers")")"
	# dkms's source link names the host's folder; point it here.
	ln -sfn "$tmp/dkms/src/rxe_cc-$version" "$tmp/dkms/tree/rxe_cc/$version/source"

	# A user's modules tree: writable, without the harness's own build.
	rmmod rxe_cc 2>/dev/null
	mkdir -p "$tmp/upper" "$tmp/work"
	mount -t overlay overlay -o "lowerdir=$moddir,upperdir=$tmp/upper,workdir=$tmp/work" \
		"$moddir" || { echo "Bail out! cannot overlay $moddir"; exit $KSFT_FAIL; }
	rm -f "$moddir/updates/rxe_cc.ko"
	depmod "$abi"

	installs() {
		dkms install "${args[@]}" >"$tmp/install.log" 2>&1 ||
			{ sed 's/^/#   /' "$tmp/install.log" | tail -n 20; fail "dkms install failed"; return 1; }
		dkms status "${args[@]}" 2>/dev/null | grep -q installed ||
			fail "dkms status does not say installed: $(dkms status "${args[@]}" 2>&1)"
	}
	loads() {
		local path
		path=$(modinfo -n rxe_cc) || { fail "modinfo finds no rxe_cc"; return 1; }
		ktap_print_msg "modprobe finds $path"
		[[ $path == "$moddir/updates/dkms/"* ]] ||
			fail "rxe_cc resolves to $path, not DKMS's updates/dkms" || return 1
		[ "$(modinfo -F vermagic "$path" | cut -d' ' -f1)" = "$abi" ] ||
			fail "built for $(modinfo -F vermagic "$path"), not $abi" || return 1
		modprobe rxe_cc || { fail "modprobe rxe_cc failed"; return 1; }
		grep -q '^rxe_cc ' /proc/modules || fail "rxe_cc is not loaded"
	}
	ktap_test_result "dkms install puts the module into the kernel's updates/dkms" installs
	ktap_test_result "modprobe loads the module DKMS installed" loads
	rmmod rxe_cc 2>/dev/null
	umount "$moddir"
	rm -rf "$tmp"
}

host() {
	local out=$top/.cache/check/dkms kroot abi headers args rc
	kroot=$("$top/tools/testing/vm/fetch-kernel") || { echo "Bail out! no test kernel"; exit $KSFT_FAIL; }
	abi=$(basename "$kroot")
	headers=$kroot/root/usr/src/linux-headers-$abi
	rm -rf "$out"
	mkdir -p "$out/src/rxe_cc-$version" "$out/tree"
	echo "$headers" >"$out/headers"
	read -ra args <<<"$(dkms_args "$out" "$abi" "$headers")"

	builds() {
		# The files dkms.conf builds from, as a source package carries them.
		cp -r "$top/Kbuild" "$top/Makefile" "$top/dkms.conf" "$top/kmod" "$top/uapi" \
			"$out/src/rxe_cc-$version/" &&
			make -s -C "$out/src/rxe_cc-$version" modules-clean || return 1
		{ dkms add "${args[@]}" && dkms build "${args[@]}"; } >"$out.log" 2>&1 ||
			{ sed 's/^/#   /' "$out.log" | tail -n 20; fail "dkms add/build failed"; return 1; }
		dkms status "${args[@]}" 2>/dev/null | grep -q built ||
			fail "dkms status does not say built"
	}
	ktap_print_header
	ktap_set_plan 3
	ktap_test_result "dkms adds and builds rxe_cc from dkms.conf for $abi" builds
	[ -f "$out/tree/rxe_cc/$version/$abi/x86_64/module/rxe_cc.ko" ] ||
		ktap_finished
	# The VM's results continue this plan.
	"$top/tools/testing/vm/run" -t 300 -o "$out.vm" -- selftests/dkms.sh --guest "$out" |
		sed -e '/^TAP version/d' -e '/^1\.\./d' -e '/^# Totals/d' |
		awk '/^(not )?ok [0-9]+ / { sub(/ok [0-9]+/, "ok " ++n + 1) } { print }'
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || { echo "# the VM part exited with $rc"; exit $KSFT_FAIL; }
	[ "$KTAP_CNT_FAIL" -eq 0 ] || exit $KSFT_FAIL
}

if [ "${1:-}" = --guest ]; then
	ktap_print_header
	ktap_set_plan 2
	guest "$2"
	ktap_finished
fi
host
