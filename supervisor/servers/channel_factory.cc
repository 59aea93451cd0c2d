#include "supervisor/servers/channel_factory.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <utility>

#include "supervisor/servers/http_channel.h"
#include "supervisor/servers/kept_sign_in.h"
#include "supervisor/servers/service_token.h"

namespace bravebot {
namespace {

ServerEvents ProcessEvents(ChannelEvents& events) {
  ServerEvents process;
  process.on_line = std::move(events.on_line);
  process.on_stderr_line = std::move(events.on_stderr_line);
  process.on_overflow = std::move(events.on_overflow);
  process.on_output_closed = std::move(events.on_output_closed);
  process.on_exit = std::move(events.on_exit);
  return process;
}

HttpChannelEvents ServiceEvents(ChannelEvents& events) {
  HttpChannelEvents service;
  service.on_line = std::move(events.on_line);
  service.on_overflow = std::move(events.on_overflow);
  service.on_request_failed = std::move(events.on_request_failed);
  service.on_redirect = std::move(events.on_redirect);
  service.on_session_ended = std::move(events.on_session_ended);
  service.on_exit = std::move(events.on_exit);
  return service;
}

class ConfinedChannelFactory : public ChannelFactory {
 public:
  Abandon Open(boost::asio::io_context& io, const Declaration& declaration,
               const ServerStartOptions& options, const ChannelSettings& settings,
               ChannelEvents events, Opened opened) const override {
    if (declaration.transport == Transport::kHttp) {
      return OpenService(io, declaration, options, settings, std::move(events), std::move(opened));
    }
    auto launch = RunningServer::Start(
        io, declaration, options, ProcessEvents(events),
        [opened = std::move(opened)](Result<std::shared_ptr<RunningServer>> process) {
          if (!process) return opened(process.error());
          opened(std::shared_ptr<ServerChannel>(std::move(*process)));
        },
        settings.launch_on);
    return [launch] { launch->Abandon(); };
  }

 private:
  // Nothing of a service is reached before the loop runs it, as a process
  // is launched elsewhere: the outcome always comes once Open has returned.
  static Abandon OpenService(boost::asio::io_context& io, const Declaration& declaration,
                             const ServerStartOptions& options, const ChannelSettings& settings,
                             ChannelEvents events, Opened opened) {
    auto abandoned = std::make_shared<bool>(false);
    boost::asio::co_spawn(
        io,
        [&io, abandoned, declaration, options, settings, events = std::move(events),
         opened = std::move(opened)]() mutable -> boost::asio::awaitable<void> {
          // co_spawn may run it at once, inside Open: the loop's turn first.
          co_await boost::asio::post(io, boost::asio::use_awaitable);
          if (*abandoned) co_return;
          // The administrator's file first: a service it refuses is sent
          // nothing, not even a refresh of its token.
          Result<HttpChannelOptions> channel =
              ServiceChannelOptions(declaration, options, settings.asking);
          if (!channel) {
            opened(Error(ErrorCode::kNotStarted, channel.error().message()));
            co_return;
          }
          // The token login kept, refreshed first where it expired: a
          // transfer of its own, before the service is sent anything.
          HttpClient refreshing(io, settings.alias);
          Result<std::optional<std::string>> bearer =
              co_await ServiceToken(refreshing, declaration, options);
          if (*abandoned) co_return;
          if (!bearer) {
            opened(bearer.error());
            co_return;
          }
          channel->alias = settings.alias;
          channel->bearer = std::move(*bearer);
          if (channel->bearer) channel->sign_in_kept = SignInKeptCheck(declaration, options);
          opened(std::shared_ptr<ServerChannel>(
              HttpChannel::Open(io, std::move(*channel), ServiceEvents(events))));
        },
        boost::asio::detached);
    return [abandoned] { *abandoned = true; };
  }
};

}  // namespace

const ChannelFactory& ConfinedChannels() {
  static const ConfinedChannelFactory factory;
  return factory;
}

}  // namespace bravebot
