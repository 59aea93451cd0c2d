#include "supervisor/servers/http_client.h"

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>
#include <optional>
#include <vector>

#include "confine/url.h"
#include "supervisor/servers/curl_options.h"

namespace bravebot {
namespace {

// A connection not made by then is taken as one that cannot be: a stream or
// a long call has no bound once it is under way.
constexpr std::chrono::milliseconds kConnectTimeout{10000};

std::string EffectivePort(const ServiceUrl& url) {
  if (!url.port.empty()) return url.port;
  return url.scheme == "https" ? "443" : "80";
}

// The host as a url writes it: an IPv6 address inside brackets.
std::string UrlHost(const std::string& host) {
  return host.find(':') == std::string::npos ? host : "[" + host + "]";
}

// Whether libcurl reads `url`'s host as `ours` does: a url two readers read
// apart is refused, since the host matched is then not the host reached.
bool CurlReadsTheSameHost(const CurlLibrary& curl, const std::string& url, const ServiceUrl& ours) {
  CURLU* parsed = curl.url();
  if (parsed == nullptr) return false;
  char* host = nullptr;
  const bool same = curl.url_set(parsed, CURLUPART_URL, url.c_str(), 0) == CURLUE_OK &&
                    curl.url_get(parsed, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
                    AsciiLowercase(host) == AsciiLowercase(UrlHost(ours.host));
  curl.free(host);
  curl.url_cleanup(parsed);
  return same;
}

}  // namespace

struct HttpClient::Transfer {
  TransferId id = 0;
  const CurlLibrary* curl = nullptr;  // set with easy
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  curl_slist* connect_to = nullptr;
  std::string body;  // a POST's, alive while libcurl sends it
  std::chrono::milliseconds timeout{0};
  HttpHeadReader head_reader;
  bool head_whole = false;
  bool head_given = false;
  std::string arrived;  // body bytes not given yet
  std::optional<CURLcode> ended;
  bool added = false;  // to the multi handle: made with every option set
  HttpHandlers handlers;
  char error_buffer[CURL_ERROR_SIZE] = {};

