#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The LAVA test monitor of patchbay's exported jobs, on consoles /init prints.

    tests/lava-monitor-test.py PATCHBAY_LAVA

Takes the monitor {"start", "end", "pattern", "fixupdict"} that
"PATCHBAY_LAVA monitor" prints and replays console fixtures through a small
emulation of lava-dispatcher's TestMonitorAction (actions/test/monitor.py)
over pexpect's expect (expect.py, searcher_re, with lava's ShellCommand
searchwindowsize of 4000): wait for start, then expect([EOF, TIMEOUT, end,
pattern]) again and again, the console arriving a few bytes at a time and
searched after every chunk; the earliest match wins, a tie goes to the
earlier entry; the search goes on after the match's end.  A pattern match's
"result" goes through fixupdict and must be pass/fail/skip/unknown; its
"test_case_id", stripped, is the name.

It proves that only /init's "# patchbay-result: " repeats (guest-tests/init)
and the kernel's crash reports (lib/ktap/crashscan.c's triggers after a
printk timestamp) become results, with the result lib/ktap/ktap.c would give
(SKIP/TODO directives skip, a "not ok" reason is not part of the name), whole
names whatever the chunking and line ends, that end is found, and that
fixupdict maps every result the pattern captures.  Debian's python3, standard
library only.  Prints TAP; exit 1 if any check fails.
"""
import json
import re
import subprocess
import sys

VALID = ("pass", "fail", "skip", "unknown")
SEARCHWINDOWSIZE = 4000  # lava_dispatcher.shell.ShellCommand
CHUNKS = (7, 1, 3, 64, 100000)  # bytes per read; 7 is the one reported
EOF = "eof"

START = "# patchbay init: Linux 6.12.0-patchbay #1 SMP PREEMPT, " \
        "/init started 0.61 s after boot\r\n"
END = "# patchbay init: 0 of 1 suites failed, powering off\r\n"
PRE = "[    0.000000] Linux version 6.12.0\r\nsome boot noise\r\n" + START


def crlf(text):
    """/init's "\\n" as the serial console shows it."""
    return text.replace("\n", "\r\n")


