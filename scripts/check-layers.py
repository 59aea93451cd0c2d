#!/usr/bin/env python3
"""Holds the project to scripts/layers.txt: each folder's files include, and
its CMake targets link, only the folders below it, less those its line names.

    scripts/check-layers.py [BUILD_DIR]
    scripts/check-layers.py --draw     (the drawing docs/architecture.md shows)

Every tracked C or C++ file is checked, wherever it lies: an include is
resolved whether written with quotes or angle brackets, from the top or
relative to the file, and a file in no listed folder fails. With a build
directory, the targets' links and dependencies (layer-links.tsv, written by
cmake/layer_links.cmake) are checked against the same list; and the drawing
of the layers in docs/architecture.md must be the list's.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
GENERATOR_EXPRESSION = re.compile(r"^\$<(?:LINK_ONLY|BUILD_INTERFACE):(.*)>$")


def read_layers(path):
    """The folders bottom to top, what each holds, and the folders below each
    it must not know."""
    order, holds, unknown = [], {}, {}
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        columns = [column.strip() for column in line.split("|")]
        if len(columns) != 3:
            sys.exit(f"layers: {path}:{number}: want FOLDER | WHAT IT HOLDS | KNOWS NOT")
        folder, holds[folder], knows_not = columns
        for name in knows_not.split():
            if name not in order:
                sys.exit(f"layers: {path}:{number}: {folder} is to know not {name}, "
                         "which is no layer below it")
        order.append(folder)
        unknown[folder] = knows_not.split()
    return order, holds, unknown


def drawing(order, holds, unknown):
    """The layers, top first, one line each: what docs/architecture.md shows."""
    width = max(len(folder) for folder in order) + 2
    lines = []
    for folder in reversed(order):
        line = f"{folder:<{width}}{holds[folder]}"
        lines.append(line)
        if unknown[folder]:
            lines.append(f"{'':<{width}}  never: {' '.join(unknown[folder])}")
    return "\n".join(lines) + "\n"


def check_drawing(text):
    """The drawing in docs/architecture.md, between its two markers, is the
    list's: a changed list changes the page (--draw prints it)."""
    page = os.path.join(ROOT, "docs", "architecture.md")
    content = open(page, encoding="utf-8").read()
    match = re.search(r"<!-- layers: begin.*?-->\n```\n(.*?)```\n<!-- layers: end -->", content,
                      re.S)
    if not match:
        return ["docs/architecture.md: no drawing between <!-- layers: begin --> and "
                "<!-- layers: end -->"]
    if match.group(1) != text:
        return ["docs/architecture.md: its drawing is not scripts/layers.txt's; "
                "paste the output of scripts/check-layers.sh --draw"]
    return []


def layer_of(path, order):
    """The listed folder holding `path` (the longest that does), or None."""
    holding = [f for f in order if path == f or path.startswith(f + "/")]
    return max(holding, key=len) if holding else None


def may_use(user, used, order, unknown):
    return order.index(used) <= order.index(user) and used not in unknown[user]


def why_not(user, used, order, unknown):
    if used in unknown[user]:
        return f"{user} must not know {used}"
    return f"{used} lies above {user}"


def check_includes(order, unknown):
    files = subprocess.run(["git", "ls-files", "-z", "--", "*.h", "*.hpp", "*.cc", "*.cpp", "*.c",
                            "*.inc"], cwd=ROOT, check=True, capture_output=True,
                           text=True).stdout.split("\0")
    tracked = set(f for f in files if f)
    broken = []
    for path in sorted(tracked):
        user = layer_of(path, order)
        if user is None:
            broken.append(f"{path}: in no folder of scripts/layers.txt; give its folder a line there")
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as source:
            for number, line in enumerate(source, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                included = match.group(2)
                # A path relative to the file (or with ..) is ours where it
                # names a tracked file; else it is read from the top.
                relative = os.path.normpath(os.path.join(os.path.dirname(path), included))
                if relative in tracked and relative != os.path.normpath(included):
                    included = relative
                used = layer_of(os.path.normpath(included), order)
                if used is None or may_use(user, used, order, unknown):
                    continue
                broken.append(f"{path}:{number}: includes {match.group(2)}: "
                              f"{why_not(user, used, order, unknown)}")
    return broken, len(tracked)


def check_links(build, order, unknown):
    table = os.path.join(build, "layer-links.tsv")
    if not os.path.exists(table):
        sys.exit(f"layers: {table} is missing; configure {build} with CMake first")
    folder_of, links_of = {}, {}
    for row in open(table, encoding="utf-8"):
        columns = row.rstrip("\n").split("\t")
        target, folder, links = columns[0], columns[1], [c for c in columns[2:] if c]
        folder_of[target] = folder
        links_of[target] = links
    broken = []
    for target in sorted(links_of):
        user = layer_of(folder_of[target], order)
        if user is None:
            broken.append(f"target {target}: its folder {folder_of[target] or '.'} is in no "
                          "line of scripts/layers.txt")
            continue
        # A PRIVATE link of a static library is in its interface too, as
        # $<LINK_ONLY:...>: each named once.
        names = dict.fromkeys(GENERATOR_EXPRESSION.sub(r"\1", link) for link in links_of[target])
        for name in names:
            if name not in folder_of:
                continue  # the system's, or a package's
            used = layer_of(folder_of[name], order)
            if used is not None and not may_use(user, used, order, unknown):
                broken.append(f"target {target} ({user}) links {name} ({used}): "
                              f"{why_not(user, used, order, unknown)}")
    return broken, len(links_of)


def main():
    order, holds, unknown = read_layers(os.path.join(ROOT, "scripts", "layers.txt"))
    if sys.argv[1:] == ["--draw"]:
        sys.stdout.write(drawing(order, holds, unknown))
        return 0
    broken, files = check_includes(order, unknown)
    broken += check_drawing(drawing(order, holds, unknown))
    said = f"the includes of {files} files"
    if len(sys.argv) > 1:
        link_broken, targets = check_links(sys.argv[1], order, unknown)
        broken += link_broken
        said += f" and the links of {targets} targets"
    if broken:
        print("layers: a layer reaches up, or into one it must not know:", file=sys.stderr)
        for line in broken:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"layers: {said} reach only down (scripts/layers.txt)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