  ~Transfer() {
    if (curl == nullptr) return;
    if (easy != nullptr) curl->easy_cleanup(easy);
    curl->slist_free_all(headers);
    curl->slist_free_all(connect_to);
  }
};

// A socket libcurl asked to be told about. Its descriptor never closes the
// socket: libcurl does, after telling us to stop watching it.
struct HttpClient::Watch {
  Watch(boost::asio::io_context& io, int socket) : descriptor(io, socket), fd(socket) {}
  ~Watch() { StopWatching(); }
  // Done as soon as libcurl says, before it closes the socket: a descriptor
  // released later would take the watch off whatever socket has its number
  // by then.
  void StopWatching() {
    if (!descriptor.is_open()) return;
    boost::system::error_code ignored;
    descriptor.cancel(ignored);
    descriptor.release();
  }
  boost::asio::posix::stream_descriptor descriptor;
  int fd;
  int what = 0;  // CURL_POLL_IN, CURL_POLL_OUT or CURL_POLL_INOUT
  bool reading = false;
  bool writing = false;
};

namespace {

size_t OnHeader(char* data, size_t size, size_t count, void* transfer_pointer) {
  auto* transfer = static_cast<HttpClient::Transfer*>(transfer_pointer);
  std::string_view line(data, size * count);
  transfer->head_reader.TakeLine(line);
  // Ends the transfer: a head without end is no answer (CURLE_WRITE_ERROR).
  if (transfer->head_reader.overflowed()) return 0;
  const bool blank = line == "\r\n" || line == "\n";
  // The blank line after an interim answer (100 Continue) ends no head.
  if (blank && transfer->head_reader.head().status >= 200) transfer->head_whole = true;
  return size * count;
}

size_t OnBodyBytes(char* data, size_t size, size_t count, void* transfer_pointer) {
  auto* transfer = static_cast<HttpClient::Transfer*>(transfer_pointer);
  // Bytes before a whole head (after a 101 nobody asked for) are no answer
  // of HTTP's: taking them would keep them without end.
  if (!transfer->head_whole) return 0;
  transfer->arrived.append(data, size * count);
  return size * count;
}

}  // namespace

HttpClient::HttpClient(boost::asio::io_context& io, std::string alias)
    : io_(io), alias_(std::move(alias)), multi_(nullptr), timer_(io) {
  SetUp(LoadCurl());
}

HttpClient::HttpClient(boost::asio::io_context& io, std::string alias, const CurlLibrary& curl)
    : io_(io), alias_(std::move(alias)), multi_(nullptr), timer_(io) {
  SetUp(&curl);
}

void HttpClient::SetUp(Result<const CurlLibrary*> loaded) {
  if (!loaded) {
    unloaded_ = loaded.error().message();
    return;
  }
  const CurlLibrary& curl = **loaded;
  multi_ = curl.multi_init();
  if (multi_ == nullptr) {
    unloaded_ = "libcurl could not make the handle that runs its transfers (curl_multi_init)";
    return;
  }
  for (const Status& set : {
           SetCurlOption(curl, multi_, kCurlSocketFunction, &HttpClient::OnSocket),
           SetCurlOption(curl, multi_, kCurlSocketData, this),
           SetCurlOption(curl, multi_, kCurlTimerFunction, &HttpClient::OnTimer),
           SetCurlOption(curl, multi_, kCurlTimerData, this),
       }) {
    if (!set) {
      unloaded_ = set.error().message();
      curl.multi_cleanup(std::exchange(multi_, nullptr));
      return;
    }
  }
  curl_ = &curl;
}

HttpClient::~HttpClient() {
  *alive_ = false;
  timer_.cancel();
  for (auto& [id, transfer] : transfers_) {
    if (transfer->added) curl_->multi_remove_handle(multi_, transfer->easy);
  }
  transfers_.clear();
  watches_.clear();
  if (multi_ != nullptr) curl_->multi_cleanup(multi_);
}

void HttpClient::SendToOriginOnly(const std::string& declared_url,
                                  std::vector<std::pair<std::string, std::string>> headers) {
  Result<ServiceUrl> origin = ParseServiceUrl(declared_url);
  // A url that cannot be read is reached by no request either.
  if (!origin) return;
  declared_origin_ = *origin;
  origin_headers_ = std::move(headers);
}

void HttpClient::SendSignIn(std::string access_token, std::function<bool()> still_kept) {
  access_token_ = std::move(access_token);
  still_kept_ = std::move(still_kept);
}

bool HttpClient::SignInStillKept() {
  if (!access_token_) return false;
  if (still_kept_ && !still_kept_()) {
    access_token_.reset();
    still_kept_ = nullptr;
    return false;
  }
  return true;
}

HttpClient::TransferId HttpClient::Send(const std::string& url, const HttpRequest& request,
                                        std::chrono::milliseconds timeout, HttpHandlers handlers) {
  const TransferId id = next_id_++;
  auto transfer = std::make_unique<Transfer>();
  transfer->id = id;
  transfer->handlers = std::move(handlers);
  transfer->timeout = timeout;
  Transfer& t = *transfer;
  transfers_[id] = std::move(transfer);

  Result<ServiceUrl> parsed = ParseServiceUrl(url);
  std::optional<Error> refused;
  if (!curl_) {
    refused = Error(ErrorCode::kRefused, alias_ + " was not reached: " + unloaded_);
  } else if (!parsed) {
    refused = Error(ErrorCode::kRefused, alias_ + " was not reached: " + parsed.error().message());
  } else if (!CurlReadsTheSameHost(*curl_, url, *parsed)) {
    refused = Error(ErrorCode::kRefused,
                    alias_ +
                        " was not reached: its url spells its host in a way a connection "
                        "could read as another, so nothing was sent");
  } else if (Status started = Start(t, url, *parsed, request); !started) {
    refused = Error(ErrorCode::kRefused, alias_ + " was not reached: " + started.error().message());
  }
  if (refused) {
    // From the loop, as every other outcome comes.
    boost::asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_), id, error = *refused] {
      if (alive.lock()) Fail(id, error);
    });
  }
  return id;
}

