# SPDX-License-Identifier: GPL-2.0
#
# rxe-cc: DCQCN congestion control for soft-RoCE.
#
#   make                 build rxe_cc.ko (against KDIR) and the tools
#   make install         install the module (updates/), rocectl and its man page
#   make check           install what is needed, then run every test
#   make check-debug     the hardening tests on the debug kernel (KASAN, ...)
#   make stress          the fuzzers and teardown rounds at scale on it (hours;
#                        STRESS_MESSAGES, STRESS_ROUNDS, STRESS_KERNEL)
#   make bench           the benchmark: throughput ratios, pacing accuracy,
#                        hook and qp show cost to 10,000 QPs, bytes per QP,
#                        and whether each goal is met (prints tables; not a
#                        test)
#   make demo            the congestion-control lab (LAB="incast4 --duration 30"
#                        picks a scenario and options; tools/lab/run --help;
#                        KERNEL=6.12 or KERNEL=7 boots another kernel)
#   make shell           the lab by hand: a shell in the VM on the lab's fabric
#                        (LAB="--flows 3" takes the lab's options)
#   make regen           after editing the netlink spec: the uAPI header and
#                        kmod/genl.[ch], made from it (tools/ynl-regen)
#   make clean           leave the tree as cloned (test kernels and VM logs
#                        in .cache go too)

KDIR ?= /lib/modules/$(shell uname -r)/build
PREFIX ?= /usr/local
DESTDIR ?=

all: modules tools

modules:
	@test -f $(KDIR)/Makefile || { \
		echo "no kernel build tree at KDIR=$(KDIR)"; \
		echo "install your kernel's headers, or build for the test VM's kernel:"; \
		echo "  make KDIR=\$$(tools/testing/vm/fetch-kernel)/root/usr/src/linux-headers-<abi>"; \
		exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	$(MAKE) -C tools

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	$(MAKE) -C tools install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

check:
	tools/install-deps
	selftests/check

# The hardening suite on the debug kernel; its first build on a machine
# takes about 45 minutes, so it is not part of check (Documentation/rxe_cc.rst).
check-debug:
	tools/install-deps
	CHECK_KERNELS=debug selftests/check \
		$$($(MAKE) -s --no-print-directory -C selftests print-TEST_PROGS_DEBUG)

# The fuzzers and teardown rounds at scale on the debug kernel
# (selftests/stress): hours, so not part of check.
stress:
	tools/install-deps
	selftests/stress

bench:
	tools/install-deps
	selftests/bench/run

demo:
	tools/install-deps
	tools/lab/run $(LAB) $(if $(KERNEL),--kernel $(KERNEL))

shell:
	tools/install-deps
	tools/lab/shell $(LAB) $(if $(KERNEL),--kernel $(KERNEL))

regen:
	tools/install-deps
	tools/ynl-regen

# Not the kernel's own M= clean: it deletes every *.ko and modules.order
# below this folder, the test kernels' modules in .cache among them.
modules-clean:
	rm -f kmod/*.o kmod/*.ko kmod/*.mod kmod/*.mod.c kmod/.*.cmd kmod/.*.d \
		kmod/modules.order Module.symvers modules.order .*.cmd .module-common.o

clean: modules-clean
	$(MAKE) -C tools clean
	$(MAKE) -C selftests clean
	rm -rf .cache

.PHONY: all modules tools install check check-debug stress bench demo shell regen modules-clean clean
