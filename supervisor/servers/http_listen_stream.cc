#include "supervisor/servers/http_listen_stream.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

namespace bravebot {
namespace {

// The stream dropped this many times in a row with nothing on it is given
// up: the service's requests then come only on its answers' streams.
constexpr int kMaxListenFailures = 5;
constexpr std::chrono::seconds kListenStayed{60};
constexpr std::chrono::milliseconds kListenRetryLeast{1000};
constexpr std::chrono::milliseconds kListenRetryMost{60000};

}  // namespace

HttpListenStream::HttpListenStream(boost::asio::io_context& io, HttpClient& http,
                                   const StreamableHttpClient& client, const std::string& url,
                                   Events events)
    : http_(http), client_(client), url_(url), events_(std::move(events)), retry_timer_(io) {}

void HttpListenStream::Close() {
  retry_timer_.cancel();
  if (open_) http_.Cancel(transfer_);
  open_ = false;
  failures_ = 0;
  last_event_id_.clear();
}

void HttpListenStream::Stop() {
  stopped_ = true;
  retry_timer_.cancel();
  http_.Cancel(transfer_);
}

void HttpListenStream::Open() {
  if (open_ || stopped_) return;
  open_ = true;
  opened_ = std::chrono::steady_clock::now();
  events_read_ = SseParser();
  std::weak_ptr<HttpListenStream> weak = weak_from_this();
  auto offered = std::make_shared<bool>(false);
  const HttpRequest listen = client_.Listen(last_event_id_);
  transfer_ =
      http_.Send(url_, listen, std::chrono::milliseconds(0),
                 {[weak, offered](const HttpResponseHead& head) {
                    auto self = weak.lock();
                    if (!self) return;
                    *offered = head.status == 200 && head.content_type == "text/event-stream";
                    // 405: the service offers no stream; it sends only on its answers.
                    // A 404 is read the same way, since many services answer a GET
                    // they do not serve so: only a POST's 404 ends the session.
                    if (!*offered) self->http_.Cancel(self->transfer_);
                  },
                  [weak, offered](std::string_view bytes) {
                    auto self = weak.lock();
                    if (self && *offered) self->OnBytes(bytes);
                  },
                  [weak, offered](const Status&) {
                    auto self = weak.lock();
                    if (!self) return;
                    self->open_ = false;
                    // A stream that stayed a while was no failure; one dropped at once
                    // counts, whatever it sent before it dropped.
                    if (std::chrono::steady_clock::now() - self->opened_ >= kListenStayed) {
                      self->failures_ = 0;
                    }
                    if (self->stopped_ || !*offered || ++self->failures_ > kMaxListenFailures)
                      return;
                    // Resumed where it dropped, once the service's retry time has passed.
                    self->retry_timer_.expires_after(self->retry_);
                    self->retry_timer_.async_wait([weak](const boost::system::error_code& error) {
                      if (auto again = weak.lock(); again && !error) again->Open();
                    });
                  }});
}

void HttpListenStream::OnBytes(std::string_view bytes) {
  events_read_.Feed(bytes);
  if (!events_read_.last_event_id().empty()) last_event_id_ = events_read_.last_event_id();
  if (events_read_.retry_milliseconds()) {
    // Within bounds, so a service cannot have it reopened without pause.
    retry_ = std::chrono::milliseconds(std::clamp<std::uint64_t>(
        *events_read_.retry_milliseconds(), kListenRetryLeast.count(), kListenRetryMost.count()));
  }
  while (std::optional<SseEvent> event = events_read_.Next()) {
    if (!event->data.empty()) events_.on_message(std::move(event->data));
    if (stopped_) return;
  }
  if (events_read_.overflowed()) {
    http_.Cancel(transfer_);
    open_ = false;
    if (events_.on_overflow) events_.on_overflow();
  }
}

}  // namespace bravebot
