#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""callgraph.py OBJECT...: which unit calls which, from the objects' symbols.

A unit (a .o) uses another when it refers to a symbol the other defines
(nm: U there, T/D/B/R here). Prints each unit's uses, then every cycle: a
set of units that reach each other, with the symbols that close it. Exits 1
if there is a cycle. Calls through pointers (ops tables, work functions)
are not seen, which is the point: a registration is a deliberate way up.
"""

import os
import subprocess
import sys


def symbols(obj):
    """(defined, undefined) symbol names of one object."""
    out = subprocess.run(['nm', obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[0] == 'U':
            undefined.add(fields[1])
        elif len(fields) == 3 and fields[1] in 'TDBRG':
            defined.add(fields[2])
    return defined, undefined


def graph(objs):
    """unit -> {used unit: [symbols]}"""
    owner, needs = {}, {}
    for obj in objs:
        unit = os.path.splitext(os.path.basename(obj))[0]
        defined, undefined = symbols(obj)
        for sym in defined:
            owner[sym] = unit
        needs[unit] = undefined
    edges = {}
    for unit, undefined in needs.items():
        edges[unit] = {}
        for sym in sorted(undefined):
            other = owner.get(sym)
            if other and other != unit:
                edges[unit].setdefault(other, []).append(sym)
    return edges


def cycles(edges):
    """Strongly connected components of more than one unit (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(unit):
        index[unit] = low[unit] = len(index)
        stack.append(unit)
        on_stack.add(unit)
        for other in edges[unit]:
            if other not in index:
                visit(other)
                low[unit] = min(low[unit], low[other])
            elif other in on_stack:
                low[unit] = min(low[unit], index[other])
        if low[unit] == index[unit]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == unit:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for unit in sorted(edges):
        if unit not in index:
            visit(unit)
    return found


def main():
    edges = graph(sys.argv[1:])
    for unit in sorted(edges):
        print(f'{unit} -> {" ".join(sorted(edges[unit])) or "-"}')
    found = cycles(edges)
    for component in found:
        members = set(component)
        links = [f'{a} -> {b} ({", ".join(syms)})'
                 for a in component for b, syms in sorted(edges[a].items()) if b in members]
        print(f'cycle: {" ".join(component)}: ' + '; '.join(links))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
