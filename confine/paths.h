// Lexical path arithmetic: no file is looked at.
#ifndef BRAVEBOT_CONFINE_PATHS_H_
#define BRAVEBOT_CONFINE_PATHS_H_

#include <string>
#include <string_view>
#include <vector>

namespace bravebot {

// `path` made absolute against `base` (itself absolute) and normalized: no
// empty, "." or ".." components, no trailing slash. ".." is taken lexically,
// as a person reading the path would, not through links.
std::string AbsolutePath(std::string_view path, std::string_view base);

// True when `path` is `directory` or lies beneath it; both normalized absolute.
bool IsSameOrBeneath(std::string_view path, std::string_view directory);

// The directory holding `path` ("/" for "/" itself); `path` normalized absolute.
std::string ParentPath(std::string_view path);

// The components of `path` in order, without empty ones and ".": "/a//./b/.."
// gives {"a", "b", ".."}, for a walk that takes ".." where it stands.
std::vector<std::string> PathComponents(std::string_view path);

// `name` appended to `directory` with exactly one slash between them.
std::string JoinPath(std::string_view directory, std::string_view name);

}  // namespace bravebot

#endif  // BRAVEBOT_CONFINE_PATHS_H_
