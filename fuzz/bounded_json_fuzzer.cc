// ReadBoundedJson against nlohmann::json's own parse of the same bytes: where
// the text is JSON within the bounds, the same document, its members in the
// same order; where it is not JSON, refused; where it is JSON past a bound,
// refused; and never refused as deep where it nests no deeper than the
// bound. Depths and widths are measured on nlohmann's document without
// recursion, so that a deep input tests the reader rather than this.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>
#include <vector>

#include "base/bounded_json.h"

namespace {

// How deep `document` nests, and its widest object's member count.
template <typename BasicJson>
std::pair<std::size_t, std::size_t> DepthAndWidth(const BasicJson& document) {
  std::size_t deepest = 0;
  std::size_t widest = 0;
  std::vector<std::pair<const BasicJson*, std::size_t>> to_visit = {{&document, 0}};
  while (!to_visit.empty()) {
    auto [value, depth] = to_visit.back();
    to_visit.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    if (value->is_object()) widest = std::max(widest, value->size());
    for (const auto& element : *value) to_visit.push_back({&element, depth + 1});
  }
  return {deepest, widest};
}

template <typename BasicJson>
void Compare(std::string_view text) {
  BasicJson bounded;
  const bravebot::JsonRefusal refusal = bravebot::ReadBoundedJson(text, bounded);
  const BasicJson whole = BasicJson::parse(text, nullptr, /*allow_exceptions=*/false);
  if (refusal != bravebot::JsonRefusal::kNone && !bounded.is_discarded()) std::abort();
  if (whole.is_discarded()) {
    if (refusal == bravebot::JsonRefusal::kNone) std::abort();
    return;
  }
  const auto [depth, width] = DepthAndWidth(whole);
  const bool within = depth <= bravebot::kMaxJsonDepth && width <= bravebot::kMaxJsonObjectMembers;
  switch (refusal) {
    case bravebot::JsonRefusal::kNone:
      if (!within || bounded != whole || bounded.dump() != whole.dump()) std::abort();
      break;
    case bravebot::JsonRefusal::kTooDeep:
      if (depth <= bravebot::kMaxJsonDepth) std::abort();
      break;
    case bravebot::JsonRefusal::kTooWide:
      // Keys given twice count each time, and nlohmann's document holds
      // them once: only wider than it can be, not narrower.
      if (within && width == 0) std::abort();
      break;
    case bravebot::JsonRefusal::kNotJson:
    case bravebot::JsonRefusal::kBatchTooWide:  // no batch bound was given
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Compare<nlohmann::ordered_json>(text);
  Compare<nlohmann::json>(text);
  return 0;
}
