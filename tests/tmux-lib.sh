# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests that drive patchbay through tmux (sourced): TAP
# results (tap-lib.sh) and polling the pane. The caller sets $root and
# $session.
. "$root/tests/tap-lib.sh"

screen() { tmux capture-pane -p -J -S -2000 -t "$session" 2>/dev/null; }

# wait_for GREP_OPTION TEXT SECONDS [GIVE_UP_TEXT]: poll the pane until grep
# finds TEXT (-F: anywhere in a line; -x: a whole line); fail at once when
# the pane shows GIVE_UP_TEXT (say, the program under test has ended)
wait_for() {
    end=$(($(date +%s) + $3))
    while [ "$(date +%s)" -le "$end" ]; do
        screen | grep -q "$1" -- "$2" && return 0
        [ -z "${4:-}" ] || ! screen | grep -qF -- "$4" || return 1
        sleep 0.05
    done
    return 1
}
