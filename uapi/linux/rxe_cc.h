/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * rxe_cc: DCQCN congestion control for soft-RoCE, user API.
 */
#ifndef _UAPI_LINUX_RXE_CC_H
#define _UAPI_LINUX_RXE_CC_H

#define RXE_CC_FAMILY_NAME	"rxe_cc"
#define RXE_CC_FAMILY_VERSION	1

#endif /* _UAPI_LINUX_RXE_CC_H */
