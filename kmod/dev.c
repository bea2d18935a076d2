// SPDX-License-Identifier: GPL-2.0
/*
 * rxe devices: rxe_cc follows them through an IB client, so that a device
 * gets its congestion control state when it appears and loses it, with any
 * packets the pacer still holds for it, before it goes away.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/rculist.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "rxe_cc.h"

LIST_HEAD(rxe_cc_devs);
/* Serializes device list changes and configuration updates. */
DEFINE_MUTEX(rxe_cc_config_lock);

#define RXE_CC_DEFAULT_LINE_MBPS 10000

static const struct rxe_cc_np_params rxe_cc_np_defaults = {
	.enable = 1,
	.min_time_between_cnps_us = 4,
	.per_port = 0,
	.cnp_dscp = 48,
	.cnp_prio = 6,
	.cnp_prio_mode = 0,
};

/* Netlink requests see the devices of their own network namespace only. */
struct rxe_cc_dev *rxe_cc_dev_by_name(const struct net *net, const char *name)
{
	struct rxe_cc_dev *dev;

	list_for_each_entry_rcu(dev, &rxe_cc_devs, list, lockdep_is_held(&rxe_cc_config_lock))
		if (net_eq(dev_net(dev->ndev), net) && !strcmp(dev_name(&dev->ibdev->dev), name))
			return dev;
	return NULL;
}

struct rxe_cc_dev *rxe_cc_dev_by_index(const struct net *net, u32 index)
{
	struct rxe_cc_dev *dev;

	list_for_each_entry_rcu(dev, &rxe_cc_devs, list, lockdep_is_held(&rxe_cc_config_lock))
		if (net_eq(dev_net(dev->ndev), net) && dev->ibdev->index == index)
			return dev;
	return NULL;
}

/* Caller holds rxe_cc_config_lock; CFG has been validated. */
int rxe_cc_dev_set_config(struct rxe_cc_dev *dev, const struct rxe_cc_config *cfg)
{
	struct rxe_cc_config *new, *old;

	new = kmemdup(cfg, sizeof(*cfg), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	old = rcu_dereference_protected(dev->cfg, lockdep_is_held(&rxe_cc_config_lock));
	new->gen = old->gen + 1 ?: 1;
	rcu_assign_pointer(dev->cfg, new);
	kfree_rcu(old, rcu);
	return 0;
}

/*
 * The link rate the ceiling of every QP's rate starts from: the netdev's
 * ethtool speed, where it has one. Users of emulated links set it lower.
 */
static u32 rxe_cc_line_kbps(struct net_device *ndev)
{
	struct ethtool_link_ksettings lks;
	u32 mbps = RXE_CC_DEFAULT_LINE_MBPS;

	rtnl_lock();
	if (!__ethtool_get_link_ksettings(ndev, &lks) && lks.base.speed != SPEED_UNKNOWN &&
	    lks.base.speed > 0 && lks.base.speed <= RXE_CC_RATE_MAX_MBPS)
		mbps = lks.base.speed;
	rtnl_unlock();
	return mbps * DCQCN_KBPS_PER_MBPS;
}

/*
 * The netdev under an rxe device, with a reference. ib_device_get_netdev()
 * is not exported (6.1), so look for the netdev whose rxe device this is;
 * on 6.1 rxe only lives in init_net.
 */
static struct net_device *rxe_cc_find_netdev(struct ib_device *ibdev)
{
	struct net_device *ndev, *found = NULL;
	struct ib_device *owner;

	rcu_read_lock();
	for_each_netdev_rcu(&init_net, ndev) {
		owner = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
		if (!owner)
			continue;
		ib_device_put(owner);
		if (owner == ibdev) {
			found = ndev;
			dev_hold(found);
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

static int rxe_cc_add_one(struct ib_device *ibdev)
{
	struct rxe_cc_config *cfg;
	struct net_device *ndev;
	struct rxe_cc_dev *dev;

	if (ibdev->ops.driver_id != RDMA_DRIVER_RXE)
		return -EOPNOTSUPP;
	ndev = rxe_cc_find_netdev(ibdev);
	if (!ndev)
		return -ENODEV;

	/* Its QP table makes it large: vmalloc if pages are fragmented. */
	dev = kvzalloc(sizeof(*dev), GFP_KERNEL);
	cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	if (!dev || !cfg)
		goto err;
	dev->stats = alloc_percpu(struct rxe_cc_dev_stats);
	if (!dev->stats)
		goto err;

	dev->ibdev = ibdev;
	dev->ndev = ndev;
	cfg->gen = 1;
	dev->link_kbps = rxe_cc_line_kbps(ndev);
	cfg->line_kbps = dev->link_kbps;
	cfg->rp_enable = 1;
	cfg->rp = dcqcn_preset_mlx5;
	cfg->np = rxe_cc_np_defaults;
	RCU_INIT_POINTER(dev->cfg, cfg);
	rxe_cc_qps_init(dev);
	rxe_cc_pacer_init(dev);
	rxe_cc_monitor_init(dev);

	mutex_lock(&rxe_cc_config_lock);
	list_add_tail_rcu(&dev->list, &rxe_cc_devs);
	mutex_unlock(&rxe_cc_config_lock);
	ib_set_client_data(ibdev, &rxe_cc_client, dev);
	return 0;

err:
	kfree(cfg);
	kvfree(dev);
	dev_put(ndev);
	return -ENOMEM;
}

static void rxe_cc_dev_free(struct rxe_cc_dev *dev)
{
	rxe_cc_qps_destroy(dev);
	kfree(rcu_dereference_protected(dev->cfg, true));
	free_percpu(dev->stats);
	dev_put(dev->ndev);
	kvfree(dev);
}

/* Set while the module unloads: rxe's QPs live on then. */
static bool rxe_cc_unloading;

/*
 * Called before rxe's QPs are destroyed. Once no packet can find the device
 * any more, what the pacer holds is freed if the device is going (its QPs
 * go too), sent if only rxe_cc is.
 */
static void rxe_cc_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct rxe_cc_dev *dev = client_data;

	mutex_lock(&rxe_cc_config_lock);
	list_del_rcu(&dev->list);
	mutex_unlock(&rxe_cc_config_lock);
	synchronize_rcu();
	rxe_cc_qps_stop(dev);
	rxe_cc_pacer_stop(dev, rxe_cc_unloading);
	rxe_cc_dev_free(dev);
}

struct ib_client rxe_cc_client = {
	.name = "rxe_cc",
	.add = rxe_cc_add_one,
	.remove = rxe_cc_remove_one,
};

int rxe_cc_dev_init(void)
{
	return ib_register_client(&rxe_cc_client);
}

/* Removes every device through rxe_cc_remove_one(). */
void rxe_cc_dev_exit(void)
{
	rxe_cc_unloading = true;
	ib_unregister_client(&rxe_cc_client);
}
