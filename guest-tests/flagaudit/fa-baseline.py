#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fa-baseline.py - flagaudit's baseline: update it from a run, render it.

  fa-baseline.py update BASELINE JUNIT   take a run's results (junit.xml of
        scripts/patchbay run --suite flagaudit) into BASELINE: a case the
        baseline lacks gets the result the run names ("not in
        flagaudit.baseline: ..."), a case that differs gets the run's result
        ("..., baseline: ..."); the rest stays. Run it on a kernel the
        baseline should describe (ours), then review the diff.
  fa-baseline.py table BASELINE         the markdown table of
        docs/suites/flagaudit.md: per call and argument, which unknown bits
        the kernel rejects, ignores, or answers otherwise.
  fa-baseline.py diff JUNIT             the cases of a run that differ from
        the baseline, as a markdown list (another kernel's differences).
"""
import re
import sys
import xml.etree.ElementTree as ET

NAME = re.compile(r"^(?P<call>.+) (?P<arg>\S+) bit (?P<bit>\d+) \(0x[0-9a-f]+\)$")


def token(desc):
    """The baseline's token for a result as the suite describes it."""
    desc = desc.strip()
    for word in ("rejected", "ignored", "kept"):
        if desc.startswith(word):
            return word
    if desc.startswith("failed with "):
        return desc[len("failed with "):].split()[0]
    return desc


def read_baseline(path):
    head, rows = [], {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#") or "\t" not in line:
                if not rows:
                    head.append(line)
                continue
            name, result = line.split("\t", 1)
            rows[name] = result
    return head, rows


def cases(junit):
    """(name, kind, message) of each flagaudit case, in the run's order."""
    for tc in ET.parse(junit).getroot().iter("testcase"):
        if not tc.get("classname", "").startswith("flagaudit."):
            continue
        kind, msg = "pass", ""
        for child in tc:
            if child.tag in ("failure", "skipped", "error"):
                kind, msg = child.tag, child.get("message", "") or child.text or ""
        yield tc.get("name"), kind, msg


def update(path, junit):
    head, rows = read_baseline(path)
    order, changed = [], 0
    for name, kind, msg in cases(junit):
        order.append(name)
        m = re.match(r"not in flagaudit\.baseline: (.*)", msg)
        if kind == "skipped" and m:
            rows[name] = token(m.group(1))
            changed += 1
        elif kind == "failure" and ", baseline: " in msg:
            rows[name] = token(msg.split(", baseline: ")[0])
            changed += 1
    seen = set(order)
    with open(path, "w") as f:
        for line in head:
            f.write(line + "\n")
        for name in order + [n for n in rows if n not in seen]:
            if name in rows:
                f.write("%s\t%s\n" % (name, rows[name]))
    print("%s: %d cases, %d updated" % (path, len(rows), changed))


def ranges(bits):
    out, start, prev = [], None, None
    for b in sorted(bits) + [None]:
        if start is not None and (b is None or b != prev + 1):
            out.append(str(start) if start == prev else "%d-%d" % (start, prev))
            start = None
        if b is not None and start is None:
            start = b
        prev = b
    return ", ".join(out)


def table(path):
    _, rows = read_baseline(path)
    groups = {}
    for name, result in rows.items():
        m = NAME.match(name)
        if not m:
            continue
        key = (m.group("call"), m.group("arg"))
        groups.setdefault(key, {}).setdefault(result, []).append(
            int(m.group("bit")))
    print("| call | argument | rejected (EINVAL) | ignored | other |")
    print("|---|---|---|---|---|")
    for (call, arg), res in groups.items():
        other = "; ".join("%s: %s" % (r, ranges(b)) for r, b in res.items()
                          if r not in ("rejected", "ignored"))
        print("| %s | %s | %s | %s | %s |" % (
            call.replace("|", "\\|"), arg, ranges(res.get("rejected", [])) or "-",
            ranges(res.get("ignored", [])) or "-", other or "-"))


def diff(junit):
    for name, kind, msg in cases(junit):
        if kind == "failure":
            print("- `%s`: %s" % (name, msg))


def main(argv):
    if len(argv) == 4 and argv[1] == "update":
        update(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "table":
        table(argv[2])
    elif len(argv) == 3 and argv[1] == "diff":
        diff(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
