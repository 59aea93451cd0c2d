#include "cli/start_options.h"

namespace bravebot {

ServerStartOptions StartOptionsFor(const CommandContext& context, const ProfileDirectory& profile) {
  ServerStartOptions options;
  options.profile = &profile;
  options.user_home = context.UserHome();
  options.getenv = context.getenv;
  options.fs = &context.fs;
  options.policy = LoadManagedPolicy(ManagedFilePath(context.getenv));
  return options;
}

}  // namespace bravebot
