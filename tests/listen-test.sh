#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# QEMU as patchbay starts it listens on no network: QMP, the control
# channel and the gdbstub are unix sockets in private directories (mode
# 0700, ours). Looks at the sockets each QEMU holds while it runs: a
# plain run (QMP, the control channel) and a gdb session (the gdbstub),
# after proving on a QEMU told to listen on TCP that it sees one. TAP.
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

patchbay=$PATCHBAY_ROOT/scripts/patchbay
work=$(mktemp -d)
. "$(dirname -- "$0")/tap-lib.sh"
bg_pids=
cleanup() {
    for p in $bg_pids; do kill "$p" 2> /dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# socket_inodes PID: the inodes of the sockets PID holds, " a b c "
socket_inodes() {
    printf ' %s ' "$(ls -l "/proc/$1/fd" 2> /dev/null |
        sed -n 's/.*socket:\[\([0-9]*\)\].*/\1/p' | tr '\n' ' ')"
}

# inet_listeners PID: each TCP socket in LISTEN and each UDP or raw socket
# PID holds, IPv4 and IPv6 ("tcp 00000000:1F90" ...)
inet_listeners() {
    inodes=$(socket_inodes "$1")
    for f in tcp tcp6 udp udp6 raw raw6; do
        [ -r "/proc/$1/net/$f" ] || continue
        awk -v f="$f" -v inodes="$inodes" 'NR > 1 && index(inodes, " " $10 " ") &&
            (f !~ /^tcp/ || $4 == "0A") { print f, $2 }' "/proc/$1/net/$f"
    done
}

# unix_listener_dirs PID: the folder of each named unix socket PID holds
unix_listener_dirs() {
    inodes=$(socket_inodes "$1")
    awk -v inodes="$inodes" 'NR > 1 && NF >= 8 && index(inodes, " " $7 " ") {
        sub(/\/[^\/]*$/, "", $8); print $8 }' "/proc/$1/net/unix" | sort -u
}

# qemu_of PID: the QEMU among PID's descendants, once it has sockets (30 s)
qemu_of() {
    i=0
    while [ $i -lt 150 ]; do
        q=$(ps -eo pid=,ppid=,comm= | awk -v root="$1" '
            { parent[$1] = $2; comm[$1] = $3 }
            END { for (p in comm) if (comm[p] ~ /^qemu-system/) {
                      for (a = parent[p]; a > 1; a = parent[a]) if (a == root) { print p; exit } } }')
        if [ -n "$q" ] && [ "$(socket_inodes "$q" | wc -w)" -gt 0 ]; then
            echo "$q"
            return 0
        fi
        sleep 0.2
        i=$((i + 1))
    done
    return 1
}

# check_qemu NAME PID: no network listener; unix sockets in 0700 folders
check_qemu() {
    inet=$(inet_listeners "$2")
    [ -z "$inet" ]
    tap $? "$1: QEMU (pid $2) listens on no TCP/UDP socket${inet:+: $inet}"
    dirs=$(unix_listener_dirs "$2")
    bad=
    for d in $dirs; do
        [ "$(stat -c '%a %u' "$d")" = "700 $(id -u)" ] || bad="$bad $d"
    done
    [ -n "$dirs" ] && [ -z "$bad" ]
    tap $? "$1: its unix sockets are in private folders (0700, ours):${bad:-$(printf " %s" $dirs)}"
}

qemu_bin=$("$PATCHBAY_ROOT/scripts/build-qemu")/qemu-system-aarch64

# The detector itself: a QEMU told to listen on TCP (gdbstub and QMP).
"$qemu_bin" -M virt -cpu cortex-a72 -display none -monitor none -serial none \
    -S -gdb tcp:127.0.0.1:0 -qmp tcp:127.0.0.1:0,server=on,wait=off \
    > "$work/tcp-qemu.log" 2>&1 &
tcp_qemu=$!
bg_pids="$bg_pids $tcp_qemu"
# Wait for both: QEMU opens the gdbstub's socket before QMP's, and a check
# made when only the first was there failed (and, under set -e, ended the
# script without a word) on a loaded machine.
tcp_count() { inet_listeners "$tcp_qemu" | grep -c '^tcp' || true; }
i=0
while [ $i -lt 150 ] && [ "$(tcp_count)" -lt 2 ]; do
    sleep 0.2
    i=$((i + 1))
done
status=0
[ "$(tcp_count)" -ge 2 ] || status=1
tap $status "the check sees a QEMU listening on TCP (-gdb tcp:..., -qmp tcp:...)"
[ $status = 0 ] || sed 's/^/#   /' "$work/tcp-qemu.log"
kill "$tcp_qemu" 2> /dev/null || true

# watch NAME -- patchbay ARGS: start it, check its QEMU while it runs
watch() {
    name=$1; shift 2
    "$patchbay" "$@" --results "$work/$name" > "$work/$name.log" 2>&1 &
    pid=$!
    bg_pids="$bg_pids $pid"
    if q=$(qemu_of "$pid"); then
        check_qemu "$name" "$q"
    else
        tap 1 "$name: no QEMU with sockets within 30 s (log: $work/$name.log)"
    fi
    wait "$pid" || true
}

# A plain run: QMP and the control channel. harness-hang keeps its VM up
# until the silence timeout.
watch run -- run --suite harness-hang --timeout 10
# A gdb session: the gdbstub too. gdb lets the guest run to its end.
printf 'continue\n' > "$work/continue.gdb"
watch debug -- debug --batch "$work/continue.gdb" --suite ctl

echo "1..$n"
exit $failed
