// SPDX-License-Identifier: GPL-2.0
/*
 * rxe_cc: DCQCN congestion control for the soft-RoCE driver (rdma_rxe).
 *
 * The module watches rxe's RoCEv2 traffic from the outside: it never patches
 * rxe and only uses exported IB core and netfilter interfaces.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <rdma/ib_verbs.h>

#include "rxe_cc.h"

static int rxe_cc_add_one(struct ib_device *ibdev)
{
	if (ibdev->ops.driver_id != RDMA_DRIVER_RXE)
		return -EOPNOTSUPP;
	return 0;
}

static void rxe_cc_remove_one(struct ib_device *ibdev, void *client_data)
{
}

static struct ib_client rxe_cc_client = {
	.name = "rxe_cc",
	.add = rxe_cc_add_one,
	.remove = rxe_cc_remove_one,
};

static int __init rxe_cc_init(void)
{
	int err;

	err = ib_register_client(&rxe_cc_client);
	if (err)
		return err;
	pr_info("version " RXE_CC_VERSION " loaded\n");
	return 0;
}

static void __exit rxe_cc_exit(void)
{
	ib_unregister_client(&rxe_cc_client);
}

module_init(rxe_cc_init);
module_exit(rxe_cc_exit);

MODULE_DESCRIPTION("DCQCN congestion control for soft-RoCE (rdma_rxe)");
MODULE_AUTHOR("rxe-cc developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(RXE_CC_VERSION);
/* rxe_cc hooks rxe traffic: loading it without rxe makes no sense. */
MODULE_SOFTDEP("pre: rdma_rxe");
