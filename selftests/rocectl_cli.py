#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""rocectl's argument parser and printer, without a kernel.

Runs tools/rocectl/test/rocectl-fake (rocectl with a stand-in socket that
answers from a fixture and logs each request) and checks the requests that
command lines make, decoded with the netlink spec, what refused input
prints and returns, how kernel errors are reported, and the text and JSON
output. TAP output.
"""

import json
import os
import subprocess
import sys
import shutil
import tempfile
import time

import yaml

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKE = os.path.join(TOP, "tools/rocectl/test/rocectl-fake")
SPEC = os.path.join(TOP, "Documentation/netlink/specs/rxe_cc.yaml")

NLM_F_DUMP = 0x300


class Spec:
    """Names of commands and attributes, from the YAML spec."""

    def __init__(self, path):
        with open(path) as f:
            spec = yaml.safe_load(f)
        self.cmds = {}
        value = 0
        for op in spec["operations"]["list"]:
            value = op.get("value", value)
            self.cmds[value] = op["name"]
            value += 1
        self.sets = {}
        for aset in spec["attribute-sets"]:
            attrs, value = {}, 1
            for a in aset["attributes"]:
                value = a.get("value", value)
                attrs[value] = a
                value += 1
            self.sets[aset["name"]] = attrs

    def decode(self, attrs, aset="rxe-cc"):
        out = {}
        for a in attrs:
            spec = self.sets[aset][a["type"]]
            if "nested" in a:
                out[spec["name"]] = self.decode(a["nested"], spec["nested-attributes"])
                continue
            raw = bytes.fromhex(a["hex"])
            if spec["type"] == "string":
                out[spec["name"]] = raw.rstrip(b"\0").decode()
            elif spec["type"] in ("u16", "u32", "u64"):
                out[spec["name"]] = int.from_bytes(raw, "little")
            else:
                out[spec["name"]] = raw
        return out


class Runner:
    def __init__(self):
        self.n = 0
        self.failed = 0
        self.log = tempfile.NamedTemporaryFile(delete=False).name

    def rocectl(self, *args, error=None, env_add=None, during=None):
        """Runs rocectl-fake; returns (exit code, stdout, stderr, requests).
        DURING is called while it runs (after 0.3 s)."""
        open(self.log, "w").close()
        env = dict(os.environ, ROCECTL_FAKE_LOG=self.log, **(env_add or {}))
        env.pop("ROCECTL_FAKE_ERROR", None)
        if error:
            env["ROCECTL_FAKE_ERROR"] = error
        with subprocess.Popen([FAKE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) as proc:
            if during:
                time.sleep(0.3)
                during()
            out, err = proc.communicate()
        p = subprocess.CompletedProcess(args, proc.returncode, out, err)
        with open(self.log) as f:
            reqs = [json.loads(line) for line in f]
        return p.returncode, p.stdout, p.stderr, reqs

    def check(self, name, fn):
        self.n += 1
        try:
            fn()
            print(f"ok {self.n} {name}")
        except AssertionError as e:
            self.failed += 1
            print(f"# FAIL: {e}")
            print(f"not ok {self.n} {name}")


spec = Spec(SPEC)
run = Runner()
TMP = tempfile.mkdtemp(prefix="rocectl_cli.")


def request(*args):
    """The one request ARGS make: (command name, flags, attributes)."""
    rc, out, err, reqs = run.rocectl(*args)
    assert rc == 0, f"rocectl {' '.join(args)}: exit {rc}: {err.strip()}"
    assert len(reqs) == 1, f"{len(reqs)} requests"
    r = reqs[0]
    return spec.cmds[r["cmd"]], r["flags"], spec.decode(r["attrs"])


def expect(args, cmd, attrs, dump=False):
    got_cmd, flags, got = request(*args)
    assert got_cmd == cmd, f"{args}: command {got_cmd}, want {cmd}"
    assert got == attrs, f"{args}: attributes {got}, want {attrs}"
    assert bool(flags & NLM_F_DUMP == NLM_F_DUMP) == dump, f"{args}: dump flag {flags:#x}"


def test_sets():
    expect(["dcqcn", "set", "dev", "rxe0", "ai-rate", "5", "rp_hai_rate", "100"],
           "dcqcn-set", {"dcqcn": {"ai-rate": 5, "hai-rate": 100}, "dev-name": "rxe0"})
    expect(["dcqcn", "set", "dev", "rxe0", "preset", "paper", "time-reset", "60",
            "line-rate", "200"], "dcqcn-set",
           {"dcqcn": {"preset": "paper", "time-reset": 60}, "dev-name": "rxe0",
            "dev-line-rate": 200})
    expect(["np", "set", "dev", "rxe1", "cnp-prio-mode", "data", "per-port", "on"],
           "np-set", {"np": {"cnp-prio-mode": 1, "per-port": 1}, "dev-name": "rxe1"})
    expect(["qp", "set", "dev", "rxe0", "qpn", "17", "dcqcn", "off", "max-rate", "20"],
           "qp-set", {"dev-name": "rxe0", "qp": {"num": 17, "dcqcn": 2, "max-rate": 20}})
    expect(["qp", "set", "dev", "rxe0", "qpn", "17", "udp-sport", "53000"],
           "qp-set", {"dev-name": "rxe0", "qp": {"num": 17, "udp-sport": 53000}})
    expect(["qp", "set", "dev", "rxe0", "qpn", "17", "udp-sport", "0"],
           "qp-set", {"dev-name": "rxe0", "qp": {"num": 17, "udp-sport": 0}})
    expect(["stats", "reset", "dev", "rxe0"], "stats-reset", {"dev-name": "rxe0"})
    expect(["stats", "reset", "dev", "rxe0", "qpn", "17"], "stats-reset",
           {"dev-name": "rxe0", "qp": {"num": 17}})


def test_abbreviations():
    expect(["dc", "se", "dev", "rxe0", "gd", "7"], "dcqcn-set",
           {"dcqcn": {"gd": 7}, "dev-name": "rxe0"})
    expect(["d", "s"], "dev-get", {}, dump=True)
    expect(["cnp", "set", "dev", "rxe0", "cnp-dscp", "26"], "np-set",
           {"np": {"cnp-dscp": 26}, "dev-name": "rxe0"})
    expect(["q"], "qp-get", {}, dump=True)


def test_gets():
    expect(["qp", "show", "dev", "rxe0", "qpn", "17"], "qp-get",
           {"dev-name": "rxe0", "qp": {"num": 17}})
    expect(["qp", "show", "dev", "rxe1"], "qp-get", {"dev-name": "rxe1"}, dump=True)
    expect(["qp", "show"], "qp-get", {}, dump=True)


USAGE = [
    (["dcqcn", "set", "dev", "rxe0", "ai-speed", "5"], 'unknown key "ai-speed"'),
    (["dcqcn", "set", "dev", "rxe0", "ai-rate", "5x"], 'ai-rate: "5x" is not a number'),
    (["dcqcn", "set", "dev", "rxe0", "ai-rate", "-1"], 'ai-rate: "-1" is not a number'),
    (["dcqcn", "set", "dev", "rxe0", "ai-rate", "4294967296"], "is not a number"),
    (["dcqcn", "set", "ai-rate", "5"], "which device? dev DEV"),
    (["dcqcn", "set", "dev", "rxe0", "ai-rate"], '"ai-rate" needs a value'),
    (["dcqcn", "set", "dev", "rxe0", "preset", "cisco"], 'unknown preset "cisco"'),
    (["np", "set", "dev", "rxe0", "per-port", "maybe"], "per-port: expected on or off"),
    (["np", "set", "dev", "rxe0", "cnp-prio-mode", "auto"], "is not data or fixed"),
    (["qp", "set", "dev", "rxe0", "dcqcn", "off"], "which QP? dev DEV qpn QPN"),
    (["qp", "set", "dev", "rxe0", "qpn", "17"], "nothing to set: dcqcn, min-rate, max-rate or udp-sport"),
    (["qp", "set", "dev", "rxe0", "qpn", "17", "dcqcn", "maybe"], "expected on, off or device"),
    (["qp", "show", "qpn", "17"], "qpn needs its device"),
    (["qp", "show", "udp-sport", "65536"], "udp-sport: 65536 is out of range (0..65535)"),
    (["qp", "set", "dev", "rxe0", "qpn", "17", "udp-sport", "65536"],
     "udp-sport: 65536 is out of range (0..65535)"),
    (["qp", "show", "udp-sport", "x"], 'udp-sport: "x" is not a number'),
    (["qp", "show", "udp-sport"], 'unknown or incomplete argument "udp-sport"'),
    (["stats", "reset"], "which device? dev DEV"),
    (["monitor", "event", "cnp"], '"cnp" is not cnp-sent, cnp-handled or rate'),
    (["flows", "show"], 'unknown object "flows"'),
    (["dcqcn", "frob"], 'unknown command "frob" (show, set; rocectl dcqcn help)'),
    (["qp", "frob"], 'unknown command "frob" (show, list, set; rocectl qp help)'),
    # Keys are written in full, unlike objects and commands.
    (["qp", "show", "de", "rxe0"], 'unknown or incomplete argument "de"'),
    (["dcqcn", "show", "de", "rxe0"], 'unknown or incomplete argument "de"'),
    (["stats", "reset", "de", "rxe0"], 'unknown key "de"'),
    (["monitor", "ev", "rate"], 'unknown key "ev"'),
]


def test_usage_errors():
    for args, reason in USAGE:
        rc, out, err, reqs = run.rocectl(*args)
        assert rc == 1, f"{args}: exit {rc}, want 1"
        assert len(err.splitlines()) == 1, f"{args}: want one line, got {err!r}"
        assert reason in err, f"{args}: {err.strip()!r} lacks {reason!r}"
        assert not [r for r in reqs if spec.cmds[r["cmd"]] != "dev-get"], \
            f"{args}: a refused command sent {reqs}"


def attr_type(aset, name):
    return next(v for v, a in spec.sets[aset].items() if a["name"] == name)


KERNEL_ERRORS = [
    (["dcqcn", "set", "dev", "rxe0", "ai-rate", "500000"],
     f"34:integer out of range:{attr_type('dcqcn', 'ai-rate')}",
     "rocectl: ai-rate: integer out of range (1..400000 Mb/s)"),
    (["np", "set", "dev", "rxe0", "cnp-dscp", "64"],
     f"34:integer out of range:{attr_type('np', 'cnp-dscp')}",
     "rocectl: cnp-dscp: integer out of range (0..63)"),
    (["np", "set", "dev", "rxe0", "min-time-between-cnps", "20000000"],
     f"34:integer out of range:{attr_type('np', 'min-time-between-cnps')}",
     "rocectl: min-time-between-cnps: integer out of range (0..10000000 us)"),
    (["qp", "set", "dev", "rxe0", "qpn", "17", "max-rate", "500000"],
     f"34:integer out of range:{attr_type('qp', 'max-rate')}",
     "rocectl: max-rate: integer out of range (0..400000 Mb/s, 0 = the device's)"),
    (["dcqcn", "set", "dev", "rxe0", "ai-rate", "7"], "1:x:0",
     "rocectl: rxe0: Operation not permitted (needs CAP_NET_ADMIN)"),
    (["dcqcn", "set", "dev", "rxe0", "min-rate", "9", "max-rate", "8"],
     "22:min-rate must not exceed max-rate:0", "rocectl: rxe0: min-rate must not exceed max-rate"),
]


def test_kernel_errors():
    for args, error, line in KERNEL_ERRORS:
        rc, out, err, _ = run.rocectl(*args, error=error)
        assert rc == 2, f"{args}: exit {rc}, want 2"
        assert err.strip() == line, f"{args}: {err.strip()!r}, want {line!r}"
    rc, _, err, _ = run.rocectl("dcqcn", "set", "dev", "lo", "ai-rate", "5")
    assert rc == 2 and "lo: no such rxe device in this network namespace" in err, err
    rc, _, err, _ = run.rocectl("qp", "show", "dev", "rxe0", "qpn", "99")
    assert rc == 2 and "qpn: no such QP" in err, err


def json_of(*args):
    rc, out, err, _ = run.rocectl("-j", *args)
    assert rc == 0, f"{args}: exit {rc}: {err}"
    return json.loads(out)


def test_qp_output():
    qps = json_of("qp", "show")
    assert len(qps) == 2, qps
    q = qps[0]
    want = {"dev": "rxe0", "qpn": 17, "transport": "rc", "remote-qpn": 18, "peer": "10.0.0.2",
            "udp-sport": 53017, "rxe-udp-sport": 49441, "rate": 50.5,
            "target-rate": 100.0, "alpha": 512, "timer-stage": 1, "byte-stage": 0,
            "limited": True, "queue": 3, "idle-ms": 5, "dcqcn": "off", "max-rate": 20}
    assert q == want, f"{q} != {want}"
    assert qps[1]["peer"] == "fd00::1" and qps[1]["dcqcn"] == "device", qps[1]
    assert qps[1]["transport"] == "ud", qps[1]
    assert "max-rate" not in qps[1] and "min-rate" not in qps[1], qps[1]
    rc, out, _, _ = run.rocectl("qp", "show", "dev", "rxe0", "qpn", "17")
    line = ("dev rxe0 qpn 17 transport rc remote-qpn 18 peer 10.0.0.2 udp-sport 53017 rxe-udp-sport 49441 "
            "rate 50.500Mbit "
            "target-rate 100Mbit alpha 512 timer-stage 1 byte-stage 0 limited on queue 3 "
            "idle-ms 5 dcqcn off max-rate 20")
    assert rc == 0 and out.strip() == line, f"{out.strip()!r}"


def test_qp_udp_sport_filter():
    """udp-sport picks the QPs whose flows carry that source port."""
    assert [q["qpn"] for q in json_of("qp", "show", "udp-sport", "49153")] == [18]
    assert [q["qpn"] for q in json_of("qp", "show", "dev", "rxe0", "udp-sport", "53017")] == [17]
    assert json_of("qp", "show", "udp-sport", "4791") == []


def test_same_keys():
    """Text and JSON name every value alike; counters carry mlx5's names."""
    rc, text, _, _ = run.rocectl("-s", "dev", "show", "rxe1")
    devs = json_of("-s", "dev", "show", "rxe1")
    stats = devs[0].pop("stats")
    words = text.split()
    top = words[:words.index("stats:")]
    assert dict(zip(top[::2], top[1::2])).keys() == devs[0].keys(), (top, devs[0])
    tail = words[words.index("stats:") + 1:]
    assert dict(zip(tail[::2], map(int, tail[1::2]))) == stats, (tail, stats)
    # The fixture's counter i reads 2000 + i.
    assert stats["np-cnp-sent"] == 2006 and stats["rp-cnp-handled"] == 2010, stats
    assert stats["monitor-dropped"] == 2026, stats
    assert all(k == k.lower() and "_" not in k for k in stats), stats
    pretty = json.loads(run.rocectl("-j", "-p", "-s", "dev", "show", "rxe1")[1])
    assert pretty == json_of("-s", "dev", "show", "rxe1"), "-p changes the content"


