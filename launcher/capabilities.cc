#include "launcher/capabilities.h"

#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace bravebot {

CapabilityPlan PlanCapabilities() {
  CapabilityPlan plan;
  plan.last_capability = static_cast<int>(cap_max_bits()) - 1;
  cap_t current = cap_get_proc();
  if (current == nullptr) {
    plan.drop = true;  // unknown: drop, which fails loudly if it cannot
    return plan;
  }
  for (int capability = 0; capability <= plan.last_capability && !plan.drop; ++capability) {
    cap_flag_value_t permitted = CAP_CLEAR;
    if (cap_get_flag(current, capability, CAP_PERMITTED, &permitted) == 0 && permitted == CAP_SET) {
      plan.drop = true;
    }
  }
  cap_free(current);
  return plan;
}

int DropCapabilities(const CapabilityPlan& plan) {
  // Always: an ambient capability would survive execve.
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) {
    return errno;
  }
  if (!plan.drop) return 0;
  // Root's special treatment off and locked: executing a program as uid 0
  // gives no capability back, and changing uid keeps none.
  constexpr unsigned long kSecureBits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
                                        SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
                                        SECBIT_KEEP_CAPS_LOCKED;
  if (::prctl(PR_SET_SECUREBITS, kSecureBits, 0, 0, 0) != 0) return errno;
  for (int capability = 0; capability <= plan.last_capability; ++capability) {
    if (::prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 && errno != EINVAL) return errno;
  }
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capset, &header, data) != 0) return errno;
  return 0;
}

}  // namespace bravebot
