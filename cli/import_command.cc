// bravebot-mcp import: declares the MCP servers another client's settings
// file declares (cli/import_sources.h), each as add would declare it, and
// shows each as add shows it. At a terminal each is asked about first.
// Named no file, it lists the usual ones (cli/import_search.h).
// Nothing is approved and nothing is asked for: that is enable's, server by
// server, as for a server added by hand.
#include <ostream>

#include "base/files.h"
#include "base/shown_text.h"
#include "cli/add_arguments.h"
#include "cli/command.h"
#include "cli/declaration_view.h"
#include "cli/import_search.h"
#include "cli/import_sources.h"
#include "cli/profile_access.h"
#include "cli/simple_options.h"
#include "cli/typed_ahead.h"
#include "confine/digest.h"
#include "confine/paths.h"
#include "supervisor/policy/new_declaration.h"
#include "supervisor/store/declaration_changes.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/file_bounds.h"
#include "supervisor/tools/call_decision.h"

namespace bravebot {
namespace {

SimpleCommandSpec ImportOptions() {
  SimpleCommandSpec spec{
      "import",
      "Declares the MCP servers a Claude-style .mcp.json, ~/.claude.json or "
      "claude_desktop_config.json, a Cursor, Windsurf or VS Code mcp.json, a Clarvis "
      "settings.json or a Codex config.toml declares, each as add would, and shows each as add "
      "shows it; at a terminal each is asked about first. Named no file, it lists the usual ones "
      "and asks which. An alias declared already is left as it is. Nothing is approved or asked "
      "for: bravebot-mcp enable ALIAS does that.",
      /*takes_alias=*/false,
      /*takes_json=*/false,
      {{"--dry-run", "show what would be declared, and declare nothing"}}};
  spec.takes_optional_path = true;
  spec.path_meaning = "the settings file to read (none: the usual ones are listed)";
  return spec;
}

// The declaration `entry` makes, as add completes it; or why it makes none.
Result<Declaration> DeclarationOf(const ImportEntry& entry, CommandContext& context) {
  if (!entry.refusal.empty()) return Error(ErrorCode::kRefused, entry.refusal);
  std::vector<std::string> words = {entry.alias};
  words.insert(words.end(), entry.add_words.begin(), entry.add_words.end());
  BRAVEBOT_ASSIGN_OR_RETURN(AddArguments arguments, ParseAddArguments(words));
  std::optional<std::string> location = context.ProfileLocation();
  if (!location) return Error(ErrorCode::kRefused, NoProfileDirectoryMessage());
  DeclarationSurroundings around{context.cwd, *location,
                                 ResolvedProfileLocation(*location, context.fs), &context.fs,
                                 context.UserHome()};
  return CompleteDeclaration(arguments.declaration, around);
}

// Whether `alias` is declared already, usable or not, in the profile
// directory there is (none: nothing is).
Result<bool> IsDeclared(const std::string& alias, CommandContext& context) {
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<ProfileDirectory> profile, OpenProfileToRead(context));
  if (!profile) return false;
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile file, DeclarationStore(*profile).Read());
  return file.Find(alias) != nullptr || file.FindUnusable(alias) != nullptr;
}

bool AskToDeclare(CommandContext& context, const std::string& alias) {
  DiscardTypedAhead(context);
  context.out << "\n  Declare " << alias << "? [y/N] " << std::flush;
  std::string answer;
  if (!std::getline(context.in, answer)) {
    context.out << "\n";  // the end of the input echoes no line break
    return false;
  }
  return IsYesAnswer(answer);
}

// The file to read: the one named, or else the usual one chosen; nothing
// where none was.
Result<std::optional<std::string>> FileToRead(const SimpleOptions& options,
                                              CommandContext& context) {
  if (options.path.empty()) return ChooseUsualFile(context);
  return std::optional<std::string>(AbsolutePath(options.path, context.cwd));
}