def test_params_output():
    rp = json_of("dcqcn", "show", "dev", "rxe0")[0]
    assert rp["ai-rate"] == 5 and rp["time-reset"] == 300 and rp["line-rate"] == 200, rp
    assert rp["enable"] is True and rp["rate-on-first-cnp"] == 0, rp
    assert len(rp) == 16 + 3, f"{len(rp)} keys"
    np_ = json_of("np", "show")
    assert np_[1] == {"dev": "rxe1", "enable": True, "min-time-between-cnps": 4,
                      "per-port": True, "cnp-dscp": 48, "cnp-prio": 6,
                      "cnp-prio-mode": "data"}, np_[1]


def test_monitor():
    rc, out, err, _ = run.rocectl("-j", "monitor")
    assert rc == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["event"] for e in events] == ["cnp-sent", "cnp-handled", "rate"], events
    assert events[0] == {"time": 1.5, "dev": "rxe1", "event": "cnp-sent", "qpn": 18,
                         "remote-qpn": 17}, events[0]
    assert events[2] == {"time": 1.50002, "dev": "rxe0", "event": "rate", "qpn": 17,
                         "remote-qpn": 18, "reason": "cut", "old-rate": 100.0,
                         "rate": 50.0, "target-rate": 100.0, "alpha": 1023,
                         "dropped": 4}, events[2]
    rc, out, _, _ = run.rocectl("monitor", "dev", "rxe0", "event", "cnp-handled")
    assert out.splitlines() == ["time 1.500010 dev rxe0 event cnp-handled qpn 17 "
                                "remote-qpn 18 rate 50Mbit target-rate 100Mbit alpha 1023"], out
    rc, out, _, _ = run.rocectl("-j", "monitor", "qpn", "18")
    assert len(out.splitlines()) == 1, out


