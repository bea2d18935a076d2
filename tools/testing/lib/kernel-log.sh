# SPDX-License-Identifier: GPL-2.0
#
# What the kernel says when it went wrong, read the same way by the VM
# runner (tools/testing/vm/run) and by make stress (selftests/stress).
#
#   KERNEL_SPLAT                 an extended regex of the lines that open a
#                                report: a BUG, a WARNING (lockdep's are
#                                WARNINGs too), an Oops, KASAN, UBSAN, a GPF
#   kernel_log_splats FILE...    how many such lines the files hold
#   kmemleak_rxe_cc FILE         "OURS OTHERS": kmemleak's unreferenced
#                                objects in FILE (its scan's report) that
#                                rxe_cc allocated, and the rest
#   kernel_text_int3 FILE        the log in FILE shows an Oops of an int3
#                                in the kernel's own text, not a module's

KERNEL_SPLAT='BUG:|WARNING:|Oops|KASAN|UBSAN|general protection'

kernel_log_splats() {
	cat "$@" 2>/dev/null | grep -cE "$KERNEL_SPLAT" || true
}

kmemleak_rxe_cc() {
	awk '/^unreferenced object/ { n++ } /\[rxe_cc\]/ && !ours[n]++ { o++ }
		END { printf "%d %d\n", o, n - o }' "$1"
}

# The kernel puts an int3 in its own text only while it patches it
# (text_poke_bp), and handles those; a module's RIP names the module.
kernel_text_int3() {
	awk '{ sub(/\r$/, "") }
		/Oops: int3/ { oops = 1; next }
		oops && /RIP: 0010:/ { found = $0 !~ /\[[a-z_0-9]+\]$/; exit }
		END { exit !found }' "$1"
}
