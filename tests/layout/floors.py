#!/usr/bin/env python3
"""The floors of the house (docs/contributing.md): every #include "room/..."
of a file in src/ or capi/ names a room on a lower floor than the file's own
(or its own room). Reads the floor table of docs/contributing.md, so the map
and this check cannot drift apart. Exit 1 listing every include that climbs."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
doc = open(os.path.join(root, 'docs', 'contributing.md'), encoding='utf-8').read()
table = doc[doc.index('<!-- floors:'):doc.index('<!-- end floors -->')]
floors = {}
for number, folder in re.findall(r'^\| (\d+) \| `([^`]+)/` \|', table, re.M):
    floors[folder] = int(number)
if 'src/base' not in floors or 'capi' not in floors:
    sys.exit('floors.py: the floor table of docs/contributing.md is missing or unreadable')

def room_of(path):
    parts = path.split('/')
    return 'capi' if parts[0] == 'capi' else '/'.join(parts[:2])

climbs = []
unknown = set()
for top in ('src', 'capi'):
    for dirpath, _, names in os.walk(os.path.join(root, top)):
        for name in names:
            if not name.endswith(('.h', '.cpp', '.c')):
                continue
            path = os.path.relpath(os.path.join(dirpath, name), root)
            room = room_of(path)
            if room not in floors:
                unknown.add(room)
                continue
            for line in open(os.path.join(root, path), encoding='utf-8'):
                m = re.match(r'#include "([a-z_]+)/', line)
                if not m:
                    continue
                target = 'src/' + m.group(1)
                if target not in floors:
                    continue  # zarr/ (public headers), generated headers
                if floors[target] > floors[room] or (floors[target] == floors[room] and target != room):
                    climbs.append(f'{path}: includes {target}/ (floor {floors[target]}) from floor {floors[room]}')
for room in sorted(unknown):
    climbs.append(f'{room}/: a folder the floor table of docs/contributing.md does not list')
for c in climbs:
    print(c)
print(f'floors: {len(floors)} rooms, {len(climbs)} problems')
sys.exit(1 if climbs else 0)
