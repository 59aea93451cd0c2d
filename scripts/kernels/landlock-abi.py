#!/usr/bin/env python3
"""Prints the Landlock ABI of the running kernel, or why there is none.

The kernel answers landlock_create_ruleset(NULL, 0,
LANDLOCK_CREATE_RULESET_VERSION) with its ABI version; EOPNOTSUPP means
Landlock is built in but not enabled (left out of lsm=), ENOSYS that it is not
built in. Used to check each row of scripts/test-kernels.sh.
"""
import ctypes
import os
import sys

SYS_LANDLOCK_CREATE_RULESET = 444  # the same number on every architecture
LANDLOCK_CREATE_RULESET_VERSION = 1 << 0

libc = ctypes.CDLL(None, use_errno=True)
abi = libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0),
                   ctypes.c_uint32(LANDLOCK_CREATE_RULESET_VERSION))
if abi < 0:
    print(f"Landlock ABI: none ({os.strerror(ctypes.get_errno())})")
    sys.exit(1)
print(f"Landlock ABI: {abi}")
