#!/usr/bin/env bash
# Checks every program a build installs (`cmake --install`, which is also
# what the Debian package holds) for the hardening cmake/hardening.cmake asks
# for, with readelf, and fails naming each program and what it lacks:
#   PIE           an ELF of type DYN with FLAGS_1 PIE: its code at a random place
#   BIND_NOW      every symbol bound at start (FLAGS BIND_NOW or FLAGS_1 NOW)...
#   RELRO         ...and the tables they sit in read-only after (GNU_RELRO)
#   NX stack      a GNU_STACK segment, not executable
#   canary        our own code (main, and functions of namespace bravebot)
#                 calls __stack_chk_fail: -fstack-protector-strong puts a
#                 canary in every function with an array or an address
#                 taken, which each of our programs (C++ with strings, and
#                 buffers for lines and paths) has many of. The symbol's
#                 mere presence would prove nothing: the static archives
#                 linked in (Nettle, libcap, libseccomp, built by Debian with
#                 the flag) call it too.
#   fortify       where our own code calls one of the C library's fortifiable
#                 functions (memcpy, read, snprintf...), it calls a __*_chk
#                 one at least once: those whose buffer's size the compiler
#                 knows, which _FORTIFY_SOURCE checks. Not asked of
#                 bravebot-mcp-probe: its two copies are bounded by the
#                 buffer's size, which GCC proves, and a call proven safe is
#                 left plain, so fortified or not it calls no __*_chk (it is
#                 built with the same flags as the programs checked).
#   CET           x86 only: IBT and SHSTK in the program's .note.gnu.property
#                 (readelf -n) where the toolchain can mark a program at all;
#                 Debian 12's C library start files (Scrt1.o, crti.o) carry no
#                 such property and the linker keeps only what every input
#                 has, so there a program's main must start with endbr64
#                 instead: proof that our own code was built for it.
# bravebot-mcp-init is static and has no C library (launcher/CMakeLists.txt):
# nothing loads or relocates it, and it sets up no thread-local storage for a
# canary, so it is held to the NX stack and CET alone. Any other static
# program fails. The programs are read with their symbols, which
# `cmake --install` and the package keep.
#   scripts/check-hardening.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: scripts/check-hardening.sh BUILD_DIR}
freestanding=(bravebot-mcp-init)
proven_safe=(bravebot-mcp-probe)
# The C library's calls that _FORTIFY_SOURCE replaces with a checked
# __*_chk where the compiler knows the buffer's size.
fortifiable='memcpy|memmove|mempcpy|memset|stpcpy|stpncpy|strcpy|strncpy|strcat|strncat|sprintf|snprintf|vsprintf|vsnprintf|fprintf|printf|vfprintf|read|pread|pread64|readlink|readlinkat|getcwd|realpath|fgets|fread|recv|recvfrom|poll|ppoll|wcscpy|confstr|getgroups|ttyname_r|gethostname|getdomainname|explicit_bzero'

if ! command -v readelf >/dev/null || ! command -v objdump >/dev/null; then
  echo "check-hardening: readelf and objdump are needed (Debian package binutils)" >&2
  exit 1
fi
installed=$(mktemp -d)
trap 'rm -rf "$installed"' EXIT
cmake --install "$build" --prefix "$installed" >/dev/null

# Whether a program linked with the C library's start files can be marked
# for CET here: only where those files are marked themselves.
start_files=$(${CXX:-c++} -print-file-name=Scrt1.o)
can_mark_cet=false
if readelf -n "$start_files" 2>/dev/null | grep -q 'x86 feature:.*IBT.*SHSTK'; then
  can_mark_cet=true
fi

failures=()
lacks() { failures+=("$1: $2"); }

