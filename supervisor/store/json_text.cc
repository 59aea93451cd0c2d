#include "supervisor/store/json_text.h"

#include <cstring>
#include <set>
#include <vector>

#include "base/bounded_json.h"
#include "base/shown_text.h"
#include "base/text_position.h"

namespace bravebot {
namespace {

using nlohmann::json;

// Builds the document as nlohmann::json's own reader does, and on the way
// keeps within the bounds every text from outside is read in
// (base/bounded_json.h), refuses a key given twice, and notes each number
// held as a double.
class KeepingReader {
 public:
  KeepingReader(json& result, NumbersAsWritten* numbers) : dom_(result), numbers_(numbers) {}

  bool null() { return bounds_.Value(false) && Scalar(dom_.null()); }
  bool boolean(bool value) { return bounds_.Value(false) && Scalar(dom_.boolean(value)); }
  bool number_integer(json::number_integer_t value) {
    return bounds_.Value(false) && Scalar(dom_.number_integer(value));
  }
  bool number_unsigned(json::number_unsigned_t value) {
    return bounds_.Value(false) && Scalar(dom_.number_unsigned(value));
  }
  bool number_float(json::number_float_t value, const std::string& written) {
    if (!bounds_.Value(false)) return false;
    if (numbers_ != nullptr) (*numbers_)[Pointer()] = written;
    return Scalar(dom_.number_float(value, written));
  }
  bool string(std::string& value) { return bounds_.Value(false) && Scalar(dom_.string(value)); }
  bool binary(json::binary_t& value) { return bounds_.Value(false) && Scalar(dom_.binary(value)); }
  bool start_object(std::size_t size) {
    if (!bounds_.Value(true, true)) return false;
    frames_.push_back({});
    return dom_.start_object(size);
  }
  bool key(std::string& key) {
    if (!bounds_.Key()) return false;
    ++keys_seen_;
    Frame& frame = frames_.back();
    frame.key = key;
    if (!frame.keys.insert(key).second) {
      twice_ = Pointer();
      return false;
    }
    return dom_.key(key);
  }
  bool end_object() {
    bounds_.Close();
    frames_.pop_back();
    return Scalar(dom_.end_object());
  }
  bool start_array(std::size_t size) {
    if (!bounds_.Value(true)) return false;
    Frame frame;
    frame.array = true;
    frames_.push_back(std::move(frame));
    return dom_.start_array(size);
  }
  bool end_array() {
    bounds_.Close();
    frames_.pop_back();
    return Scalar(dom_.end_array());
  }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& error) {
    return dom_.parse_error(position, token, error);  // throws, as json::parse would
  }

  // Why the text was not read, where a bound stopped it.
  JsonRefusal refusal() const { return bounds_.refusal(); }
  // The pointer of the key given twice, or "" when none was.
  const std::string& twice() const { return twice_; }
  // How many keys were read, the one given twice the last of them.
  size_t keys_seen() const { return keys_seen_; }

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;
    std::string key;
    std::set<std::string> keys;
  };

  // A value ended: the next one of an array is at the next index.
  bool Scalar(bool keep_going) {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    return keep_going;
  }

  std::string Pointer() const {
    json::json_pointer pointer;
    for (const Frame& frame : frames_) {
      pointer = frame.array ? pointer / frame.index : pointer / frame.key;
    }
    return pointer.to_string();
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  JsonBoundsCheck bounds_;
  NumbersAsWritten* numbers_;
  std::vector<Frame> frames_;
  std::string twice_;
  size_t keys_seen_ = 0;
};

// Where the `n`th key (from 1) of `text` starts: a string followed by ':'.
// The parser has read the text that far, so it is JSON up to there.
size_t KeyOffset(std::string_view text, size_t n) {
  for (size_t at = 0; at < text.size(); ++at) {
    if (text[at] != '"') continue;
    const size_t start = at;
    for (++at; at < text.size() && text[at] != '"'; ++at) {
      if (text[at] == '\\') ++at;
    }
    size_t next = at + 1;
    while (next < text.size() && std::strchr(" \t\r\n", text[next]) != nullptr) ++next;
    if (next < text.size() && text[next] == ':' && --n == 0) return start;
  }
  return 0;
}

// "mcp.request" for "/mcp/request", for a person.
std::string DottedKey(const std::string& pointer) {
  std::string dotted;
  json::json_pointer walk(pointer);
  std::vector<std::string> tokens;
  while (!walk.empty()) {
    tokens.insert(tokens.begin(), walk.back());
    walk.pop_back();
  }
  for (size_t i = 0; i < tokens.size(); ++i) dotted += (i == 0 ? "" : ".") + tokens[i];
  return dotted;
}

}  // namespace

