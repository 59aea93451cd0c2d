// ReadJsonObjectMembers against nlohmann::json on the same bytes: whatever it
// accepts, the one bounded reading of JSON from outside (ReadBoundedJson,
// nlohmann::json's parser within kMaxJsonDepth and kMaxJsonObjectMembers)
// accepts as an object, with every member's value reading alike. It may decline what nlohmann::json
// accepts (that only costs speed), never the other way round (that would let a relay pass on what
// is not JSON). Read with an inner object, it gives the same members, and the inner object's
// members as read on their own; it declines more only where that object, read on its own, is
// declined.
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/bounded_json.h"
#include "base/json_members.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto members = bravebot::ReadJsonObjectMembers(text);
  // Any first member's key names the inner object: the fuzzer reaches it.
  std::vector<bravebot::JsonMember> inner;
  const std::string inner_key = members && !members->empty() ? members->front().key : "params";
  auto with_inner = bravebot::ReadJsonObjectMembers(text, inner_key, inner);
  // Never more: what it accepts, the whole reading accepts.
  if (with_inner && !members) std::abort();
  if (!members) return 0;
  const std::string_view inner_text = bravebot::FindJsonMember(*members, inner_key);
  if (!with_inner) {
    // Less only where the inner object, read for its members, is declined
    // (a key twice in it).
    if (inner_text.empty() || inner_text.front() != '{' ||
        bravebot::ReadJsonObjectMembers(inner_text)) {
      std::abort();
    }
    return 0;
  }
  for (std::size_t i = 0; i < members->size(); ++i) {
    if ((*with_inner)[i].key != (*members)[i].key ||
        (*with_inner)[i].value != (*members)[i].value) {
      std::abort();
    }
  }
  if (!inner_text.empty() && inner_text.front() == '{') {
    auto alone = bravebot::ReadJsonObjectMembers(inner_text);
    if (!alone || alone->size() != inner.size()) std::abort();
    for (std::size_t i = 0; i < inner.size(); ++i) {
      if (inner[i].key != (*alone)[i].key || inner[i].value != (*alone)[i].value) std::abort();
    }
  } else if (!inner.empty()) {
    std::abort();
  }
  nlohmann::ordered_json whole;
  if (bravebot::ReadBoundedJson(text, whole) != bravebot::JsonRefusal::kNone ||
      !whole.is_object() || whole.size() != members->size()) {
    std::abort();
  }
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
