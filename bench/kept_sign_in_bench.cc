// What asking before each request whether a sign-in is still kept costs,
// against what it cost when each request read and parsed mcp-tokens whole
// (the baseline, in the same run): a file of 1000 signed-in entries with
// long tokens, some 8 MiB, the most a service could make it without a
// person's help being its own entry.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "supervisor/servers/kept_sign_in.h"
#include "supervisor/store/token_store.h"

namespace bravebot {
namespace {

constexpr char kDigest[] = "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd";
constexpr char kOrigin[] = "https://mcp.example";

// A profile directory in a temporary folder, with `entries` tokens of 8 KiB,
// removed with it.
struct ProfileWithTokens {
  explicit ProfileWithTokens(int entries) : profile(Make(folder, entries)) {}
  ~ProfileWithTokens() { std::filesystem::remove_all(folder); }
  ProfileWithTokens(const ProfileWithTokens&) = delete;
  ProfileWithTokens& operator=(const ProfileWithTokens&) = delete;

  static ProfileDirectory Make(std::string& folder, int entries) {
    if (::mkdtemp(folder.data()) == nullptr) std::abort();
    Result<ProfileDirectory> made = ProfileDirectory::Open(folder, Create::kNo);
    if (!made) std::abort();
    Result<FileLock> lock = made->Lock();
    if (!lock) std::abort();
    Status changed = TokenStore(*made).Change(*lock, [&](TokenFile& file) {
      for (int i = 0; i < entries; ++i) {
        file.Put({.alias = "svc-" + std::to_string(i),
                  .digest = kDigest,
                  .origin = kOrigin,
                  .access_token = std::string(8192, 'a'),
                  .token_endpoint = std::string(kOrigin) + "/token",
                  .client_id = "c"});
      }
    });
    if (!changed) std::abort();
    return std::move(*made);
  }

  std::string folder = "/tmp/bravebot-bench-XXXXXX";
  ProfileDirectory profile;
};

void BM_SignInCheckReadingTheWholeFile(benchmark::State& state) {
  const ProfileWithTokens made(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    Result<std::optional<StoredToken>> found = FindToken(made.profile, "svc-0", kDigest, kOrigin);
    if (!found || !found->has_value()) std::abort();
  }
}
BENCHMARK(BM_SignInCheckReadingTheWholeFile)->Arg(1000)->Unit(benchmark::kMicrosecond);

void BM_SignInCheck(benchmark::State& state) {
  const ProfileWithTokens made(static_cast<int>(state.range(0)));
  KeptSignIn kept(*made.profile.Duplicate(), "svc-0", kDigest, kOrigin);
  for (auto _ : state) {
    if (!kept.StillKept()) std::abort();
  }
}
BENCHMARK(BM_SignInCheck)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace bravebot
