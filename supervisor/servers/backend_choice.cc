#include "supervisor/servers/backend_choice.h"

#include "base/shown_text.h"

namespace bravebot {
namespace {

constexpr char kValues[] = "it may be landlock or bubblewrap, or unset to let the machine decide";

BackendChoice None(std::string why) { return {Backend::kNone, std::move(why)}; }

}  // namespace

std::string_view BackendName(Backend backend) {
  switch (backend) {
    case Backend::kLandlock:
      return "landlock";
    case Backend::kBubblewrap:
      return "bubblewrap";
    case Backend::kNone:
      return "none";
  }
  return "none";
}

BackendChoice ChooseBackend(const char* asked, int landlock_abi,
                            const std::function<const BubblewrapProgram&()>& bubblewrap) {
  const std::string value = asked == nullptr ? "" : asked;
  if (value.empty()) {
    if (landlock_abi > 0) return {Backend::kLandlock, ""};
    const BubblewrapProgram& program = bubblewrap();
    if (program.usable) return {Backend::kBubblewrap, ""};
    return None("this kernel has no Landlock, and " + program.why_not);
  }
  if (value == "landlock") {
    if (landlock_abi > 0) return {Backend::kLandlock, ""};
    return None(std::string(kBackendVariable) +
                "=landlock asks for Landlock, and this kernel has none");
  }
  if (value == "bubblewrap") {
    const BubblewrapProgram& program = bubblewrap();
    if (program.usable) return {Backend::kBubblewrap, ""};
    return None(std::string(kBackendVariable) + "=bubblewrap asks for bubblewrap, and " +
                program.why_not);
  }
  std::string why = kBackendVariable;
  why.append(" is \"").append(EscapeControlCharacters(value)).append("\": ").append(kValues);
  return None(std::move(why));
}

}  // namespace bravebot