# (name, console, [(result, test_case_id)...], end reached?)
CASES = [
    ("pass", PRE + crlf(
        "KTAP version 1\n1..1\n  KTAP version 1\n  # Subtest: openat2\n"
        "  1..1\n    ok 5 O_TMPFILE works\n"
        "    # patchbay-result: ok 5 openat2/openat2_test/O_TMPFILE works\n")
     + END,
     [("pass", "openat2/openat2_test/O_TMPFILE works")], True),
    ("fail with a reason",
     PRE + crlf("    not ok 2 counts # expected 1, got 2\n"
                "    # patchbay-result: not ok 2 w1/w1_netlink/counts "
                "# expected 1, got 2\n"),
     [("fail", "w1/w1_netlink/counts")], False),
    ("SKIP with a reason",
     PRE + crlf("    ok 3 bus # SKIP no bus master\n"
                "    # patchbay-result: ok 3 w1/w1_netlink/bus "
                "# SKIP no bus master\n"),
     [("skip", "w1/w1_netlink/bus")], False),
    ("#SKIP without a space",
     PRE + crlf("    # patchbay-result: ok 4 w1/w1_netlink/nospace #SKIP\n"),
     [("skip", "w1/w1_netlink/nospace")], False),
    ("TODO is a skip, even on not ok",
     PRE + crlf("    # patchbay-result: not ok 5 w1/w1_netlink/later "
                "# TODO not written yet\n"),
     [("skip", "w1/w1_netlink/later")], False),
    ("lowercase # skip",
     PRE + crlf("    # patchbay-result: ok 6 w1/w1_netlink/lower "
                "# skip not here\n"),
     [("skip", "w1/w1_netlink/lower")], False),
    ("lowercase # todo",
     PRE + crlf("    # patchbay-result: not ok 7 w1/w1_netlink/low # todo\n"),
     [("skip", "w1/w1_netlink/low")], False),
    ("a name with ' - ' and parentheses",
     PRE + crlf("    # patchbay-result: ok 8 kunit/ext4/inode - "
                "timestamps (1901, 2038)\n"
                "    # patchbay-result: not ok 9 kunit/ext4/a - b (c) "
                "# expected 3\n"),
     [("pass", "kunit/ext4/inode - timestamps (1901, 2038)"),
      ("fail", "kunit/ext4/a - b (c)")], False),
    ("TAP's dash: ok 3 - name",
     PRE + crlf("    ok 3 - dashed name\n"
                "    # patchbay-result: ok 3 - net/tap_prog/dashed name\n"
                "    not ok 4 - broke # bad\n"
                "    # patchbay-result: not ok 4 - net/tap_prog/broke # bad\n"),
     [("pass", "net/tap_prog/dashed name"), ("fail", "net/tap_prog/broke")],
     False),
    ("KTAP lines without the repeat are no results",
     PRE + crlf("KTAP version 1\n1..1\n  KTAP version 1\n  # Subtest: w1\n"
                "  1..2\n    KTAP version 1\n    1..3\n    ok 1 a\n"
                "    not ok 2 b # why\n    ok 3 c # SKIP no\n  ok 1 prog\n"
                "  not ok 2 prog2 # exit=1\nnot ok 1 w1 # 1 of 2 failed, "
                "1.00 s\nok 1 - x\n# ok 2 y\n")
     + END, [], True),
    ("program and suite repeats with /init's reasons", PRE + crlf(
        "  not ok 1 w1_netlink # TIMEOUT 300 seconds\n"
        "  # patchbay-result: not ok 1 w1/w1_netlink # TIMEOUT 300 seconds\n"
        "  not ok 2 w1_therm # killed by signal 11 (Segmentation fault)\n"
        "  # patchbay-result: not ok 2 w1/w1_therm # killed by signal 11 "
        "(Segmentation fault)\n"
        "  not ok 3 w1_bus # exit=1\n"
        "  # patchbay-result: not ok 3 w1/w1_bus # exit=1\n"
        "  ok 4 w1_slow # SKIP slow: left out, scripts/patchbay run --all "
        "runs it\n"
        "  # patchbay-result: ok 4 w1/w1_slow # SKIP slow: left out, "
        "scripts/patchbay run --all runs it\n"
        "  ok 5 w1_ksft # SKIP exit code 4\n"
        "  # patchbay-result: ok 5 w1/w1_ksft # SKIP exit code 4\n"
        "  not ok 6 w1_gone # init: fork: Cannot allocate memory\n"
        "  # patchbay-result: not ok 6 w1/w1_gone # init: fork: Cannot "
        "allocate memory\n"
        "not ok 1 w1 # 4 of 6 failed, 301.27 s\n"
        "# patchbay-result: not ok 1 w1 # 4 of 6 failed, 301.27 s\n"
        "ok 2 msm # SKIP kernel lacks CONFIG_DRM_MSM (not set)\n"
        "# patchbay-result: ok 2 msm # SKIP kernel lacks CONFIG_DRM_MSM "
        "(not set)\n"
        "not ok 3 nosuch # no such suite in the initramfs\n"
        "# patchbay-result: not ok 3 nosuch # no such suite in the "
        "initramfs\n"
        "ok 4 openat2 # 0 of 1 failed, 0.52 s\n"
        "# patchbay-result: ok 4 openat2 # 0 of 1 failed, 0.52 s\n"
        "# patchbay init: 2 of 4 suites failed, powering off\n"),
     [("fail", "w1/w1_netlink"), ("fail", "w1/w1_therm"),
      ("fail", "w1/w1_bus"), ("skip", "w1/w1_slow"), ("skip", "w1/w1_ksft"),
      ("fail", "w1/w1_gone"), ("fail", "w1"), ("skip", "msm"),
      ("fail", "nosuch"), ("pass", "openat2")], True),
    ("\\r\\r\\n line ends",
     PRE + "    ok 1 a\r\r\n    # patchbay-result: ok 1 s/p/a\r\r\n"
     "    # patchbay-result: not ok 2 s/p/b # no\r\r\n"
     "    # patchbay-result: ok 3 s/p/c # SKIP x\r\r\n"
     "# patchbay init: 1 of 1 suites failed, powering off\r\r\n",
     [("pass", "s/p/a"), ("fail", "s/p/b"), ("skip", "s/p/c")], True),
    ("\\n line ends",
     PRE + "    # patchbay-result: ok 1 s/p/a\n"
     "    # patchbay-result: not ok 2 s/p/b # no\n"
     "    # patchbay-result: ok 3 s/p/c # SKIP x\n"
     "[    2.000000] WARNING: CPU: 1 PID: 7 at a.c:1 g+0x0/0x1\n"
     "# patchbay init: 1 of 1 suites failed, powering off\n",
     [("pass", "s/p/a"), ("fail", "s/p/b"), ("skip", "s/p/c"),
      ("fail", "WARNING: CPU: 1 PID: 7 at a.c:1 g+0x0/0x1")], True),
    ("a long line in chunks is one whole result",
     PRE + crlf("    # patchbay-result: ok 17 selftests/" + "x" * 300
                + "/a rather long test name (with words) # SKIP " + "y" * 80
                + "\n"),
     [("skip", "selftests/" + "x" * 300
       + "/a rather long test name (with words)")], False),
    ("a half line is no result",
     PRE + "    # patchbay-result: ok 1 s/p/never finished",
     [], False),
    ("kernel panic", PRE + crlf(
        "    ok 1 a\n    # patchbay-result: ok 1 s/p/a\n"
        "[    1.599860] sysrq: Trigger a crash\n"
        "[    1.599977] Kernel panic - not syncing: sysrq triggered crash\n"
        "[    1.600102] CPU: 0 PID: 1 Comm: init Not tainted 6.12.0 #1\n"
        "[    1.600200] Call trace:\n"
        "[    1.600300]  panic+0x1/0x2\n"
        "[    1.601000] ---[ end Kernel panic - not syncing: sysrq "
        "triggered crash ]---\n"
        "    # patchbay-result: ok 2 s/p/after the end\n"),
     [("pass", "s/p/a"),
      ("fail", "Kernel panic - not syncing: sysrq triggered crash")], True),
    ("end of panic is no second crash, even as the first kernel line", PRE
     + crlf("[    3.000000] ---[ end Kernel panic - not syncing: x ]---\n"),
     [], True),
    ("WARNING", PRE + crlf(
        "[   12.400000] ------------[ cut here ]------------\n"
        "[   12.5] WARNING: CPU: 0 PID: 38 at drivers/x.c:10 f+0x1/0x2\n"
        "[   12.600000] Modules linked in:\n"
        "[   12.700000] ---[ end trace 0000000000000000 ]---\n"
        "    # patchbay-result: ok 1 s/p/still runs\n" + END),
     [("fail", "WARNING: CPU: 0 PID: 38 at drivers/x.c:10 f+0x1/0x2"),
      ("pass", "s/p/still runs")], True),
    ("KASAN", PRE + crlf(
        "[    3.1] =================================================\n"
        "[    3.1] BUG: KASAN: slab-out-of-bounds in foo\n"
        "[    3.2] Read of size 8 at addr ffff0000c1234567 by task x/1\n"),
     [("fail", "BUG: KASAN: slab-out-of-bounds in foo")], False),
    ("hung task", PRE + crlf(
        "[    9.0] INFO: task w1_bus_master1:40 blocked for more than "
        "10 seconds.\n"
        "[    9.1]       Not tainted 6.12.0 #1\n"),
     [("fail", "INFO: task w1_bus_master1:40 blocked for more than "
       "10 seconds.")], False),
    ("INFO: task without 'blocked for more than' is nothing", PRE + crlf(
        "[    9.0] INFO: task w1_bus_master1:40 is doing fine\n"
        "[    9.2] INFO: task x:1 blocked\n" + END), [], True),
    ("other crash triggers", PRE + crlf(
        "[    5.0] Unable to handle kernel NULL pointer dereference at "
        "virtual address 0000000000000008\n"
        "[    5.1] Internal error: Oops: 0000000096000005 [1] SMP\n"
        "[    5.2] kernel BUG at mm/slub.c:100!\n"
        "[    5.3] BUG: sleeping function called from invalid context\n"
        "[    5.4] UBSAN: shift-out-of-bounds in lib/x.c:3:4\n"
        "[    5.5] watchdog: BUG: soft lockup - CPU 0 stuck for 22s! "
        "[kworker/0:1:12]\n"
        "[    5.6] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"),
     [("fail", "Unable to handle kernel NULL pointer dereference at "
       "virtual address 0000000000000008"),
      ("fail", "Internal error: Oops: 0000000096000005 [1] SMP"),
      ("fail", "kernel BUG at mm/slub.c:100!"),
      ("fail", "BUG: sleeping function called from invalid context"),
      ("fail", "UBSAN: shift-out-of-bounds in lib/x.c:3:4"),
      ("fail", "watchdog: BUG: soft lockup - CPU 0 stuck for 22s! "
       "[kworker/0:1:12]"),
      ("fail", "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:")],
     False),
    ("'] WARNING: ' and 'BUG: ' in a test's name are no crash", PRE + crlf(
        "    ok 1 parses [x] WARNING: lines\n"
        "    # patchbay-result: ok 1 s/p/parses [x] WARNING: lines\n"
        "    not ok 2 BUG: handling # expected 1, got 2\n"
        "    # patchbay-result: not ok 2 s/p/BUG: handling "
        "# expected 1, got 2\n"
        "    ok 3 [x.5] BUG: not a time\n"
        "    # patchbay-result: ok 3 s/p/[x.5] BUG: not a time\n"
        "    ok 4 log ] WARNING: here\n"
        "    # patchbay-result: ok 4 s/p/log ] WARNING: here\n"
        "BUG: at the start of a user line\n"
        "] WARNING: too\n" + END),
     [("pass", "s/p/parses [x] WARNING: lines"),
      ("fail", "s/p/BUG: handling"), ("pass", "s/p/[x.5] BUG: not a time"),
      ("pass", "s/p/log ] WARNING: here")],
     True),
    ("a kernel line starting in the middle of a repeat", PRE + crlf(
        "    # patchbay-result: ok 5 s/p/fo\r"
        "[   12.500000] WARNING: CPU: 0 PID: 38 at drivers/x.c:10 f+0x1/0x2\n"
        "o\n"
        "    # patchbay-re[   13.000000] BUG: KASAN: double-free in bar\n"
        "sult: ok 6 s/p/next\n"),
     [("pass", "s/p/fo"),
      ("fail", "WARNING: CPU: 0 PID: 38 at drivers/x.c:10 f+0x1/0x2"),
      ("fail", "BUG: KASAN: double-free in bar")], False),
    # The kernel's line begins right after "fo", without a line end: the
    # repeat's name stops at the printk time, or the WARNING would be lost
    # inside a passing name.
    ("a kernel line in the middle of a repeat's name", PRE + crlf(
        "    # patchbay-result: ok 5 s/p/fo"
        "[   12.500000] WARNING: CPU: 0 PID: 38 at drivers/x.c:10 f+0x1/0x2\n"
        "o\n"),
     [("pass", "s/p/fo"),
      ("fail", "WARNING: CPU: 0 PID: 38 at drivers/x.c:10 f+0x1/0x2")], False),
    # A crash's name is its whole line: arm64's die() always prints "[#N]",
    # the soft lockup report "CPU#N".
    ("crash lines with a '#' keep their whole name", PRE + crlf(
        "[    5.1] Internal error: Oops: 0000000096000005 [#1] SMP\n"
        "[    5.5] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! "
        "[kworker/0:1:12]\n"),
     [("fail", "Internal error: Oops: 0000000096000005 [#1] SMP"),
      ("fail", "watchdog: BUG: soft lockup - CPU#0 stuck for 22s! "
       "[kworker/0:1:12]")], False),
    # lib/ktap/ktap.c reads SKIP and TODO in any case, and a '#' that is
    # not after a blank, or not before one or SKIP/TODO, in the name.
    ("mixed-case # Skip and # Todo skip, as in lib/ktap",
     PRE + crlf("    # patchbay-result: ok 6 s/p/mixed # Skip why\n"
                "    # patchbay-result: not ok 7 s/p/m2 # Todo\n"),
     [("skip", "s/p/mixed"), ("skip", "s/p/m2")], False),
    ("a '#' inside a name is the name's",
     PRE + crlf("    # patchbay-result: ok 8 s/p/C# compiler\n"
                "    # patchbay-result: ok 9 s/p/test #5 # SKIP later\n"
                "    # patchbay-result: not ok 10 s/p/bug #7 # got 2\n"),
     [("pass", "s/p/C# compiler"), ("skip", "s/p/test #5"),
      ("fail", "s/p/bug #7")], False),
    ("end on 'N of M suites failed, powering off'",
     PRE + crlf("# patchbay-result: ok 1 w1 # 0 of 1 failed, 0.40 s\n"
                "# patchbay init: 0 of 1 suites failed, powering off\n"
                "# patchbay-result: ok 2 after/the end\n"),
     [("pass", "w1")], True),
    ("nothing before the start line counts",
     "# patchbay-result: ok 1 too/early\n"
     "[    0.1] WARNING: CPU: 0 PID: 0 at early.c:1 e+0x0/0x4\n" + START
     + crlf("# patchbay-result: ok 2 in/time\n"),
     [("pass", "in/time")], False),
]


