// JSON from outside (a server's line, a session's, a client's, a file) read
// in one pass that parses it and bounds it: nlohmann::json's own parser, with
// a SAX reader that counts how deep arrays and objects nest and how many
// members an object has, and stops at the first past its bound. Nothing is
// read twice, and no other reader decides what is JSON.
//
//   nlohmann::ordered_json message;
//   switch (ReadBoundedJson(line, message)) {
//     case JsonRefusal::kNone: ...              // message holds the document
//     case JsonRefusal::kTooDeep: ...           // nested deeper than kMaxJsonDepth
//     ...
//   }
//
// Why bounds: nlohmann::json parses without recursion, but dump(), copies and
// conversions between json and ordered_json recurse once per level, so a
// line of 100,000 '[' would overflow the stack long after it parsed. And an
// object of thousands of members is no message anyone sends.
//
// The document is built here rather than by nlohmann's DOM reader, which
// inserts each key of an ordered_json by looking it up among those before
// it: n members cost n * n / 2 comparisons. Here a key is looked up among
// the few before it, or in a hash table past those, so reading takes time in
// proportion to the text. As nlohmann's reader does, a key given twice keeps
// its first place and its last value.
#ifndef BRAVEBOT_BASE_BOUNDED_JSON_H_
#define BRAVEBOT_BASE_BOUNDED_JSON_H_

#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace bravebot {

// No declaration, settings file, policy or MCP message comes near this: a
// tool's input schema nests a dozen levels at most.
inline constexpr std::size_t kMaxJsonDepth = 128;

// No MCP message or file of ours comes near this: a tool's schema has dozens
// of properties, mcp.json declares at most 4096 servers.
inline constexpr std::size_t kMaxJsonObjectMembers = 4096;

struct JsonBounds {
  std::size_t max_depth = kMaxJsonDepth;
  std::size_t max_members = kMaxJsonObjectMembers;
  // Elements of the outermost array (a batch of messages, each read and
  // answered alone); no bound unless given.
  std::size_t max_batch = std::numeric_limits<std::size_t>::max();
};

// Why a text was not read; kNone when it was.
enum class JsonRefusal {
  kNone,
  kNotJson,       // not one JSON value with nothing but whitespace around it
  kTooDeep,       // arrays and objects open inside one another past max_depth
  kTooWide,       // an object of more than max_members members
  kBatchTooWide,  // an outermost array of more than max_batch elements
};

// The counting of JsonBounds, for a SAX reader of nlohmann::json's: one call
// for each value that begins, each key, and each array or object that
// closes. Each returns false, once refusal() says why, where the text
// passes a bound; the reader then returns false and the parse stops there.
class JsonBoundsCheck {
 public:
  explicit JsonBoundsCheck(JsonBounds bounds = {}) : bounds_(bounds) {}

  // A value begins: an array or object (`opens`), or any other value.
  bool Value(bool opens, bool object = false);
  // A member of the innermost object begins.
  bool Key();
  void Close() { open_.pop_back(); }
  JsonRefusal refusal() const { return refusal_; }
  std::size_t depth() const { return open_.size(); }

 private:
  struct Open {
    bool object;
    std::size_t count;  // members or elements so far
  };
  bool Refuse(JsonRefusal why) {
    refusal_ = why;
    return false;
  }

  JsonBounds bounds_;
  std::vector<Open> open_;
  JsonRefusal refusal_ = JsonRefusal::kNone;
};

// Reads `text` into `document` (left discarded where it is refused).
template <typename BasicJson>
JsonRefusal ReadBoundedJson(std::string_view text, BasicJson& document, JsonBounds bounds = {});

extern template JsonRefusal ReadBoundedJson(std::string_view, nlohmann::json&, JsonBounds);
extern template JsonRefusal ReadBoundedJson(std::string_view, nlohmann::ordered_json&, JsonBounds);

// The same, the document given back: discarded where `text` was refused,
// for callers that need not say why.
template <typename BasicJson = nlohmann::ordered_json>
BasicJson ReadBoundedJsonOrDiscarded(std::string_view text, JsonBounds bounds = {}) {
  BasicJson document;
  ReadBoundedJson(text, document, bounds);
  return document;
}

}  // namespace bravebot

#endif  // BRAVEBOT_BASE_BOUNDED_JSON_H_
