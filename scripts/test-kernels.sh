#!/usr/bin/env bash
# Runs a command under another kernel than this machine's, to test the
# confinement under every Landlock ABI (issue 27; docs/kernels.md). Boots one
# row of the matrix below in QEMU with the host's root shared read-only over
# virtiofs and a throw-away writable layer in memory on top, runs the command
# there as root (and, with --user, again as an unprivileged user), prints its
# output and exits with its status.
#   scripts/test-kernels.sh [--user] ROW -- COMMAND...
#   scripts/test-kernels.sh --list
# Run as root: it installs QEMU where missing, and virtiofsd must read all of /.
# Kernels come from Debian's registry, pinned to exact versions, into
# .kernels/ (KERNELS_CACHE to put it elsewhere), without touching the
# system's apt configuration; later runs reuse them.
# KERNELS_MEMORY (MiB, default 2048), KERNELS_TIMEOUT (seconds the command
# may take, default 3600), KERNELS_CPU (QEMU's -cpu under emulation) and
# KERNELS_APPEND (more kernel options: loglevel=7 shows the whole boot in
# .kernels/last-console-ROW.log) tune the guest.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# The matrix. Versions are pinned: backports drop old releases, and a row
# must mean the same kernel from one run to the next.
declare -A row_about row_suite row_kernel row_packages row_boot_options
row_about[abi11]="Landlock ABI 11: Linux 7.3.4 from trixie-backports"
row_suite[abi11]=trixie-backports
row_kernel[abi11]=7.3.4+deb13-cloud-amd64
# From 7.x Debian splits the image; linux-image-* is only a metapackage.
row_packages[abi11]="linux-binary-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1
  linux-modules-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1
  linux-base-7.3.4+deb13-cloud-amd64=7.3.4-1~bpo13+1"
row_about[abi6]="Landlock ABI 6: Linux 6.12.95 from bookworm-backports"
row_suite[abi6]=bookworm-backports
row_kernel[abi6]=6.12.95+deb12-cloud-amd64
row_packages[abi6]="linux-image-6.12.95+deb12-cloud-amd64-unsigned=6.12.95-1~bpo12+1"
row_about[host]="this machine's own kernel, $(uname -r), where /boot holds its image"
row_kernel[host]=$(uname -r)
row_about[none]="no Landlock: the abi11 kernel booted with an lsm= list that leaves it out"
row_suite[none]=${row_suite[abi11]}
row_kernel[none]=${row_kernel[abi11]}
row_packages[none]=${row_packages[abi11]}
# 7.3.4's own list (/sys/kernel/security/lsm) without landlock.
row_boot_options[none]="lsm=lockdown,capability,yama,apparmor,tomoyo,bpf,ipe,ima,evm"
rows=(abi11 abi6 host none)

cache=${KERNELS_CACHE:-$repo/.kernels}
memory=${KERNELS_MEMORY:-2048}
timeout=${KERNELS_TIMEOUT:-3600}
boot_timeout=180 # a boot that has not started the command by then is dead
boot_attempts=3  # under emulation a boot may die early, as 6.12's did (below)

usage() {
  echo "usage: scripts/test-kernels.sh [--user] ROW -- COMMAND...   (ROW: ${rows[*]})" >&2
  echo "       scripts/test-kernels.sh --list" >&2
  exit 2
}

list_rows() {
  local row state
  for row in "${rows[@]}"; do
    if [ "$row" = host ]; then
      state=$([ -r "/boot/vmlinuz-${row_kernel[host]}" ] && echo readable || echo "no image in /boot")
    else
      state=$([ -f "$cache/${row_kernel[$row]}/ready" ] && echo cached || echo "not fetched")
    fi
    printf '%-6s %s (%s)\n' "$row" "${row_about[$row]}" "$state"
  done
}