def run_monitor(binary):
    out = subprocess.run([binary, "monitor"], check=True,
                         stdout=subprocess.PIPE).stdout
    return json.loads(out)


class Console:
    """pexpect's buffer over a console read chunk bytes at a time."""

    def __init__(self, text, chunk):
        self.text, self.chunk, self.pos, self.buffer = text, chunk, 0, ""

    def _search(self, regexes):
        # searcher_re.search: from max(0, len - searchwindowsize), the
        # earliest start wins, a tie goes to the earlier pattern
        window = self.buffer[-SEARCHWINDOWSIZE:]
        best = None
        for index, rx in regexes:
            m = rx.search(window, 0)
            if m and (best is None or m.start() < best[1].start()):
                best = (index, m)
        if best is None:
            self.buffer = window  # do_search keeps the window only
            return None
        self.buffer = window[best[1].end():]
        return best

    def expect(self, regexes):
        """(index, match) of the first match, or (EOF, None)."""
        found = self._search(regexes)  # existing_data
        while found is None:
            if self.pos >= len(self.text):
                return EOF, None  # no more data: EOF (or TIMEOUT)
            data = self.text[self.pos:self.pos + self.chunk]
            self.pos += len(data)
            self.buffer += data  # new_data
            found = self._search(regexes)
        return found


