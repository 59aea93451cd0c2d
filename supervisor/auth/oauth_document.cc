#include "supervisor/auth/oauth_document.h"

#include "base/bounded_json.h"

namespace bravebot {

Error OAuthDocument::Refuse(const std::string& why) const {
  return Error(ErrorCode::kRefused, what_ + " " + why);
}

Error OAuthDocument::WrongType(const std::string& name, const char* type) const {
  return Refuse("gives " + name + " as something other than " + type);
}

Error OAuthDocument::TooLong(const std::string& name) const {
  return Refuse("gives " + name + " of more than " + std::to_string(kMaxOAuthString / 1024) +
                " KiB, more than bravebot-mcp keeps of any value");
}

Result<std::string> OAuthDocument::RequiredString(const std::string& name) const {
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<std::string> value, OptionalString(name));
  if (!value || value->empty()) return Refuse("has no " + name);
  return *value;
}

Result<std::optional<std::string>> OAuthDocument::OptionalString(const std::string& name) const {
  auto member = object_.find(name);
  if (member == object_.end() || member->is_null()) return std::optional<std::string>();
  if (!member->is_string()) return WrongType(name, "a string");
  if (member->get_ref<const std::string&>().size() > kMaxOAuthString) return TooLong(name);
  return std::optional<std::string>(member->get<std::string>());
}

Result<std::optional<std::vector<std::string>>> OAuthDocument::OptionalStrings(
    const std::string& name) const {
  auto member = object_.find(name);
  if (member == object_.end() || member->is_null()) {
    return std::optional<std::vector<std::string>>();
  }
  if (!member->is_array()) return WrongType(name, "a list of strings");
  std::vector<std::string> strings;
  for (const nlohmann::json& element : *member) {
    if (!element.is_string()) return WrongType(name, "a list of strings");
    if (element.get_ref<const std::string&>().size() > kMaxOAuthString) return TooLong(name);
    strings.push_back(element.get<std::string>());
  }
  return std::optional<std::vector<std::string>>(std::move(strings));
}

Result<std::optional<bool>> OAuthDocument::OptionalBool(const std::string& name) const {
  auto member = object_.find(name);
  if (member == object_.end() || member->is_null()) return std::optional<bool>();
  if (!member->is_boolean()) return WrongType(name, "true or false");
  return std::optional<bool>(member->get<bool>());
}

Result<std::optional<std::int64_t>> OAuthDocument::OptionalCount(const std::string& name) const {
  auto member = object_.find(name);
  if (member == object_.end() || member->is_null()) return std::optional<std::int64_t>();
  // Some servers send a lifetime as a string of digits; RFC 6749 shows a number.
  if (member->is_string()) {
    const std::string text = member->get<std::string>();
    if (text.empty() || text.size() > 12 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      return WrongType(name, "a whole number");
    }
    return std::optional<std::int64_t>(std::stoll(text));
  }
  if (member->is_number_unsigned()) {
    const std::uint64_t value = member->get<std::uint64_t>();
    // Ten thousand years of seconds: past that, no lifetime means anything.
    constexpr std::uint64_t kMost = std::uint64_t{1} << 40;
    return std::optional<std::int64_t>(static_cast<std::int64_t>(value > kMost ? kMost : value));
  }
  return WrongType(name, "a whole number of 0 or more");
}

Result<OAuthDocument> ReadOAuthDocument(std::string_view body, std::string what) {
  nlohmann::json document;
  if (ReadBoundedJson(body, document) != JsonRefusal::kNone) {
    return Error(ErrorCode::kRefused, what + " is not JSON");
  }
  if (!document.is_object()) return Error(ErrorCode::kRefused, what + " is not a JSON object");
  return OAuthDocument(std::move(document), std::move(what));
}

}  // namespace bravebot