def test_help():
    for args in (["help"], ["dev", "help"], ["dcqcn", "help"], ["np", "help"], ["qp", "help"],
                 ["stats", "help"], ["monitor", "help"], ["diagnose", "help"]):
        rc, out, err, reqs = run.rocectl(*args)
        assert rc == 0 and "Example" in out, f"{args}: exit {rc}: {out!r}"
        assert not reqs, f"{args}: help talked to the kernel"
    rc, out, _, _ = run.rocectl("dcqcn", "help")
    assert "rp_rate_reduce_monitor_period" in out and "1..10000000" in out, out


def test_diagnose_usage():
    peer_bad = os.path.join(TMP, "bad.json")
    with open(peer_bad, "w") as f:
        f.write('[{"dev": "rxe0", "qpn": 17, "stats": {"np-cnp-sent": 1}}, {"dev"')
    for args, msg in (
            (["duration", "0"], 'rocectl: duration: 0 is out of range (1..3600 s)'),
            (["duration", "3601"], 'rocectl: duration: 3601 is out of range (1..3600 s)'),
            (["duration", "x"], 'rocectl: duration: "x" is not a number'),
            (["qpn", "17"], "rocectl: qpn needs its device: dev DEV qpn QPN"),
            (["dev"], 'rocectl: "dev" needs a value (see rocectl diagnose help)'),
            (["colour", "red"], 'rocectl: unknown key "colour" (see rocectl diagnose help)'),
            (["peer", "/nonexistent/p.json"],
             "rocectl: peer: /nonexistent/p.json: No such file or directory"),
            (["peer", peer_bad],
             f"rocectl: peer: {peer_bad} is not the output of rocectl -j -s qp show (at byte 64)")):
        rc, out, err, reqs = run.rocectl("diagnose", *args)
        assert (rc, out, err.strip()) == (1, "", msg), f"{args}: exit {rc}: {out!r} {err!r}"
        assert not reqs, f"{args}: {len(reqs)} requests sent"


