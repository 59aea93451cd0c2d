#include "confine/paths.h"

#include <vector>

namespace bravebot {

std::string AbsolutePath(std::string_view path, std::string_view base) {
  std::string joined = path.starts_with('/') ? std::string(path) : JoinPath(base, path);
  std::vector<std::string_view> parts;
  std::string_view rest = joined;
  while (!rest.empty()) {
    size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string normalized;
  for (std::string_view part : parts) {
    normalized += '/';
    normalized += part;
  }
  return normalized.empty() ? "/" : normalized;
}

bool IsSameOrBeneath(std::string_view path, std::string_view directory) {
  if (directory == "/") return path.starts_with('/');
  if (!path.starts_with(directory)) return false;
  return path.size() == directory.size() || path[directory.size()] == '/';
}

std::string ParentPath(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::vector<std::string> PathComponents(std::string_view path) {
  std::vector<std::string> components;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(start, slash - start);
    if (!part.empty() && part != ".") components.emplace_back(part);
    start = slash + 1;
  }
  return components;
}

std::string JoinPath(std::string_view directory, std::string_view name) {
  std::string joined(directory);
  if (joined.empty() || joined.back() != '/') joined += '/';
  joined.append(name.starts_with('/') ? name.substr(1) : name);
  return joined;
}

}  // namespace bravebot
