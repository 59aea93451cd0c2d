#include "cli/loopback_redirect.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <optional>

#include "supervisor/servers/http_client.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// A browser's requests to the redirect, one after the other, while the
// listener waits for its answer with `state`.
struct Visit {
  std::vector<long> statuses;  // of each page the browser was shown
  std::string last_page;
  std::optional<Result<std::string>> received;
};

Visit VisitRedirect(const std::vector<std::string>& queries,
                    std::chrono::seconds timeout = std::chrono::seconds(5),
                    const std::string& path = "/callback") {
  boost::asio::io_context io;
  Result<std::unique_ptr<LoopbackRedirect>> redirect = LoopbackRedirect::Open(io.get_executor());
  EXPECT_TRUE(redirect) << redirect.error().message();
  std::string url = (*redirect)->Url();
  EXPECT_THAT(url, StartsWith("http://127.0.0.1:"));
  std::string base = url.substr(0, url.rfind('/')) + path;
  Visit visit;
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> {
        visit.received = co_await (*redirect)->Receive("st-1", timeout);
      },
      boost::asio::detached);
  HttpClient browser(io, "browser");
  std::function<void(std::size_t)> next = [&](std::size_t index) {
    if (index == queries.size()) return;
    browser.Send(index + 1 == queries.size() ? url + queries[index] : base + queries[index],
                 {"GET", {}, ""}, std::chrono::seconds(5),
                 {[&](const HttpResponseHead& head) { visit.statuses.push_back(head.status); },
                  [&](std::string_view bytes) { visit.last_page += bytes; },
                  [&, index](const Status&) { next(index + 1); }});
  };
  next(0);
  boost::asio::steady_timer guard(io, std::chrono::seconds(15));
  guard.async_wait([&](const boost::system::error_code& error) {
    if (!error) io.stop();
  });
  while (!visit.received && !io.stopped()) io.run_one();
  // The last page is written after the answer is known.
  for (int i = 0; i < 100 && visit.statuses.size() < queries.size() && !io.stopped(); ++i)
    io.run_one();
  return visit;
}

TEST(LoopbackRedirectTest, TheCodeIsTakenWithOurStateAndThePersonToldToGoBack) {
  Visit visit = VisitRedirect({"?code=c%2F1&state=st-1"});
  ASSERT_TRUE(visit.received);
  ASSERT_TRUE(*visit.received) << visit.received->error().message();
  EXPECT_EQ(**visit.received, "c/1");
  EXPECT_EQ(visit.statuses, std::vector<long>{200});
  EXPECT_THAT(visit.last_page, HasSubstr("Signed in."));
}

TEST(LoopbackRedirectTest, AnotherStateIsRefusedAndWaitedPast) {
  // Neither a forged code nor a forged error ends the wait for ours.
  Visit visit = VisitRedirect({"?code=planted&state=st-2", "?error=access_denied&state=st-3",
                               "?code=planted", "?code=c&state=st-1"});
  ASSERT_TRUE(visit.received);
  ASSERT_TRUE(*visit.received) << visit.received->error().message();
  EXPECT_EQ(**visit.received, "c");
  EXPECT_EQ(visit.statuses, (std::vector<long>{400, 400, 400, 200}));
}

TEST(LoopbackRedirectTest, OnlyAnotherStatesAnswerInTimeIsSaid) {
  Visit visit = VisitRedirect({"?code=planted&state=st-2"}, std::chrono::seconds(1));
  ASSERT_TRUE(visit.received);
  ASSERT_FALSE(*visit.received);
  EXPECT_THAT(visit.received->error().message(),
              HasSubstr("within 1 s: 1 with another state came and were refused"));
  EXPECT_EQ(visit.statuses, std::vector<long>{400});
}

TEST(LoopbackRedirectTest, TheServersErrorIsSaidEscapedInTheTerminalAndThePage) {
  Visit visit = VisitRedirect(
      {"?error=access_denied&error_description=%1B%5B2J%3Cb%3Eno%3C%2Fb%3E&state=st-1"});
  ASSERT_TRUE(visit.received);
  ASSERT_FALSE(*visit.received);
  EXPECT_THAT(visit.received->error().message(), HasSubstr("refused: access_denied"));
  EXPECT_THAT(visit.received->error().message(), Not(HasSubstr("\x1b")));
  EXPECT_THAT(visit.last_page, HasSubstr("&lt;b&gt;no&lt;/b&gt;"));
}

TEST(LoopbackRedirectTest, OtherPagesAreNotFoundAndWaitedPast) {
  Visit visit = VisitRedirect({"", "?code=c&state=st-1"}, std::chrono::seconds(5), "/favicon.ico");
  ASSERT_TRUE(visit.received);
  EXPECT_TRUE(*visit.received);
  EXPECT_EQ(visit.statuses, (std::vector<long>{404, 200}));
}

TEST(LoopbackRedirectTest, NoAnswerInTimeIsSaid) {
  Visit visit = VisitRedirect({}, std::chrono::seconds(1));
  ASSERT_TRUE(visit.received);
  ASSERT_FALSE(*visit.received);
  EXPECT_THAT(visit.received->error().message(),
              HasSubstr("no answer came from the browser within 1 s"));
}

}  // namespace
}  // namespace bravebot
