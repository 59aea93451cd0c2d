#include "supervisor/servers/http_channel_options.h"

namespace bravebot {

Result<HttpChannelOptions> ServiceChannelOptions(const Declaration& declaration,
                                                 const ServerStartOptions& options, Asking asking) {
  HttpChannelOptions channel;
  channel.alias = declaration.alias;
  channel.url = declaration.url;
  channel.headers = declaration.headers;
  channel.asking = asking;
  if (options.policy) {
    // The administrator's file decides for a service as for a program.
    ManagedDecision decision = Decide(*options.policy, declaration, "");
    if (!decision.allowed) {
      return Error(ErrorCode::kRefused, ManagedRefusalSentence(declaration.alias, decision));
    }
    channel.policy = *options.policy;
  }
  return channel;
}

}  // namespace bravebot