int RunImport(const SimpleOptions& options, CommandContext& context) {
  const bool dry_run = options.flags.contains("--dry-run");
  Result<std::optional<std::string>> chosen = FileToRead(options, context);
  if (!chosen) return Report(context, "import", chosen.error());
  if (!*chosen) {
    context.out << "nothing was imported\n";
    return kExitOk;
  }
  const std::string path = **chosen;
  const std::string shown = EscapeControlCharacters(path);
  Result<std::optional<std::string>> text = ReadWholeFile(path, kImportFileBound);
  if (!text) {
    return Report(context, "import",
                  Error(text.error().code(), shown + " " + text.error().message()));
  }
  if (!*text) {
    return Report(context, "import", Error(ErrorCode::kNotFound, shown + " does not exist"));
  }
  // Where its links lead, as the home is: a folder's .cursor is told from
  // the home's by where they are.
  Result<std::vector<ImportEntry>> entries = ReadServersToImport(
      **text, context.fs.ResolvedPath(path).value_or(path), HomeToSearch(context));
  if (!entries) {
    return Report(context, "import",
                  Error(entries.error().code(), shown + " " + entries.error().message()));
  }
  if (entries->empty()) {
    context.out << shown << " declares no MCP servers: nothing was imported\n";
    return kExitOk;
  }

  int declared = 0;
  int left_out = 0;
  for (const ImportEntry& entry : *entries) {
    const std::string name = EscapeControlCharacters(entry.name);
    // The entry as the lines about it name it: "db (from the project /home/u/app)".
    const std::string label =
        entry.origin.empty() ? name
                             : EscapeControlCharacters(entry.name + " (from " + entry.origin + ")");
    const std::string alias = entry.alias;  // an alias: nothing to escape
    auto leave_out = [&](const std::string& why) {
      ++left_out;
      context.out << label << " was not imported: " << EscapeControlCharacters(why) << "\n";
    };
    if (entry.same_as_earlier) {
      context.out << label << " is the same server as " << alias
                  << " above: one declaration serves both\n";
      continue;
    }
    Result<Declaration> declaration = DeclarationOf(entry, context);
    if (!declaration) {
      leave_out(declaration.error().message());
      continue;
    }
    Result<bool> taken = IsDeclared(declaration->alias, context);
    if (!taken) return Report(context, "import", taken.error());
    if (*taken) {
      leave_out((alias == entry.name ? std::string("it") : alias) +
                " is declared already, and import replaces nothing (bravebot-mcp add " + alias +
                " replaces it by hand)");
      continue;
    }
    context.out << "\n"
                << DisplayDeclarationBlock(*declaration, ComputeDigest(*declaration).Short());
    for (const std::string& note : entry.notes) context.out << "  " << note << "\n";
    if (alias != entry.name) {
      context.out << "  \"" << name << "\" is not an alias (letters, digits, - and _): its alias "
                  << "here is " << alias << "\n";
    }
    if (!entry.origin.empty()) {
      context.out << "  from " << EscapeControlCharacters(entry.origin) << " in " << shown << "\n";
    }
    if (dry_run) {
      context.out << "\nwould declare " << alias << "\n";
      continue;
    }
    // A made alias is said on the line above: the question names what is declared.
    if (context.at_terminal && !AskToDeclare(context, alias)) {
      context.out << label << " was not declared\n";
      continue;
    }
    Result<ProfileDirectory> profile = OpenProfileToWrite(context);
    if (!profile) return Report(context, "import", profile.error());
    if (Status written = DeclareNew(*profile, *declaration); !written) {
      leave_out(written.error().message());
      continue;
    }
    ++declared;
    context.out << "\ndeclared " << alias << " in " << DeclarationStore(*profile).path() << "\n";
  }
  if (!dry_run && declared > 0) {
    context.out << "\nnothing was approved or asked for: bravebot-mcp enable ALIAS, at a "
                   "terminal, approves one and asks for it\n";
  }
  return left_out > 0 ? kExitFailed : kExitOk;
}

}  // namespace

const CommandSpec kImportCommand = {"import",
                                    "declare the servers another client's settings file declares",
                                    "imported", ImportOptions, RunImport};

}  // namespace bravebot
