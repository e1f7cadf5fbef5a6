#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Drives "scripts/patchbay shell" through tmux the way a user would: wait for
# the prompt, run commands that need the emulated hardware, read their output,
# quit with poweroff, and check that no QEMU process is left behind.
# TAP output; "# time to prompt: S s" is wall time from the command to the
# prompt, cache checks included. Extra arguments go to "patchbay shell",
# which also gets Debian's usbutils (--guest-packages): its lsusb must list
# the emulated DS2490.
set -u
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
session=patchbay-shell-test-$$
log=${PATCHBAY_SHELL_LOG:-/tmp/$session.log}
. "$root/tests/tmux-lib.sh"
now() { date +%s.%N; }

# The shell sits in tmux; the pane reports the exit code when patchbay ends.
start=$(now)
tmux new-session -d -s "$session" -x 160 -y 50 \
    "$root/scripts/patchbay shell --guest-packages usbutils $*; echo patchbay-shell-exited=\$?; sleep 600"
sid=$(tmux display-message -p -t "$session" '#{pane_pid}')

# Up to 5 minutes: the usbutils layer may still have to be downloaded and
# the machine may be busy. A shell that ends early ends the wait.
wait_for -F 'patchbay:/root# ' 300 'patchbay-shell-exited='
s=$?
tap $s "a prompt appears"
[ $s = 0 ] || { screen > "$log"; screen | sed "/^ *$/d" | tail -n 15 | sed 's/^/#   /'; }
echo "# time to prompt: $(echo "$(now) - $start" | bc) s"
! screen | grep -qE 'CRITICAL|WARNING \*\*'
tap $? "no GLib CRITICAL or WARNING on the way to the prompt"
screen | grep -q 'suite w1params left out: it runs in a VM of its own'
tap $? "w1params left out of the shell's VM, and said so (alone=true: its kernel arguments would change the w1 bus)"
qemu_pids=$(pgrep -s "$sid" qemu-system)
[ -n "$qemu_pids" ]
tap $? "QEMU runs in the shell's session (pid $qemu_pids)"

# The emulated GPU is probed and a suite binary is on the initramfs; the
# 1-Wire slaves show up after the first bus search (wire.timeout=1). The
# marker is computed so that the typed command line does not match it.
tmux send-keys -t "$session" \
    'ls /dev/dri; sleep 3; ls /sys/bus/w1/devices; ls /suites/msm; echo end-$((6 * 7))' Enter
wait_for -F 'end-42' 30
tap $? "commands run and print their output"
screen | grep -q 'renderD128'
tap $? "the emulated GPU is there (/dev/dri/renderD128)"
screen | grep -q '28-00000a1b2c3d'
tap $? "the emulated DS18B20 is on the 1-Wire bus"

# A Debian arm64 program in the guest, with the libraries it needs.
tmux send-keys -t "$session" 'lsusb; echo end-$((6 * 8))' Enter
wait_for -F 'end-48' 30
screen | grep -q 'Bus 00[0-9] Device 00[0-9]: ID 04fa:2490'
tap $? "Debian's lsusb lists the emulated DS2490 (04fa:2490) (--guest-packages usbutils)"

tmux send-keys -t "$session" 'poweroff' Enter
wait_for -F 'patchbay-shell-exited=0' 30
tap $? "poweroff ends patchbay shell with exit code 0"
sleep 0.2
leftover=$(pgrep -s "$sid" qemu-system)
[ -z "$leftover" ]
tap $? "no QEMU process is left behind"

screen > "$log"
tmux kill-session -t "$session" 2>/dev/null
[ -z "$leftover" ] || kill $leftover 2>/dev/null
echo "1..$n"
echo "# screen: $log"
exit $failed
