#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Names of the rxe_cc netlink API, as C tables for the host tools.

ynl-names.py SPEC OUT

The kernel's ynl-gen-c makes the uAPI header's numbers from the spec; this
makes the strings a person reads and types from the same spec: each
counter's name (the stat set's attribute names), each enum's value names
and each notification's name. rocectl prints and parses them.
"""

import sys

import yaml

spec_path, out_path = sys.argv[1:3]
with open(spec_path) as f:
    spec = yaml.safe_load(f)

family = spec["name"].replace("-", "_")
PREFIX = family.upper()


def c_upper(name):
    return name.upper().replace("-", "_")


def attr_set(name):
    return next(s for s in spec["attribute-sets"] if s["name"] == name)


def enum(name):
    return next(d for d in spec["definitions"] if d["name"] == name)


lines = [
    "/* SPDX-License-Identifier: GPL-2.0 */",
    "/* Do not edit directly, auto-generated from: */",
    "/*\tDocumentation/netlink/specs/rxe_cc.yaml by tools/ynl-names.py */",
    "",
    "#ifndef _RXE_CC_NAMES_GEN_H",
    "#define _RXE_CC_NAMES_GEN_H",
    "",
    "#include <stddef.h>",
    "",
    "#include <linux/rxe_cc.h>",
    "",
]



def table(comment, func, entries):
    """A lookup function: the name of a value, NULL past the end or in a hole."""
    lines.extend([f"/* {comment} */",
                  f"static inline const char *{func}(unsigned int value)",
                  "{",
                  "\tstatic const char *const names[] = {"])
    lines.extend(f"\t\t[{value}] = \"{name}\"," for value, name in entries)
    lines.extend(["\t};",
                  "",
                  "\treturn value < sizeof(names) / sizeof(names[0]) ? names[value] : NULL;",
                  "}",
                  ""])


stats = attr_set("stat")
prefix = c_upper(stats["name-prefix"])
table("Each counter's name, by its attribute.", f"{family}_stat_name",
      [(prefix + c_upper(a["name"]), a["name"]) for a in stats["attributes"]
       if a["type"] not in ("unused", "pad")])

for d in spec["definitions"]:
    if d["type"] != "enum":
        continue
    prefix = c_upper(d.get("name-prefix", f"{family}-{d['name']}-"))
    cname = d.get("enum-name", f"{family}_{d['name']}").replace("-", "_")
    entries = [e if isinstance(e, str) else e["name"] for e in d["entries"]]
    table(f"enum {cname}'s names.", f"{cname}_name",
          [(prefix + c_upper(n), n) for n in entries])

ops = spec["operations"]
prefix = c_upper(ops["name-prefix"])
table("Each notification's name, by its command: the op's without -ntf.",
      f"{family}_ntf_name",
      [(prefix + c_upper(op["name"]), op["name"].removesuffix("-ntf"))
       for op in ops["list"] if "event" in op])

lines.append("#endif /* _RXE_CC_NAMES_GEN_H */")
with open(out_path, "w") as f:
    f.write("\n".join(lines) + "\n")
