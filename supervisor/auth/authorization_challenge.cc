#include "supervisor/auth/authorization_challenge.h"

#include "confine/url.h"

namespace bravebot {
namespace {

// tchar of RFC 9110 section 5.6.2.
bool IsTokenCharacter(char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// The characters of token68 (RFC 9110 section 11.2) before its trailing '='.
bool IsToken68Character(char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("-._~+/").find(c) != std::string_view::npos;
}

// Reads one WWW-Authenticate value left to right. Commas separate both
// challenges and the parameters of one, so after each comma the next few
// characters decide: NAME "=" is another parameter, anything else begins a
// challenge.
class ChallengeReader {
 public:
  explicit ChallengeReader(std::string_view text) : text_(text) {}

  Result<std::vector<AuthChallenge>> ReadAll() {
    std::vector<AuthChallenge> challenges;
    SkipCommasAndSpace();
    if (AtEnd()) return Refuse("it names no challenge");
    while (!AtEnd()) {
      BRAVEBOT_ASSIGN_OR_RETURN(AuthChallenge challenge, ReadChallenge());
      challenges.push_back(std::move(challenge));
      SkipCommasAndSpace();
    }
    return challenges;
  }

 private:
  bool AtEnd() const { return at_ >= text_.size(); }
  char Peek(size_t ahead = 0) const {
    return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0';
  }
  bool IsSpace(char c) const { return c == ' ' || c == '\t'; }
  void SkipSpace() {
    while (!AtEnd() && IsSpace(Peek())) ++at_;
  }
  void SkipCommasAndSpace() {
    while (!AtEnd() && (IsSpace(Peek()) || Peek() == ',')) ++at_;
  }

  Error Refuse(const std::string& why) const {
    return Error(ErrorCode::kRefused, "the service's WWW-Authenticate header cannot be read: " +
                                          why + " (at character " + std::to_string(at_ + 1) + ")");
  }

  std::string_view ReadToken() {
    const size_t start = at_;
    while (!AtEnd() && IsTokenCharacter(Peek())) ++at_;
    return text_.substr(start, at_ - start);
  }

  // Whether, from here, the text is NAME BWS "=" and not token68's trailing
  // "=" (which ends the challenge or comes before a comma).
  bool AtParameter() const {
    size_t look = at_;
    while (look < text_.size() && IsTokenCharacter(text_[look])) ++look;
    if (look == at_) return false;
    while (look < text_.size() && IsSpace(text_[look])) ++look;
    if (look >= text_.size() || text_[look] != '=') return false;
    ++look;
    // "abc=" then "=", the end or a comma: token68's padding, not a parameter.
    while (look < text_.size() && IsSpace(text_[look])) ++look;
    return look < text_.size() && text_[look] != '=' && text_[look] != ',';
  }

  Result<std::string> ReadQuoted() {
    ++at_;  // the opening quote
    std::string value;
    while (true) {
      if (AtEnd()) return Refuse("a quoted string is not closed");
      char c = Peek();
      if (c == '"') {
        ++at_;
        return value;
      }
      if (c == '\\') {
        ++at_;
        if (AtEnd()) return Refuse("a quoted string is not closed");
        c = Peek();
      }
      const auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
        return Refuse("a quoted string holds a control character");
      }
      value += c;
      ++at_;
    }
  }

  Result<AuthChallenge> ReadChallenge() {
    AuthChallenge challenge;
    challenge.scheme = std::string(ReadToken());
    if (challenge.scheme.empty()) return Refuse("a challenge does not begin with a scheme");
    if (AtEnd() || Peek() == ',') return challenge;
    if (!IsSpace(Peek())) return Refuse("a scheme is followed by neither space nor comma");
    SkipSpace();
    if (AtEnd() || Peek() == ',') return challenge;
    if (!AtParameter()) return ReadToken68(std::move(challenge));
    while (true) {
      BRAVEBOT_RETURN_IF_ERROR(ReadParameter(challenge));
      SkipSpace();
      if (AtEnd()) return challenge;
      if (Peek() != ',') return Refuse("a parameter is followed by neither comma nor end");
      // The commas, then another parameter of this challenge or the next challenge.
      const size_t before = at_;
      SkipCommasAndSpace();
      if (AtEnd()) return challenge;
      if (!AtParameter()) {
        at_ = before;
        return challenge;
      }
    }
  }

  Result<AuthChallenge> ReadToken68(AuthChallenge challenge) {
    const size_t start = at_;
    while (!AtEnd() && IsToken68Character(Peek())) ++at_;
    if (at_ == start) return Refuse("a scheme is followed by neither a token nor parameters");
    while (!AtEnd() && Peek() == '=') ++at_;
    challenge.token68 = std::string(text_.substr(start, at_ - start));
    SkipSpace();
    if (!AtEnd() && Peek() != ',') return Refuse("a token is followed by neither comma nor end");
    return challenge;
  }

  Status ReadParameter(AuthChallenge& challenge) {
    std::string name = AsciiLowercase(ReadToken());
    SkipSpace();
    ++at_;  // '=', as AtParameter saw
    SkipSpace();
    std::string value;
    if (Peek() == '"') {
      BRAVEBOT_ASSIGN_OR_RETURN(value, ReadQuoted());
    } else {
      value = std::string(ReadToken());
      if (value.empty()) return Refuse("a parameter has no value");
    }
    if (challenge.Parameter(name) != nullptr) return Refuse("a parameter is given twice");
    challenge.parameters.emplace_back(std::move(name), std::move(value));
    return {};
  }

  std::string_view text_;
  size_t at_ = 0;
};

std::optional<std::string> Optional(const std::string* value) {
  return value == nullptr ? std::nullopt : std::optional<std::string>(*value);
}

}  // namespace

const std::string* AuthChallenge::Parameter(std::string_view lowercase_name) const {
  for (const auto& [name, value] : parameters) {
    if (name == lowercase_name) return &value;
  }
  return nullptr;
}

Result<std::vector<AuthChallenge>> ParseAuthChallenges(std::string_view value) {
  return ChallengeReader(value).ReadAll();
}

Result<std::optional<BearerChallenge>> ReadBearerChallenge(std::string_view value) {
  BRAVEBOT_ASSIGN_OR_RETURN(std::vector<AuthChallenge> challenges, ParseAuthChallenges(value));
  for (const AuthChallenge& challenge : challenges) {
    if (AsciiLowercase(challenge.scheme) != "bearer") continue;
    BearerChallenge bearer;
    bearer.resource_metadata = Optional(challenge.Parameter("resource_metadata"));
    bearer.scope = Optional(challenge.Parameter("scope"));
    bearer.error = Optional(challenge.Parameter("error"));
    bearer.error_description = Optional(challenge.Parameter("error_description"));
    return std::optional<BearerChallenge>(std::move(bearer));
  }
  return std::optional<BearerChallenge>();
}

}  // namespace bravebot