def test_diagnose_reads():
    rc, out, err, reqs = run.rocectl("-j", "diagnose", "duration", "1")
    assert rc == 0, f"exit {rc}: {err}"
    cmds = [(spec.cmds[r["cmd"]], r["flags"] & NLM_F_DUMP == NLM_F_DUMP) for r in reqs]
    assert set(cmds) == {("qp-get", True), ("dev-get", True)}, cmds
    # Two snapshots and a rate sample every 100 ms in between.
    assert cmds.count(("dev-get", True)) == 2 and cmds.count(("qp-get", True)) >= 10, cmds
    found = json.loads(out)
    assert [f["id"] for f in found] == ["no-traffic"], found
    assert set(found[0]) == {"id", "severity", "summary", "meaning", "try", "interval-ms",
                             "evidence"}, found[0]
    assert 1000 <= found[0]["interval-ms"] < 1500, found[0]


def test_diagnose_rxe_alone():
    """rxe_cc not loaded: rxe's port counters, read from sysfs, still tell loss."""
    hw = os.path.join(TMP, "sys/class/infiniband/rxe5/ports/1/hw_counters")
    os.makedirs(hw, exist_ok=True)
    names = ("sent_pkts", "rcvd_pkts", "out_of_seq_request", "duplicate_request",
             "rcvd_seq_err", "completer_retry_err", "retry_exceeded_err")
    for n in names:
        with open(os.path.join(hw, n), "w") as f:
            f.write("1000\n")

    def lose():
        for n, v in (("rcvd_pkts", 6000), ("out_of_seq_request", 1050)):
            with open(os.path.join(hw, n), "w") as f:
                f.write(f"{v}\n")

    env = {"ROCECTL_FAKE_NO_MODULE": "1", "ROCECTL_FAKE_SYSFS": os.path.join(TMP, "sys")}
    rc, out, err, reqs = run.rocectl("-j", "diagnose", "duration", "1", env_add=env, during=lose)
    assert rc == 0 and not err, f"exit {rc}: {err}"
    assert not reqs, f"{len(reqs)} requests to a kernel without rxe_cc"
    found = json.loads(out)
    assert [(f["id"], f.get("dev")) for f in found] == [("loss-without-cc", "rxe5"),
                                                        ("cc-not-loaded", None)], found
    assert found[0]["evidence"] == {"out_of_seq_request": 50}, found[0]
    rc, out, err, _ = run.rocectl("diagnose", "duration", "1", env_add=env)
    assert rc == 0 and not err and out.startswith("info cc-not-loaded: rxe_cc is not loaded\n"), out


