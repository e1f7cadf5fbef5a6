#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Unit test of scripts/guest-packages' downloads, with a fake apt-get that
# writes the .deb the way the real one does: straight to its final name,
# slowly. Two runs at once must download once and both succeed; a failed
# download must leave nothing that looks downloaded.
set -eu
repo=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0 n=0
echo "TAP version 13"
ok() {  # ok STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}

# A real package to hand out: one file, not ELF (no library closure).
mkdir -p "$t/pkg/DEBIAN" "$t/pkg/usr/bin" "$t/bin"
printf 'Package: pb-fake\nVersion: 1.0\nArchitecture: arm64\nMaintainer: t <t@t>\nDescription: t\n' \
    > "$t/pkg/DEBIAN/control"
printf '#!/bin/sh\necho fake\n' > "$t/pkg/usr/bin/pb-fake"
dpkg-deb --build -Zgzip "$t/pkg" "$t/good.deb" > /dev/null
cat > "$t/bin/apt-get" <<EOF
#!/bin/sh
# fake apt-get: resolution (-s ... install) and download
case " \$* " in
*" -s "*) echo "Inst pb-fake (1.0 fake [arm64])" ;;
*" download "*)
    echo download >> "$t/downloads"
    [ ! -f "$t/fail" ] || { head -c 100 "$t/good.deb" > pb-fake_1.0_arm64.deb; echo "E: Hash Sum mismatch"; exit 100; }
    head -c 100 "$t/good.deb" > pb-fake_1.0_arm64.deb
    sleep 1
    cat "$t/good.deb" > pb-fake_1.0_arm64.deb ;;
*) exit 1 ;;
esac
EOF
chmod +x "$t/bin/apt-get"
gp() {  # gp CACHE: one guest-packages run, its output folder on stdout
    PATH=$t/bin:$PATH PATCHBAY_CACHE=$1 sh "$repo/scripts/guest-packages" pb-fake 2> /dev/null
}

gp "$t/c1" > "$t/out1" & p1=$!
gp "$t/c1" > "$t/out2" & p2=$!
s1=0 s2=0
wait $p1 || s1=$?
wait $p2 || s2=$?
ok $((s1 + s2)) "two runs at once both succeed"
s=0; [ "$(wc -l < "$t/downloads")" = 1 ] || s=1
ok $s "two runs at once download once (got $(wc -l < "$t/downloads"))"
s=0; [ -s "$t/out1" ] && [ -f "$(cat "$t/out1")/root/usr/bin/pb-fake" ] || s=1
ok $s "the package's file is in the guest layer"

touch "$t/fail"
if gp "$t/c2" > /dev/null; then s=1; else s=0; fi
ok $s "a failed download fails the run"
s=0; [ -z "$(find "$t/c2/downloads/debs" -name '*.deb')" ] || s=1
ok $s "a failed download leaves no .deb behind"
rm "$t/fail"
s=0; gp "$t/c2" > "$t/out3" || s=1
ok $s "the next run downloads it again and succeeds"

echo "1..$n"
[ "$fails" = 0 ]
