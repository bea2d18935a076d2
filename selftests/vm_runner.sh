#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The VM runner's verdict on a guest that died or stopped
# (tools/testing/vm/run --each). Under TCG the emulator itself now and then
# kills 6.12 and 7.x with an int3 in the kernel's own text, left there for
# an instant by the kernel's code patching on another vCPU; that death, and
# only that, is booted once more, for the programs the first boot did not
# finish. Any other death fails the run. A program that hangs the guest, or
# leaves what it made impossible to remove, fails alone: the programs after
# it run in a new boot, and the run ends within its budget.
#
# The emulator's fault cannot be had on demand, so the guest's program
# writes the lines that death leaves in the kernel log and then really
# crashes the kernel (sysrq c): the runner reads the console as it would
# read the real one.

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
. "$here/lib/ktap.sh"
. "$here/lib/defer.sh"
. "$top/tools/testing/lib/kernel-log.sh"

# In .cache, not /tmp: the VM sees the host's files but has a /tmp of its own.
work=$top/.cache/check/vm_runner
rm -rf "$work"
mkdir -p "$work"
defer rm -rf "$work"

# An excerpt of a console: the Oops line, the machine, the RIP.
console() { # OOPS RIP
	printf '[   40.78] %s\r\n' "$1" \
		"CPU: 1 UID: 0 PID: 812 Comm: ib_write_bw Not tainted 7.2.13+deb14-amd64 #1" \
		"Hardware name: QEMU Standard PC (Q35 + ICH9, 2009), BIOS 1.16.2-debian-1.16.2-1 04/01/2014" \
		"RIP: 0010:$2" "Code: 48 83 f8 ff 74 3c <cc> 8b 43 08" "Call Trace:" " <TASK>"
}

# classifies OOPS RIP RC: kernel_text_int3 returns RC for that console.
classifies() {
	local rc
	console "$1" "$2" >"$ksft_tmp/console.log"
	kernel_text_int3 "$ksft_tmp/console.log"
	rc=$?
	[ $rc -eq "$3" ] || fail "'$1' at '$2': kernel_text_int3 says $rc, not $3"
}

int3_in_kernel_text_is_the_emulators() {
	classifies 'Oops: int3: 0000 [#1] SMP NOPTI' 'sched_clock_cpu+0x9/0x1a0' 0 &&
		classifies 'Oops: int3: 0000 [#1] PREEMPT SMP NOPTI' 'update_rq_clock+0x38/0x170' 0
}

other_deaths_are_not() {
	classifies 'Oops: int3: 0000 [#1] SMP NOPTI' 'rxe_cc_pace+0x41/0x2a0 [rxe_cc]' 1 &&
		classifies 'Oops: int3: 0000 [#1] SMP NOPTI' 'rxe_requester+0x12/0x9f0 [rdma_rxe]' 1 &&
		classifies 'Oops: general protection fault, probably for non-canonical address' \
			'sched_clock_cpu+0x9/0x1a0' 1 &&
		classifies 'BUG: kernel NULL pointer dereference, address: 0000000000000008' \
			'rb_erase+0x1b/0x3a0' 1
}

# program NAME: a guest program that counts its runs in the run folder
# (the guest's /run/rxecc-out), then runs what stdin holds.
program() {
	{
		printf '#!/bin/bash\necho run >>/run/rxecc-out/%s.runs\n' "$1"
		cat
	} >"$work/$1"
	chmod +x "$work/$1"
}

# The second of three programs dies, on its first run only, as FAULT says.
write_programs() { # FAULT: int3 or null
	program first </dev/null
	program third </dev/null
	program second <<-EOF
		[ "\$(wc -l </run/rxecc-out/second.runs)" -eq 1 ] || exit 0
		sync
		if [ $1 = int3 ]; then
			for line in 'Oops: int3: 0000 [#1] SMP NOPTI' 'RIP: 0010:sched_clock_cpu+0x9/0x1a0'; do
				echo "<0>\$line" >/dev/kmsg
			done
		fi
		echo c >/proc/sysrq-trigger
	EOF
}

# ran_times OUT PROG N: PROG ran N times in the run folder OUT.
ran_times() {
	local n
	n=$(cat "$1/$2.runs" 2>/dev/null | wc -l)
	[ "$n" -eq "$3" ] || fail "$2 ran $n times, not $3"
}

# [stall=MS:EVERY_MS] each_run SEC OUT PROG...: the VM runner on these
# programs of $work in one boot, each stopped after SEC s, the guest
# stopped as --stall says if stall is set; its run folder OUT, its output
# OUT.log.
each_run() {
	local secs=$1 out=$2
	shift 2
	"$top/tools/testing/vm/run" --no-module ${stall:+--stall "$stall"} --each "$secs" \
		-o "$out" -- "${@/#/$work/}" >"$out.log" 2>&1
}

boot_two() { # FAULT OUT
	write_programs "$1"
	each_run 60 "$2" first second third
}

emulator_fault_runs_the_unfinished_again() {
	local out=$work/int3 rc
	# A status an earlier run left in the folder must not pass for one.
	mkdir -p "$out/each"
	echo 0 >"$out/each/second.rc"
	boot_two int3 "$out"
	rc=$?
	sed 's/^/#   /' "$out.log" | grep -E 'run:|exit status' | head -n 12
	[ $rc -eq 0 ] || fail "run exited $rc" || return 1
	grep -q "died of the emulator's fault.*booting once more" "$out.log" ||
		fail "run did not say why it booted once more" || return 1
	grep -q 'did not finish: second third$' "$out.log" ||
		fail "run did not name the programs it ran again" || return 1
	ran_times "$out" first 1 && ran_times "$out" second 2 && ran_times "$out" third 1 ||
		return 1
	[ -f "$out/console.emulator-fault.log" ] || fail "the first boot's console is not kept"
}

