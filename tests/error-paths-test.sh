#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Unit test of patchbay-gcov's error-handling lines (error-paths.tsv,
# error-unrun.txt, the table in summary.txt; docs/coverage.md, H2) with a
# stand-in for the cross gcov: a small ds2490.c whose error branch ran
# once and whose allocation failure never did.
set -eu
tool=${1:?usage: error-paths-test.sh PATCHBAY_GCOV}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0 n=0
echo "TAP version 13"
check() {  # check DESCRIPTION COMMAND...
    desc=$1; shift
    n=$((n + 1))
    if "$@" > /dev/null 2>&1; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fails=$((fails + 1)); fi
}

d=drivers/w1/masters
mkdir -p "$t/obj/$d" "$t/src/$d"
: > "$t/obj/$d/ds2490.gcno"
cat > "$t/src/$d/ds2490.c" <<'C'
static int ds_send(struct ds_device *dev)
{
	int err = usb_msg(dev);

	if (err < 0) {
		dev_err(&dev->udev->dev, "failed: %d\n", err);
		return err;
	}
	buf = kmalloc(8, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	return 0;
}
C
# every line ran 5 times but the error branch's (6-7: as often as the
# .gcda says) and the allocation failure's (11: never)
cat > "$t/gcov" <<'G'
#!/bin/sh
c=$(cat "$3")
printf '{"files":[{"file":"../drivers/w1/masters/ds2490.c","functions":[{"name":"ds_send","start_line":1,"end_line":13}],"lines":['
printf '{"line_number":3,"count":5},{"line_number":5,"count":5},{"line_number":6,"count":%s},{"line_number":7,"count":%s},' "$c" "$c"
printf '{"line_number":9,"count":5},{"line_number":10,"count":5},{"line_number":11,"count":0},{"line_number":12,"count":5}]}]}\n'
G
chmod +x "$t/gcov"
{ echo "patchbay-gcov 1"
  printf 'gcda %s 1\n1' "out/$d/ds2490.gcda"
  echo "end 1"; } > "$t/gcov.w1"

status=0
"$tool" --objtree "$t/obj" --srctree "$t/src" --out "$t/out" --gcov "$t/gcov" \
    "$t/gcov.w1" > "$t/log" 2>&1 || status=$?
check "runs (exit 0)" test "$status" = 0
check "error-paths.tsv: ds_send's 3 error lines, 2 run" \
    grep -qx "$d/ds2490.c	ds_send	3	2	66.7	ds2490" "$t/out/error-paths.tsv"
check "error-paths.tsv: the file's total as function *" \
    grep -qx "$d/ds2490.c	\*	3	2	66.7	ds2490" "$t/out/error-paths.tsv"
check "error-unrun.txt: the allocation failure, why, its source" \
    grep -qx "$d/ds2490.c:11	ds_send	branch+propagate+alloc	return -ENOMEM;" "$t/out/error-unrun.txt"
check "error-unrun.txt: nothing else" test "$(wc -l < "$t/out/error-unrun.txt")" = 1
check "summary: the file's row, and without allocation failures 2 of 2" \
    grep -Eq "^  $d/ds2490.c +ds2490 +3 +2 +66.7% +2 +2 +100.0%" "$t/out/summary.txt"
check "summary: a source --srctree lacks is said so" \
    grep -q "drivers/w1/w1_io.c *no source" "$t/out/summary.txt"
check "summary: the total over all groups" \
    grep -Eq "^ +all +3 +2 +66.7%" "$t/out/summary.txt"

echo "1..$n"
[ "$fails" = 0 ]
