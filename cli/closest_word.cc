#include "cli/closest_word.h"

#include <algorithm>

namespace bravebot {
namespace {

// Optimal string alignment distance: Levenshtein with neighbours swapped
// counting as one edit, the commonest slip of a typist ("lsit").
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> ClosestWord(std::string_view typed,
                                       const std::vector<std::string>& candidates) {
  constexpr size_t kMostEdits = 2;
  std::optional<std::string> closest;
  size_t best = kMostEdits + 1;
  for (const std::string& candidate : candidates) {
    const size_t distance = EditDistance(typed, candidate);
    if (distance < best && distance < typed.size()) {
      best = distance;
      closest = candidate;
    }
  }
  return closest;
}

}  // namespace bravebot
