# Sourced by scripts/bowtie.sh and scripts/python.sh: a venv with a pinned tool in it.

# ensure_venv VENV PYTHON TOOL VERSION PACKAGE...: unless VENV/bin/TOOL --version
# mentions VERSION, (re)creates VENV with PYTHON and installs the PACKAGEs into it.
# Progress goes to stderr (scripts/python.sh --wheel prints a path on stdout).
ensure_venv() {
    local venv=$1 python=$2 tool=$3 version=$4
    shift 4
    if "$venv/bin/$tool" --version 2>/dev/null | grep -q "$version"; then
        return
    fi
    echo "${0##*/}: installing $* with $python" >&2
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install --quiet "$@" >&2
}
