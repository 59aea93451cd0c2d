// The supervisor's side of a service that moved: a request whose answer
// pointed to another place is answered with the spec's question, and
// redirect/answer decides it. A yes sends it there (and every later
// request); once the handshake is done there (a start's, or the one made
// again for a call that met it), the declaration is rewritten to that place
// and approved, so the next session goes there too and puts its list to the
// person again. A no changes nothing.
#include "base/shown_text.h"
#include "confine/digest.h"
#include "supervisor/session/supervisor.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"
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
  Declaration moved = before;
  moved.url = url;
  BRAVEBOT_RETURN_IF_ERROR(declarations.Put(moved, lock));
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile after, declarations.Read());
  // The approval of where it was goes with that declaration, as add does it.
  return ApprovalStore(profile).Change(lock, [&](ApprovalFile& file) {
    file.Approve(moved);
    file.KeepOnlyThoseOf(after.declarations);
  });
}

}  // namespace

void Supervisor::OnRedirect(const std::string& alias, std::uint64_t tag, std::string question,
                            std::string target) {
  ServerSlot& slot = slots_[alias];
  Json id;
  if (tag == 0) {
    id = std::exchange(slot.start_id, nullptr);
  } else if (auto waiting = slot.requests.find(tag); waiting != slot.requests.end()) {
    id = waiting->second;
    slot.requests.erase(waiting);
  }
  // Nobody waits for it any more (cancelled, or the server is stopping).
  if (id.is_null()) return slot.link->AnswerRedirect(tag, false);
  in_flight_.erase(IdKey(id));
  slot.asked_moves[tag] = target;
  Respond(id, {{"state", "redirect"},
               {"question", std::move(question)},
               {"from", slot.opened.declaration->url},
               {"to", EscapeControlCharacters(target)}});
}

void Supervisor::AnswerRedirect(const Json& id, RpcParams params) {
  std::optional<std::string> alias = params.String("alias");
  std::optional<std::string> answer = params.String("answer");
  if (params.problem()) return RespondError(id, *params.problem());
  ServerSlot* slot = Find(id, alias);
  if (slot == nullptr) return;
  if (slot->asked_moves.empty() || !slot->link ||
      (slot->life != ServerLife::kStarting && slot->life != ServerLife::kRunning)) {
    return RespondError(id,
                        Refusal(kRpcWrongState, *alias + " has no question about a move waiting"));
  }
  // One question at a time, in the order they were put.
  auto asked = slot->asked_moves.begin();
  const std::uint64_t tag = asked->first;
  const std::string target = asked->second;
  slot->asked_moves.erase(asked);
  const bool yes = IsYesAnswer(*answer);
  if (!yes) {
    if (auto call = slot->tool_calls.find(tag); call != slot->tool_calls.end()) {
      // A call is refused, and the model told not to retry it.
      const std::string name = *alias + ":" + EscapeControlCharacters(call->second.tool);
      slot->tool_calls.erase(call);
      slot->link->AnswerRedirect(tag, false);  // what it then fails with waits on nothing
      return Respond(id, {{"state", "refused"},
                          {"text", "refused: " + *alias + " was not reached at " +
                                       EscapeControlCharacters(target) +
                                       ", where its reply points: the user said no, so nothing "
                                       "was sent there. Do not retry " +
                                       name + ": say in your reply what you needed from it."}});
    }
  }
  // What the request that met the move answers is this request's answer.
  if (tag == 0) {
    slot->start_id = id;
  } else {
    slot->requests[tag] = id;
  }
  in_flight_[IdKey(id)] = InFlight{*alias, tag};
  slot->link->AnswerRedirect(tag, yes);
}

std::optional<std::string> Supervisor::RecordMove(ServerSlot& slot) {
  const std::string only_here = "the move holds for this session only: ";
  if (settings_->incognito) return only_here + "an incognito session writes nothing";
  if (!session_->profile) return only_here + "there is no profile directory to record it in";
  Status recorded =
      RecordServerMove(*session_->profile, *slot.opened.declaration, slot.link->moved_to());
  if (!recorded) return only_here + recorded.error().message();
  return std::nullopt;
}

void Supervisor::OnMoved(ServerSlot& slot, const std::string& url) {
  // Kept as a start's move is: written, unless nothing may be, and said in
  // the log where it could not be.
  if (std::optional<std::string> why = RecordMove(slot)) Log(slot.opened.alias + ": " + *why);
  slot.opened.declaration->url = url;
  // The list said yes to was read where it was: the one there is read and
  // judged as the new declaration's (server/toolsChanged says what came).
  ReadListAgain(slot);
}

}  // namespace bravebot
