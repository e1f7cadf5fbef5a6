#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Commits, not trees (docs/series-and-bisect.md), end to end on the history
# of tests/series-history.sh. TAP.
#
#   tests/series-test.sh HISTORY OUT
#
#  - series over good..bad (w1): exactly the culprit regresses, with
#    exactly the tests of the negative control it re-creates
#    (w1-list-masters-uninit's killed-by), exactly the unbuildable commit
#    fails to build, with its compiler error, and nothing else flips;
#  - the same range as a mailbox (git format-patch --cover-letter
#    --stdout) on good: the cover letter skipped, the same table;
#  - a mailbox that does not apply: exit 2, its subject, the rejected hunk;
#  - bisect good..bad: exactly the culprit, the unbuildable commit skipped,
#    a step made to fail once (PATCHBAY_BISECT_FLAKE) run again, and the
#    recording of the culprit's run replays to the same console;
#  - bad input gives exit 2 and one line: good and bad swapped, an empty
#    range, a ref that does not exist, ends whose tests do not differ.
set -u
. "$(dirname -- "$0")/../scripts/lib.sh"

hist=${1:?usage: series-test.sh HISTORY OUT} out=${2:?usage: series-test.sh HISTORY OUT}
patchbay=$PATCHBAY_ROOT/scripts/patchbay
rm -rf "$out"
mkdir -p "$out"
. "$(dirname -- "$0")/tap-lib.sh"
g() { git -c safe.directory='*' --git-dir="$hist" "$@"; }
good=$(g rev-parse good) culprit=$(g rev-parse culprit)
unbuildable=$(g rev-parse unbuildable)
# The tests the negative control that the culprit re-creates must fail.
killed_by=$("$PATCHBAY_ROOT/build/host/runner/patchbay-mutants" --variant-field killed-by \
    "$PATCHBAY_ROOT/kernel-patches/variants/w1-list-masters-uninit/variant")

# ---- series over the history ----
s=$out/series
status=0
run 1 "$s.log" series --git "$hist" --range good..bad --suite w1 --results "$s" || status=1
sed -n '/^#  *commit/,$p' "$s.log" | head -n 40
tap $status "series good..bad exits 1 (a commit regresses, one does not build)"

jq -e --arg c "$culprit" '[.commits[] | select(.regressed) | .sha] == [$c]' \
    "$s/series.json" > /dev/null
tap $? "series: the culprit, and only it, regresses"

# exactly the killed-by tests that pass at good flip, pass -> fail
grep "^pass	$killed_by" "$s"/00-*/results/results.txt | cut -f2 | sort > "$s.want"
jq -r --arg c "$culprit" '.commits[] | select(.sha == $c) | .flips[] | .test + " " + .from + " " + .to' \
    "$s/series.json" | sed 's/ pass fail$//' | sort > "$s.got"
[ -s "$s.want" ] && cmp -s "$s.want" "$s.got"
status=$?
[ $status = 0 ] || diff "$s.want" "$s.got" | head -n 10 | sed 's/^/    | /'
tap $status "series: the culprit's flips are exactly '$killed_by' ($(wc -l < "$s.want") tests), pass -> fail"

jq -e --arg u "$unbuildable" '[.commits[] | select(.build != "ok") | .sha] == [$u]
    and (.commits[] | select(.sha == $u) | .build == "FAIL" and (.build_error | test("w1_io\\.c.*error")))' \
    "$s/series.json" > /dev/null
tap $? "series: the unbuildable commit, and only it, fails to build, with its compiler error"

jq -e --arg c "$culprit" '[.commits[] | select(.sha != $c and (.flips | length) > 0)] == []
    and ([.commits[] | select(.checkpatch == null)] == [])' "$s/series.json" > /dev/null
tap $? "series: no other commit flips a test; every commit has a checkpatch result"

# ---- the same range as a mailbox ----
m=$out/mbox
g format-patch -q --cover-letter --stdout good..bad > "$m.mbox"
status=0
run 1 "$m.log" series --mbox "$m.mbox" --git "$hist" --base good --suite w1 --results "$m" || status=1
grep -q 'skipping "\*\*\* SUBJECT HERE \*\*\*" (no diff: a cover letter)' "$m.log" || { echo "    no cover letter skipped"; status=1; }
tap $status "series --mbox of the same range (format-patch --cover-letter): exits 1, the cover letter skipped"

