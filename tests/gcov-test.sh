#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Unit test of runner/patchbay-gcov on hostile streams, with a stand-in for
# the cross gcov (its JSON's count is the .gcda's content): only the .gcda
# of a known object is kept, under the object's name; paths, sizes and cut
# streams of the guest's choosing create nothing else; the counts of
# several streams add up; a function GCC inlined early (no gcov record) is
# found in the source.
set -eu
tool=${1:?usage: gcov-test.sh PATCHBAY_GCOV}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0 n=0
echo "TAP version 13"
check() {  # check DESCRIPTION COMMAND...
    desc=$1; shift
    n=$((n + 1))
    if "$@" > /dev/null 2>&1; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fails=$((fails + 1)); fi
}

mkdir -p "$t/obj/fs" "$t/src/fs"
: > "$t/obj/fs/open.gcno"
cat > "$t/src/fs/open.c" <<'C'
inline int build_open_flags(const struct open_how *how, struct open_flags *op)
{
	return 0;
}
C
# gcov --json-format --stdout fs/open.gcda: line 3 ran as often as the
# .gcda says; build_open_flags has no function record (inlined early)
cat > "$t/gcov" <<'G'
#!/bin/sh
c=$(cat "$3")
if [ "$c" = bad ]; then echo "$3:not a gcov data file" >&2; exit 2; fi
printf '{"files":[{"file":"../fs/open.c","functions":[],"lines":[{"line_number":3,"count":%s},{"line_number":2,"count":0}]}]}\n' "$c"
G
chmod +x "$t/gcov"
entry() {  # entry PATH CONTENT: one framed entry
    printf 'gcda %s %d\n%s' "$1" "$(printf '%s' "$2" | wc -c)" "$2"
}
{ echo "patchbay-gcov 1"
  entry "root/.cache/pb/out/fs/open.gcda" 0
  entry "root/../../../tmp/evil.gcda" 1
  entry "xfs/open.gcda" 1
  entry "a/fs/open.gcda" 99
  echo "end 4"; } > "$t/gcov.vm1"
{ echo "patchbay-gcov 1"
  entry "/fs/open.gcda" 7
  echo "end 1"; } > "$t/gcov.vm2"
# hostile: a .gcda gcov refuses, an insane size, then a cut entry, then no header at all
{ echo "patchbay-gcov 1"; entry "fs/open.gcda" bad; echo "end 1"; } > "$t/gcov.bad"
{ echo "patchbay-gcov 1"; echo "gcda fs/open.gcda 99999999999"; } > "$t/gcov.big"
{ echo "patchbay-gcov 1"; printf 'gcda fs/open.gcda 50\nshort'; } > "$t/gcov.cut"
head -c 3000 /dev/zero | tr '\0' x > "$t/gcov.junk"
: > "$t/gcov.cut.cut"

status=0
"$tool" --objtree "$t/obj" --srctree "$t/src" --out "$t/out" --gcov "$t/gcov" \
    "$t/gcov.vm1" "$t/gcov.vm2" "$t/gcov.bad" "$t/gcov.big" "$t/gcov.cut" "$t/gcov.junk" \
    > "$t/log" 2>&1 || status=$?
check "runs (exit 0)" test "$status" = 0
check "keeps fs/open.gcda of the first stream under the object's name" \
    test "$(cat "$t/out/gcov-data/1-gcov.vm1/fs/open.gcda")" = 0
check "copies the .gcno beside it" test -f "$t/out/gcov-data/1-gcov.vm1/fs/open.gcno"
check "creates no file from a path the guest sent" \
    sh -c "! find '$t' -name 'evil*' | grep -q . && test ! -e /tmp/evil.gcda"
check "refuses the unknown, the look-alike and the second copy" \
    grep -q 'gcov.vm1 .* 1 .gcda kept, 3 refused' "$t/out/summary.txt"
check "adds the streams' counts (line 3: 0 runs, then 7)" \
    sh -c "awk -F'\t' '\$2 == \"build_open_flags\" { print \$3, \$4 }' '$t/out/functions.tsv' | grep -qx '2 1'"
check "lists the line that never ran, with its source" \
    grep -q "fs/open.c:2	build_open_flags	{" "$t/out/unrun.txt"
check "a .gcda gcov refuses is that stream's problem, and leaves the data" \
    sh -c "grep -q 'gcov.bad .* 0 .gcda kept, 1 refused; gcov refused fs/open.gcda: .*not a gcov data file' '$t/out/summary.txt' &&
           test ! -e '$t/out/gcov-data/3-gcov.bad/fs/open.gcda'"
check "an insane size is refused" grep -q 'gcov.big .*insane size' "$t/out/summary.txt"
check "a cut entry is reported, and the runner's cut mark" \
    grep -q 'gcov.cut .*CUT by patchbay-run; cut inside an entry' "$t/out/summary.txt"
check "a stream without the header is reported" \
    grep -q 'gcov.junk .*no "patchbay-gcov 1" header' "$t/out/summary.txt"
status=0
"$tool" --objtree "$t/obj" --out "$t/out2" --gcov "$t/gcov" "$t/gcov.junk" \
    > /dev/null 2>&1 || status=$?
check "no usable stream: exit 2" test "$status" = 2
status=0
"$tool" --objtree "$t/obj" --out "$t/out3" --gcov "$t/no-such-gcov" "$t/gcov.vm2" \
    > /dev/null 2>&1 || status=$?
check "no gcov to run: exit 2" test "$status" = 2

echo "1..$n"
[ "$fails" = 0 ]
