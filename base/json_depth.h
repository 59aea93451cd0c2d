// How deep JSON may nest before we refuse to read it. nlohmann::json parses
// without recursion, but dump(), copies and conversions between json and
// ordered_json recurse once per level: a line of 100,000 '[' would overflow
// the stack long after it parsed. So every JSON text we read, from a file, a
// server or the command line, is measured with this first.
//
//   if (NestsDeeperThan(line, kMaxJsonDepth)) return Refuse("nested deeper than 128 levels");
//   if (HasObjectWiderThan(line)) return Refuse("an object of more than 4096 members");
//   auto message = nlohmann::json::parse(line, nullptr, false);
#ifndef BRAVEBOT_BASE_JSON_DEPTH_H_
#define BRAVEBOT_BASE_JSON_DEPTH_H_

#include <cstddef>
#include <string_view>

namespace bravebot {

// No declaration, settings file, policy or MCP message comes near this: a tool's
// input schema nests a dozen levels at most.
inline constexpr std::size_t kMaxJsonDepth = 128;

// Whether `text`, read as JSON, opens more than `max_depth` arrays and objects
// inside one another. Counts brackets outside strings; linear, allocates
// nothing, and says nothing of whether the text is JSON at all.
bool NestsDeeperThan(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

// How many members one object may have before we refuse to read the text:
// nlohmann::ordered_json looks up each key it inserts among those before it,
// so an object of n members costs n * n / 2 comparisons to parse (a 16 MiB
// line of 100,000 short keys holds the loop for seconds; of 1.8 million,
// for an hour). No MCP message comes near it: a tool's schema has dozens of
// properties.
inline constexpr std::size_t kMaxJsonObjectMembers = 4096;

// Whether `text`, read as JSON, holds an object of more than `max_members`
// members. Counts the commas of each object outside strings; linear, and,
// like NestsDeeperThan, says nothing of whether the text is JSON at all.
bool HasObjectWiderThan(std::string_view text, std::size_t max_members = kMaxJsonObjectMembers);

// Whether `text` is, at its top, an array of more than `max_elements`
// elements (a batch of messages): each would be read and answered alone, so
// a line of millions would cost millions of those. Counts the commas of the
// outermost array outside strings; linear, and says nothing of whether the
// text is JSON at all.
bool IsArrayWiderThan(std::string_view text, std::size_t max_elements);

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_JSON_DEPTH_H_