def test_diagnose_peer():
    peer = os.path.join(TMP, "peer.json")
    rc, out, _, _ = run.rocectl("-j", "-s", "qp", "show")
    assert rc == 0
    qps = json.loads(out)
    # The peer's QP 18 answers the fake's QP 17 and sent it more CNPs than it got.
    mine = next(q for q in qps if q["qpn"] == 17)
    them = dict(mine, dev="rxe9", qpn=mine["remote-qpn"], **{"remote-qpn": 17})
    them["stats"] = dict(mine["stats"], **{"np-cnp-sent": 3 * mine["stats"]["rp-cnp-received"]})
    with open(peer, "w") as f:
        json.dump([them], f, indent=4)
    rc, out, err, _ = run.rocectl("-j", "diagnose", "duration", "1", "peer", peer)
    assert rc == 0, f"exit {rc}: {err}"
    found = json.loads(out)
    lost = [f for f in found if f["id"] == "cnp-lost"]
    assert len(lost) == 1 and lost[0]["dev"] == "rxe0" and lost[0]["qpn"] == 17, found
    assert lost[0]["evidence"] == {"rxe9 qpn 18 np-cnp-sent": 327, "rp-cnp-received": 109}, lost
    # dev filters findings: rxe1 has none of its own.
    rc, out, err, _ = run.rocectl("-j", "diagnose", "dev", "rxe1", "duration", "1", "peer", peer)
    assert [f["id"] for f in json.loads(out)] == ["no-traffic"], out


