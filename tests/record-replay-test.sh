#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Record and replay (docs/record-replay.md), end to end. TAP.
#  - run --record of harness-panic (a kernel panic): the run fails as a
#    plain one does, and the folder holds a recording;
#  - replay: the same console byte for byte and the same verdict (exit 1,
#    the recorded verdict);
#  - debug --replay with tests/replay-panic.gdb: reverse-stepi from panic()
#    lands in the function that called it (sysrq_handle_crash, the trigger
#    of the harness), and a watchpoint with reverse-continue finds the last
#    writer of console_loglevel, reverse-next the line that wrote it;
#  - the comparison can fail: a recording whose console was altered by one
#    byte replays to exit 3, naming the line; one made by another QEMU is
#    refused (exit 2);
#  - a replay log past its limit (PATCHBAY_RECORD_LOG_MAX_MIB) stops the VM,
#    and the replay repeats the stop and the verdict;
#  - run --record of w1, which drives the hardware through the control
#    channel (served inside QEMU while recording), and its replay: the same
#    console and verdict;
#  - the bug of kernel-patches/0001 on its negative control: the hung task
#    recorded and replayed, and tests/replay-w1-mutex.gdb finds the
#    mutex_lock() that was never undone, under the netlink search.
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

patchbay=$PATCHBAY_ROOT/scripts/patchbay
out=${1:-$(mktemp -d)}
mkdir -p "$out"
. "$(dirname -- "$0")/tap-lib.sh"

replays() {  # replays DIR EXIT: replay DIR exits EXIT and matches its recording
    run "$2" "$1.replay.log" replay "$1" --results "$1/replay" &&
        grep -q '^patchbay: the replay matches the recording' "$1.replay.log"
}
debug_replay() {  # debug_replay DIR FILE.gdb: debug --replay DIR --batch tests/FILE.gdb
    PATCHBAY_DEBUG_TIMEOUT=300 run 1 "$1.debug.log" debug --replay "$1" \
        --batch "$PATCHBAY_ROOT/tests/$2" --results "$1/debug"
}

panic=$out/panic
rm -rf "$panic"
status=0
run 1 "$panic.log" run --record --suite harness-panic --results "$panic" &&
    jq -e '.verdict == "fail" and (.crashes | map(select(.test | startswith("harness-panic/panic"))) | length) >= 1' \
        "$panic/summary.json" > /dev/null &&
    jq -e '.vms | length == 1 and .[0].verdict == "fail" and .[0].cpus == 1' \
        "$panic/recording/recording.json" > /dev/null &&
    [ -s "$panic/recording/harness-panic.replay.bin" ] &&
    [ -s "$panic/recording/harness-panic.snapshot.qcow2" ] || status=1
tap $status "run --record harness-panic: the panic fails the run; a recording with its log and snapshot"

status=0
replays "$panic" 1 &&
    grep -q '^patchbay: replay of harness-panic: console identical ([0-9]* bytes' "$panic.replay.log" &&
    cmp -s "$panic/recording/harness-panic.console" "$panic/replay/harness-panic.console" &&
    [ "$(jq -c '[.verdict, [.crashes[] | [.kind, .test]]]' "$panic/summary.json")" = \
      "$(jq -c '[.verdict, [.crashes[] | [.kind, .test]]]' "$panic/replay/summary.json")" ] ||
    status=1
tap $status "replay: the same console byte for byte, the same verdict and crash (exit 1)"

status=0
debug_replay "$panic" replay-panic.gdb || status=1
gdb_log=$panic/debug/gdb.log
[ $status = 0 ] && grep -q '^sysrq_handle_crash + [0-9]* in section \.text' "$gdb_log" || {
    status=1; show "$gdb_log"; }
tap $status "debug --replay: reverse-stepi from panic() lands in sysrq_handle_crash, the trigger"
status=0
[ "$(grep -c '^#0  __handle_sysrq (key=99 .*sysrq\.c:[0-9]*$' "$gdb_log")" = 2 ] &&
    grep -q '^[0-9]*	*console_loglevel = orig_log_level;' "$gdb_log" || {
    status=1; show "$gdb_log"; }
