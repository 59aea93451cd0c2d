// The members of one JSON object as its text holds them, so that a relay can
// read the few members it needs (a message's id, its method) and pass the
// rest on as bytes, without building a document of it and writing it again.
//
//   auto members = ReadJsonObjectMembers(line);
//   if (!members) return SlowPath(nlohmann::json::parse(line, nullptr, false));
//   std::string_view result = FindMember(*members, "result");  // its text
//
// It accepts only what nlohmann::json accepts as an object, nested no deeper
// than kMaxJsonDepth, no object wider than kMaxJsonObjectMembers, with no key
// twice and no raw carriage return or newline (a line's end to readers: a
// value passed on within a line holds none);
// fuzz/json_members_fuzzer.cc checks it against nlohmann::json, and against
// the bounded reading (base/bounded_json.h), on every input.
//
// Why a reader of our own beside nlohmann's: a relay passes most of what it
// reads on unchanged, and nlohmann's parser gives no places in the text, so
// a value passed on would be built and written again. Measured
// (bench/json_reading_bench.cc, docs/performance.md), this reading takes a
// twelfth to a sixteenth of the time nlohmann's parser takes only to check
// the same text, and a twentieth of parsing and writing the result again. It declines the rest, and
// what it cannot be sure of (a byte order mark, say), and the caller then parses the whole text as
// it always has: declining is never wrong, only slower. It takes time in proportion to the text,
// however many members an object has.
#ifndef BRAVEBOT_BASE_JSON_MEMBERS_H_
#define BRAVEBOT_BASE_JSON_MEMBERS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bravebot {

struct JsonMember {
  std::string key;         // decoded
  std::string_view value;  // the value's text, valid JSON on its own
};

// The members of `text`, one JSON object with nothing but whitespace around
// it, in their order; nullopt when it declines.
std::optional<std::vector<JsonMember>> ReadJsonObjectMembers(std::string_view text);

// The same, and where member `inner_key` is an object, its members in
// `inner`, read in the same pass (a request and its params, say, rather than
// the params twice). It declines what the above declines, and an inner
// object it would decline read on its own (a key twice in it). `inner` is
// left empty where there is no such object, or where it declines.
std::optional<std::vector<JsonMember>> ReadJsonObjectMembers(std::string_view text,
                                                             std::string_view inner_key,
                                                             std::vector<JsonMember>& inner);

// The text of member `key`'s value; empty when there is none.
std::string_view FindJsonMember(const std::vector<JsonMember>& members, std::string_view key);

// The string `value` (a member's text) holds, decoded; nullopt when it is no
// string.
std::optional<std::string> JsonStringValue(std::string_view value);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_JSON_MEMBERS_H_
