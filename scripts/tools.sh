#!/usr/bin/env bash
# The programs hexlens's tests, benchmarks and fuzz runs need, as listed in
# scripts/tools.tsv: checks them and installs the Debian ones.
#
#   scripts/tools.sh check STAGE...     names every missing program of these
#                                       stages with its package; exit 1 if any
#   scripts/tools.sh install STAGE...   apt-get installs the packages of the
#                                       missing apt programs of these stages
#   scripts/tools.sh package PROGRAM    the package column of PROGRAM (for a
#                                       cargo row: NAME@VERSION)
#   scripts/tools.sh list [STAGE...]    the programs (of these stages)
#
# Stages: base native web browser npm bench fuzz (see scripts/tools.tsv).
# Programs are looked for on PATH, in ~/.cargo/bin, in the npm tools' folders
# (tests/browser and tests/npm node_modules/.bin) and, for an LLVM tool NAME-19,
# in /usr/lib/llvm-19/bin as the tests do.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LIST="$ROOT/scripts/tools.tsv"
export PATH="$ROOT/tests/browser/node_modules/.bin:$ROOT/tests/npm/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# Rows of the list: program, stage, source, package (tab-separated), for the
# stages given (every stage when none is).
rows() {
    awk -F '\t' -v want=" $* " '
        /^#/ || NF < 4 { next }
        want == "  " || index(want, " " $2 " ") { print $1 "\t" $2 "\t" $3 "\t" $4 }
    ' "$LIST"
}

found() {
    local p=$1
    type -P "$p" >/dev/null && return 0
    [ -x "/usr/bin/$p" ] && return 0
    case "$p" in
        *-[0-9][0-9]) [ -x "/usr/lib/llvm-${p##*-}/bin/${p%-*}" ] && return 0 ;;
    esac
    return 1
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "tools: need root to run: $*" >&2; return 1; fi
}

cmd=${1:-}
shift || true
case "$cmd" in
    check)
        missing=0
        while IFS=$'\t' read -r prog stage source pkg; do
            if ! found "$prog"; then
                echo "missing: $prog (stage $stage; $source package $pkg)" >&2
                missing=1
            fi
        done < <(rows "$@")
        exit "$missing"
        ;;
    install)
        pkgs=()
        while IFS=$'\t' read -r prog _stage source pkg; do
            if [ "$source" = apt ] && ! found "$prog"; then pkgs+=("$pkg"); fi
        done < <(rows "$@")
        if [ "${#pkgs[@]}" -gt 0 ]; then
            mapfile -t pkgs < <(printf '%s\n' "${pkgs[@]}" | sort -u)
            echo "tools: installing Debian packages: ${pkgs[*]}"
            as_root apt-get update -qq
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
        fi
        ;;
    package)
        p=$(awk -F '\t' -v p="${1:?program}" '!/^#/ && $1 == p { print $4; exit }' "$LIST")
        [ -n "$p" ] || { echo "tools: $1 is not in scripts/tools.tsv" >&2; exit 1; }
        echo "$p"
        ;;
    list)
        rows "$@" | cut -f1
        ;;
    *)
        echo "usage: scripts/tools.sh check|install|list STAGE... | package PROGRAM" >&2
        exit 2
        ;;
esac
