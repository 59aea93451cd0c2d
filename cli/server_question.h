// The server question add, approve and enable ask at a terminal: what the
// server runs, its variables, the files it may read, its digest, what
// changed since it was last approved, the runner's lines, and "Use this MCP
// server? [y/N]". A yes approves exactly the digest shown.
#ifndef BRAVEBOT_CLI_SERVER_QUESTION_H_
#define BRAVEBOT_CLI_SERVER_QUESTION_H_

#include <functional>

#include "base/file_lock.h"
#include "base/result.h"
#include "cli/command.h"
#include "confine/declaration.h"
#include "supervisor/store/approval_file.h"
#include "supervisor/store/profile_directory.h"

namespace bravebot {

// Draws the block and asks. True on a yes; anything else, a blank line and
// the end of the input included, is a no.
bool AskServerQuestion(CommandContext& context, const Declaration& declaration,
                       const ApprovalFile& approvals);

// Approves `shown` if it is still what is declared, and then runs `also`
// (asking for it in a settings file, say), all in one hold of the profile
// directory's lock.
Status ApproveAsShown(const ProfileDirectory& profile, const Declaration& shown,
                      const std::function<Status(const FileLock& held)>& also = nullptr);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_SERVER_QUESTION_H_