Result<json> ParseJsonText(std::string_view text, NumbersAsWritten* numbers) {
  try {
    json document;
    KeepingReader reader(document, numbers);
    if (!json::sax_parse(text, &reader)) {
      if (reader.refusal() == JsonRefusal::kTooDeep) {
        return Error(ErrorCode::kCorrupt, "is nested deeper than " + std::to_string(kMaxJsonDepth) +
                                              " levels, which no file of bravebot-mcp needs");
      }
      if (reader.refusal() == JsonRefusal::kTooWide) {
        return Error(ErrorCode::kCorrupt, "holds an object of more than " +
                                              std::to_string(kMaxJsonObjectMembers) +
                                              " members, which no file of bravebot-mcp needs");
      }
      // A key is shown escaped: it comes from the file.
      auto [line, column] = LineAndColumn(text, KeyOffset(text, reader.keys_seen()));
      return Error(ErrorCode::kCorrupt,
                   "gives the key " + QuoteLine(DottedKey(reader.twice()), 80) + " twice (line " +
                       std::to_string(line) + ", column " + std::to_string(column) +
                       "), and only one of them can be meant");
    }
    return document;
  } catch (const json::parse_error& error) {
    // error.byte is one past the character that stopped the parser.
    auto [line, column] = LineAndColumn(text, error.byte == 0 ? 0 : error.byte - 1);
    return Error(ErrorCode::kCorrupt, "is not JSON: the parser stopped at line " +
                                          std::to_string(line) + ", column " +
                                          std::to_string(column));
  } catch (const json::exception&) {
    // A number too large for any type, for one: JSON in form, but not data.
    return Error(ErrorCode::kCorrupt,
                 "holds a value no JSON reader can hold (a number out of range)");
  }
}

std::string DumpKeepingNumbers(const json& document, const NumbersAsWritten& numbers) {
  // Each number goes out as a string no document holds, which is then
  // replaced by the number's own text.
  constexpr std::string_view kMark = "\x01number ";
  constexpr std::string_view kMarkDumped = "\"\\u0001number ";
  const std::string plain = document.dump(2);
  if (numbers.empty() || plain.find(kMarkDumped) != std::string::npos) return plain;
  json marked = document;
  std::vector<const std::string*> written;
  for (const auto& [pointer, text] : numbers) {
    json::json_pointer at(pointer);
    if (!marked.contains(at) || !marked[at].is_number_float()) continue;
    marked[at] = std::string(kMark) + std::to_string(written.size());
    written.push_back(&text);
  }
  // One pass over the text, each mark replaced where it is found: looking
  // for each from the start would cost the square of a file of numbers.
  const std::string dumped = marked.dump(2);
  std::string out;
  out.reserve(dumped.size());
  size_t from = 0;
  for (size_t at; (at = dumped.find(kMarkDumped, from)) != std::string::npos;) {
    const size_t digits = at + kMarkDumped.size();
    const size_t end = dumped.find('"', digits);
    out.append(dumped, from, at - from);
    out += *written[std::stoul(dumped.substr(digits, end - digits))];
    from = end + 1;
  }
  out.append(dumped, from);
  return out;
}

}  // namespace bravebot