print("TAP version 13")
tests = [
    ("sets become the requests the spec describes", test_sets),
    ("abbreviations as iproute2 takes them", test_abbreviations),
    ("one QP is a get, the rest a dump", test_gets),
    ("bad usage: exit 1, one line, nothing sent", test_usage_errors),
    ("kernel refusals: exit 2, the key and its range", test_kernel_errors),
    ("qp show in JSON and text", test_qp_output),
    ("qp show udp-sport: the QPs of one flow entropy", test_qp_udp_sport_filter),
    ("text and JSON keys are the same; counters by name", test_same_keys),
    ("dcqcn and np show", test_params_output),
    ("monitor: JSON lines, text, filters", test_monitor),
    ("help at every level, without the kernel", test_help),
    ("diagnose: bad usage and bad peer files, nothing read", test_diagnose_usage),
    ("diagnose: reads dumps only, JSON findings", test_diagnose_reads),
    ("diagnose without rxe_cc: loss from rxe's sysfs counters", test_diagnose_rxe_alone),
    ("diagnose peer FILE: the peer's CNPs against this host's", test_diagnose_peer),
]
print(f"1..{len(tests)}")
for name, fn in tests:
    run.check(name, fn)
os.unlink(run.log)
shutil.rmtree(TMP)
print(f"# Totals: pass:{run.n - run.failed} fail:{run.failed} xfail:0 xpass:0 skip:0 error:0")
sys.exit(1 if run.failed else 0)