# Installs what the script needs, and nothing when it is all there already.
install_host_packages() {
  local packages=(qemu-system-x86 busybox-static cpio kmod xz-utils zstd) missing=() package
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "test-kernels: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# apt-get with its own sources, lists and cache under $cache/apt/SUITE, so
# that reading another suite changes nothing of the system's apt.
suite_apt() {
  local suite=$1
  shift
  local dir=$cache/apt/$suite
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  echo "deb http://deb.debian.org/debian $suite main" >"$dir/sources.list"
  apt-get -q -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=- \
    -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o APT::Sandbox::User=root \
    -o Acquire::Languages=none "$@"
}

# Fetches and unpacks a row's pinned packages into $cache/KERNEL/root, makes
# the module index Debian's postinst would make, and packs the part of the
# initramfs that depends on the kernel only: busybox and the modules the
# guest's root needs. Does nothing when that is done for the same pins.
prepare_kernel() {
  local row=$1 kernel=${row_kernel[$1]} pins
  local dir=$cache/$kernel
  pins=$(echo "${row_packages[$row]}" | xargs)
  if [ -f "$dir/ready" ] && [ "$(cat "$dir/ready")" = "$pins" ]; then return; fi
  rm -rf "$dir"
  mkdir -p "$dir/root" "$cache/debs"
  local spec name version debs=()
  for spec in $pins; do
    name=${spec%%=*}
    version=${spec#*=}
    debs+=("$cache/debs/${name}_${version//:/%3a}_amd64.deb")
  done
  local deb need_download=false
  for deb in "${debs[@]}"; do [ -f "$deb" ] || need_download=true; done
  if $need_download; then
    echo "test-kernels: fetching $pins from ${row_suite[$row]}"
    suite_apt "${row_suite[$row]}" update >/dev/null
    # apt-get download checks each file against the suite's signed index.
    # shellcheck disable=SC2086 # one word per package
    (cd "$cache/debs" && suite_apt "${row_suite[$row]}" download $pins >/dev/null)
  fi
  for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$dir/root"; done
  if [ -d "$dir/root/usr/lib/modules" ] && [ ! -e "$dir/root/lib" ]; then
    ln -s usr/lib "$dir/root/lib" # depmod -b looks in BASE/lib/modules
  fi
  depmod -b "$dir/root" "$kernel"
  pack_kernel_part "$dir/root" "$kernel" "$dir/kernel-part.cpio"
  # 7.x keeps the image beside its modules, older kernels in /boot.
  local image
  for image in "$dir/root/usr/lib/modules/$kernel/vmlinuz" "$dir/root/boot/vmlinuz-$kernel"; do
    [ -f "$image" ] && cp "$image" "$dir/vmlinuz"
  done
  [ -f "$dir/vmlinuz" ] || { echo "test-kernels: $pins hold no kernel image" >&2; exit 1; }
  echo "$pins" >"$dir/ready"
}

# Packs busybox and the modules (with what they depend on) that the guest
# needs to mount its root, from the module tree under $1 for kernel $2, into
# the cpio archive $3. Modules the kernel has built in are left out.
pack_kernel_part() {
  local base=$1 kernel=$2 archive=$3 staging
  staging=$(mktemp -d)
  mkdir -p "$staging"/{bin,dev,proc,sys,lower,rw,newroot,modules}
  cp /bin/busybox "$staging/bin/busybox"
  # The kernel gives init this console before any /dev is mounted.
  mknod "$staging/dev/console" c 5 1
  : >"$staging/modules/order"
  local module path file
  for module in virtiofs overlay; do
    while read -r path; do
      file=$(basename "$path")
      file=${file%.xz}
      file=${file%.zst}
      grep -qxF "$file" "$staging/modules/order" && continue
      case $path in
        *.xz) xz -dc "$path" >"$staging/modules/$file" ;;
        *.zst) zstd -qdc "$path" >"$staging/modules/$file" ;;
        *) cp "$path" "$staging/modules/$file" ;;
      esac
      echo "$file" >>"$staging/modules/order"
    done < <(modprobe -d "$base" -S "$kernel" --show-depends "$module" | awk '$1 == "insmod" { print $2 }')
  done
  (cd "$staging" && find . | cpio -o -H newc --quiet) >"$archive"
  rm -rf "$staging"
}

# The host row: this machine's kernel, when its image is readable. Machines
# whose kernel comes from outside (a hypervisor's) have none in /boot.
prepare_host_kernel() {
  local kernel=${row_kernel[host]} dir=$cache/host-${row_kernel[host]}
  if [ ! -r "/boot/vmlinuz-$kernel" ]; then
    echo "test-kernels: host: skipped: this machine's kernel $kernel has no readable image" \
      "in /boot (it is booted from outside); run the command on the host itself for that row"
    exit 0
  fi
  mkdir -p "$dir"
  cp "/boot/vmlinuz-$kernel" "$dir/vmlinuz"
  pack_kernel_part / "$kernel" "$dir/kernel-part.cpio"
  row_kernel_dir=$dir
}