def replay(monitor, text, chunk, captured):
    """[(result, name)...] and whether end was reached, as LAVA sees them."""
    console = Console(text, chunk)
    # connection.wait() with prompt_str = start
    if console.expect([(0, re.compile(monitor["start"], re.DOTALL))])[0] \
            == EOF:
        return [], False
    # patterns: eof, timeout, end, test_result
    regexes = [(2, re.compile(monitor["end"], re.DOTALL)),
               (3, re.compile(monitor["pattern"], re.DOTALL))]
    fixupdict = monitor.get("fixupdict") or {}
    results = []
    while True:
        index, m = console.expect(regexes)
        if index == EOF:
            return results, False
        if index == 2:
            return results, True
        match = m.groupdict()
        if "result" not in match:
            results.append(("NO RESULT GROUP", m.group(0)))
            continue
        captured.add(match["result"])
        result = fixupdict.get(match["result"], match["result"])
        if result not in VALID:
            # LAVA logs "bad test results" and records nothing
            results.append(("BAD RESULT " + repr(result), m.group(0)))
            continue
        if "test_case_id" not in match:
            results.append((result, "NO TEST_CASE_ID GROUP"))
            continue
        results.append((result, (match["test_case_id"] or "").strip()))


def result_alternatives(pattern):
    """The literal alternatives of the pattern's (?P<result>...) group, its
    lookaheads left out, and the alternatives that are not literal."""
    at = pattern.find("(?P<result>")
    if at < 0:
        return None, None
    i, depth, alternatives, current = at + len("(?P<result>"), 0, [], ""
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            current += pattern[i:i + 2]
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                break
            depth -= 1
        elif c == "|" and depth == 0:
            alternatives.append(current)
            current = ""
            i += 1
            continue
        current += c
        i += 1
    alternatives.append(current)
    literal, other = set(), []
    for alt in alternatives:
        # drop (?=...) lookaheads (no nesting in them but character classes)
        stripped = re.sub(r"\(\?=(?:\\.|\[(?:\\.|[^\]])*\]|[^()\\])*\)", "",
                          alt)
        text = re.sub(r"\\(.)", r"\1", stripped)
        if re.search(r"[][(){}*+?|^$.\\]", re.sub(r"\\.", "", stripped)):
            other.append(alt)
        else:
            literal.add(text)
    return literal, other


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} PATCHBAY_LAVA")
    monitor = run_monitor(sys.argv[1])
    checks = []  # (name, ok, diagnostic)

    keys = {"start", "end", "pattern", "fixupdict"}
    checks.append(("monitor has start, end, pattern, fixupdict",
                   keys <= set(monitor), f"keys {sorted(monitor)}"))
    fixupdict = monitor.get("fixupdict") or {}
    bad = {k: v for k, v in fixupdict.items() if v not in VALID}
    checks.append(("every fixupdict value is pass/fail/skip/unknown",
                   not bad, f"{bad}"))

    captured = set()
    for name, text, want, want_end in CASES:
        for chunk in CHUNKS:
            got, end = replay(monitor, text, chunk, captured)
            ok = got == want and end == want_end
            diag = f"{got} end={end}; want {want} end={want_end}"
            if chunk == CHUNKS[0]:
                checks.append((f"{name} ({chunk}-byte chunks)", ok, diag))
                first = (got, end)
            elif (got, end) != first:
                checks.append((f"{name}: {chunk}-byte chunks as {CHUNKS[0]}",
                               False, diag))

    unmapped = sorted(c for c in captured
                      if c not in fixupdict and c not in VALID)
    checks.append(("every result the fixtures capture is a fixupdict key or "
                   "a LAVA result", not unmapped,
                   f"unmapped {unmapped} of {sorted(captured)}"))
    literal, other = result_alternatives(monitor.get("pattern", ""))
    if literal is None:
        checks.append(("the pattern has a result group", False,
                       "no (?P<result>"))
    else:
        unmapped = sorted(c for c in literal
                          if c not in fixupdict and c not in VALID)
        checks.append(("every literal alternative of the result group is a "
                       "fixupdict key or a LAVA result",
                       not unmapped and not other,
                       f"unmapped {unmapped}, not literal {other}"))

    print(f"1..{len(checks)}")
    failed = 0
    for i, (name, ok, diag) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {name}".replace("#", "hash "))
        if not ok:
            failed += 1
            print(f"# got {diag}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
