#include "supervisor/session/redirect_flow.h"

#include "base/shown_text.h"
#include "confine/digest.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/token_store.h"
#include "supervisor/tools/call_decision.h"

namespace bravebot {
namespace {

Status RecordServerMove(const ProfileDirectory& profile, const Declaration& before,
                        const std::string& url) {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile.Lock());
  DeclarationStore declarations(profile);
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile now, declarations.Read());
  const Declaration* declared = now.Find(before.alias);
  if (declared == nullptr || ComputeDigest(*declared).hex != ComputeDigest(before).hex) {
    return Error(ErrorCode::kRefused,
                 before.alias +
                     " was declared anew while it was asked about, so it was left as "
                     "declared");
  }
  // Its headers were given for where it was, and are not carried there.
  const Declaration moved = before.MovedTo(url);
  // A token file that cannot be read stops the move before mcp.json is touched.
  BRAVEBOT_RETURN_IF_ERROR(TokenStore(profile).Read());
  BRAVEBOT_RETURN_IF_ERROR(declarations.Put(moved, lock));
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile after, declarations.Read());
  // The approval of where it was goes with that declaration, as add does it.
  BRAVEBOT_RETURN_IF_ERROR(ApprovalStore(profile).Change(lock, [&](ApprovalFile& file) {
    file.Approve(moved);
    file.KeepOnlyThoseOf(after.declarations);
  }));
  // Its tokens do not follow it to the new address: signing in there is anew.
  return TokenStore(profile).Change(
      lock, [&](TokenFile& file) { file.KeepOnlyThoseOf(after.declarations); });
}

}  // namespace

void RedirectFlow::Asked(SessionServer& server, std::uint64_t tag, std::string question,
                         const std::string& target) {
  Json id;
  if (tag == 0) {
    id = server.TakeStartId();
  } else if (std::optional<Json> waiting = server.TakeWaiting(tag)) {
    id = std::move(*waiting);
  }
  // Nobody waits for it any more (cancelled, or the server is stopping).
  if (id.is_null()) return server.link()->AnswerRedirect(tag, false);
  session_.replies.Respond(id, {{"state", "redirect"},
                                {"question", std::move(question)},
                                {"from", server.opened().declaration->url},
                                {"to", EscapeControlCharacters(target)}});
}

void RedirectFlow::Answer(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> answer = params.String("answer");
  if (params.problem()) return session_.replies.RespondError(id, *params.problem());
  SessionServer* server = session_.Find(id, *alias);
  if (server == nullptr) return;
  std::optional<std::pair<std::uint64_t, std::string>> asked =
      server->link() ? server->link()->FirstAskedRedirect() : std::nullopt;
  if (!asked ||
      (server->life() != ServerLife::kStarting && server->life() != ServerLife::kRunning)) {
    return session_.replies.RespondError(
        id, Refusal(kRpcWrongState, *alias + " has no question about a move waiting"));
  }
  // One question at a time, in the order they were put.
  const auto& [tag, target] = *asked;
  const bool yes = IsYesAnswer(*answer);
  if (!yes) {
    if (std::optional<SessionServer::ToolCall> call = server->TakeToolCall(tag)) {
      // A call is refused, and the model told not to retry it.
      const std::string name = *alias + ":" + EscapeControlCharacters(call->tool);
      server->link()->AnswerRedirect(tag, false);  // what it then fails with waits on nothing
      return session_.replies.Respond(
          id, {{"state", "refused"},
               {"text", "refused: " + *alias + " was not reached at " +
                            EscapeControlCharacters(target) +
                            ", where its reply points: the user said no, so nothing was sent "
                            "there. Do not retry " +
                            name + ": say in your reply what you needed from it."}});
    }
  }
  // What the request that met the move answers is this request's answer.
  if (tag == 0) {
    server->PutStartId(id);
  } else {
    server->Await(tag, id);
  }
  server->link()->AnswerRedirect(tag, yes);
}

std::optional<std::string> RedirectFlow::KeepMove(SessionServer& server) {
  const std::string only_here = "the move holds for this session only: ";
  if (session_.settings->incognito) return only_here + "an incognito session writes nothing";
  if (!session_.session->profile)
    return only_here + "there is no profile directory to record it in";
  Status recorded = RecordServerMove(*session_.session->profile, *server.opened().declaration,
                                     server.link()->moved_to());
  if (!recorded) return only_here + recorded.error().message();
  return std::nullopt;
}

void RedirectFlow::Moved(SessionServer& server, const std::string& url) {
  // Kept as a start's move is: written, unless nothing may be, and said in
  // the log where it could not be.
  if (std::optional<std::string> why = KeepMove(server)) {
    SessionReplies::Log(server.alias() + ": " + *why);
  }
  // Without its headers, as it is recorded: a start again in this session
  // sends them nowhere either.
  *server.opened().declaration = server.opened().declaration->MovedTo(url);
  // The list said yes to was read where it was: the one there is read and
  // judged as the new declaration's (server/toolsChanged says what came);
  // unless the service there asks for a sign-in first, and it has ended.
  if (server.life() == ServerLife::kRunning) tool_calls_.ReadListAgain(server);
}

}  // namespace bravebot
