#include "cli/start_options.h"

namespace bravebot {

ServerStartOptions StartOptionsFor(const CommandContext& context, const ProfileDirectory& profile) {
  ServerStartOptions options;
  options.profile = &profile;
  options.user_home = context.UserHome();
  options.getenv = context.getenv;
  options.fs = &context.fs;
  options.policy = LoadManagedPolicy(ManagedFilePath(context.getenv));
  // Incognito writes nothing under the profile directory: the server's home
  // is made in its temporary directory, and goes with it.
  options.incognito = IsIncognito(context);
  return options;
}

}  // namespace bravebot