check_cet() {
  local program=$1 name=$2 marked_required=$3
  readelf -hW "$program" | grep -q 'Machine:.*X86-64' || return 0
  if readelf -nW "$program" | grep -q 'x86 feature:.*IBT.*SHSTK'; then
    return 0
  fi
  if $marked_required; then
    lacks "$name" "CET: no IBT and SHSTK in .note.gnu.property (-fcf-protection)"
  elif ! objdump -d --disassemble=main "$program" | grep -A1 '<main>:' | grep -q endbr64; then
    lacks "$name" "CET: main does not start with endbr64 (-fcf-protection)"
  fi
}

# How many of our own functions in `program` call (or jump to) a function
# whose name matches `callee`.
ours_calling() {
  local program=$1 callee=$2
  objdump -d --no-show-raw-insn "$program" | awk -v callee="<($callee)(@plt)?>" '
    /^[0-9a-f]+ <[^>]+>:$/ { function_name = $2; next }
    /\t(call|jmp) / && $NF ~ "^" callee "$" &&
      (function_name ~ /8bravebot/ || function_name == "<main>:") { seen[function_name] = 1 }
    END { print length(seen) }'
}

check_program() {
  local program=$1 name
  name=$(basename "$program")
  local header dynamic segments
  header=$(readelf -hW "$program")
  dynamic=$(readelf -dW "$program")
  segments=$(readelf -lW "$program")

  if ! grep -q 'GNU_STACK' <<<"$segments"; then
    lacks "$name" "NX stack: no GNU_STACK segment (-z noexecstack)"
  elif grep 'GNU_STACK' <<<"$segments" | grep -qE ' RWE '; then
    lacks "$name" "NX stack: the stack is executable (-z noexecstack)"
  fi

  if ! grep -q 'INTERP' <<<"$segments"; then
    if [[ " ${freestanding[*]} " == *" $name "* ]]; then
      check_cet "$program" "$name" true
    else
      lacks "$name" "PIE: a static program, and only ${freestanding[*]} may be one"
    fi
    return
  fi

  if ! grep -q 'Type:.*DYN' <<<"$header" || ! grep -qE 'FLAGS_1.*\bPIE\b' <<<"$dynamic"; then
    lacks "$name" "PIE: not a position-independent executable (-fPIE -pie)"
  fi
  if ! grep -qE '\(FLAGS\).*\bBIND_NOW\b|\(FLAGS_1\).*\bNOW\b' <<<"$dynamic"; then
    lacks "$name" "BIND_NOW: symbols bound lazily (-Wl,-z,now)"
  fi
  if ! grep -q 'GNU_RELRO' <<<"$segments"; then
    lacks "$name" "RELRO: no GNU_RELRO segment (-Wl,-z,relro)"
  fi
  if ! readelf -SW "$program" | grep -q ' .symtab '; then
    lacks "$name" "symbols: stripped, so its own code's canaries and checked calls cannot be told"
  else
    if [ "$(ours_calling "$program" __stack_chk_fail)" -eq 0 ]; then
      lacks "$name" "canary: none of its own functions has one (-fstack-protector-strong)"
    fi
    if [[ " ${proven_safe[*]} " != *" $name "* ]] &&
      [ "$(ours_calling "$program" "$fortifiable")" -gt 0 ] &&
      [ "$(ours_calling "$program" '__[a-z0-9_]+_chk')" -eq 0 ]; then
      lacks "$name" "fortify: its own calls of the C library are never checked (-D_FORTIFY_SOURCE=3, and -O1 or more)"
    fi
  fi
  check_cet "$program" "$name" "$can_mark_cet"
}

checked=0
while IFS= read -r -d '' file; do
  if [ "$(head -c 4 "$file" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; then
    check_program "$file"
    checked=$((checked + 1))
  fi
done < <(find "$installed" -type f -print0)

if [ "$checked" -eq 0 ]; then
  echo "check-hardening: $build installs no program; build it first" >&2
  exit 1
fi
if [ ${#failures[@]} -ne 0 ]; then
  printf 'check-hardening: an installed program lacks a protection:\n' >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "check-hardening: all $checked installed programs carry every protection"
