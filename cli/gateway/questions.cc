#include "cli/gateway/questions.h"

#include <string_view>

namespace bravebot {
namespace {

// Whether `line` is one a person at a terminal answers from: "  2. Yes,
// and ...", "  [1/2/3]". The form offers those answers itself.
bool IsTypedAnswerLine(std::string_view line) {
  const std::size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos) return false;
  line.remove_prefix(start);
  if (line.front() == '[' && line.back() == ']') return true;
  return line.size() > 2 && line[0] >= '1' && line[0] <= '9' && line[1] == '.' && line[2] == ' ';
}

// The question's text without the answers a terminal draws under it, nor
// the [y/N] after it: the form draws them as its choices.
std::string WithoutTypedAnswers(std::string text) {
  for (;;) {
    while (!text.empty() && text.back() == '\n') text.pop_back();
    const std::size_t line_start = text.rfind('\n') + 1;  // 0 where there is none
    if (line_start == 0 || !IsTypedAnswerLine(std::string_view(text).substr(line_start))) break;
    text.erase(line_start);
  }
  for (const char* prompt : {" [y/N]", " [1/2/3]"}) {
    const std::string suffix = prompt;
    if (text.size() > suffix.size() &&
        text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0) {
      text.erase(text.size() - suffix.size());
    }
  }
  return text;
}

}  // namespace

Question ServerQuestion(const std::string& text) {
  return {WithoutTypedAnswers(text),
          {{"1", "Yes"},
           {"2", "Yes, and use all future MCP servers in this project"},
           {"3", "No, continue without this server"}},
          "3"};
}

Question ListQuestion(const std::string& offer) {
  return {offer + "\n\nOffer these tools to the model?",
          {{"1", "Yes, offer them"}, {"2", "No, continue without them"}},
          "2"};
}

Question CallQuestion(const std::string& text, const std::string& alias_and_tool, bool remembers) {
  Question question{WithoutTypedAnswers(text), {{"1", "Yes"}}, "3"};
  if (remembers) {
    question.answers.emplace_back(
        "2", "Yes, and stop asking for " + alias_and_tool + " in this project");
  }
  question.answers.emplace_back("3", "No");
  return question;
}

Question RedirectQuestion(const std::string& text) {
  return {WithoutTypedAnswers(text), {{"y", "Yes"}, {"n", "No"}}, "n"};
}

bool TakesFormElicitation(const Json& capabilities) {
  auto elicitation = capabilities.find("elicitation");
  if (elicitation == capabilities.end() || !elicitation->is_object()) return false;
  return elicitation->empty() || elicitation->contains("form");
}

Json ElicitationParams(const Question& question, const std::string& protocol_version) {
  // From 2025-11-25 a choice is named by oneOf's titles (and the form mode
  // by its name); before, by enumNames beside the enum.
  const bool titled = protocol_version >= "2025-11-25";
  Json answer = {{"type", "string"}, {"title", "Answer"}};
  Json values = Json::array();
  Json words = Json::array();
  Json choices = Json::array();
  for (const auto& [value, said] : question.answers) {
    values.push_back(value);
    words.push_back(said);
    choices.push_back({{"const", value}, {"title", said}});
  }
  if (titled) {
    answer["oneOf"] = std::move(choices);
  } else {
    answer["enum"] = std::move(values);
    answer["enumNames"] = std::move(words);
  }
  Json params = Json::object();
  if (titled) params["mode"] = "form";
  params["message"] = question.message;
  params["requestedSchema"] = {{"type", "object"},
                               {"properties", {{"answer", std::move(answer)}}},
                               {"required", {"answer"}}};
  return params;
}

std::string AnswerOf(const Question& question, const Answer& answer) {
  if (answer.is_error()) return question.no;
  const Json& result = answer.message["result"];
  if (!result.is_object() || result.value("action", "") != "accept") return question.no;
  auto content = result.find("content");
  if (content == result.end() || !content->is_object()) return question.no;
  auto picked = content->find("answer");
  if (picked == content->end() || !picked->is_string()) return question.no;
  for (const auto& [value, said] : question.answers) {
    if (value == picked->get<std::string>()) return value;
  }
  return question.no;
}

}  // namespace bravebot
