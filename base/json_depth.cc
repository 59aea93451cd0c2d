#include "base/json_depth.h"

#include <vector>

namespace bravebot {

bool NestsDeeperThan(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (in_string) {
      if (c == '\\') {
        ++at;  // whatever is escaped, a quote included, stays in the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

bool HasObjectWiderThan(std::string_view text, std::size_t max_members) {
  // For each array or object open: its members so far, or 0 for an array
  // (whose elements cost nothing to insert).
  struct Open {
    bool object;
    std::size_t members;
  };
  std::vector<Open> open;
  bool in_string = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (in_string) {
      if (c == '\\') {
        ++at;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
      // A key (or a value) begins: the first member of an object counts here.
      if (!open.empty() && open.back().object && open.back().members == 0) {
        open.back().members = 1;
        if (max_members == 0) return true;
      }
    } else if (c == '{' || c == '[') {
      open.push_back({c == '{', 0});
    } else if ((c == '}' || c == ']') && !open.empty()) {
      open.pop_back();
    } else if (c == ',' && !open.empty() && open.back().object) {
      if (++open.back().members > max_members) return true;
    }
  }
  return false;
}

bool IsArrayWiderThan(std::string_view text, std::size_t max_elements) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '[') return false;
  // n commas at the top separate n + 1 elements.
  std::size_t depth = 0;
  std::size_t commas = 0;
  bool in_string = false;
  for (std::size_t at = first; at < text.size(); ++at) {
    const char c = text[at];
    if (in_string) {
      if (c == '\\') {
        ++at;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) break;
    } else if (c == ',' && depth == 1 && ++commas >= max_elements) {
      return true;
    }
  }
  return false;
}

}  // namespace bravebot
