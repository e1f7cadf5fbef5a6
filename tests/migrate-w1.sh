#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Migration of usb-ds2490 and its 1-Wire slaves (docs/devices/ds2490.md):
# set run-time inputs over QMP, migrate to a file, load it in a second
# QEMU and read them back; then feed corrupted and truncated streams to an
# incoming QEMU, which must fail cleanly (exit status, not a signal).
#
# usage: tests/migrate-w1.sh QEMU-SYSTEM-AARCH64        (prints TAP)
set -u
qemu=${1:?usage: $0 QEMU-SYSTEM-AARCH64}
repo=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
topology=$repo/images/suites/w1.qemu
t=$(mktemp -d)
qpid=
cleanup() {
    exec 3>&- 2> /dev/null
    if [ -n "$qpid" ]; then
        kill "$qpid" 2> /dev/null
    fi
    rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
trap '' PIPE    # a QEMU that died makes writes to its QMP fail, not kill us

n=0 fails=0
echo "TAP version 13"
ok() {  # ok DESCRIPTION COMMAND...
    desc=$1
    shift
    n=$((n + 1))
    if "$@" > /dev/null 2>&1; then
        echo "ok $n - $desc"
    else
        echo "not ok $n - $desc"
        fails=$((fails + 1))
    fi
}

# the machine of the w1 suite, without a guest: one argument per line
nl='
'
base_args=$(printf '%s\n' -M virt -cpu cortex-a72 -m 128 -nodefaults \
            -display none -S)
devices=$(grep -v -e '^#' -e '^$' "$topology")

# ---- QMP over a FIFO on stdin; answers and events land in $t/NAME.out ----

qmp_start() {  # qmp_start NAME EXTRA-QEMU-ARGS...
    name=$1
    shift
    out=$t/$name.out
    err=$t/$name.err
    mkfifo "$t/$name.in"
    # shellcheck disable=SC2086
    (IFS=$nl; exec "$qemu" $base_args $devices "$@" -qmp stdio) \
        < "$t/$name.in" > "$out" 2> "$err" &
    qpid=$!
    exec 3> "$t/$name.in"
    echo 0 > "$t/ncmd"
    qmp '"execute": "qmp_capabilities"' > /dev/null
}

# The command counter lives in a file: qmp also runs in $(...) subshells.
qmp() {  # qmp 'JSON MEMBERS': send with an id, print the answer
    ncmd=$(($(cat "$t/ncmd") + 1))
    echo "$ncmd" > "$t/ncmd"
    printf '{%s, "id": "c%d"}\n' "$1" "$ncmd" >&3 2> /dev/null || return 1
    tries=0
    until grep -q "\"id\": *\"c$ncmd\"" "$out"; do
        tries=$((tries + 1))
        if [ "$tries" -gt 600 ] || ! kill -0 "$qpid" 2> /dev/null; then
            return 1
        fi
        sleep 0.1
    done
    grep "\"id\": *\"c$ncmd\"" "$out"
}

qmp_ok() {  # qmp_ok 'JSON MEMBERS': the answer is a return, not an error
    qmp "$1" | grep -q '"return"'
}

# wait for query-migrate to settle; print the final status
migrate_status() {
    tries=0
    while :; do
        st=$(qmp '"execute": "query-migrate"' |
             sed -n 's/.*"status": *"\([a-z-]*\)".*/\1/p')
        case $st in
        completed|failed|cancelled) break ;;
        esac
        tries=$((tries + 1))
        if [ -z "$st" ] && [ "$tries" -gt 20 ]; then
            break               # no migration at all (refused)
        fi
        if [ "$tries" -gt 300 ] || ! kill -0 "$qpid" 2> /dev/null; then
            break
        fi
        sleep 0.1
    done
    echo "${st:-none}"
}

qom_get() {  # qom_get ID PROPERTY: print the value
    qmp "\"execute\": \"qom-get\", \"arguments\": {\"path\":
        \"/machine/peripheral/$1\", \"property\": \"$2\"}" |
        sed -n 's/.*"return": *\([^,}]*\).*/\1/p'
}

qom_set() {  # qom_set ID PROPERTY JSON-VALUE
    qmp_ok "\"execute\": \"qom-set\", \"arguments\": {\"path\":
        \"/machine/peripheral/$1\", \"property\": \"$2\", \"value\": $3}"
}

qmp_quit() {  # quit, and wait for the exit status
    qmp '"execute": "quit"' > /dev/null
    exec 3>&-
    wait "$qpid"
    rc=$?
    qpid=
    return $rc
}

equals() {
    [ "$1" = "$2" ]
}

# ---- the round trip ----

state=$t/state
qmp_start src
ok "source: qom-set t1 temperature -10125" qom_set t1 temperature -10125
ok "source: qom-set p1 pio-input 0x0f" qom_set p1 pio-input 15
ok "source: qom-set p2 present false" qom_set p2 present false
ok "source: qom-set ds2490 short true" qom_set ds2490 short true
ok "source: migrate to file:" \
   qmp_ok "\"execute\": \"migrate\", \"arguments\": {\"uri\": \"file:$state\"}"
ok "source: migration status is completed" equals "$(migrate_status)" completed
ok "source: quits with status 0" qmp_quit