Status HttpClient::Start(Transfer& t, const std::string& url, const ServiceUrl& parsed,
                         const HttpRequest& request) {
  const CurlLibrary& curl = *curl_;
  t.curl = curl_;
  t.easy = curl.easy_init();
  if (t.easy == nullptr) {
    return Error(ErrorCode::kSystem, "libcurl could not make a transfer (curl_easy_init)");
  }
  CURL* easy = t.easy;
  auto list = [&](curl_slist*& items, const std::string& item) -> Status {
    curl_slist* longer = curl.slist_append(items, item.c_str());
    if (longer == nullptr) {
      return Error(ErrorCode::kSystem, "libcurl could not hold a header (curl_slist_append)");
    }
    items = longer;
    return Status();
  };
  // Whatever libcurl makes of the url, it connects to the host matched.
  BRAVEBOT_RETURN_IF_ERROR(
      list(t.connect_to, "::" + UrlHost(parsed.host) + ":" + EffectivePort(parsed)));
  for (const auto& [name, value] : request.headers) {
    BRAVEBOT_RETURN_IF_ERROR(list(t.headers, name + ": " + value));
  }
  if (declared_origin_ && IsSameOrigin(parsed, *declared_origin_)) {
    for (const auto& [name, value] : origin_headers_) {
      BRAVEBOT_RETURN_IF_ERROR(list(t.headers, name + ": " + value));
    }
    if (SignInStillKept()) {
      BRAVEBOT_RETURN_IF_ERROR(list(t.headers, "Authorization: Bearer " + *access_token_));
    }
  }
  BRAVEBOT_RETURN_IF_ERROR(list(t.headers, "Expect:"));  // no wait for 100 Continue

  // Each checked, the protections first: a transfer is made with all of
  // them or not at all.
  for (const Status& set : {
           SetCurlOption(curl, easy, kCurlProtocols, "http,https"),
           SetCurlOption(curl, easy, kCurlRedirectProtocols, "http,https"),
           SetCurlOption(curl, easy, kCurlFollowRedirects, 0L),
           SetCurlOption(curl, easy, kCurlMaxRedirects, 0L),
           SetCurlOption(curl, easy, kCurlProxy, ""),  // no proxy from the environment
           SetCurlOption(curl, easy, kCurlVerifyPeer, 1L),
           SetCurlOption(curl, easy, kCurlVerifyHost, 2L),
           SetCurlOption(curl, easy, kCurlTlsVersion, long{CURL_SSLVERSION_TLSv1_2}),
           SetCurlOption(curl, easy, kCurlConnectTo, t.connect_to),
           SetCurlOption(curl, easy, kCurlConnectTimeout, long(kConnectTimeout.count())),
           // Zero is no bound, for a stream.
           SetCurlOption(curl, easy, kCurlTimeout, long(t.timeout.count())),
           SetCurlOption(curl, easy, kCurlNoSignal, 1L),
           SetCurlOption(curl, easy, kCurlUrl, url.c_str()),
           SetCurlOption(curl, easy, kCurlPrivate, &t),
           SetCurlOption(curl, easy, kCurlHeaders, t.headers),
           SetCurlOption(curl, easy, kCurlHeaderFunction, &OnHeader),
           SetCurlOption(curl, easy, kCurlHeaderData, &t),
           SetCurlOption(curl, easy, kCurlWriteFunction, &OnBodyBytes),
           SetCurlOption(curl, easy, kCurlWriteData, &t),
           SetCurlOption(curl, easy, kCurlErrorBuffer, t.error_buffer),
       }) {
    BRAVEBOT_RETURN_IF_ERROR(set);
  }
  if (request.method == "POST") {
    t.body = request.body;
    BRAVEBOT_RETURN_IF_ERROR(
        SetCurlOption(curl, easy, kCurlBodySize, static_cast<curl_off_t>(t.body.size())));
    BRAVEBOT_RETURN_IF_ERROR(SetCurlOption(curl, easy, kCurlBody, t.body.data()));
  } else if (request.method == "GET") {
    BRAVEBOT_RETURN_IF_ERROR(SetCurlOption(curl, easy, kCurlGet, 1L));
  } else {
    BRAVEBOT_RETURN_IF_ERROR(SetCurlOption(curl, easy, kCurlMethod, request.method.c_str()));
  }
  if (curl.multi_add_handle(multi_, easy) != CURLM_OK) {
    return Error(ErrorCode::kSystem,
                 "libcurl could not start the transfer (curl_multi_add_handle)");
  }
  t.added = true;
  if (paused_) curl.easy_pause(easy, CURLPAUSE_RECV);
  return Status();
}

