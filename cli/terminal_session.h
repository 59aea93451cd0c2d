// `bravebot-mcp session`'s side of the supervisor protocol: a bravebot
// session in --plain, drawn as lines. It opens the session, puts each
// server question and each list to the person, starts the servers, makes
// each call the input asks for and prints what came of it. Every decision
// is the supervisor's; this only draws what it is given and passes the
// answer back.
#ifndef BRAVEBOT_CLI_TERMINAL_SESSION_H_
#define BRAVEBOT_CLI_TERMINAL_SESSION_H_

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <string>

#include "base/result.h"
#include "cli/supervisor_connection.h"
#include "cli/terminal_questions.h"

namespace bravebot {

struct TerminalSessionOptions {
  std::string directory;  // where the session runs
  bool one_shot = false;  // asks nobody, as `bravebot "..."` does
  bool incognito = false;
  bool skip_permissions = false;
  int startup_timeout_seconds = 30;  // how long a server has to answer initialize
  // Standard output is a terminal: a server that says nothing for a second
  // while it starts gets a line that updates there.
  bool progress = false;
  // The terminal's width: the line is cut to it, so that it never wraps
  // (a wrapped line is not drawn again in place). 0: not known.
  int progress_width = 0;
  // The runner each server's program is, where it is one (alias -> "npx"):
  // its first start fetches the package, which the progress line says.
  std::map<std::string, std::string> runners;
  // What lengthens the start's time, named where a start ran out of it.
  std::string startup_timeout_flag;  // "" where none does
};

class TerminalSession {
 public:
  using Json = nlohmann::ordered_json;

  // `questions` is the terminal, or null where there is none: the session
  // is then one with no terminal, and asks nobody. `name` begins the lines
  // it writes on `err` ("bravebot-mcp session").
  TerminalSession(SupervisorChild& supervisor, TerminalQuestions* questions, std::ostream& out,
                  std::ostream& err, std::string name = "bravebot-mcp session");

  // Opens the session, puts the server questions, starts every server that
  // may start and puts each list. False where the session could not open.
  bool Open(const TerminalSessionOptions& options);

  // One line of the input: a call, /status or /release.
  void TakeLine(const std::string& line);

  // Puts each list that changed since it was last put (server/toolsChanged).
  void PutChangedLists();

  // Closes the session: every server is stopped.
  void Close();

  // The pieces of a session for a command that takes one server through it
  // (`bravebot-mcp approve ALIAS --tools`); nothing is printed of a refusal,
  // which is the caller's to say.
  //
  // A request and its `result`, or the supervisor's refusal in its words.
  Result<Json> Request(const std::string& method, Json params);
  // server/start for one server, the question about a move put where its
  // service redirects: server/start's result.
  Result<Json> StartServer(const std::string& alias);
  // Draws a list that waits for an answer (server/start's result, or a
  // server/toolsChanged), asks at the terminal and passes the answer on:
  // tools/answer's result. Only where there is a terminal.
  Result<Json> AskAboutList(const std::string& alias, const Json& list);

  SupervisorConnection& connection() { return connection_; }
  bool supervisor_ended() const { return supervisor_ended_; }

 private:
  bool OnNotification(const Json& notification);
  // The answer's `result`, or its error; the supervisor's end where there
  // is no answer.
  Result<Json> Answered(const std::optional<Json>& answer);
  // The same, with its error or the supervisor's end printed.
  std::optional<Json> ResultOf(const std::optional<Json>& answer);
  std::optional<Json> Printed(Result<Json> result);
  void PrintRefusal(const Error& refusal);
  // The answer to server/start `id` of `alias`, sent at `sent`, a move put
  // and said; a progress line drawn meanwhile where the options ask.
  Result<Json> Started(const std::string& alias, int id,
                       std::chrono::steady_clock::time_point sent);
  // The line that updates while `alias` starts, and its removal once
  // anything else is printed.
  void ShowProgress(const std::string& alias, std::chrono::steady_clock::time_point sent);
  void ClearProgress();
  void StartServers(const Json& servers);
  // Draws what became of a list (server/start's result, or a
  // server/toolsChanged), and puts it to the person where it waits.
  void PutList(const std::string& alias, const Json& list);
  void MakeCall(const std::string& line);
  // `asked`, a service's question about a move, put to the person; what
  // redirect/answer answers (nothing where the supervisor ended).
  std::optional<Json> Moved(const std::string& alias, const Json& asked);
  // A server/start's answer, or redirect/answer's after it: a move a yes
  // kept said, then the answer's result, or its error.
  Result<Json> StartAnswered(const std::string& alias, const std::optional<Json>& answer);
  void Print(const std::string& text);

  TerminalQuestions* questions_;
  std::ostream& out_;
  const std::string name_;
  std::ostream& err_;
  SupervisorConnection connection_;
  // The newest server/toolsChanged of each server not put yet: one that
  // changes its list again and again is asked once, and holds one list.
  std::map<std::string, Json> changed_lists_;
  std::set<std::string> running_;  // the servers started, until they end
  bool supervisor_ended_ = false;
  TerminalSessionOptions options_;  // as Open was given them
  bool progress_shown_ = false;
};

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_TERMINAL_SESSION_H_
