#include "base/json_members.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_set>

#include "base/bounded_json.h"
#include "base/utf8.h"

namespace bravebot {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether the eight bytes at `bytes` are all printable ASCII other than '"'
// and '\\', tested together: a byte's high bit is set in `found` where it is
// 0x80 or above, below 0x20, '"' or '\\' (the usual test for a zero byte,
// applied to the bytes less 0x20 and to the bytes xor each character).
bool EightPlain(const char* bytes) {
  constexpr std::uint64_t kOnes = 0x0101010101010101;
  constexpr std::uint64_t kHighs = 0x8080808080808080;
  std::uint64_t word;
  std::memcpy(&word, bytes, sizeof(word));
  auto has_zero = [](std::uint64_t x) { return (x - kOnes) & ~x & kHighs; };
  const std::uint64_t found = (word & kHighs) | ((word - kOnes * 0x20) & ~word & kHighs) |
                              has_zero(word ^ (kOnes * '"')) | has_zero(word ^ (kOnes * '\\'));
  return found == 0;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(std::string& out, char32_t code_point) {
  if (code_point < 0x80) {
    out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    out += static_cast<char>(0xc0 | (code_point >> 6));
    out += static_cast<char>(0x80 | (code_point & 0x3f));
  } else if (code_point < 0x10000) {
    out += static_cast<char>(0xe0 | (code_point >> 12));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code_point & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (code_point >> 18));
    out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (code_point & 0x3f));
  }
}