void HttpClient::Pause() {
  if (paused_) return;
  paused_ = true;
  for (auto& [id, transfer] : transfers_) {
    if (transfer->added) curl_->easy_pause(transfer->easy, CURLPAUSE_RECV);
  }
}

void HttpClient::Resume() {
  if (!paused_) return;
  paused_ = false;
  for (auto& [id, transfer] : transfers_) {
    if (transfer->added) curl_->easy_pause(transfer->easy, CURLPAUSE_CONT);
  }
  // What libcurl held while paused is written out on its next action.
  boost::asio::post(io_, [this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.lock()) Act(CURL_SOCKET_TIMEOUT, 0);
  });
}

void HttpClient::Cancel(TransferId id) {
  auto found = transfers_.find(id);
  if (found == transfers_.end()) return;
  if (found->second->added) curl_->multi_remove_handle(multi_, found->second->easy);
  transfers_.erase(found);
}

int HttpClient::OnSocket(CURL*, curl_socket_t fd, int what, void* client, void*) {
  static_cast<HttpClient*>(client)->Watching(fd, what);
  return 0;
}

int HttpClient::OnTimer(CURLM*, long timeout_ms, void* client) {
  auto* self = static_cast<HttpClient*>(client);
  if (timeout_ms < 0) {
    self->timer_.cancel();
    return 0;
  }
  self->timer_.expires_after(std::chrono::milliseconds(timeout_ms));
  self->timer_.async_wait(
      [self, alive = std::weak_ptr<bool>(self->alive_)](const boost::system::error_code& error) {
        if (error || !alive.lock()) return;
        self->Act(CURL_SOCKET_TIMEOUT, 0);
      });
  return 0;
}

void HttpClient::Watching(int fd, int what) {
  if (what == CURL_POLL_REMOVE) {
    auto found = watches_.find(fd);
    if (found != watches_.end()) {
      found->second->StopWatching();
      watches_.erase(found);
    }
    return;
  }
  std::shared_ptr<Watch>& watch = watches_[fd];
  if (!watch) watch = std::make_shared<Watch>(io_, fd);
  watch->what = what;
  Arm(watch);
}

void HttpClient::Arm(const std::shared_ptr<Watch>& watch) {
  auto wait = [this, watch](boost::asio::posix::stream_descriptor::wait_type type, bool& waiting,
                            int wanted, int event) {
    if (waiting || (watch->what & wanted) == 0) return;
    waiting = true;
    watch->descriptor.async_wait(type, [this, watch, alive = std::weak_ptr<bool>(alive_), &waiting,
                                        wanted, event](const boost::system::error_code& error) {
      if (!alive.lock()) return;
      waiting = false;
      auto current = watches_.find(watch->fd);
      if (error || current == watches_.end() || current->second != watch) return;
      if ((watch->what & wanted) == 0) return;
      Act(watch->fd, event);
      if (!alive.lock()) return;  // a handler ended the client
      // libcurl may have stopped watching it, or replaced it, meanwhile.
      current = watches_.find(watch->fd);
      if (current != watches_.end() && current->second == watch) Arm(watch);
    });
  };
  wait(boost::asio::posix::stream_descriptor::wait_read, watch->reading, CURL_POLL_IN,
       CURL_CSELECT_IN);
  wait(boost::asio::posix::stream_descriptor::wait_write, watch->writing, CURL_POLL_OUT,
       CURL_CSELECT_OUT);
}

void HttpClient::Act(int fd, int events) {
  if (multi_ == nullptr) return;
  std::weak_ptr<bool> alive = alive_;
  int running = 0;
  ++actions_;
  curl_->multi_socket_action(multi_, fd, events, &running);
  if (alive.lock()) Deliver();
}

