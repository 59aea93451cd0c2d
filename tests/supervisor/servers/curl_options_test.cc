#include "supervisor/servers/curl_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdarg>
#include <optional>

#include "supervisor/mcp/streamable_http.h"
#include "supervisor/servers/http_client.h"
#include "tests/supervisor/testing/scripted_http_server.h"

namespace bravebot {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::ScriptedHttpServer;

// The real library, but for one option, which its setopt refuses with
// `refusal`; every other is set as libcurl sets it. Through the function
// pointer HttpClient calls, as an older or smaller libcurl would refuse.
const CurlLibrary* real_curl = nullptr;
// libcurl numbers easy and multi options apart, and the numbers meet
// (CURLOPT_URL is CURLMOPT_SOCKETDATA): one of each.
long refused_option = -1;
long refused_multi_option = -1;
CURLcode refusal = CURLE_UNKNOWN_OPTION;

// Their signatures are libcurl's own setopt's, C variadic functions (so
// cert-dcl50-cpp's parameter pack cannot stand in), whose last named
// parameter is an enum: clang warns that va_start after one is undefined, as
// an enum may be promoted; CURLoption and CURLMoption are int-sized, promoted
// to int, as libcurl itself reads them. Their branches differ only in the
// type va_arg reads, which bugprone-branch-clone does not compare.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wvarargs"
#endif
// NOLINTNEXTLINE(cert-dcl50-cpp)
CURLcode SetAllButTheRefused(CURL* easy, CURLoption option, ...) {
  if (option == refused_option) return refusal;
  va_list arguments;
  va_start(arguments, option);
  CURLcode code;
  // The value's type is the one libcurl's numbering gives the option.
  // NOLINTNEXTLINE(bugprone-branch-clone)
  if (option < CURLOPTTYPE_OBJECTPOINT) {
    code = real_curl->easy_setopt(easy, option, va_arg(arguments, long));
  } else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
    code = real_curl->easy_setopt(easy, option, va_arg(arguments, void*));
  } else if (option < CURLOPTTYPE_OFF_T) {
    code = real_curl->easy_setopt(easy, option, va_arg(arguments, curl_write_callback));
  } else {
    code = real_curl->easy_setopt(easy, option, va_arg(arguments, curl_off_t));
  }
  va_end(arguments);
  return code;
}

// NOLINTNEXTLINE(cert-dcl50-cpp)
CURLMcode SetAllMultiButTheRefused(CURLM* multi, CURLMoption option, ...) {
  if (option == refused_multi_option) return CURLM_UNKNOWN_OPTION;
  va_list arguments;
  va_start(arguments, option);
  CURLMcode code;
  // NOLINTNEXTLINE(bugprone-branch-clone)
  if (option == CURLMOPT_SOCKETFUNCTION) {
    code = real_curl->multi_setopt(multi, option, va_arg(arguments, curl_socket_callback));
  } else if (option == CURLMOPT_TIMERFUNCTION) {
    code = real_curl->multi_setopt(multi, option, va_arg(arguments, curl_multi_timer_callback));
  } else {
    code = real_curl->multi_setopt(multi, option, va_arg(arguments, void*));
  }
  va_end(arguments);
  return code;
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

class CurlOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<const CurlLibrary*> loaded = LoadCurl();
    ASSERT_TRUE(loaded) << loaded.error().message();
    real_curl = *loaded;
    refusing_ = **loaded;
    refusing_.easy_setopt = &SetAllButTheRefused;
    refusing_.multi_setopt = &SetAllMultiButTheRefused;
    refused_option = -1;
    refused_multi_option = -1;
    refusal = CURLE_UNKNOWN_OPTION;
  }

  // What a POST to `server` through a client on the refusing library ends
  // with (or nothing within 10 s).
  std::optional<Status> Post(ScriptedHttpServer& server) {
    boost::asio::io_context io;
    HttpClient http(io, "docs", refusing_);
    std::optional<Status> done;
    http.Send(server.Url("/mcp"), StreamableHttpClient().Post("{}"), std::chrono::seconds(5),
              {.on_head = nullptr, .on_body = nullptr, .on_done = [&](Status status) {
                 done = std::move(status);
                 io.stop();
               }});
    boost::asio::steady_timer guard(io, std::chrono::seconds(10));
    guard.async_wait([&](const boost::system::error_code& error) {
      if (!error) io.stop();
    });
    io.run();
    return done;
  }

  CurlLibrary refusing_;
};

