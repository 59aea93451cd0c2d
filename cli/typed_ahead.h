// What was typed at a terminal before a question is drawn is discarded, so
// that a key pressed for the last question (or typed ahead with a call)
// never answers this one: the spec's "a key pressed for the last question
// does not answer this one". Each question calls it right before its text
// is written, so what is typed once the question shows is its answer.
#ifndef BRAVEBOT_CLI_TYPED_AHEAD_H_
#define BRAVEBOT_CLI_TYPED_AHEAD_H_

#include "cli/command.h"

namespace bravebot {

// Discards what was typed at the terminal `fd` and not yet read. Nothing
// where `fd` is no terminal: piped input is a script's, and none of it may
// be lost.
void DiscardTypedAhead(int fd);

// The same for a command's question read from `context.in`: its standard
// input, where the command runs at a terminal.
void DiscardTypedAhead(const CommandContext& context);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_TYPED_AHEAD_H_
