/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RXE_CC_H
#define _RXE_CC_H

#define RXE_CC_VERSION "0.1.0"

#endif /* _RXE_CC_H */
