#include "cli/gateway/shown_words.h"

#include "base/shown_text.h"

namespace bravebot {
namespace {

bool EscapingChanges(const std::string& word) { return EscapeControlCharacters(word) != word; }

// The words of a schema that a client draws and no answer carries back: a
// title or description (a string: a field may be named "title" too), the
// names of choices.
bool IsShownWord(const std::string& member, const Json& value) {
  if (member == "title" || member == "description") return value.is_string();
  return member == "enumNames" && value.is_array();
}

std::optional<std::string> UnescapableInSchema(const Json& schema) {
  if (schema.is_string()) {
    if (EscapingChanges(schema.get<std::string>()))
      return "the value " + QuoteLine(schema.get<std::string>());
    return std::nullopt;
  }
  if (schema.is_array()) {
    for (const Json& element : schema) {
      if (auto found = UnescapableInSchema(element)) return found;
    }
    return std::nullopt;
  }
  if (!schema.is_object()) return std::nullopt;
  for (auto member = schema.begin(); member != schema.end(); ++member) {
    // A field's name is the key the answer's content is written under.
    if (EscapingChanges(member.key())) return "the field name " + QuoteLine(member.key());
    if (IsShownWord(member.key(), member.value())) continue;
    if (auto found = UnescapableInSchema(member.value())) return found;
  }
  return std::nullopt;
}

}  // namespace

void EscapeShownWords(Json& schema) {
  if (schema.is_array()) {
    for (Json& element : schema) EscapeShownWords(element);
    return;
  }
  if (!schema.is_object()) return;
  for (auto member = schema.begin(); member != schema.end(); ++member) {
    if (!IsShownWord(member.key(), member.value())) {
      EscapeShownWords(*member);
    } else if (member->is_string()) {
      *member = EscapeControlCharacters(member->get<std::string>());
    } else {
      for (Json& name : *member) {
        if (name.is_string()) name = EscapeControlCharacters(name.get<std::string>());
      }
    }
  }
}

std::optional<std::string> UnescapableWord(const Json& params) {
  if (!params.is_object()) return std::nullopt;
  auto url = params.find("url");
  if (url != params.end() && url->is_string() && EscapingChanges(url->get<std::string>())) {
    return "the url " + QuoteLine(url->get<std::string>());
  }
  auto schema = params.find("requestedSchema");
  if (schema == params.end()) return std::nullopt;
  return UnescapableInSchema(*schema);
}

Json EscapedData(const Json& data) {
  if (data.is_string()) return EscapeControlCharacters(data.get<std::string>());
  if (data.is_array()) {
    Json escaped = Json::array();
    for (const Json& element : data) escaped.push_back(EscapedData(element));
    return escaped;
  }
  if (!data.is_object()) return data;
  Json escaped = Json::object();
  for (auto member = data.begin(); member != data.end(); ++member) {
    escaped[EscapeControlCharacters(member.key())] = EscapedData(member.value());
  }
  return escaped;
}

}  // namespace bravebot
