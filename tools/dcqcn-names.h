/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding a DCQCN parameter by the name a person types: rocectl's key
 * (ai-rate) or mlx5's (rp_ai_rate). For the host tools; the module names
 * parameters by netlink attribute, not by string.
 */
#ifndef _RXE_CC_DCQCN_NAMES_H
#define _RXE_CC_DCQCN_NAMES_H

#include <string.h>

#include "dcqcn.h"

/* The parameter id, or -1 if NAME is neither a key nor an mlx5 name. */
static inline int dcqcn_param_by_name(const char *name)
{
	int id;

	for (id = 0; id < DCQCN_P_COUNT; id++)
		if (!strcmp(name, dcqcn_param_info[id].key) ||
		    !strcmp(name, dcqcn_param_info[id].mlx5_name))
			return id;
	return -1;
}

#endif /* _RXE_CC_DCQCN_NAMES_H */
