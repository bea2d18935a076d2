#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The kernel's own YNL library against rxe_cc, driven by our spec.

ynl_check.py SRC SPEC DEV QPN CHECK [TRAFFIC-COMMAND]

SRC is a kernel tree with tools/net/ynl and the spec schemas
(tools/fetch-linux-tools), SPEC our spec;
DEV an rxe device and QPN a QP of it that rxe_cc knows. CHECK is one of:
  dump     dev-get and qp-get replies decode with the spec; a command
           refuses another's attributes
  ranges   every range the spec states for a settable attribute is the
           kernel's: its bounds are taken, one past them is refused with
           an extack blaming the attribute, and nothing changes
  monitor  subscribed to the monitor group while TRAFFIC-COMMAND runs,
           CNP events arrive and decode
Prints "PASS" or "FAIL: why" as its last line.
"""

import os
import subprocess
import sys
import time

src, spec_path, dev, qpn, check = sys.argv[1:6]
qpn = int(qpn)
sys.path.insert(0, os.path.join(src, "tools/net/ynl"))
from lib import NlError, YnlFamily  # noqa: E402

ynl = YnlFamily(spec_path, os.path.join(src, "Documentation/netlink/genetlink-c.yaml"))
ids = {"dev-name": dev}


def fail(why):
    print(f"FAIL: {why}")
    sys.exit(1)


def device():
    return ynl.do("dev-get", ids)


def check_dump():
    devs = ynl.dump("dev-get", {})
    mine = [d for d in devs if d["dev-name"] == dev]
    if len(mine) != 1:
        fail(f"dev-get dump has {len(mine)} entries for {dev}")
    d = mine[0]
    dcqcn = ynl.attr_sets["dcqcn"].attrs
    settable = [n for n in dcqcn if n not in ("unspec", "preset")]
    if sorted(d["dcqcn"]) != sorted(settable):
        fail(f"dcqcn nest has {sorted(d['dcqcn'])}")
    if d["np"].keys() != {n for n in ynl.attr_sets["np"].attrs if n != "unspec"}:
        fail(f"np nest has {sorted(d['np'])}")
    qps = ynl.dump("qp-get", ids)
    if not any(q["qp"]["num"] == qpn for q in qps):
        fail(f"qp-get dump of {dev} lacks QP {qpn}")
    one = ynl.do("qp-get", dict(ids, qp={"num": qpn}))
    if one["qp"]["num"] != qpn or one["qp"]["dcqcn"] != "device":
        fail(f"qp-get of {qpn}: {one}")
    try:
        ynl.do("qp-get", dict(ids, qp={"num": 999999}))
        fail("qp-get of a QP that does not exist succeeded")
    except NlError as e:
        if e.error != 2:
            fail(f"qp-get of a missing QP: errno {e.error}")
    # Each command takes its own attributes only.
    before = device()["dcqcn"]["ai-rate"]
    e = attempt("np-set", dict(ids, dcqcn={"ai-rate": before + 1}))
    if not e or e.error != 22 or device()["dcqcn"]["ai-rate"] != before:
        fail(f"np-set took a dcqcn nest: {e and e.nl_msg.extack}")
    print(f"# np-set with a dcqcn nest: {e.nl_msg.extack.get('msg')}")
    print(f"# {len(devs)} devices, {len(qps)} QPs on {dev}")


def attempt(op, vals):
    """None if the kernel took VALS, else the NlError."""
    try:
        ynl.do(op, vals)
        return None
    except NlError as e:
        return e


# Where each settable attribute lives, and how to read it back.
def targets():
    out = []
    for name, attr in ynl.attr_sets["dcqcn"].attrs.items():
        out.append(("dcqcn-set", lambda v, n=name: dict(ids, dcqcn={n: v}),
                    lambda n=name: device()["dcqcn"].get(n), attr))
    for name, attr in ynl.attr_sets["np"].attrs.items():
        out.append(("np-set", lambda v, n=name: dict(ids, np={n: v}),
                    lambda n=name: device()["np"][n], attr))
    out.append(("dcqcn-set", lambda v: dict(ids, **{"dev-line-rate": v}),
                lambda: device()["dev-line-rate"],
                ynl.attr_sets["rxe-cc"].attrs["dev-line-rate"]))
    for name in ("min-rate", "max-rate"):
        out.append(("qp-set", lambda v, n=name: dict(ids, qp={"num": qpn, n: v}),
                    lambda n=name: ynl.do("qp-get", dict(ids, qp={"num": qpn}))["qp"][n],
                    ynl.attr_sets["qp"].attrs[name]))
    return out


def restore():
    ynl.do("dcqcn-set", dict(ids, dcqcn={"preset": "mlx5"}))
    ynl.do("np-set", dict(ids, np={"enable": 1, "min-time-between-cnps": 4, "per-port": 0,
                                   "cnp-dscp": 48, "cnp-prio": 6, "cnp-prio-mode": 0}))
    ynl.do("qp-set", dict(ids, qp={"num": qpn, "min-rate": 0, "max-rate": 0}))


def limit(v):
    """A check's bound: a number, or the name of one of the spec's constants."""
    return v if isinstance(v, int) else ynl.consts[v]["value"]


def check_ranges():
    checked = 0
    for op, vals, read, attr in targets():
        checks = attr.yaml.get("checks")
        if attr.type != "u32" or not checks:
            continue
        lo, hi = limit(checks.get("min", 0)), limit(checks["max"])
        for v in (lo, hi):
            restore()
            e = attempt(op, vals(v))
            if e:
                fail(f"{op} {attr.name} {v} (in the spec's {lo}..{hi}) refused: "
                     f"{e.nl_msg.extack}")
            if read() != v:
                fail(f"{op} {attr.name} {v} reads back {read()}")
        bad = [hi + 1] + ([lo - 1] if lo > 0 else [])
        for v in bad:
            restore()
            before = read()
            e = attempt(op, vals(v))
            if not e:
                fail(f"{op} {attr.name} {v} (outside the spec's {lo}..{hi}) taken")
            blamed = (e.nl_msg.extack or {}).keys() & {"bad-attr", "bad-attr-offs"}
            if e.error not in (22, 34) or not blamed:
                fail(f"{op} {attr.name} {v}: errno {e.error}, extack {e.nl_msg.extack}")
            if read() != before:
                fail(f"refused {op} {attr.name} {v} changed it to {read()}")
        checked += 1
    restore()
    print(f"# {checked} ranges checked")
    if checked < 20:
        fail(f"only {checked} ranges found in the spec")


def check_monitor(command):
    ynl.ntf_subscribe("monitor")
    traffic = subprocess.Popen(["bash", "-c", command])
    events = []
    while traffic.poll() is None:
        time.sleep(0.1)
        ynl.check_ntf()
    time.sleep(0.5)
    ynl.check_ntf()
    events = [m for m in ynl.async_msg_queue]
    if traffic.returncode:
        fail(f"traffic failed: {traffic.returncode}")
    kinds = {}
    for m in events:
        kinds[m["name"]] = kinds.get(m["name"], 0) + 1
    print(f"# events: {kinds}")
    handled = [m["msg"] for m in events if m["name"] == "cnp-handled-ntf"]
    if not handled or not kinds.get("cnp-sent-ntf"):
        fail("no CNP events")
    e = handled[0]["event"]
    if not {"time-ns", "qp-num", "rate-kbps", "target-rate-kbps", "alpha"} <= e.keys():
        fail(f"cnp-handled event lacks the QP's state: {e}")
    rates = [m["msg"]["event"] for m in events if m["name"] == "rate-ntf"]
    if not rates:
        fail("no rate events")
    if not {"old-rate-kbps", "rate-kbps", "reason"} <= rates[0].keys() or rates[0]["reason"] != "cut":
        fail(f"the first rate event is not a cut: {rates[0]}")


if check == "dump":
    check_dump()
elif check == "ranges":
    check_ranges()
elif check == "monitor":
    check_monitor(sys.argv[6])
else:
    fail(f"unknown check {check}")
print("PASS")
