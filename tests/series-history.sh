#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel git history for the series and bisect checks, made from the
# sources on this machine (there is no Linux git history here):
#
#   tests/series-history.sh BASE OUT [N]
#
# BASE is scripts/kernel-git base (linux-source-6.12 tagged "pristine", our
# queue on it tagged "queue"). OUT becomes a bare repository sharing BASE's
# objects, with N (default 24) commits on top of "queue":
#   - harmless ones: a comment in a drivers/w1 or drm/msm source file, or a
#     sentence in Documentation/w1, each its own commit;
#   - at N*2/3 (tag "culprit") one that brings back the bug of
#     kernel-patches/0003: the negative control w1-list-masters-uninit as
#     an innocent-looking commit; w1/w1_netlink/N1 catches it;
#   - at N/2 (tag "unbuildable") one that does not compile, and right after
#     it the commit that fixes it, so that the middle of the range, where a
#     bisection looks first, does not build.
# Tags: good (= queue), culprit, unbuildable, and bad (the last commit);
# and a branch w1-ten: ten commits on good, each a comment in a drivers/w1
# source file; and a branch long: 64 commits on good with the same story
# (long-culprit, long-unbuildable, long-bad).
# The commits are made with plumbing on an index of their own (no work
# tree), with fixed names and dates: the same BASE gives the same ids.
#
#   tests/series-history.sh --cached
#
# prints $CACHE/check/history, the one that check and scripts/bench use,
# made first on scripts/kernel-git base, and again in place when this
# script or the base changes: one folder whatever its content, since the
# persistent build is keyed by the folder and stays warm across a change.
set -eu
if [ "${1:-}" = --cached ]; then
    . "$(dirname -- "$0")/../scripts/lib.sh"
    series_base=$("$PATCHBAY_ROOT/scripts/kernel-git" base)
    hist=$CACHE/check/history
    key=$( { echo "$series_base"; sha256sum < "$0"; } | sha256sum | cut -c1-16)
    mkdir -p "$CACHE/check"
    exec 9> "$CACHE/check/.history.lock"
    flock 9
    if [ "$(cat "$hist.key" 2> /dev/null)" != "$key" ]; then
        rm -f "$hist.key"
        sh "$0" "$series_base" "$hist" > "$hist.ids"
        echo "$key" > "$hist.key"
    fi
    echo "$hist"
    exit 0
fi
base=${1:?usage: series-history.sh BASE OUT [N]} out=${2:?usage: series-history.sh BASE OUT [N]}
n=${3:-24}

rm -rf "$out"
git -c safe.directory='*' clone -q --bare --shared "$base" "$out"
g() { git -c safe.directory='*' --git-dir="$out" "$@"; }
export GIT_INDEX_FILE="$out/patchbay-index"
g read-tree queue
g tag good queue
head=$(g rev-parse queue)
step=0

# commit SUBJECT BODY: the index as a commit on head
commit() {
    step=$((step + 1))
    when="$((1764000000 + step * 60)) +0000"
    head=$(printf '%s\n\n%s\n\nSigned-off-by: Patch Bay <check@patchbay.invalid>\n' "$1" "$2" |
        GIT_AUTHOR_NAME='Patch Bay' GIT_AUTHOR_EMAIL=check@patchbay.invalid \
        GIT_AUTHOR_DATE=$when GIT_COMMITTER_NAME='Patch Bay' \
        GIT_COMMITTER_EMAIL=check@patchbay.invalid GIT_COMMITTER_DATE=$when \
        g commit-tree "$(g write-tree)" -p "$head" -F -)
}

# put PATH: stdin becomes PATH's content in the index
put() {
    blob=$(g hash-object -w --stdin)
    g update-index --cacheinfo "100644,$blob,$1"
}