ScriptedHttpServer AnsweringServer() {
  return ScriptedHttpServer({{{{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"}}}});
}

TEST_F(CurlOptionsTest, TheRefusingLibrarySetsEveryOtherOptionAsLibcurlDoes) {
  // What the tests below refuse, they refuse on a library that otherwise works.
  ScriptedHttpServer server = AnsweringServer();
  std::optional<Status> done = Post(server);
  ASSERT_TRUE(done);
  EXPECT_TRUE(*done) << done->error().message();
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(CurlOptionsTest, AProtectionLibcurlCannotSetReachesNothingAndIsNamed) {
  // Listed here rather than taken from curl_options.h: dropping one from the
  // client's checks fails this test.
  for (CURLoption protection : {
           CURLOPT_PROTOCOLS_STR,
           CURLOPT_REDIR_PROTOCOLS_STR,
           CURLOPT_FOLLOWLOCATION,
           CURLOPT_MAXREDIRS,
           CURLOPT_PROXY,
           CURLOPT_SSL_VERIFYPEER,
           CURLOPT_SSL_VERIFYHOST,
           CURLOPT_SSLVERSION,
           CURLOPT_CONNECT_TO,
           CURLOPT_CONNECTTIMEOUT_MS,
           CURLOPT_TIMEOUT_MS,
           CURLOPT_NOSIGNAL,
       }) {
    SCOPED_TRACE(protection);
    refused_option = protection;
    ScriptedHttpServer server = AnsweringServer();
    std::optional<Status> done = Post(server);
    ASSERT_TRUE(done);
    ASSERT_FALSE(*done);
    EXPECT_THAT(done->error().message(), HasSubstr(std::string("docs was not reached: libcurl ") +
                                                   real_curl->version + " cannot "));
    EXPECT_THAT(done->error().message(), HasSubstr("; update libcurl"));
    EXPECT_EQ(server.requests().size(), 0u);
  }
}

TEST_F(CurlOptionsTest, TheProtocolsRefusedAreSaidInWhole) {
  refused_option = CURLOPT_PROTOCOLS_STR;
  ScriptedHttpServer server = AnsweringServer();
  std::optional<Status> done = Post(server);
  ASSERT_TRUE(done);
  ASSERT_FALSE(*done);
  EXPECT_EQ(done->error().message(),
            std::string("docs was not reached: libcurl ") + real_curl->version +
                " cannot restrict the protocols it speaks to http and https "
                "(CURLOPT_PROTOCOLS_STR: An unknown option was passed in to libcurl); "
                "update libcurl");
}

TEST_F(CurlOptionsTest, AnOptionRefusedForWantOfMemoryReachesNothingNorAsksForAnUpdate) {
  refused_option = CURLOPT_URL;
  refusal = CURLE_OUT_OF_MEMORY;
  ScriptedHttpServer server = AnsweringServer();
  std::optional<Status> done = Post(server);
  ASSERT_TRUE(done);
  ASSERT_FALSE(*done);
  EXPECT_THAT(done->error().message(), HasSubstr("cannot take the url to reach (CURLOPT_URL: "));
  EXPECT_THAT(done->error().message(), Not(HasSubstr("update libcurl")));
  EXPECT_EQ(server.requests().size(), 0u);
}

TEST_F(CurlOptionsTest, AMultiOptionRefusedReachesNothingAndIsNamed) {
  refused_multi_option = CURLMOPT_TIMERFUNCTION;
  ScriptedHttpServer server = AnsweringServer();
  std::optional<Status> done = Post(server);
  ASSERT_TRUE(done);
  ASSERT_FALSE(*done);
  EXPECT_THAT(done->error().message(), HasSubstr("docs was not reached: libcurl "));
  EXPECT_THAT(
      done->error().message(),
      HasSubstr("cannot tell the supervisor's loop when to run it (CURLMOPT_TIMERFUNCTION"));
  EXPECT_EQ(server.requests().size(), 0u);
}

TEST(CurlOptionFactsTest, TheNewestOptionIsTheOneThatSetsTheLeastLibcurl) {
  EXPECT_EQ(kCurlNewestOption.since, 0x075500u);
  EXPECT_STREQ(kCurlNewestOption.name, "CURLOPT_PROTOCOLS_STR");
}

}  // namespace
}  // namespace bravebot