other_death_fails_the_run() {
	local out=$work/null rc
	boot_two null "$out"
	rc=$?
	sed 's/^/#   /' "$out.log" | grep -E 'run:' | head -n 4
	[ $rc -ne 0 ] || fail "run passed a guest whose kernel crashed" || return 1
	! grep -q 'booting once more' "$out.log" || fail "run booted once more" || return 1
	ran_times "$out" second 1 || return 1
	grep -q 'second: the guest did not finish it' "$out.log" ||
		fail "run did not name the program the guest died in"
}

# A boot that cannot go on. "unfit" leaves the kernel unable to finish
# removing what it left: a process outside its cgroup holds an rxe device's
# uverbs file open, and the device's deletion, which rxe makes wait for
# that file to close, blocks in the kernel and ignores SIGKILL. "stall"
# hangs the guest's runner itself (SIGSTOP), as a hung kernel would. Each
# must fail alone, and the programs after it run in a new boot.
write_wedging_programs() {
	local prog
	for prog in first second third; do
		program $prog </dev/null
	done
	program unfit <<-'EOF'
		ip link add rxwedge0 type veth peer name rxwedge1 &&
			ip link set rxwedge0 up &&
			rdma link add rxwedge type rxe netdev rxwedge0 || exit 1
		uverbs=$(grep -lx rxwedge /sys/class/infiniband_verbs/*/ibdev)
		uverbs=${uverbs%/ibdev}
		sleep infinity 3<"/dev/infiniband/${uverbs##*/}" >/dev/null 2>&1 &
		echo $! >/sys/fs/cgroup/cgroup.procs
		rdma link delete rxwedge >/dev/null 2>&1 &
		sleep 1
	EOF
	program stall <<<'pkill -STOP -f tools/testing/vm/guest-each'
}

wedged_boot() { # OUT
	write_wedging_programs
	each_run 20 "$1" first unfit second stall third
}

# status OUT PROG RC: the runner gave PROG the status RC.
status() {
	local rc
	rc=$(cat "$1/each/$2.status" 2>/dev/null)
	[ "$rc" = "$3" ] || fail "$2's status is '$rc', not $3"
}

unfit_kernel_fails_one_program() {
	local out=$work/wedged rc
	wedged_boot "$out"
	rc=$?
	sed 's/^/#   /' "$out.log" | grep -E '^#   (run|guest-each):' | head -n 12
	[ $rc -eq 1 ] || fail "run exited $rc, not 1" || return 1
	grep -q 'unfit: processes that SIGKILL did not end in 30 s' "$out/each/unfit.log" ||
		fail "unfit's log does not name the process that would not die" || return 1
	grep -q 'rdma link delete' "$out/each/unfit.log" ||
		fail "unfit's log does not show the stuck deletion" || return 1
	status "$out" first 0 && status "$out" unfit 1 && status "$out" second 0 || return 1
	ran_times "$out" first 1 && ran_times "$out" unfit 1 && ran_times "$out" second 1
}

hung_guest_fails_one_program() {
	local out=$work/wedged
	grep -q 'stall: the guest finished no program for [0-9]* s; stopped it' "$out.log" ||
		fail "run did not say that the guest hung in stall" || return 1
	status "$out" stall 124 && status "$out" third 0 &&
		ran_times "$out" stall 1 && ran_times "$out" third 1 || return 1
	[ -f "$out/console.boot1.log" ] && [ -f "$out/console.boot2.log" ] ||
		fail "the console logs of the boots that ended early are not kept"
}

# The ten latest wakes, in us, of the timer probe the VM tests judge a
# starved VM by (tools/testing/lib/lateness.sh: 20 ms sleeps), over 6 s: a
# stopped qemu stops the guest's CPUs, not its clock.
write_lateness_program() {
	program lateness <<-EOF
		. "$top/tools/testing/lib/lateness.sh"
		lateness_start
		sleep 6
		sort -rn "\$lateness_file" | head -n 10 >/run/rxecc-out/lateness.us
		lateness_stop
	EOF
}

stall_stops_the_guest() {
	local out=$work/stopped long
	write_lateness_program
	stall=300:1000 each_run 30 "$out" lateness ||
		fail "run failed: $(tail -n 3 "$out.log")" || return 1
	ktap_print_msg "the probe's latest wakes (ms):" \
		"$(awk '{ printf "%d ", $1 / 1000 }' "$out/lateness.us")"
	# Six stops of 300 ms, each 260 ms or more past a 20 ms tick; an idle
	# or a busy host stops no guest that long.
	long=$(awk '$1 >= 260000' "$out/lateness.us" | wc -l)
	[ "$long" -ge 4 ] || fail "$long wakes 260 ms late or more, not 4 or more"
}

ktap_print_header
ktap_set_plan 7
ktap_test_result "an int3 Oops in the kernel's own text is the emulator's fault" \
	int3_in_kernel_text_is_the_emulators
ktap_test_result "an int3 in a module, a GPF or a BUG is not" other_deaths_are_not
ktap_test_result "the emulator's fault: one more boot, for the programs not finished" \
	emulator_fault_runs_the_unfinished_again
ktap_test_result "any other kernel death fails the run, with no second boot" \
	other_death_fails_the_run
ktap_test_result "a program that leaves the kernel unfit fails; the rest run in a new boot" \
	unfit_kernel_fails_one_program
ktap_test_result "a guest that hangs fails the program it hung in; the rest run in a new boot" \
	hung_guest_fails_one_program
ktap_test_result "--stall 300:1000 stops the guest for 300 ms each second" stall_stops_the_guest
ktap_finished
