#include "cli/program_reach_note.h"

#include <ostream>
#include <string_view>

#include "base/shown_text.h"
#include "cli/declaration_view.h"
#include "cli/reach_view.h"
#include "cli/start_options.h"
#include "supervisor/servers/server_confinement.h"

namespace bravebot {
namespace {

// The refusals of the reach (confine/path_installs.cc) that leave the
// program without what it runs through.
bool KeepsItsProgramFromRunning(std::string_view why) {
  return why.starts_with("the interpreter") || why.starts_with("nothing its #! line names");
}

// Those that leave a directory of its PATH out: what is found there is not.
bool IsAPathEntryRefused(std::string_view why) {
  return why.starts_with("PATH entry not given") ||
         why.starts_with("a PATH entry that is not an absolute path");
}

std::string WhatToDo(std::string_view why, const Declaration& declaration) {
  if (why.find("a directory a server may write") != std::string_view::npos) {
    return "A server may rewrite a program there, #! line and all, so that line gives nothing: "
           "make the installation (a Python virtual environment, say) where no server may "
           "write, such as under your home, not under /tmp or a --dir, and declare " +
           declaration.alias + " again with its program there";
  }
  return "Declare the interpreter as the program, with the script as its first argument "
         "(bravebot-mcp add " +
         declaration.alias +
         " -- INTERPRETER SCRIPT ARGS...), or install it where the reach "
         "gives it";
}

}  // namespace

void WarnWhatItsProgramIsNotGiven(CommandContext& context, const ProfileDirectory& profile,
                                  const Declaration& declaration) {
  if (declaration.transport != Transport::kStdio) return;
  const ServerStartOptions start = StartOptionsFor(context, profile);
  context.out << std::flush;  // said after what add said on standard output
  Result<Reach> reach = ComputeServerReach(declaration, start, kRunDirectoryShown);
  if (!reach) {
    context.err << "warning: " << declaration.alias
                << " cannot start as declared: " << EscapeControlCharacters(reach.error().message())
                << "\n";
    return;
  }
  for (const NotGranted& refused : reach->not_granted) {
    const std::string path = DisplayWord(refused.path);
    const std::string why = EscapeControlCharacters(refused.why);
    if (IsAPathEntryRefused(refused.why)) {
      context.err << "warning: " << declaration.alias << " will not find programs in " << path
                  << ": " << why << "; bravebot-mcp reach " << declaration.alias
                  << " shows what it is given\n";
    } else if (KeepsItsProgramFromRunning(refused.why)) {
      context.err << "warning: " << declaration.alias << " will not start as declared: " << path
                  << ": " << why << ". " << WhatToDo(refused.why, declaration) << "\n";
    }
  }
}

}  // namespace bravebot
