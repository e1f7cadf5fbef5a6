# SPDX-License-Identifier: GPL-2.0-or-later
# Shared shell helpers for patchbay's scripts (sourced, not executed).
# shellcheck shell=sh

PATCHBAY_ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
CACHE=${PATCHBAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/patchbay}
JOBS=${PATCHBAY_JOBS:-$(nproc)}
CROSS=aarch64-linux-gnu-

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'patchbay: error: %s\n' "$*" >&2; exit "${PATCHBAY_DIE_CODE:-2}"; }

# hash_inputs FILE... : one sha256 over the names and contents of the inputs
hash_inputs() {
    for f in "$@"; do
        printf '%s\n' "${f#"$PATCHBAY_ROOT"/}"
        if [ -f "$f" ]; then sha256sum < "$f"; else echo missing; fi
    done | sha256sum | cut -c1-16
}

# publish TMPDIR DEST : make a finished cache entry visible in one rename,
# so that an interrupted build never leaves a half entry behind. An entry
# is named by the hash of its inputs and never replaced: when two runs
# build it at once, the second rename finds the first one's entry (rename(2)
# does not replace a folder that is not empty), which is as good as its own
# and may be in use already, and drops its own.
publish() {
    mv -T "$1" "$2" 2>/dev/null && return 0
    [ -e "$2" ] || die "cannot move $1 to $2"
    rm -rf "$1"
}

# run_logged LOG CMD... : run a long command, keep its output in LOG and show
# progress (ninja/make style "[n/N]" lines, or one dot per 200 lines).
run_logged() {
    log=$1; shift
    if "$@" > "$log" 2>&1; then
        return 0
    fi
    printf '%s\n' "---- last lines of $log ----" >&2
    tail -n 40 "$log" >&2
    return 1
}

# source_version NAME SUITE : the version apt would fetch (no download)
source_version() {
    apt-get source --print-uris -q "$1/$2" 2>/dev/null |
        sed -n "s/^'[^']*' $1_\\(.*\\)\\.dsc .*/\\1/p"
}

# source_package NAME SUITE DEST : download a Debian source package with
# apt-get source and extract it with dpkg-source -x (applies Debian's patches).
source_package() {
    name=$1 suite=$2 dest=$3
    dl=$CACHE/downloads/$name
    mkdir -p "$dl"
    # One fetch at a time (apt writes straight to the final names); the
    # subshell's lock ends with it. Another run may have finished it meanwhile.
    if ! (flock 9 && { [ -d "$dest" ] || {
            say "fetching the $name source package from $suite"
            cd "$dl" && apt-get source --download-only -q "$name/$suite" \
                > "$dl/apt.log" 2>&1; }; }) 9> "$dl/.lock"; then
        grep '^E:' "$dl/apt.log" >&2
        say "apt-get source $name/$suite failed"
        return 1
    fi
    [ ! -d "$dest" ] || return 0
    dsc=$(ls -t "$dl"/"${name}"_*.dsc | head -n 1)
    tmp=$dest.tmp.$$
    rm -rf "$tmp"
    say "extracting $(basename "$dsc") with dpkg-source -x"
    mkdir -p "$(dirname "$dest")"
    dpkg-source -q --no-copy -x "$dsc" "$tmp" >&2 || die "dpkg-source -x $dsc failed"
    publish "$tmp" "$dest"
}

# ---- kernel patch queue (build-kernel, patches-check) ----

# series_files SERIESFILE : the patch files it lists, in order
series_files() {
    [ -f "$1" ] || return 0
    d=$(dirname "$1")
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$1" | while read -r p; do
        [ -n "$p" ] || continue
        [ -f "$d/$p" ] || die "$1 lists $p, which does not exist"
        echo "$d/$p"
    done
}

# patch_targets PATCH... : the files the patches touch, sorted
patch_targets() {
    for p in "$@"; do
        sed -n -e 's|^--- a/\([^	]*\).*|\1|p' -e 's|^+++ b/\([^	]*\).*|\1|p' "$p"
    done | sort -u
}

# linux_source_version SERIES : the installed linux-source-SERIES version
linux_source_version() {
    dpkg-query -W -f '${Version}' "linux-source-$1" 2>/dev/null ||
        die "linux-source-$1 is not installed (run scripts/deps)"
}