// Reads JSON (RFC 8259) as nlohmann::json's lexer does, without building
// anything but the strings asked for.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (at_ < text_.size() && IsSpace(text_[at_])) ++at_;
  }
  bool AtEnd() const { return at_ == text_.size(); }
  bool Take(char c) {
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  std::size_t at() const { return at_; }
  std::string_view text() const { return text_; }
  char Peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }

  // One value at depth `depth` (1 for the outermost).
  bool Value(std::size_t depth) {
    if (at_ >= text_.size()) return false;
    switch (text_[at_]) {
      case '{':
        return Object(depth);
      case '[':
        return Array(depth);
      case '"':
        return String(nullptr);
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        return Number();
    }
  }

  // A string; decoded into `out` unless it is null.
  bool String(std::string* out) {
    if (!Take('"')) return false;
    while (at_ < text_.size()) {
      // Most of a string is plain ASCII: taken in one run.
      const std::size_t run = PlainRun();
      if (out != nullptr) out->append(text_.substr(at_, run));
      at_ += run;
      if (at_ >= text_.size()) break;
      const char c = text_[at_];
      if (c == '"') {
        ++at_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c == '\\') {
        if (!Escape(out)) return false;
        continue;
      }
      if (static_cast<unsigned char>(c) < 0x80) {
        if (out != nullptr) *out += c;
        ++at_;
        continue;
      }
      char32_t code_point;
      const std::size_t length = DecodeUtf8(text_, at_, code_point);
      if (length == 0) return false;
      if (out != nullptr) out->append(text_.substr(at_, length));
      at_ += length;
    }
    return false;
  }

 private:
  // How many bytes from here are printable ASCII other than '"' and '\\'.
  // Eight at a time while none of the eight is another: a relayed call's
  // arguments are mostly such runs, and this is most of reading them.
  std::size_t PlainRun() const {
    std::size_t end = at_;
    while (end + 8 <= text_.size() && EightPlain(text_.data() + end)) end += 8;
    while (end < text_.size()) {
      const auto byte = static_cast<unsigned char>(text_[end]);
      if (byte < 0x20 || byte >= 0x80 || byte == '"' || byte == '\\') break;
      ++end;
    }
    return end - at_;
  }

  bool Object(std::size_t depth) {
    if (depth > kMaxJsonDepth || !Take('{')) return false;
    SkipSpace();
    if (Take('}')) return true;
    for (std::size_t members = 1; members <= kMaxJsonObjectMembers; ++members) {
      SkipSpace();
      if (!String(nullptr)) return false;
      SkipSpace();
      if (!Take(':')) return false;
      SkipSpace();
      if (!Value(depth + 1)) return false;
      SkipSpace();
      if (Take('}')) return true;
      if (!Take(',')) return false;
    }
    return false;  // wider than we read: the whole reading refuses it in words
  }

  bool Array(std::size_t depth) {
    if (depth > kMaxJsonDepth || !Take('[')) return false;
    SkipSpace();
    if (Take(']')) return true;
    for (;;) {
      SkipSpace();
      if (!Value(depth + 1)) return false;
      SkipSpace();
      if (Take(']')) return true;
      if (!Take(',')) return false;
    }
  }

  bool Literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and finite as a double
  // where it fits no 64-bit integer: nlohmann::json refuses one that is not.
  bool Number() {
    const std::size_t start = at_;
    Take('-');
    if (Take('0')) {
    } else if (at_ < text_.size() && IsDigit(text_[at_])) {
      while (at_ < text_.size() && IsDigit(text_[at_])) ++at_;
    } else {
      return false;
    }
    bool integer = true;
    if (Take('.')) {
      integer = false;
      if (!Digits()) return false;
    }
    if (Take('e') || Take('E')) {
      integer = false;
      if (!Take('+')) Take('-');
      if (!Digits()) return false;
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + at_;
    if (integer) {
      std::int64_t signed_value;
      std::uint64_t unsigned_value;
      if (std::from_chars(first, last, signed_value).ec == std::errc()) return true;
      if (*first != '-' && std::from_chars(first, last, unsigned_value).ec == std::errc()) {
        return true;
      }
    }
    double value;
    const auto read = std::from_chars(first, last, value);
    return read.ec == std::errc() && read.ptr == last && std::isfinite(value);
  }

  bool Digits() {
    const std::size_t start = at_;
    while (at_ < text_.size() && IsDigit(text_[at_])) ++at_;
    return at_ > start;
  }

  bool Hex4(char32_t& value) {
    if (at_ + 4 > text_.size()) return false;
    value = 0;
    for (int i = 0; i < 4; ++i) {
      const int digit = HexValue(text_[at_ + i]);
      if (digit < 0) return false;
      value = value * 16 + static_cast<char32_t>(digit);
    }
    at_ += 4;
    return true;
  }

  bool Escape(std::string* out) {
    ++at_;  // the backslash
    if (at_ >= text_.size()) return false;
    const char c = text_[at_++];
    char plain = 0;
    switch (c) {
      case '"':
      case '\\':
      case '/':
        plain = c;
        break;
      case 'b':
        plain = '\b';
        break;
      case 'f':
        plain = '\f';
        break;
      case 'n':
        plain = '\n';
        break;
      case 'r':
        plain = '\r';
        break;
      case 't':
        plain = '\t';
        break;
      case 'u':
        return UnicodeEscape(out);
      default:
        return false;
    }
    if (out != nullptr) *out += plain;
    return true;
  }

  // \uXXXX, a surrogate only as the first of a pair.
  bool UnicodeEscape(std::string* out) {
    char32_t code_point;
    if (!Hex4(code_point)) return false;
    if (code_point >= 0xdc00 && code_point <= 0xdfff) return false;
    if (code_point >= 0xd800 && code_point <= 0xdbff) {
      char32_t low;
      if (!Take('\\') || !Take('u') || !Hex4(low) || low < 0xdc00 || low > 0xdfff) return false;
      code_point = 0x10000 + ((code_point - 0xd800) << 10) + (low - 0xdc00);
    }
    if (out != nullptr) AppendUtf8(*out, code_point);
    return true;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

// The keys of one object read so far, each at most once. Most objects have
// a few: compared one by one, which costs no allocation; past kFew, looked
// up, so that a wide object still takes time in proportion to its text.
class SeenKeys {
 public:
  // False when `key` was seen already.
  bool Add(const std::vector<JsonMember>& members, const std::string& key) {
    if (members.size() < kFew) {
      for (const JsonMember& member : members) {
        if (member.key == key) return false;
      }
      return true;
    }
    if (set_.empty()) {
      for (const JsonMember& member : members) set_.insert(member.key);
    }
    return set_.insert(key).second;
  }

 private:
  static constexpr std::size_t kFew = 16;
  std::unordered_set<std::string> set_;
};

// The members of the object at `scanner`, at `depth`, into `members`; where
// `inner` is given and the member `inner_key` is an object, its members into
// `inner` in the same pass.
bool ReadMembers(Scanner& scanner, std::size_t depth, std::vector<JsonMember>& members,
                 std::string_view inner_key, std::vector<JsonMember>* inner) {
  const std::string_view text = scanner.text();
  SeenKeys keys;
  if (!scanner.Take('{')) return false;
  scanner.SkipSpace();
  if (scanner.Take('}')) return true;
  for (;;) {
    if (members.size() == kMaxJsonObjectMembers) return false;
    scanner.SkipSpace();
    JsonMember member;
    if (!scanner.String(&member.key) || !keys.Add(members, member.key)) return false;
    scanner.SkipSpace();
    if (!scanner.Take(':')) return false;
    scanner.SkipSpace();
    const std::size_t start = scanner.at();
    if (inner != nullptr && member.key == inner_key && scanner.Peek() == '{') {
      if (depth + 1 > kMaxJsonDepth || !ReadMembers(scanner, depth + 1, *inner, {}, nullptr)) {
        return false;
      }
    } else if (!scanner.Value(depth + 1)) {
      return false;
    }
    member.value = text.substr(start, scanner.at() - start);
    members.push_back(std::move(member));
    scanner.SkipSpace();
    if (scanner.Take('}')) return true;
    if (!scanner.Take(',')) return false;
  }
}

std::optional<std::vector<JsonMember>> ReadObject(std::string_view text, std::string_view inner_key,
                                                  std::vector<JsonMember>* inner) {
  // A carriage return or a newline is JSON's whitespace, but a line's end
  // to a reader: a value passed on within a line must hold neither. A
  // program's line has no newline; a service's message may (an answer
  // written over several lines), and is then read whole and written again.
  if (text.find('\r') != std::string_view::npos || text.find('\n') != std::string_view::npos) {
    return std::nullopt;
  }
  Scanner scanner(text);
  std::vector<JsonMember> members;
  members.reserve(8);
  scanner.SkipSpace();
  if (!ReadMembers(scanner, 1, members, inner_key, inner)) return std::nullopt;
  scanner.SkipSpace();
  if (!scanner.AtEnd()) return std::nullopt;
  return members;
}

}  // namespace

std::optional<std::vector<JsonMember>> ReadJsonObjectMembers(std::string_view text) {
  return ReadObject(text, {}, nullptr);
}

std::optional<std::vector<JsonMember>> ReadJsonObjectMembers(std::string_view text,
                                                             std::string_view inner_key,
                                                             std::vector<JsonMember>& inner) {
  inner.clear();
  auto members = ReadObject(text, inner_key, &inner);
  if (!members) inner.clear();
  return members;
}

std::string_view FindJsonMember(const std::vector<JsonMember>& members, std::string_view key) {
  for (const JsonMember& member : members) {
    if (member.key == key) return member.value;
  }
  return {};
}

std::optional<std::string> JsonStringValue(std::string_view value) {
  Scanner scanner(value);
  std::string decoded;
  if (!scanner.String(&decoded) || !scanner.AtEnd()) return std::nullopt;
  return decoded;
}

}  // namespace bravebot