qmp_start dst -incoming "file:$state"
ok "destination: migration status is completed" \
   equals "$(migrate_status)" completed
ok "destination: t1 temperature is -10125" \
   equals "$(qom_get t1 temperature)" -10125
ok "destination: p1 pio-input is 15" equals "$(qom_get p1 pio-input)" 15
ok "destination: p2 present is false" equals "$(qom_get p2 present)" false
ok "destination: ds2490 short is true" equals "$(qom_get ds2490 short)" true
ok "destination: quits with status 0" qmp_quit

# ---- hostile streams ----

# offset just after the first occurrence of STRING in FILE (a section's
# idstr ends there), or nothing
offset_after() {  # offset_after FILE STRING
    pat=$(printf '%s' "$2" | od -An -v -tu1)
    od -An -v -tu1 "$1" | awk -v pat="$pat" '
        BEGIN { n = split(pat, p, " ") }
        {
            for (i = 1; i <= NF; i++) {
                b[pos % n] = $i
                pos++
                if (pos < n) {
                    continue
                }
                hit = 1
                for (k = 1; k <= n; k++) {
                    if (b[(pos - n + k - 1) % n] != p[k]) {
                        hit = 0
                        break
                    }
                }
                if (hit) {
                    print pos
                    exit
                }
            }
        }'
}

bytes_at() {  # bytes_at FILE OFFSET COUNT: decimal, space separated
    od -An -v -tu1 -j "$2" -N "$3" "$1" 2> /dev/null | tr -s ' \n' '  ' | sed 's/^ //;s/ $//'
}

poke() {  # poke FILE OFFSET BYTE
    # shellcheck disable=SC2059
    printf "\\$(printf '%03o' "$3")" |
        dd of="$1" bs=1 seek="$2" conv=notrunc 2> /dev/null
}

# run an incoming QEMU on FILE; it must exit by itself, not by a signal
# and not with 0; $t/bad.err keeps its messages
load_fails_cleanly() {  # load_fails_cleanly FILE
    [ -s "$1" ] || return 1
    # shellcheck disable=SC2086
    (IFS=$nl; exec timeout 60 "$qemu" $base_args $devices \
        -incoming "file:$1") > /dev/null 2> "$t/bad.err"
    rc=$?
    [ "$rc" -ne 0 ] && [ "$rc" -lt 124 ]
}

# the same, for a FILE made from a section found at OFFSET (not empty)
section_load_fails() {  # section_load_fails OFFSET FILE
    [ -n "$1" ] && load_fails_cleanly "$2"
}

# usb-ds2490: section header (idstr, instance id, version id), then the
# USB device (29 bytes), then the mode registers
ds=$(offset_after "$state" usb-ds2490 2> /dev/null)
ds_fields=$((${ds:-0} + 8 + 29))
ok "stream: usb-ds2490 section found with power-on mode registers" \
   equals "$(bytes_at "$state" "$ds_fields" 8)" "0 0 0 32 64 5 4 4"

cp "$state" "$t/speed" 2> /dev/null
poke "$t/speed" $((ds_fields + 2)) 7
ok "ds2490 speed 7 in the stream: load fails without a signal" \
   section_load_fails "$ds" "$t/speed"
ok "...and says why (usb-ds2490 post_load)" \
   grep -q "usb-ds2490: invalid engine state" "$t/bad.err"

cp "$state" "$t/ep2" 2> /dev/null
poke "$t/ep2" $((ds_fields + 8 + 6 + 32 + 3 + 128)) 200
ok "ds2490 ep2_head 200 in the stream: load fails without a signal" \
   section_load_fails "$ds" "$t/ep2"

head -c $((ds_fields + 100)) "$state" > "$t/short" 2> /dev/null
ok "stream truncated inside the usb-ds2490 section: load fails cleanly" \
   section_load_fails "$ds" "$t/short"

# onewire-ds18b20: present, then rom_state
w1=$(offset_after "$state" onewire-ds18b20 2> /dev/null)
w1_fields=$((${w1:-0} + 8))
ok "stream: onewire-ds18b20 section found (present, ROM layer idle)" \
   equals "$(bytes_at "$state" "$w1_fields" 2)" "1 0"
cp "$state" "$t/rom_state" 2> /dev/null
poke "$t/rom_state" $((w1_fields + 1)) 9
ok "onewire-ds18b20 rom_state 9 in the stream: load fails without a signal" \
   section_load_fails "$w1" "$t/rom_state"

cp "$state" "$t/tx_head" 2> /dev/null
poke "$t/tx_head" $((w1_fields + 10 + 64)) 64
ok "onewire-ds18b20 tx_head 64 in the stream: load fails without a signal" \
   section_load_fails "$w1" "$t/tx_head"

# control: the untouched stream still loads (exit only by timeout's kill)
control_loads() {
    # shellcheck disable=SC2086
    (IFS=$nl; exec timeout 10 "$qemu" $base_args $devices \
        -incoming "file:$state") > /dev/null 2>&1
    [ $? -eq 124 ]
}
ok "control: the untouched stream loads and QEMU keeps running" control_loads

echo "1..$n"
[ "$fails" -eq 0 ]
