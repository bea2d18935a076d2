# SPDX-License-Identifier: GPL-2.0
#
# Flags shared by the host programs. The DCQCN core in kmod/ is compiled into
# them unchanged.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
CC ?= cc
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS += -I$(TOP)/uapi -I$(TOP)/kmod -I$(TOP)/tools -I$(TOP)/tools/lib -D_GNU_SOURCE
# rxe_cc's netlink client (tools/lib), linked into rocectl and the sampler.
NL_LIB := $(TOP)/tools/lib
