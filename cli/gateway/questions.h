// The spec's questions as MCP elicitation: each is put to the person through
// the client with the text the supervisor gives, and the spec's answers as
// the one enum of a form, so that what the person picks is exactly what a
// person at a terminal would type. A decline or a cancel is the question's
// no, as the end of input is at a terminal.
#ifndef BRAVEBOT_CLI_GATEWAY_QUESTIONS_H_
#define BRAVEBOT_CLI_GATEWAY_QUESTIONS_H_

#include <string>
#include <utility>
#include <vector>

#include "cli/gateway/json_rpc_peer.h"

namespace bravebot {

struct Question {
  std::string message;
  // Each answer as typed at a terminal, and its words.
  std::vector<std::pair<std::string, std::string>> answers;
  std::string no;  // what a decline or a cancel answers
};

Question ServerQuestion(const std::string& text);
Question ListQuestion(const std::string& offer);
Question CallQuestion(const std::string& text, const std::string& alias_and_tool, bool remembers);
Question RedirectQuestion(const std::string& text);

// Whether a client that declared `capabilities` takes a form elicitation:
// `elicitation: {}` means form alone, as the spec keeps older clients right.
bool TakesFormElicitation(const Json& capabilities);

// The params of elicitation/create for `question`, for a client speaking
// `protocol_version`.
Json ElicitationParams(const Question& question, const std::string& protocol_version);

// What the person answered, as typed at a terminal: the no where the client
// declined, cancelled, went away, or answered outside the enum.
std::string AnswerOf(const Question& question, const Answer& answer);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_GATEWAY_QUESTIONS_H_
