#!/bin/bash
# PID 1 of the guest once it stands on the host's root (initramfs-init.sh).
# Runs the command once as root and, when asked, once as an unprivileged user,
# then powers off. Everything it says goes to the second serial port (ttyS1),
# which the host prints: the command's output, and lines starting with
# "test-kernels:" that the host reads (the first says the command starts, so a
# boot is never retried after it; the others give each exit status).
# shellcheck source=/dev/null
source /run/kernel-test/settings # row, cwd, as_user
: "${row:?}" "${cwd:?}" "${as_user:?}"

exec </dev/null >/dev/ttyS1 2>&1
# Raw, so that the host reads the command's lines as written, without \r.
stty -F /dev/ttyS1 raw -echo 2>/dev/null || true
hostname "kernel-$row"

readonly path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export PATH=$path # the initramfs's was busybox's alone
readonly user=kernel-test

power_off() {
  sync
  echo o >/proc/sysrq-trigger
  sleep 60
}
trap power_off EXIT

read -r uptime _ </proc/uptime
echo "test-kernels: guest up in ${uptime} s under $(uname -r); the command starts as root"
(cd "$cwd" && exec env -i PATH="$path" HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM=dumb \
  bash /run/kernel-test/command)
echo "test-kernels: exit status $? as root"

if [ "$as_user" = yes ]; then
  # The guest's /etc is the host's under a throw-away layer, so the user is
  # made here and gone after, whatever the host has.
  id -u "$user" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$user"
  home=$(getent passwd "$user" | cut -d: -f6)
  echo "test-kernels: the command starts as $user"
  # shellcheck disable=SC2016 # expanded by the user's shell
  runuser -u "$user" -- env -i PATH="$path" HOME="$home" USER="$user" LOGNAME="$user" LANG=C.UTF-8 \
    TERM=dumb bash -c 'cd "$1" 2>/dev/null || { echo "test-kernels: $USER cannot enter $1; runs in $HOME"; cd; }
      exec bash /run/kernel-test/command' _ "$cwd"
  echo "test-kernels: exit status $? as $user"
fi
echo "test-kernels: finished"
