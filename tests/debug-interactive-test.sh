#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Drives an interactive "scripts/patchbay debug --suite msm" through tmux the
# way a user would: break in msm_ioctl_gem_new, print an argument, run an
# lx-* command, ^C to stop the running guest, quit (gdb detaches), and the
# suite still passes. Then a second session is abandoned at the (gdb)
# prompt by closing its terminal: no runner or QEMU may stay behind. Last,
# debug --shell must clean up its socket folder.
# TAP output.
set -u
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
session=patchbay-debug-test-$$
results=${TMPDIR:-/tmp}/$session
. "$root/tests/tmux-lib.sh"
wait_line() { wait_for -x "$1" "$2"; }

# gdb COMMAND: type it, then wait for gdb to have run it (an echo marker,
# because typeahead during a slow command is not reliable)
marker=0
gdb() {
    marker=$((marker + 1))
    tmux send-keys -t "$session" "$1" Enter "echo MARK$marker\\n" Enter
    wait_line "MARK$marker" 60
}
start() {  # start RESULTS_DIR
    tmux new-session -d -s "$session" -x 200 -y 50 \
        "$root/scripts/patchbay debug --suite msm --results $1; echo patchbay-exited=\$?; sleep 60"
    wait_line '(gdb) ' 120 || screen | grep -q '^(gdb) '
}

start "$results/a"
tap $? "gdb starts, attached to the halted guest"
gdb 'set pagination off'
gdb 'break msm_ioctl_gem_new'
gdb 'continue'
screen | grep -q 'hit Breakpoint 1, msm_ioctl_gem_new (dev=0x'
tap $? "the breakpoint in msm_ioctl_gem_new hits"
gdb 'print ((struct drm_msm_gem_new *)data)->size'
screen | grep -q '^\$1 = [0-9]'
tap $? "gdb prints the ioctl's argument"
gdb 'lx-ps'
screen | grep -q ' msm_ioctl$'
tap $? "lx-ps (the kernel's gdb scripts) lists the suite's process"
gdb 'delete 1'
# ^C as soon as gdb has resumed the guest (its second "Continuing."): the
# rest of the msm suite takes about a second on the virtual clock, so a
# fixed "sleep 1" sometimes came after the guest had finished.
tmux send-keys -t "$session" 'continue' Enter
end=$(($(date +%s) + 30))
while [ "$(screen | grep -c '^Continuing\.')" -lt 2 ] && [ "$(date +%s)" -le "$end" ]; do
    sleep 0.05
done
tmux send-keys -t "$session" C-c
gdb 'info registers pc'
screen | grep -q 'received signal SIGINT'
tap $? "^C in gdb stops the running guest"
tmux send-keys -t "$session" 'quit' Enter
sleep 0.5
tmux send-keys -t "$session" 'y' Enter
wait_line 'patchbay-exited=0' 120
tap $? "quit detaches, the suite finishes and passes (exit 0)"
tmux kill-session -t "$session" 2>/dev/null

# Abandoned at the prompt: the terminal goes away with the guest halted.
start "$results/b"
pgrep -f -- "--results=$results/b" > /dev/null
tap $? "a second session is running"
tmux kill-session -t "$session"
sleep 3
left=$(pgrep -f -- "--results=$results/b")
[ -z "$left" ]
tap $? "closing its terminal leaves no runner or QEMU behind"
[ -z "$left" ] || kill $left


# debug --shell: the guest halted at a shell, gdbstub beside it; poweroff
# must leave no patchbay-debug.* socket folder behind in $TMPDIR.
tmpdir=$results/tmp
mkdir -p "$tmpdir"
tmux new-session -d -s "$session" -x 200 -y 50 \
    "TMPDIR=$tmpdir $root/scripts/patchbay debug --shell --suite msm; echo patchbay-exited=\$?; sleep 60"
wait_for -F 'patchbay:/root# ' 120
tap $? "debug --shell gives a prompt"
tmux send-keys -t "$session" 'poweroff' Enter
wait_for -F 'patchbay-exited=0' 30
tap $? "poweroff ends debug --shell with exit code 0"
[ -z "$(ls "$tmpdir")" ]
tap $? "debug --shell leaves no patchbay-debug.* folder behind"
tmux kill-session -t "$session" 2>/dev/null

echo "1..$n"
rm -rf "$results"
exit $failed
