// Which backend confines a stdio server: Landlock (with our launcher's
// namespaces and read-only view), or bubblewrap, for a kernel without
// Landlock or where BRAVEBOT_BACKEND=bubblewrap asks for it (tests, and
// people who prefer it). Where neither can run, none, with the reason: the
// server is then not started.
//
//   BackendChoice choice = ChooseBackend(getenv("BRAVEBOT_BACKEND"), abi, ProbeBubblewrapOnce);
//   if (choice.backend == Backend::kNone) return Error(..., choice.why_none);
#ifndef BRAVEBOT_SUPERVISOR_SERVERS_BACKEND_CHOICE_H_
#define BRAVEBOT_SUPERVISOR_SERVERS_BACKEND_CHOICE_H_

#include <functional>
#include <string>
#include <string_view>

#include "launcher/bubblewrap_program.h"

namespace bravebot {

// The variable that chooses, read from the environment of the program that
// starts servers (bravebot-mcp, bravebot-supervisor, mcp-run).
inline constexpr char kBackendVariable[] = "BRAVEBOT_BACKEND";

enum class Backend { kNone, kLandlock, kBubblewrap };

// "landlock", "bubblewrap", "none".
std::string_view BackendName(Backend backend);

struct BackendChoice {
  Backend backend = Backend::kNone;
  std::string why_none;  // with kNone: why no backend can run, in words
};

// `asked`: BRAVEBOT_BACKEND's value, nullptr or "" when unset. Unset,
// Landlock where the kernel has it (`landlock_abi` > 0), else bubblewrap
// where it is usable; "landlock" and "bubblewrap" ask for one, and get none
// where it cannot run; any other value gets none, saying which values it may
// take. `bubblewrap` is asked only when its answer decides.
BackendChoice ChooseBackend(const char* asked, int landlock_abi,
                            const std::function<const BubblewrapProgram&()>& bubblewrap);

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_SERVERS_BACKEND_CHOICE_H_