table='[.commits[] | {subject, checkpatch, build, verdict, regressed, flips, new_crashes}]'
jq "$table" "$s/series.json" > "$s.table"
jq "$table" "$m/series.json" > "$m.table"
cmp -s "$s.table" "$m.table"
status=$?
[ $status = 0 ] || diff "$s.table" "$m.table" | head -n 10 | sed 's/^/    | /'
tap $status "series --mbox gives the same table as the range"

# the culprit does not apply to Debian's 6.12 (it changes our 0003's line)
g format-patch -q --stdout -1 culprit > "$out/culprit.mbox"
status=0
run 2 "$out/mbox-no-apply.log" series --mbox "$out/culprit.mbox" --git "$hist" \
    --base pristine --suite w1 --results "$out/mbox-no-apply" || status=1
grep -q '^patchbay: error: patch 1 of .*"w1: netlink: allocate the LIST_MASTERS reply with kmalloc()", does not apply' \
    "$out/mbox-no-apply.log" &&
    grep -q -- '--- rejected hunk(s) in drivers/w1/w1_netlink.c' "$out/mbox-no-apply.log" &&
    grep -q '^-	cn = kzalloc(PAGE_SIZE, GFP_KERNEL);' "$out/mbox-no-apply.log" ||
    { show "$out/mbox-no-apply.log"; status=1; }
tap $status "a mailbox that does not apply: exit 2, its subject and the rejected hunk"

# ---- bisect, with a step made to fail once ----
b=$out/bisect
status=0
PATCHBAY_BISECT_FLAKE=$culprit:harness-fail \
    run 0 "$b.log" bisect --git "$hist" --good good --bad bad --suite w1 --results "$b" || status=1
grep -E '^(criterion|step|first bad|results|recording)' "$b.log" || true
tap $status "bisect good..bad exits 0"

jq -e --arg c "$culprit" '.first_bad == $c' "$b/bisect.json" > /dev/null &&
    grep -q "^first bad commit: $culprit" "$b.log"
tap $? "bisect names exactly the culprit"

jq -e --arg u "$unbuildable" '[.steps[] | select(.status == "skipped") | .sha] == [$u]' \
    "$b/bisect.json" > /dev/null
tap $? "bisect skipped the unbuildable commit, and only it"

jq -e --arg c "$culprit" '.steps[] | select(.sha == $c and (.runs | length) == 2
    and .runs[0].outcome == "unclear" and .runs[1].outcome == "bad")' \
    "$b/bisect.json" > /dev/null
tap $? "bisect ran the step made to fail once again: unclear, then bad"

rec=$(jq -r '.recording // empty' "$b/bisect.json")
status=1
if [ -n "$rec" ] && [ -f "$rec/recording.json" ]; then
    status=0
    run 1 "$b.replay.log" replay "$(dirname "$rec")" --results "$b/replay" &&
        grep -q '^patchbay: the replay matches the recording' "$b.replay.log" || status=1
fi
tap $status "bisect's recording of the culprit's run replays to the same console and verdict"

# ---- bad input ----
# expect_bad NAME PATTERN ARGS...: exit 2 and one error line matching PATTERN
expect_bad() {
    name=$1 pattern=$2; shift 2
    got=0
    "$patchbay" "$@" > "$out/$name.log" 2>&1 || got=$?
    # patchbay's own error line, or the C driver's
    errs='^patchbay(: error|-bisect|-series):'
    if [ "$got" = 2 ] && [ "$(grep -cE "$errs" "$out/$name.log")" = 1 ] &&
        grep -E "$errs" "$out/$name.log" | grep -qE "$pattern"; then
        tap 0 "$name: exit 2, $(grep -E "$errs" "$out/$name.log")"
    else
        echo "    exit $got (log: $out/$name.log)"
        show "$out/$name.log"
        tap 1 "$name: exit 2 and one line naming the reason"
    fi
}
expect_bad bisect-swapped 'swapped' \
    bisect --git "$hist" --good bad --bad good --suite w1 --results "$out/swapped"
expect_bad bisect-empty 'empty' \
    bisect --git "$hist" --good bad --bad bad --suite w1 --results "$out/empty"
expect_bad bisect-no-such-ref 'no-such-ref is not a commit' \
    bisect --git "$hist" --good no-such-ref --bad bad --suite w1 --results "$out/no-ref"
expect_bad bisect-nothing-differs 'nothing differs' \
    bisect --git "$hist" --good culprit --bad bad --suite w1 --results "$out/same"
expect_bad series-no-such-range 'is not a commit' \
    series --git "$hist" --range good..no-such-ref --suite w1 --results "$out/no-range"
echo "1..$n"