# linux_pristine PKG VERSION : extract Debian's PKG (linux-source-6.12,
# linux-source-6.1) once, read-only, and print its folder; shared by hard
# links (our queue's work trees) or used as a --kernel-tree
linux_pristine() {
    pristine=$CACHE/src/$1-$2
    if [ ! -f "$pristine/Makefile" ]; then
        say "extracting $1 $2 (about a minute)"
        tmp=$pristine.tmp.$$
        rm -rf "$tmp"
        mkdir -p "$tmp"
        tar -xf "/usr/src/$1.tar.xz" -C "$tmp" ||
            die "cannot extract /usr/src/$1.tar.xz"
        mv "$tmp/$1"/* "$tmp/$1"/.[!.]* "$tmp"/ 2>/dev/null || true
        rmdir "$tmp/$1"
        chmod -R a-w "$tmp"   # shared by hard links: must never be written in place
        publish "$tmp" "$pristine"
    fi
    echo "$pristine"
}

# ---- a user's kernel tree (build-kernel --tree) ----

# check_kernel_tree DIR : exit 2 with one line unless DIR is a Linux source
# tree of 6.1 or later, with no in-tree build (kbuild builds out of tree
# only from a clean source folder)
check_kernel_tree() {
    [ -d "$1" ] || die "--kernel-tree $1: no such folder"
    [ -f "$1/Makefile" ] && [ -f "$1/Kconfig" ] && [ -d "$1/arch/arm64" ] ||
        die "--kernel-tree $1: not a Linux source tree (no Makefile, Kconfig or arch/arm64)"
    if [ -e "$1/.config" ] || [ -d "$1/include/config" ]; then
        die "--kernel-tree $1 holds an in-tree build ($1/.config); patchbay builds out of tree and never writes into it: run 'make mrproper' there or use a clean tree"
    fi
    v=$(sed -n 's/^VERSION = //p' "$1/Makefile" | head -n 1)
    p=$(sed -n 's/^PATCHLEVEL = //p' "$1/Makefile" | head -n 1)
    [ -n "$v" ] && [ -n "$p" ] ||
        die "--kernel-tree $1: no VERSION/PATCHLEVEL in its Makefile"
    [ "$v" -gt 6 ] || { [ "$v" = 6 ] && [ "$p" -ge 1 ]; } ||
        die "--kernel-tree $1 is Linux $v.$p; patchbay supports 6.1 and later"
}

# tree_fingerprint DIR : what make would see of DIR (every file's path, size
# and mtime; .git left out), as one line; about a second for a kernel tree
tree_fingerprint() {
    (cd "$1" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' |
        LC_ALL=C sort | sha256sum | cut -c1-16)
}

# patch_commit PATCH : " (commit SHA12 \"SUBJECT\")" for a git format-patch
# file of a commit, nothing for any other patch
patch_commit() {
    sha=$(sed -n '1s/^From \([0-9a-f]\{40\}\) .*/\1/p' "$1")
    # none, or the zero id of a patch not made from a commit (ours)
    case $sha in ''|0000000000000000000000000000000000000000) return 0 ;; esac
    subj=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$1" | head -n 1)
    printf ' (commit %.12s "%s")' "$sha" "$subj"
}

# apply_patches STAGE SRCVER PATCH... : apply in order with no fuzz to STAGE
# (which holds copies of the files they touch); on a failure show the
# rejected hunks and name the patch and the source version, then exit 2
apply_patches() {
    stage=$1 srcver=$2; shift 2
    for p in "$@"; do
        name=${p#"$PATCHBAY_ROOT"/}
        if ! patch_log=$(patch -p1 -F0 -N --no-backup-if-mismatch -d "$stage" -i "$p" 2>&1); then
            printf '%s\n' "$patch_log" >&2
            for rej in $(find "$stage" -name '*.rej'); do
                printf -- '--- rejected hunk(s) in %s:\n' "${rej#"$stage"/}" >&2
                cat "$rej" >&2
            done
            die "kernel patch $name$(patch_commit "$p") does not apply to linux-source-6.12 $srcver"
        fi
        case $patch_log in *fuzz*|*offset*) say "$name: $patch_log" ;; esac
    done
}
