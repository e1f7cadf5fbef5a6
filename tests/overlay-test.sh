#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Unit test of scripts/qemu-overlay on a fake QEMU tree: copy, idempotent
# append, library sources and their list, patch, already-applied patch,
# broken patch, --check, and the removal of what the overlay drops.
set -eu
repo=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
overlay_tool=$repo/scripts/qemu-overlay
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0 n=0
echo "TAP version 13"
check() {  # check DESCRIPTION COMMAND...
    n=$((n + 1))
    if "$@" > /dev/null 2>&1; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fails=$((fails + 1)); fi
}

mkdir -p "$t/q/hw/usb" "$t/ov/hw/usb" "$t/ov/configs/devices" "$t/p"
echo 10.0.13 > "$t/q/VERSION"
printf 'system_ss.add(files(%s))\n' "'core.c'" > "$t/q/hw/usb/meson.build"
printf 'int core;\n' > "$t/q/hw/usb/core.c"
printf 'config USB_FAKE\n    bool\n' > "$t/ov/hw/usb/Kconfig.append"
: > "$t/q/hw/usb/Kconfig"
printf '/* our device */\n' > "$t/ov/hw/usb/dev-fake.c"
printf 'CONFIG_USB_FAKE=y\n' > "$t/ov/configs/devices/fake.mak"
cat > "$t/p/0001-core.patch" <<'P'
--- a/hw/usb/core.c
+++ b/hw/usb/core.c
@@ -1 +1,2 @@
 int core;
+int patched;
P
echo 0001-core.patch > "$t/p/series"
# a plain C library of the repo copied into the tree (hw/libs.map)
lib=$(mktemp -d "$repo/.overlay-test-lib.XXXXXX")
trap 'rm -rf "$t" "$lib"' EXIT
printf 'int lib;\n' > "$lib/mylib.c"
printf 'int lib2;\n' > "$lib/mylib2.c"
printf 'int host_only;\n' > "$lib/unlisted.c"
printf 'int lib_h;\n' > "$lib/mylib.h"
cat > "$lib/meson.build" <<'M'
# the one list of the library's sources
mylib_sources = files(
    'mylib.c',  # a comment 'not-a-file.c'
    'mylib2.c',
)
test_sources = files('tests/t.c')
M
mkdir -p "$lib/tests"; printf 'not copied\n' > "$lib/tests/t.c"
libname=$(basename "$lib")
echo "$libname hw/usb" > "$t/libs.map"