# The part of the initramfs for this run: the guest's scripts, the command
# and its settings. The kernel unpacks it over the kernel's part.
pack_run_part() {
  local archive=$1 staging
  staging=$(mktemp -d)
  install -m 0755 "$repo/scripts/kernels/initramfs-init.sh" "$staging/init"
  install -m 0755 "$repo/scripts/kernels/run-in-guest.sh" "$staging/run-in-guest.sh"
  printf 'row=%q\ncwd=%q\nas_user=%q\n' "$row" "$PWD" "$as_user" >"$staging/settings"
  printf '%q ' "${command[@]}" >"$staging/command"
  echo >>"$staging/command"
  (cd "$staging" && find . | cpio -o -H newc --quiet) >"$archive"
  rm -rf "$staging"
}

# Milliseconds since the epoch.
now_ms() {
  local now=${EPOCHREALTIME/./}
  echo $((now / 1000))
}

# Boots once. Returns 0 once the command has started in the guest (whatever
# it then did), 1 when the guest died or hung before that.
boot_once() {
  local run=$1 vmlinuz=$2 initrd=$3 cmdline=$4
  rm -f "$run/fs.sock" "$run/out" "$run/console"
  : >"$run/out"
  # One virtiofsd per boot: it exits when QEMU lets go of it. The default
  # sandbox cannot share / itself; chroot can. It holds a descriptor for
  # each file the guest has looked up, and a copy of node_modules looks up
  # tens of thousands: its own default stops at the shell's hard limit.
  /usr/lib/qemu/virtiofsd --socket-path="$run/fs.sock" -o source=/ -o sandbox=chroot \
    -o cache=auto --rlimit-nofile=1000000 >"$run/virtiofsd.log" 2>&1 &
  virtiofsd_pid=$!
  local waited=0
  until [ -S "$run/fs.sock" ]; do
    sleep 0.1
    waited=$((waited + 1))
    if [ $waited -gt 100 ]; then
      echo "test-kernels: virtiofsd did not start: $(cat "$run/virtiofsd.log")" >&2
      kill "$virtiofsd_pid" 2>/dev/null || true
      return 1
    fi
  done

  # virtiofs needs the guest's memory shared with virtiofsd: a memfd backend.
  nice qemu-system-x86_64 -machine q35 "${accel[@]}" -smp 1 -m "$memory" \
    -object memory-backend-memfd,id=mem,size="${memory}M",share=on -numa node,memdev=mem \
    -chardev socket,id=hostroot,path="$run/fs.sock" -device vhost-user-fs-pci,chardev=hostroot,tag=hostroot \
    -kernel "$vmlinuz" -initrd "$initrd" -append "$cmdline" \
    -nodefaults -display none -no-reboot \
    -chardev file,id=console,path="$run/console" -serial chardev:console \
    -chardev file,id=out,path="$run/out" -serial chardev:out &
  qemu_pid=$!
  tail -n +1 -f --pid=$qemu_pid "$run/out" &
  tail_pid=$!
  local start started=false
  start=$(now_ms)
  while kill -0 $qemu_pid 2>/dev/null; do
    if ! $started && grep -q '^test-kernels: guest up' "$run/out"; then
      started=true
      boot_ms=$(($(now_ms) - start))
    fi
    if ! $started && [ $(($(now_ms) - start)) -gt $((boot_timeout * 1000)) ]; then
      echo "test-kernels: $row: no command started after ${boot_timeout} s; stopping the guest"
      kill $qemu_pid
    fi
    if $started && [ $(($(now_ms) - start - boot_ms)) -gt $((timeout * 1000)) ]; then
      echo "test-kernels: $row: the command ran past ${timeout} s; stopping the guest"
      timed_out=true
      kill $qemu_pid
    fi
    sleep 0.2
  done
  wait $qemu_pid || true
  total_ms=$(($(now_ms) - start))
  wait $tail_pid || true
  kill "$virtiofsd_pid" 2>/dev/null || true
  wait "$virtiofsd_pid" || true
  qemu_pid='' tail_pid='' virtiofsd_pid=''
  # The line may have come in the last moments before QEMU stopped.
  if ! $started && grep -q '^test-kernels: guest up' "$run/out"; then
    started=true
    boot_ms=$(($(now_ms) - start))
  fi
  # Kept for whoever wants to see why a boot died or what the kernel said.
  cp "$run/console" "$cache/last-console-$row.log"
  $started
}

