#include "profiles/bubblewrap_version.h"

#include <array>
#include <charconv>

namespace bravebot {
namespace {

using Version = std::array<int, 3>;

// "0.8.0" into {0, 8, 0}; a missing part is 0. False when it is no version.
bool ParseVersion(std::string_view text, Version& version) {
  version = {0, 0, 0};
  for (size_t part = 0; part < version.size() && !text.empty(); ++part) {
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), version[part]);
    if (error != std::errc() || end == text.data()) return false;
    text.remove_prefix(static_cast<size_t>(end - text.data()));
    if (text.empty()) break;
    if (text.front() != '.') return part > 0;  // "0.8.0-rc1", "0.8\n"
    text.remove_prefix(1);
  }
  return true;
}

}  // namespace

std::string BubblewrapVersionProblem(std::string_view version_output) {
  constexpr std::string_view kName = "bubblewrap ";
  const size_t line_end = version_output.find('\n');
  std::string_view line = version_output.substr(0, line_end);
  Version found;
  Version oldest;
  ParseVersion(kOldestBubblewrap, oldest);
  if (!line.starts_with(kName) || !ParseVersion(line.substr(kName.size()), found)) {
    std::string said;
    // Shown to a person: nothing of it may steer a terminal.
    for (char c : line.substr(0, 80)) said.push_back(c >= ' ' && c <= '~' ? c : '?');
    return "its --version said \"" + said + "\", which names no bubblewrap version";
  }
  if (found < oldest) {
    std::string problem = "it is ";
    problem.append(line.substr(kName.size())).append(", and ");
    problem.append(kOldestBubblewrap).append(" or later is needed");
    return problem;
  }
  return "";
}

}  // namespace bravebot