desc="--check on a clean tree succeeds"; check "$overlay_tool" --check "$t/q" "$t/ov" "$t/p" "$t/libs.map"
desc="--check leaves the tree alone"; check test ! -e "$t/q/hw/usb/dev-fake.c"
desc="first apply succeeds"; check "$overlay_tool" "$t/q" "$t/ov" "$t/p" "$t/libs.map"
desc="sources are copied"; check cmp "$t/ov/hw/usb/dev-fake.c" "$t/q/hw/usb/dev-fake.c"
desc="new folders are created"; check test -f "$t/q/configs/devices/fake.mak"
desc="fragment is appended"; check grep -q 'config USB_FAKE' "$t/q/hw/usb/Kconfig"
desc="library sources are copied"; check cmp "$lib/mylib.h" "$t/q/hw/usb/mylib.h"
desc="library tests are not"; check test ! -e "$t/q/hw/usb/t.c"
desc="listed library sources are copied"; check cmp "$lib/mylib2.c" "$t/q/hw/usb/mylib2.c"
desc="unlisted ones are not"; check test ! -e "$t/q/hw/usb/unlisted.c"
desc="the list is written for QEMU's meson"; check test "$(cat "$t/q/hw/usb/$libname.sources")" = "mylib.c
mylib2.c"
desc="patch is applied"; check grep -q patched "$t/q/hw/usb/core.c"
cp -r "$t/q" "$t/q1"
desc="second apply succeeds (patch already applied)"; check "$overlay_tool" "$t/q" "$t/ov" "$t/p" "$t/libs.map"
desc="second apply changes nothing"; check diff -r "$t/q1" "$t/q"
printf 'config USB_FAKE2\n    bool\n' > "$t/ov/hw/usb/Kconfig.append"
"$overlay_tool" "$t/q" "$t/ov" "$t/p" "$t/libs.map" > /dev/null 2>&1
desc="an edited fragment replaces the old block"; check test "$(grep -c 'config USB_FAKE' "$t/q/hw/usb/Kconfig")" = 1
desc="...with the new content"; check grep -q 'USB_FAKE2' "$t/q/hw/usb/Kconfig"
# dropped from the overlay or the library: deleted, or its block removed
mkdir -p "$t/ov/hw/newdir/sub"
printf 'int gone;\n' > "$t/ov/hw/newdir/sub/gone.h"
printf 'int stays;\n' > "$t/ov/hw/usb/stays.h"
printf 'x = 1\n' > "$t/ov/hw/usb/meson.build.append"
"$overlay_tool" "$t/q" "$t/ov" "$t/p" "$t/libs.map" > /dev/null 2>&1
desc="a new folder is made"; check test -f "$t/q/hw/newdir/sub/gone.h"
rm -r "$t/ov/hw/newdir" "$t/ov/hw/usb/meson.build.append"
sed -i "/mylib2/d" "$lib/meson.build"
cp "$t/q/hw/usb/meson.build" "$t/usb-meson.build"
desc="apply after files were dropped succeeds"; check "$overlay_tool" "$t/q" "$t/ov" "$t/p" "$t/libs.map"
desc="a dropped overlay file is deleted"; check test ! -e "$t/q/hw/newdir/sub/gone.h"
desc="...with the folders that leaves empty"; check test ! -e "$t/q/hw/newdir"
desc="the other overlay files stay"; check test -f "$t/q/hw/usb/stays.h"
desc="a dropped library source is deleted"; check test ! -e "$t/q/hw/usb/mylib2.c"
desc="...and no longer listed"; check test "$(cat "$t/q/hw/usb/$libname.sources")" = mylib.c
desc="the library's other files stay"; check test -f "$t/q/hw/usb/mylib.c"
desc="QEMU's own files stay"; check test -f "$t/q/hw/usb/core.c"
desc="a dropped fragment's block is removed"; check sh -c "! grep -q 'x = 1' '$t/q/hw/usb/meson.build'"
desc="...and the rest of that file kept"; check grep -q "core.c" "$t/q/hw/usb/meson.build"
desc="...without the markers"; check sh -c "! grep -q 'patchbay overlay' '$t/q/hw/usb/meson.build'"
desc="the manifest names what is copied now"; check grep -qx "copied hw/usb/stays.h" "$t/q/.patchbay-overlay.manifest"
printf 'int stale;\n' > "$t/q/hw/usb/not-ours.c"
"$overlay_tool" "$t/q" "$t/ov" "$t/p" "$t/libs.map" > /dev/null 2>&1
desc="files it never copied are left alone"; check test -f "$t/q/hw/usb/not-ours.c"
desc="a listed source that is missing fails"; check sh -c "
    printf \"x_sources = files('nosuch.c')\\n\" > '$lib/meson.build'
    ! '$overlay_tool' '$t/q' '$t/ov' '$t/p' '$t/libs.map'"
printf "x_sources = files('mylib.c')\n" > "$lib/meson.build"

cat > "$t/p/0002-broken.patch" <<'P'
--- a/hw/usb/core.c
+++ b/hw/usb/core.c
@@ -1 +1,2 @@
 int no_such_line;
+int never;
P
echo 0002-broken.patch >> "$t/p/series"
desc="a patch that does not apply fails"; check sh -c "! '$overlay_tool' '$t/q' '$t/ov' '$t/p' '$t/libs.map'"
desc="...naming the patch"; check sh -c "'$overlay_tool' '$t/q' '$t/ov' '$t/p' '$t/libs.map' 2>&1 | grep -q '0002-broken.patch does not apply'"
desc="--check fails on it too"; check sh -c "! '$overlay_tool' --check '$t/q' '$t/ov' '$t/p' '$t/libs.map'"
printf 'hw/usb/missing-file\n' > /dev/null
printf 'x\n' > "$t/ov/hw/nosuch.build.append"
desc="appending to a missing file fails"; check sh -c "! '$overlay_tool' '$t/q1' '$t/ov' /nonexistent"
desc="not a QEMU tree fails"; check sh -c "! '$overlay_tool' '$t/ov' '$t/ov' '$t/p' '$t/libs.map'"
echo "1..$n"
exit $((fails > 0))
