#include "profiles/bubblewrap_links.h"

#include <set>
#include <string_view>

#include "confine/paths.h"

namespace bravebot {
namespace {

class LinkCollector {
 public:
  explicit LinkCollector(const FileSystemView& fs) : fs_(fs) {}

  // True when `path` is a link.
  bool Consider(const std::string& path) {
    std::optional<std::string> target = fs_.LinkTarget(path);
    if (target && seen_.insert(path).second) links_.push_back({path, *target});
    return target.has_value();
  }

  // `path` and every directory above it, up to the first link: what lies
  // beneath a link is reached through it, as made again.
  void ConsiderComponents(const std::string& path) {
    if (path.empty() || path[0] != '/') return;
    for (size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      if (Consider(path.substr(0, slash))) return;
    }
    if (path.size() > 1 && path.back() != '/') Consider(path);
  }

  void ConsiderEntries(const std::string& directory) {
    for (const std::string& name : fs_.ListDirectory(directory)) {
      Consider(JoinPath(directory, name));
    }
  }

  std::vector<BubblewrapLink> Take() { return std::move(links_); }

 private:
  const FileSystemView& fs_;
  std::set<std::string> seen_;
  std::vector<BubblewrapLink> links_;
};

}  // namespace

std::vector<BubblewrapLink> BubblewrapLinks(const Reach& reach, const FileSystemView& fs) {
  LinkCollector links(fs);
  links.ConsiderEntries("/");
  links.ConsiderEntries("/etc");
  for (const ReachVariable& variable : reach.environment) {
    if (variable.name != "PATH") continue;
    std::string_view rest = variable.value;
    while (!rest.empty()) {
      const size_t colon = rest.find(':');
      links.ConsiderComponents(std::string(rest.substr(0, colon)));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  if (!reach.argv.empty()) links.ConsiderComponents(reach.argv[0]);
  return links.Take();
}

}  // namespace bravebot
