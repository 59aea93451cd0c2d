#!/bin/busybox sh
# shellcheck shell=dash
# PID 1 of the initramfs scripts/test-kernels.sh boots. It makes the host's
# root, shared read-only over virtiofs, the guest's root with a throw-away
# writable layer on top, and hands over to run-in-guest.sh in it. What it
# says goes to the kernel's console (ttyS0), which the host keeps as the boot
# log: until run-in-guest.sh speaks on ttyS1, the boot counts as one that died
# before the command started, and the host may boot again.
/bin/busybox --install -s /bin
export PATH=/bin

# Stops the guest: a failure here is a failed boot, never a command's result.
fail() {
  echo "initramfs: $*"
  echo o >/proc/sysrq-trigger
  sleep 60
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

# The modules this kernel needs for the root (overlay, and virtiofs where it
# is not built in), in the order modprobe gave on the host, decompressed there
# since busybox's insmod cannot read every compression Debian uses.
while read -r module; do
  insmod "/modules/$module" || fail "insmod $module failed"
done </modules/order

mount -t virtiofs -o ro hostroot /lower || fail "the host's root (virtiofs tag hostroot) did not mount"
# The writable layer is memory: whatever the command writes is gone at power off.
mount -t tmpfs -o mode=0755 writable /rw
mkdir /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot ||
  fail "the overlay on the host's root did not mount"

# The host's own /proc, /sys, /dev, /tmp and /run show through virtiofs; the
# guest's replace them, so the command sees this kernel and a clean /tmp.
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
mount --move /dev /newroot/dev
mount -t securityfs securityfs /newroot/sys/kernel/security
mount -t cgroup2 cgroup2 /newroot/sys/fs/cgroup
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts -o ptmxmode=0666,mode=0620,gid=5 devpts /newroot/dev/pts
mount -t tmpfs -o mode=1777 shm /newroot/dev/shm
mount -t tmpfs -o mode=1777 tmp /newroot/tmp
mount -t tmpfs -o mode=0755 run /newroot/run
mkdir /newroot/run/kernel-test
cp /run-in-guest.sh /settings /command /newroot/run/kernel-test/
ip link set lo up

# switch_root, not chroot: a process in a chroot cannot create user namespaces,
# which the sandbox under test does.
exec switch_root /newroot /bin/bash /run/kernel-test/run-in-guest.sh