files="drivers/w1/w1.c drivers/w1/w1_io.c drivers/w1/w1_int.c
drivers/w1/w1_netlink.c drivers/w1/masters/ds2490.c drivers/w1/slaves/w1_therm.c
Documentation/w1/w1-generic.rst drivers/gpu/drm/msm/msm_gem.c
drivers/gpu/drm/msm/msm_drv.c drivers/gpu/drm/msm/adreno/a2xx_gpu.c
Documentation/w1/w1-netlink.rst drivers/gpu/drm/msm/msm_gem_submit.c"
nfiles=$(echo $files | wc -w)
# line N PREFIX: N commits on head, the culprit and the unbuildable one
# tagged PREFIXculprit and PREFIXunbuildable, the last PREFIXbad
line() {
culprit_at=$(($1 * 2 / 3))
unbuildable_at=$(($1 / 2))
i=1
while [ "$i" -le "$1" ]; do
    if [ "$i" = "$culprit_at" ]; then
        # kernel-patches/variants/w1-list-masters-uninit, told as a cleanup
        g show "$head:drivers/w1/w1_netlink.c" |
            sed 's/cn = kzalloc(PAGE_SIZE, GFP_KERNEL);/cn = kmalloc(PAGE_SIZE, GFP_KERNEL);/' |
            put drivers/w1/w1_netlink.c
        commit "w1: netlink: allocate the LIST_MASTERS reply with kmalloc()" \
"w1_process_command_root() fills in the reply as it walks the masters,
so the zeroing of kzalloc() is not needed."
        g tag "${2}culprit" "$head"
    elif [ "$i" = "$unbuildable_at" ]; then
        # a call of a function that does not exist: implicit declaration,
        # an error in kernels since 5.18
        g show "$head:drivers/w1/w1_io.c" |
            sed '0,/w1_pre_write(dev);/s//w1_prewrite(dev);/' |
            put drivers/w1/w1_io.c
        commit "w1: io: shorten the pre-write helper's name" "Call it w1_prewrite(), as the comments do."
        g tag "${2}unbuildable" "$head"
        i=$((i + 1))
        g show "$head:drivers/w1/w1_io.c" |
            sed '0,/w1_prewrite(dev);/s//w1_pre_write(dev);/' |
            put drivers/w1/w1_io.c
        commit "w1: io: call w1_pre_write() by its name again" "Fixes the build after the rename."
    else
        f=$(echo $files | tr ' ' '\n' | sed -n "$(( (i - 1) % nfiles + 1 ))p")
        case $f in
        *.rst)
            { g show "$head:$f"; printf '\nThis page was reviewed for the patchbay history, step %s.\n' "$i"; } | put "$f"
            commit "Documentation: w1: note review step $i of $(basename "$f")" \
                "A sentence at the end of the page; no change to the code." ;;
        *)
            { g show "$head:$f"; printf '\n/* Reviewed for the patchbay history, step %s. */\n' "$i"; } | put "$f"
            commit "$(case $f in drivers/w1/*) echo w1 ;; *) echo drm/msm ;; esac): note review step $i in $(basename "$f")" \
                "A comment at the end of the file; no change to the code." ;;
        esac
    fi
    i=$((i + 1))
done
g tag "${2}bad" "$head"
}

line "$n" ""
g update-ref refs/heads/main "$head"

# Branch w1-ten: ten harmless commits on good, each a comment in one
# drivers/w1 source file (scripts/bench: a 10-patch series, a mailbox).
head=$(g rev-parse good)
g read-tree good
for i in 1 2 3 4 5 6 7 8 9 10; do
    f=$(echo drivers/w1/w1.c drivers/w1/w1_io.c drivers/w1/w1_int.c drivers/w1/w1_netlink.c \
        drivers/w1/masters/ds2490.c | tr ' ' '\n' | sed -n "$(( (i - 1) % 5 + 1 ))p")
    { g show "$head:$f"; printf '\n/* Reviewed for the w1 series, patch %s. */\n' "$i"; } | put "$f"
    commit "w1: note review $i of 10 in $(basename "$f")" "A comment at the end of the file; no change to the code."
done
g update-ref refs/heads/w1-ten "$head"

# Branch long: the same story over 64 commits on good (scripts/bench's
# bisection), tagged long-culprit, long-unbuildable, long-bad.
head=$(g rev-parse good)
g read-tree good
line 64 long-
g update-ref refs/heads/long "$head"
rm -f "$GIT_INDEX_FILE"
# the ids the checks name
for t in good unbuildable culprit bad; do
    printf '%s %s\n' "$t" "$(g rev-parse "$t")"
done
