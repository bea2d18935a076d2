#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""nl_fuzz.py SPEC DEV SEED COUNT [--unprivileged]

Send COUNT requests to rxe_cc's generic netlink family, made from the spec
(SPEC) and then broken on purpose: random commands and flags, attributes of
any type and length, values at and past the spec's limits, strings without
their NUL, nests of the wrong set or of garbage, truncated headers. After
each one, the family must still answer, and a request it refused must have
changed nothing: every device's DCQCN and NP parameters and line rate and
every QP's overrides read back as before it. A request it accepted becomes
the new reference. With --unprivileged the requests come from user nobody:
no admin command may then be carried out.

Prints one line per violation (the request in hex) and a summary; exits 1
on any violation. The same SEED sends the same requests.
"""

import collections
import errno
import os
import random
import socket
import struct
import sys

import yaml

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLA_F_NESTED = 0x8000
NOBODY = 65534


def nla(atype, data):
    hdr = struct.pack("=HH", 4 + len(data), atype)
    return hdr + data + b"\0" * (-len(data) % 4)


def parse_attrs(data):
    """{type: payload} of a run of attributes (the last of a type wins)."""
    out, off = {}, 0
    while off + 4 <= len(data):
        alen, atype = struct.unpack_from("=HH", data, off)
        if alen < 4 or off + alen > len(data):
            break
        out[atype & ~NLA_F_NESTED] = data[off + 4:off + alen]
        off += (alen + 3) & ~3
    return out


class Spec:
    """Attribute sets, operations and constants of the YAML spec."""

    def __init__(self, path):
        with open(path) as f:
            spec = yaml.safe_load(f)
        self.family = spec["name"]
        self.consts = {d["name"]: d["value"] for d in spec.get("definitions", [])
                       if d.get("type") == "const"}
        self.sets = {}
        for aset in spec["attribute-sets"]:
            attrs, value = {}, 1
            for a in aset["attributes"]:
                value = a.get("value", value)
                attrs[a["name"]] = dict(a, value=value)
                value += 1
            self.sets[aset["name"]] = attrs
        self.ops, value = {}, 0
        for op in spec["operations"]["list"]:
            value = op.get("value", value)
            self.ops[op["name"]] = dict(op, value=value)
            value += 1
        self.max_cmd = value - 1

    def attr(self, aset, name):
        return self.sets[aset][name]["value"]

    def limit(self, a):
        """The largest value the spec allows an attribute, or None."""
        top = a.get("checks", {}).get("max")
        if isinstance(top, str):
            top = self.consts.get(top)
        return top


class Genl:
    def __init__(self, family):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.sock.settimeout(5)
        self.seq = 0
        err, msgs = self.talk(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0,
                              nla(CTRL_ATTR_FAMILY_NAME, family.encode() + b"\0"))
        if err or not msgs:
            raise SystemExit(f"nl_fuzz: no generic netlink family {family}: {err}")
        self.family = struct.unpack("=H", parse_attrs(msgs[0])[CTRL_ATTR_FAMILY_ID][:2])[0]

    def message(self, ftype, cmd, flags, payload, version=1):
        self.seq += 1
        body = struct.pack("=BBH", cmd, version, 0) + payload
        return struct.pack("=IHHII", 16 + len(body), ftype, flags, self.seq, 0) + body

    def exchange(self, raw, answered=True):
        """Send RAW; return (errno or 0, [genl payloads]) or None on no answer."""
        seq = struct.unpack_from("=I", raw, 8)[0] if len(raw) >= 12 else None
        self.sock.send(raw)
        if not answered:
            return None
        msgs = []
        while True:
            try:
                data = self.sock.recv(1 << 16)
            except socket.timeout:
                return None
            off = 0
            while off + 16 <= len(data):
                mlen, mtype, _, mseq, _ = struct.unpack_from("=IHHII", data, off)
                if mlen < 16:
                    break
                if mseq == seq:
                    if mtype == NLMSG_ERROR:
                        return -struct.unpack_from("=i", data, off + 16)[0], msgs
                    if mtype == NLMSG_DONE:
                        # A dump that failed part way says so here.
                        err = -struct.unpack_from("=i", data, off + 16)[0] if mlen >= 20 else 0
                        return err, msgs
                    msgs.append(data[off + 20:off + mlen])
                off += (mlen + 3) & ~3

    def talk(self, ftype, cmd, flags, payload):
        ans = self.exchange(self.message(ftype, cmd, NLM_F_REQUEST | NLM_F_ACK | flags, payload))
        if ans is None:
            raise SystemExit("nl_fuzz: the kernel did not answer a well-formed request")
        return ans


class Fuzzer:
    def __init__(self, spec, nl, dev, rng):
        self.spec, self.nl, self.dev, self.rng = spec, nl, dev, rng

    def config(self):
        """What a refused request must leave as it was."""
        s, snap = self.spec, {}
        err, devs = self.nl.talk(self.nl.family, s.ops["dev-get"]["value"], NLM_F_DUMP, b"")
        if err:
            raise SystemExit(f"nl_fuzz: dev-get dump failed: {os.strerror(err)}")
        for m in devs:
            a = parse_attrs(m)
            name = a.get(s.attr("rxe-cc", "dev-name"))
            snap[name] = tuple(a.get(s.attr("rxe-cc", k)) for k in ("dev-line-rate", "dcqcn", "np"))
        err, qps = self.nl.talk(self.nl.family, s.ops["qp-get"]["value"], NLM_F_DUMP, b"")
        if err:
            raise SystemExit(f"nl_fuzz: qp-get dump failed: {os.strerror(err)}")
        for m in qps:
            a = parse_attrs(m)
            qp = parse_attrs(a.get(s.attr("rxe-cc", "qp"), b""))
            key = (a.get(s.attr("rxe-cc", "dev-name")), qp.get(s.attr("qp", "num")))
            snap[key] = tuple(qp.get(s.attr("qp", k)) for k in ("dcqcn", "min-rate", "max-rate"))
        return snap

    # Values: in range, at the limits, past them, of the wrong size.
    def integer(self, a):
        r, top = self.rng, self.spec.limit(a)
        size = 8 if a["type"] == "u64" else 4
        v = r.choice([0, 1, 2, 5, 100, 1000, 0x7fffffff, 0xffffffff] +
                     ([top, top + 1, top - 1] if top is not None else []))
        data = struct.pack("=Q" if size == 8 else "=I", v & (2 ** (8 * size) - 1))
        if r.random() < 0.15:
            data = data[:r.choice([0, 1, 2, 3])] if r.random() < 0.5 else data + b"\0" * 4
        return data

    def string(self):
        r = self.rng
        kind = r.random()
        if kind < 0.5:
            return self.dev.encode() + b"\0"
        if kind < 0.6:
            return self.dev.encode()
        if kind < 0.7:
            return b"x" * r.choice([15, 16, 17, 64, 300]) + b"\0"
        return bytes(r.choice(b"rxe0123\0\xff") for _ in range(r.randint(0, 20)))

    def garbage(self, n=None):
        return bytes(self.rng.getrandbits(8) for _ in range(n if n is not None else self.rng.randint(0, 40)))

    def attrs(self, aset, names, depth=0):
        r, out = self.rng, b""
        names = list(names)
        for _ in range(r.randint(1, 4)):
            if r.random() < 0.1 or not names:
                atype = r.randint(0, max(a["value"] for a in self.spec.sets[aset].values()) + 3)
                out += nla(atype | (NLA_F_NESTED if r.random() < 0.3 else 0), self.garbage())
                continue
            a = self.spec.sets[aset][r.choice(names)]
            if a["type"] == "nest":
                sub = a["nested-attributes"]
                if r.random() < 0.15 or depth > 3:
                    inner = self.garbage()
                else:
                    other = sub if r.random() < 0.85 else r.choice(list(self.spec.sets))
                    inner = self.attrs(other, self.spec.sets[other], depth + 1)
                out += nla(a["value"] | (NLA_F_NESTED if r.random() < 0.8 else 0), inner)
            elif a["type"] in ("u32", "u64"):
                out += nla(a["value"], self.integer(a))
            elif a["type"] == "string":
                out += nla(a["value"], self.string())
            else:
                out += nla(a["value"], self.garbage())
        return out

    def request(self):
        """(raw message, command name or None, answered?)"""
        r, nl = self.rng, self.nl
        kind = r.random()
        if kind < 0.08:
            # Headers cut short or lying about their length: no answer due.
            raw = nl.message(nl.family, r.randint(0, self.spec.max_cmd), NLM_F_REQUEST | NLM_F_ACK, b"")
            return raw[:r.choice([4, 16, 17, 19])], None, False
        if kind < 0.2:
            cmd = r.randint(0, self.spec.max_cmd + 3)
            flags = r.choice([0, NLM_F_DUMP])
            payload = b"".join(nla(r.randint(0, 16), self.garbage()) for _ in range(r.randint(0, 3)))
            name = next((n for n, o in self.spec.ops.items() if o["value"] == cmd), None)
            return nl.message(nl.family, cmd, NLM_F_REQUEST | NLM_F_ACK | flags, payload,
                              version=r.choice([0, 1, 1, 2, 255])), name, True
        op = r.choice([o for o in self.spec.ops.values() if "do" in o or "dump" in o])
        dump = "dump" in op and (r.random() < 0.3 or "do" not in op)
        req = op.get("dump" if dump else "do", {}).get("request", {})
        names = req.get("attributes", []) or list(self.spec.sets[op["attribute-set"]])
        payload = self.attrs(op["attribute-set"], names)
        flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0)
        return nl.message(nl.family, op["value"], flags, payload), op["name"], True


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    unprivileged = "--unprivileged" in sys.argv
    if len(args) != 4:
        raise SystemExit(__doc__)
    spec = Spec(args[0])
    dev, seed, count = args[1], int(args[2]), int(args[3])
    if unprivileged:
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    nl = Genl(spec.family)
    fuzz = Fuzzer(spec, nl, dev, random.Random(seed))
    admin = {n for n, o in spec.ops.items() if "admin-perm" in o.get("flags", [])}
    answers = collections.Counter()
    bad = 0
    before = fuzz.config()
    for i in range(count):
        raw, name, answered = fuzz.request()
        ans = nl.exchange(raw, answered)
        if answered and ans is None:
            print(f"# no answer to request {i} ({name}): {raw.hex()}")
            bad += 1
            continue
        err = ans[0] if ans else None
        answers["no answer due" if ans is None else errno.errorcode.get(err, "ok") if err else "ok"] += 1
        after = fuzz.config()
        if err is None or err:
            if after != before:
                changed = sorted(str(k) for k in set(before) | set(after) if before.get(k) != after.get(k))
                print(f"# refused request {i} ({name}, {errno.errorcode.get(err, err)}) changed "
                      f"{', '.join(changed)}: {raw.hex()}")
                bad += 1
        if unprivileged and name in admin and err == 0:
            print(f"# admin request {i} ({name}) from nobody was carried out: {raw.hex()}")
            bad += 1
        before = after
    print("# answers: " + ", ".join(f"{k} {v}" for k, v in answers.most_common()))
    print(f"# {count} requests (seed {seed}{', as nobody' if unprivileged else ''}), {bad} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
