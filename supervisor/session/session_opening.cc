#include "supervisor/session/session_opening.h"

#include <utility>

#include "confine/digest.h"
#include "supervisor/store/approval_store.h"
#include "supervisor/store/declaration_store.h"
#include "supervisor/store/settings_file.h"
#include "supervisor/store/standing_answers.h"

namespace bravebot {

std::string StateWord(ServerState state) {
  switch (state) {
    case ServerState::kStart:
      return "start";
    case ServerState::kAsk:
      return "ask";
    case ServerState::kRefused:
      return "refused";
    case ServerState::kLeftOut:
      return "left-out";
    case ServerState::kUndeclared:
      return "undeclared";
  }
  return "undeclared";
}

Result<OpenedSession> OpenSession(const SessionSettings& settings,
                                  const SupervisorMachine& machine) {
  OpenedSession opened;
  DeclarationFile declarations;
  ApprovalFile approvals;
  if (machine.profile_location) {
    Result<ProfileDirectory> profile =
        ProfileDirectory::Open(*machine.profile_location, Create::kNo);
    if (profile) {
      opened.profile.emplace(std::move(*profile));
    } else if (profile.error().code() != ErrorCode::kNotFound) {
      return profile.error();
    }
  }
  if (opened.profile) {
    BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile read, DeclarationStore(*opened.profile).Read());
    declarations = std::move(read);
    BRAVEBOT_ASSIGN_OR_RETURN(ApprovalFile approved, ApprovalStore(*opened.profile).Read());
    approvals = std::move(approved);
  }
  opened.policy = LoadManagedPolicy(ManagedFilePath(machine.getenv));
  SessionInputs inputs;
  inputs.directory = settings.directory;
  inputs.asking = settings.asking;
  inputs.incognito = settings.incognito;
  inputs.profile = opened.profile ? &*opened.profile : nullptr;
  inputs.declarations = &declarations;
  inputs.approvals = &approvals;
  inputs.policy = &opened.policy;
  inputs.getenv = machine.getenv;
  inputs.fs = machine.fs;
  BRAVEBOT_ASSIGN_OR_RETURN(SessionPlan plan, PlanSession(inputs));
  for (const Error& unreadable : plan.unreadable) opened.notes.push_back(unreadable.message());
  for (const ServerWritableSettings& file : plan.server_writable) {
    opened.notes.push_back(file.sentence);
  }
  // A file that cannot be read is said above; its rules decide nothing.
  SettingsFiles settings_files(plan.checkout_directory,
                               opened.profile ? &*opened.profile : nullptr);
  for (Scope scope : {Scope::kLocal, Scope::kProject, Scope::kUser}) {
    Result<std::optional<nlohmann::json>> document = settings_files.ReadDocument(scope);
    if (document && document->has_value()) {
      opened.rules.AddRulesOf(
          **document, settings_files.PathOf(scope),
          ReadsNarrowingOnly(plan, scope) ? RulesRead::kNarrowingOnly : RulesRead::kAll);
    }
  }
  for (const std::string& note : opened.rules.notes()) opened.notes.push_back(note);
  for (PlannedServer& planned : plan.requested) {
    OpenedServer server;
    server.alias = planned.alias;
    server.requested_by = std::move(planned.requested_by);
    server.declaration = std::move(planned.declaration);
    if (!server.declaration) {
      server.state = ServerState::kUndeclared;
    } else if (planned.refused_by_administrator) {
      server.state = ServerState::kRefused;
    } else if (planned.decision == ServerDecision::kStartUnasked) {
      server.state = ServerState::kStart;
    } else if (planned.decision == ServerDecision::kAsk) {
      server.state = ServerState::kAsk;
      server.question = std::move(planned.question);
    } else {
      server.state = ServerState::kLeftOut;
    }
    if (server.state != ServerState::kStart && server.state != ServerState::kAsk) {
      server.reason = std::move(planned.reason);
      opened.notes.push_back(server.reason);
    }
    opened.servers.push_back(std::move(server));
  }
  return opened;
}

Json ServerEntry(const OpenedServer& server) {
  Json entry = {{"alias", server.alias}};
  if (server.declaration) {
    entry["transport"] = server.declaration->transport == Transport::kStdio ? "stdio" : "http";
    entry["digest"] = ComputeDigest(*server.declaration).hex;
  } else {
    entry["transport"] = nullptr;
    entry["digest"] = nullptr;
  }
  entry["requestedBy"] = server.requested_by;
  entry["state"] = StateWord(server.state);
  if (server.state == ServerState::kAsk) entry["question"] = server.question;
  if (server.state != ServerState::kStart && server.state != ServerState::kAsk) {
    entry["reason"] = server.reason;
  }
  return entry;
}

Json ConfinementEntry(const KernelFacts& kernel, const BackendChoice& backend) {
  const bool enforced = backend.backend != Backend::kNone;
  // bwrap makes its own namespaces, whatever our probe of them found.
  const bool namespaces =
      backend.backend == Backend::kBubblewrap || kernel.isolation.user_namespace;
  return {
      {"line", enforced ? "kernel-enforced" : "not available"},
      {"detail", enforced ? "this session confines the MCP servers it started, and nothing else "
                            "it runs"
                          : backend.why_none + ", so no MCP server is started"},
      {"landlockAbi", kernel.landlock_abi},
      {"userNamespaces", namespaces},
  };
}

Status RecordServerAnswer(const ProfileDirectory& profile, const Declaration& shown,
                          bool whole_project, const std::string& directory) {
  BRAVEBOT_ASSIGN_OR_RETURN(FileLock lock, profile.Lock());
  BRAVEBOT_ASSIGN_OR_RETURN(DeclarationFile now, DeclarationStore(profile).Read());
  const Declaration* declared = now.Find(shown.alias);
  if (declared == nullptr || ComputeDigest(*declared).hex != ComputeDigest(shown).hex) {
    return Error(ErrorCode::kRefused, shown.alias +
                                          " was declared anew while the question was open, so "
                                          "what was answered is not what it runs: nothing was "
                                          "recorded, and it is not started");
  }
  Status approved =
      ApprovalStore(profile).Change(lock, [&](ApprovalFile& file) { file.Approve(shown); });
  if (!approved || !whole_project) return approved;
  BRAVEBOT_RETURN_IF_ERROR(StandingAnswers(profile).RecordServersAnswered(directory, lock));
  return {};
}

}  // namespace bravebot
