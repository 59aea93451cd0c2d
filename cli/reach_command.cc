// bravebot-mcp reach: what a declared server may reach, item by item with
// each reason, and what this kernel enforces of it.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/command.h"
#include "cli/declaration_lookup.h"
#include "cli/profile_access.h"
#include "cli/reach_probe.h"
#include "cli/reach_view.h"
#include "cli/simple_options.h"
#include "cli/start_options.h"
#include "profiles/seatbelt_profile.h"
#include "supervisor/servers/confined_server.h"
#include "supervisor/store/declaration_store.h"

namespace bravebot {
namespace {

Result<Declaration> FindDeclaration(const std::string& alias, const CommandContext& context,
                                    std::optional<ProfileDirectory>& profile) {
  BRAVEBOT_ASSIGN_OR_RETURN(std::optional<ProfileDirectory> opened, OpenProfileToRead(context));
  if (!opened) return Error(ErrorCode::kNotFound, alias + " is not declared");
  profile = std::move(opened);
  return FindDeclaration(*profile, alias);
}

SimpleCommandSpec ReachOptions() {
  return {
      "reach",
      "Shows what a declared MCP server may reach when it starts, item by item with each reason, "
      "and what this kernel enforces of it.",
      /*takes_alias=*/true,
      /*takes_json=*/true,
      {{"--probe", "run probes under the server's confinement and check each against the reach"},
       {"--verbose", "list each system path of a long run, such as every entry of /etc"},
       {"--seatbelt", "print the reach as the Seatbelt profile macOS would confine it with"}}};
}

int RunReach(const SimpleOptions& options, CommandContext& context) {
  std::optional<ProfileDirectory> profile;
  Result<Declaration> declaration = FindDeclaration(options.alias, context, profile);
  if (!declaration) return Report(context, "reach", declaration.error());
  if (options.flags.contains("--seatbelt") && (options.flags.contains("--probe") || options.json)) {
    return Report(context, "reach",
                  Error(ErrorCode::kUsage,
                        "--seatbelt prints a profile: it takes neither "
                        "--probe nor --json"));
  }
  if (options.flags.contains("--probe")) {
    return RunReachProbe(*declaration, *profile, options.json, context);
  }

  const ServerStartOptions start = StartOptionsFor(context, *profile);
  Result<Reach> reach = ComputeServerReach(*declaration, start, kRunDirectoryShown);
  if (!reach) return Report(context, "reach", reach.error());
  if (options.flags.contains("--seatbelt")) {
    context.out << RenderSeatbeltProfile(*reach);
    return kExitOk;
  }
  Result<Confinement> confined =
      ConfineServerReach(std::move(*reach), start, declaration->alias, ProbeKernelOnce());
  if (!confined) return Report(context, "reach", confined.error());
  const Confinement& confinement = *confined;
  if (options.json) {
    context.out << JsonText(ReachJson(*declaration, confinement)) << "\n";
  } else {
    context.out << DisplayReach(*declaration, confinement, options.flags.contains("--verbose"));
  }
  return kExitOk;
}

}  // namespace

const CommandSpec kReachCommand = {
    "reach", "show what a server may reach, and prove it with --probe", "", ReachOptions, RunReach};

}  // namespace bravebot