namespace {

std::string InOurWords(const CurlLibrary& curl, const std::string& alias, CURLcode code,
                       std::chrono::milliseconds timeout) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return "no answer from " + alias + " within " +
             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) +
             " s";
    case CURLE_COULDNT_RESOLVE_HOST:
      return alias + " was not reached: its host name does not resolve";
    case CURLE_COULDNT_CONNECT:
      return alias + " was not reached: the connection was refused";
    case CURLE_PEER_FAILED_VERIFICATION:
      return alias +
             " was not reached: its certificate does not verify against this machine's "
             "certificate authorities, so nothing was sent";
    case CURLE_SSL_CONNECT_ERROR:
      return alias + " was not reached: a TLS connection to it could not be made";
    case CURLE_WRITE_ERROR:
      return alias + " answered with something that is no HTTP answer";
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      return alias + " closed the connection before its answer was whole";
    default:
      return alias + " was not reached: " + curl.easy_strerror(code);
  }
}

}  // namespace

void HttpClient::Deliver() {
  CURLMsg* message = nullptr;
  int left = 0;
  while ((message = curl_->multi_info_read(multi_, &left)) != nullptr) {
    if (message->msg != CURLMSG_DONE) continue;
    char* transfer = nullptr;
    curl_->easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &transfer);
    if (transfer != nullptr) reinterpret_cast<Transfer*>(transfer)->ended = message->data.result;
  }
  std::weak_ptr<bool> alive = alive_;
  std::vector<TransferId> ids;
  for (const auto& [id, transfer] : transfers_) ids.push_back(id);
  for (TransferId id : ids) {
    // A handler may cancel any transfer, its own included, or end this
    // client: each is called as a copy, with copies of what it is given,
    // and the transfer is looked up again after it.
    auto found = transfers_.find(id);
    if (found == transfers_.end()) continue;
    Transfer* transfer = found->second.get();
    auto given = [&] {
      if (!alive.lock()) return false;
      auto again = transfers_.find(id);
      transfer = again == transfers_.end() ? nullptr : again->second.get();
      return transfer != nullptr;
    };
    if (transfer->head_whole && !transfer->head_given) {
      transfer->head_given = true;
      std::function<void(const HttpResponseHead&)> on_head = transfer->handlers.on_head;
      const HttpResponseHead head = transfer->head_reader.head();
      if (on_head) on_head(head);
      if (!given()) continue;
    }
    if (!transfer->arrived.empty() && transfer->head_given) {
      std::string bytes = std::exchange(transfer->arrived, std::string());
      std::function<void(std::string_view)> on_body = transfer->handlers.on_body;
      if (on_body) on_body(bytes);
      if (!given()) continue;
    }
    if (!transfer->ended) continue;
    const CURLcode code = *transfer->ended;
    if (code == CURLE_OK) {
      HttpHandlers handlers = std::move(transfer->handlers);
      Cancel(id);
      if (handlers.on_done) handlers.on_done(Status());
    } else {
      Fail(id, Error(ErrorCode::kRefused, InOurWords(*curl_, alias_, code, transfer->timeout)));
    }
    if (!alive.lock()) return;
  }
}

void HttpClient::Fail(TransferId id, Error error) {
  auto found = transfers_.find(id);
  if (found == transfers_.end()) return;
  HttpHandlers handlers = std::move(found->second->handlers);
  Cancel(id);
  if (handlers.on_done) handlers.on_done(std::move(error));
}

std::optional<std::string> ResolveLocation(const std::string& base, const std::string& location) {
  Result<const CurlLibrary*> loaded = LoadCurl();
  if (!loaded) return std::nullopt;  // no transfer was made, so nothing was answered
  const CurlLibrary& curl = **loaded;
  CURLU* url = curl.url();
  if (url == nullptr) return std::nullopt;
  char* whole = nullptr;
  std::optional<std::string> resolved;
  // Set on a handle that holds a url, a relative one is read against it.
  if (curl.url_set(url, CURLUPART_URL, base.c_str(), 0) == CURLUE_OK &&
      curl.url_set(url, CURLUPART_URL, location.c_str(), 0) == CURLUE_OK &&
      curl.url_get(url, CURLUPART_URL, &whole, 0) == CURLUE_OK) {
    resolved = whole;
  }
  curl.free(whole);
  curl.url_cleanup(url);
  return resolved;
}

}  // namespace bravebot
