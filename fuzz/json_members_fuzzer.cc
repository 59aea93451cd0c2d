// ReadJsonObjectMembers against nlohmann::json on the same bytes: whatever it
// accepts, nlohmann::json accepts as an object, with every member's value
// reading alike. It may decline what nlohmann::json accepts (that only
// costs speed), never the other way round (that would let a relay pass on
// what is not JSON).
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "base/json_members.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto members = bravebot::ReadJsonObjectMembers(text);
  if (!members) return 0;
  auto whole = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (whole.is_discarded() || !whole.is_object() || whole.size() != members->size()) std::abort();
  for (const bravebot::JsonMember& member : *members) {
    // Passed on within one line: nothing in it may read as a line's end.
    if (member.value.find_first_of("\r\n") != std::string_view::npos) std::abort();
    auto value = nlohmann::ordered_json::parse(member.value, nullptr, false);
    if (value.is_discarded() || !whole.contains(member.key) || whole[member.key] != value) {
      std::abort();
    }
    if (auto decoded = bravebot::JsonStringValue(member.value)) {
      if (!value.is_string() || value.get<std::string>() != *decoded) std::abort();
    }
  }
  return 0;
}
