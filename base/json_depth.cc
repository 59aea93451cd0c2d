#include "base/json_depth.h"

#include <vector>

namespace bravebot {

namespace {

// Calls `take(c)` for each character of `text` outside a string, the quote
// that opens a string included (as '"'), until it returns true; whether one
// did. Whatever a backslash escapes stays in its string.
template <typename Take>
bool AnyOutsideStrings(std::string_view text, Take take) {
  bool in_string = false;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (in_string) {
      if (c == '\\') {
        ++at;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    in_string = c == '"';
    if (take(c)) return true;
  }
  return false;
}

}  // namespace

bool NestsDeeperThan(std::string_view text, std::size_t max_depth) {
  std::size_t depth = 0;
  return AnyOutsideStrings(text, [&](char c) {
    if (c == '[' || c == '{') return ++depth > max_depth;
    if ((c == ']' || c == '}') && depth > 0) --depth;
    return false;
  });
}

bool HasObjectWiderThan(std::string_view text, std::size_t max_members) {
  // For each array or object open: its members so far, or 0 for an array
  // (whose elements cost nothing to insert).
  struct Open {
    bool object;
    std::size_t members;
  };
  std::vector<Open> open;
  return AnyOutsideStrings(text, [&](char c) {
    if (c == '"') {
      // A key (or a value) begins: the first member of an object counts here.
      if (!open.empty() && open.back().object && open.back().members == 0) {
        open.back().members = 1;
        return max_members == 0;
      }
    } else if (c == '{' || c == '[') {
      open.push_back({c == '{', 0});
    } else if ((c == '}' || c == ']') && !open.empty()) {
      open.pop_back();
    } else if (c == ',' && !open.empty() && open.back().object) {
      return ++open.back().members > max_members;
    }
    return false;
  });
}

bool IsArrayWiderThan(std::string_view text, std::size_t max_elements) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '[') return false;
  // n commas at the top separate n + 1 elements; the array's end ends the count.
  std::size_t depth = 0;
  std::size_t commas = 0;
  bool ended = false;
  const bool wider = AnyOutsideStrings(text.substr(first), [&](char c) {
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      ended = --depth == 0;
    } else if (c == ',' && depth == 1) {
      return ++commas >= max_elements;
    }
    return ended;
  });
  return wider && !ended;
}

}  // namespace bravebot
