// confined-exec: a test tool that runs any program under the confinement a
// server declared with the same words would get, with the test's own
// standard streams, and exits with its status. The hostile probes run under
// it, so each is confined exactly as a server is.
//
//   confined-exec [--without-landlock | --without-read-only-view | --without-namespaces]
//                 ALIAS [add's options] -- PROGRAM [ARGS...]
//   confined-exec [--without-...] ALIAS     (a server declared with bravebot-mcp add)
//
// Each --without- flag turns one layer off, so the hostile battery proves each
// of the others alone: Landlock without the read-only view (and without the
// mounts that hide the places of sockets), the view without Landlock, and
// what a machine without user namespaces gets. Nothing a person runs has
// these flags. They are the Landlock backend's layers: with
// BRAVEBOT_BACKEND=bubblewrap in its environment, which runs the probe under
// bwrap, none is taken.
#include <unistd.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <climits>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "base/shown_text.h"
#include "cli/add_arguments.h"
#include "cli/command.h"
#include "cli/profile_access.h"
#include "cli/start_options.h"
#include "supervisor/policy/new_declaration.h"
#include "supervisor/servers/running_server.h"
#include "supervisor/store/declaration_store.h"

namespace {

using namespace bravebot;  // NOLINT: a test tool

Result<Declaration> DeclaredServer(const std::string& alias, const ProfileDirectory& profile) {
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile file, DeclarationStore(profile).Read());
  const Declaration* declaration = file.Find(alias);
  if (declaration == nullptr) return Error(ErrorCode::kNotFound, alias + " is not declared");
  return *declaration;
}

// Its input is the test's: it ends by itself (or is stopped as every server
// is, after two minutes: 124), and whatever it left running ends with it.
boost::asio::awaitable<int> RunToItsEnd(RunningServer& server) {
  bool too_long = false;
  boost::asio::steady_timer limit(co_await boost::asio::this_coro::executor,
                                  std::chrono::minutes(2));
  limit.async_wait([&](const boost::system::error_code& error) {
    if (error) return;
    too_long = true;
    server.Stop();
  });
  const int status = co_await server.AsyncEnd(boost::asio::use_awaitable);
  limit.cancel();
  co_return too_long ? 124 : status;
}

Result<Declaration> ServerGivenHere(const std::vector<std::string>& words,
                                    const CommandContext& context,
                                    const ProfileDirectory& profile) {
  BRAVEBOT_ASSIGN_OR_RETURN(AddArguments arguments, ParseAddArguments(words));
  DeclarationSurroundings around{context.cwd, profile.path(), profile.resolved_path(), &context.fs,
                                 context.UserHome()};
  return CompleteDeclaration(arguments.declaration, around);
}

}  // namespace

int main(int argc, char** argv) {
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof(cwd)) == nullptr) return 125;
  RealFileSystem fs;
  CommandContext context{std::cin, std::cout, std::cerr, ::getenv, cwd, false, fs};
  std::vector<std::string> words(argv + 1, argv + argc);
  bool landlock = true, read_only_view = true, namespaces = true;
  while (!words.empty() && words.front().starts_with("--without-")) {
    const std::string layer = words.front();
    if (layer == "--without-landlock") {
      landlock = false;
    } else if (layer == "--without-read-only-view") {
      read_only_view = false;
    } else if (layer == "--without-namespaces") {
      namespaces = false;
    } else {
      std::cerr << "confined-exec: no layer is called " << layer << "\n";
      return 125;
    }
    words.erase(words.begin());
  }
  const char* backend = ::getenv(kBackendVariable);
  if (backend != nullptr && std::string(backend) == "bubblewrap" &&
      !(landlock && read_only_view && namespaces)) {
    std::cerr << "confined-exec: the --without- flags turn off layers of the Landlock backend, "
                 "and BRAVEBOT_BACKEND=bubblewrap asks for bubblewrap\n";
    return 125;
  }
  Result<ProfileDirectory> profile = OpenProfileToWrite(context);
  if (!profile) {
    std::cerr << "confined-exec: " << EscapeControlCharacters(profile.error().message()) << "\n";
    return 125;
  }
  Result<Declaration> declaration = words.size() == 1 ? DeclaredServer(words[0], *profile)
                                                      : ServerGivenHere(words, context, *profile);
  if (!declaration) {
    std::cerr << "confined-exec: " << EscapeControlCharacters(declaration.error().message())
              << "\n";
    return 125;
  }
  ServerStartOptions options = StartOptionsFor(context, *profile);
  options.stdio = ChildStdio::kInherit;
  options.layers.landlock = landlock;
  options.layers.read_only_view = read_only_view;
  // The mounts that hide the places of sockets below Landlock ABI 9 go with
  // the view: without both, Landlock alone is proven.
  options.layers.hide_socket_places = read_only_view;
  options.layers.namespaces = namespaces;
  boost::asio::io_context io;
  Result<std::shared_ptr<RunningServer>> server =
      RunningServer::StartWithRawPipes(io, *declaration, options);
  if (!server) {
    std::cerr << "confined-exec: " << EscapeControlCharacters(server.error().message()) << "\n";
    return 125;
  }
  int status = 124;
  boost::asio::co_spawn(io, RunToItsEnd(**server),
                        [&](const std::exception_ptr& failure, int ended) {
                          if (failure) std::rethrow_exception(failure);
                          status = ended;
                        });
  io.run();
  return status;
}
