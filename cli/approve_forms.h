// The two forms of bravebot-mcp approve that answer, at a terminal, what a
// session with nobody to ask (a gateway whose client cannot be asked) cannot
// put: the tool list of a server, and answer 2 at a tool's call question.
// Each answers for the current directory, as a session opened there.
#ifndef BRAVEBOT_CLI_APPROVE_FORMS_H_
#define BRAVEBOT_CLI_APPROVE_FORMS_H_

#include "cli/command.h"
#include "cli/simple_options.h"

namespace bravebot {

// approve ALIAS --tools: the server question where its digest waits for one,
// then the server started confined through bravebot-supervisor, its list
// shown and asked about, and a yes recorded by the supervisor.
int ApproveToolList(const SimpleOptions& options, CommandContext& context);

// approve ALIAS:TOOL: answer 2 at the call question of one tool, recorded in
// mcp-tools for the current directory.
int ApproveToolCalls(const SimpleOptions& options, CommandContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_APPROVE_FORMS_H_
