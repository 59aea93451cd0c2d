#include "profiles/compiled_seccomp.h"

#include <iterator>

namespace bravebot {
namespace {

#include "profiles/seccomp_programs.inc"

Result<SeccompProgram> Program(const char* refused, const struct sock_filter* begin,
                               const struct sock_filter* end) {
  if (refused != nullptr) return Error(ErrorCode::kRefused, refused);
  return SeccompProgram{{begin, end}};
}

}  // namespace

const Result<SeccompProgram>& CompiledSeccompProgram(const SeccompChoices& choices) {
  static const Result<SeccompProgram> own_ipc =
      Program(kFilterOwnIpcRefused, std::begin(kFilterOwnIpc), std::end(kFilterOwnIpc));
  static const Result<SeccompProgram> own_ipc_keeps_death_signal =
      Program(kFilterOwnIpcKeepsDeathSignalRefused, std::begin(kFilterOwnIpcKeepsDeathSignal),
              std::end(kFilterOwnIpcKeepsDeathSignal));
  static const Result<SeccompProgram> shared_ipc =
      Program(kFilterSharedIpcRefused, std::begin(kFilterSharedIpc), std::end(kFilterSharedIpc));
  static const Result<SeccompProgram> shared_ipc_keeps_death_signal =
      Program(kFilterSharedIpcKeepsDeathSignalRefused, std::begin(kFilterSharedIpcKeepsDeathSignal),
              std::end(kFilterSharedIpcKeepsDeathSignal));
  if (choices.own_ipc_namespace) {
    return choices.keeps_death_signal ? own_ipc_keeps_death_signal : own_ipc;
  }
  return choices.keeps_death_signal ? shared_ipc_keeps_death_signal : shared_ipc;
}

}  // namespace bravebot
