# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the shell tests (sourced): TAP results, and patchbay run with
# its exit code checked. The caller sets $patchbay for run; $failed is 1
# once a case has failed.
n=0 failed=0

tap() {  # tap STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}

show() {  # show FILE: its end, when a case failed
    tail -n 15 "$1" | sed 's/^/    | /'
}

run() {  # run WANT_EXIT LOG ARGS...: patchbay ARGS, its exit code checked
    want=$1 log=$2; shift 2
    got=0
    "$patchbay" "$@" > "$log" 2>&1 || got=$?
    [ "$got" = "$want" ] || {
        echo "    patchbay $*: exit $got, expected $want"
        show "$log"
        return 1
    }
}