tap $status "debug --replay: watch + reverse-continue stops in __handle_sysrq, reverse-next on the line that wrote console_loglevel"

altered=$out/altered
rm -rf "$altered"
cp -a "$panic" "$altered"
# one byte of the console's last line, as if the replay had printed it
printf 'X' | dd of="$altered/recording/harness-panic.console" bs=1 conv=notrunc \
    seek=$(($(stat -c %s "$altered/recording/harness-panic.console") - 3)) 2> /dev/null
status=0
run 3 "$altered.replay.log" replay "$altered" --results "$altered/replay" &&
    grep -q '^patchbay: replay of harness-panic: console differs from byte [0-9]* (line [0-9]*)' "$altered.replay.log" &&
    grep -q 'DIVERGED' "$altered.replay.log" || status=1
tap $status "an altered recording: the replay differs (exit 3), at the line named"

jq '.qemu_sha256 = "0000"' "$altered/recording/recording.json" > "$altered/recording.json.new"
mv "$altered/recording.json.new" "$altered/recording/recording.json"
status=0
run 2 "$altered.qemu.log" replay "$altered" --results "$altered/replay-qemu" &&
    grep -q 'recorded with another QEMU' "$altered.qemu.log" || status=1
tap $status "a recording made by another QEMU: refused (exit 2)"

w1=$out/w1
rm -rf "$w1"
status=0
run 0 "$w1.log" run --record --suite w1 --results "$w1" &&
    grep -q -- '-chardev patchbay-ctl,id=pbctl' "$w1/qemu-cmdline" &&
    replays "$w1" 0 &&
    grep -q '^patchbay: replay of w1: console identical' "$w1.replay.log" &&
    [ "$(jq -c '.suites.w1 | [.passed, .failed, .skipped]' "$w1/summary.json")" = \
      "$(jq -c '.suites.w1 | [.passed, .failed, .skipped]' "$w1/replay/summary.json")" ] ||
    status=1
tap $status "w1 (the DS2490 on xHCI, the control channel): recorded, replayed with the same console and results"

# The replay log is bounded: past the limit the runner stops the VM (a
# SIGTERM, which the log keeps), and the replay repeats that stop.
capped=$out/capped
rm -rf "$capped"
status=0
PATCHBAY_RECORD_LOG_MAX_MIB=0 run 1 "$capped.log" run --record --suite w1 \
        --results "$capped" &&
    jq -e '.crashes | map(select(.kind == "hang" and (.excerpt | startswith("its replay log passed 0 MiB")))) | length == 1' \
        "$capped/summary.json" > /dev/null &&
    replays "$capped" 1 ||
    status=1
tap $status "a replay log past its limit: the VM stopped and judged hung, the stop replayed"

# The bug patchbay found (kernel-patches/0001): recorded on the negative
# control that lacks the fix, replayed, and its culprit found backwards.
mutex=$out/mutex
rm -rf "$mutex"
status=0
run 1 "$mutex.log" run --record --kernel-variant w1-no-search-mutex-fix --suite w1 \
        --results "$mutex" &&
    jq -e '.crashes | map(select(.kind == "hung-task")) | length >= 1' \
        "$mutex/summary.json" > /dev/null &&
    replays "$mutex" 1 ||
    status=1
tap $status "w1-no-search-mutex-fix: the hung task recorded, replayed with the same console and verdict"
status=0
debug_replay "$mutex" replay-w1-mutex.gdb || status=1
gdb_log=$mutex/debug/gdb.log
[ $status = 0 ] &&
    grep -q '^\$1 = "w1_bus_master1"' "$gdb_log" &&
    grep -q ' mutex_lock (lock=' "$gdb_log" &&
    grep -q ' in w1_attach_slave_device (dev=.* at \.\./drivers/w1/w1\.c:[0-9]*$' "$gdb_log" &&
    grep -q ' in w1_found_send_slave (.* at \.\./drivers/w1/w1_netlink\.c:[0-9]*$' "$gdb_log" || {
    status=1; show "$gdb_log"; }
tap $status "debug --replay: watch dev->mutex's owner + reverse-continue finds the mutex_lock in w1_attach_slave_device under a netlink search (the bug of 0001)"

echo "1..$n"
exit $failed