as_user=no
[ $# -ge 1 ] || usage
case $1 in
  --list)
    list_rows
    exit 0
    ;;
  --user)
    as_user=yes
    shift
    ;;
esac
if [ $# -lt 3 ] || [ "$2" != -- ]; then usage; fi
row=$1
shift 2
command=("$@")
[ -n "${row_about[$row]+set}" ] || usage

if [ "$(id -u)" -ne 0 ]; then
  echo "test-kernels: run this as root: virtiofsd shares all of / and must read it" >&2
  exit 1
fi
install_host_packages
mkdir -p "$cache"
# One guest at a time, whoever starts it: two would share the machine's cores
# and the cache.
exec 9>"$cache/lock"
if ! flock -n 9; then
  echo "test-kernels: waiting for another run of test-kernels.sh to finish"
  flock 9
fi
if [ "$row" = host ]; then
  prepare_host_kernel
else
  prepare_kernel "$row"
  row_kernel_dir=$cache/${row_kernel[$row]}
fi

# The nested /dev/kvm of some cloud machines (kvm_pvm) cannot run a stock
# kernel; only real hardware virtualisation is used, else software emulation.
if [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
  accel=(-accel kvm -cpu host)
else
  # Without cmpxchg16b: under QEMU 7.2's emulation, 6.12's slab allocator
  # dies on it in an interrupt ("Fatal exception in interrupt" in
  # kmem_cache_alloc_noprof) in 11 boots of 16; without it 6.12 booted every
  # time, and the kernel needs it for nothing (docs/kernels.md).
  accel=(-accel tcg -cpu "${KERNELS_CPU:-max,cx16=off}")
fi

run=$(mktemp -d)
qemu_pid='' tail_pid='' virtiofsd_pid=''
# Stops what this run started, when it ends early too (an interrupt, a kill).
# shellcheck disable=SC2317 # called by the trap
finish() {
  local pid
  for pid in $qemu_pid $tail_pid $virtiofsd_pid; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$run"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pack_run_part "$run/run-part.cpio"
cat "$row_kernel_dir/kernel-part.cpio" "$run/run-part.cpio" >"$run/initrd"
cmdline="console=ttyS0 quiet panic=-1 rdinit=/init ${row_boot_options[$row]:-} ${KERNELS_APPEND:-}"

echo "test-kernels: $row: ${row_about[$row]} (${accel[1]}); running: ${command[*]}"
boot_ms=0
total_ms=0
timed_out=false
attempt=1
until boot_once "$run" "$row_kernel_dir/vmlinuz" "$run/initrd" "$cmdline"; do
  echo "test-kernels: $row: boot $attempt died before the command started; its console said:"
  tail -n 15 "$run/console" | sed 's/^/  /'
  if [ $attempt -ge $boot_attempts ]; then
    echo "test-kernels: $row: gave up after $attempt boots" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
done
# Milliseconds as seconds, to the tenth.
seconds() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }
echo "test-kernels: $row: boot $attempt reached the command in $(seconds $boot_ms) s;" \
  "the guest ran $(seconds $((total_ms - boot_ms))) s more"

if $timed_out; then
  exit 124 # as timeout(1) says it
fi
# The guest's lines may follow output that did not end its line, so they are
# looked for anywhere in a line; one missing is a failure, never a pass.
if ! grep -q 'test-kernels: finished$' "$run/out"; then
  echo "test-kernels: $row: the guest stopped before the command finished; its console said:" >&2
  tail -n 30 "$run/console" | sed 's/^/  /' >&2
  exit 1
fi
status=0 statuses=0
while read -r code; do
  statuses=$((statuses + 1))
  if [ "$code" -ne 0 ] && [ "$status" -eq 0 ]; then status=$code; fi
done < <(sed -n 's/.*test-kernels: exit status \([0-9]*\) as [a-z-]*$/\1/p' "$run/out")
expected=$([ "$as_user" = yes ] && echo 2 || echo 1)
if [ "$statuses" -ne "$expected" ]; then
  echo "test-kernels: $row: the guest gave $statuses exit statuses, not $expected" >&2
  exit 1
fi
exit "$status"
