// SPDX-License-Identifier: GPL-2.0
/*
 * rxe_cc: DCQCN congestion control for the soft-RoCE driver (rdma_rxe).
 *
 * The module watches rxe's RoCEv2 traffic from the outside: it never patches
 * rxe and only uses exported IB core and netfilter interfaces. Units:
 * dev.c (rxe devices), qp.c (per-QP state), hook.c (the packet path), np.c
 * (CNPs out), rp.c (CNPs in), pacer.c, netlink.c, monitor.c (events), and
 * the DCQCN arithmetic in dcqcn.c.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "rxe_cc.h"

static int __init rxe_cc_init(void)
{
	int err;

	/* The family first: the packet path sends events on its group. */
	err = rxe_cc_netlink_init();
	if (err)
		return err;
	err = rxe_cc_qp_cache_init();
	if (err)
		goto err_netlink;
	err = rxe_cc_dev_init();
	if (err)
		goto err_cache;
	err = rxe_cc_hooks_init();
	if (err)
		goto err_dev;
	pr_info("version " RXE_CC_VERSION " loaded\n");
	return 0;

err_dev:
	rxe_cc_dev_exit();
err_cache:
	rxe_cc_qp_cache_exit();
err_netlink:
	rxe_cc_netlink_exit();
	return err;
}

/*
 * Hooks go first, so nothing is held any more when the devices go; the
 * family last, once no packet can send an event on its group.
 */
static void __exit rxe_cc_exit(void)
{
	rxe_cc_hooks_exit();
	rxe_cc_dev_exit();
	rxe_cc_qp_cache_exit();
	rxe_cc_netlink_exit();
}

module_init(rxe_cc_init);
module_exit(rxe_cc_exit);

MODULE_DESCRIPTION("DCQCN congestion control for soft-RoCE (rdma_rxe)");
MODULE_AUTHOR("rxe-cc developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(RXE_CC_VERSION);
/* rxe_cc hooks rxe traffic: loading it without rxe makes no sense. */
MODULE_SOFTDEP("pre: rdma_rxe");
