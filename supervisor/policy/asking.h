// Who a session can put a question to. session/open's mode and
// skipPermissions make it once (SessionSettings), and the session's plan,
// its calls and a service's redirects each decide by it.
#ifndef BRAVEBOT_SUPERVISOR_POLICY_ASKING_H_
#define BRAVEBOT_SUPERVISOR_POLICY_ASKING_H_

namespace bravebot {

enum class Asking {
  kSomebody,         // a terminal, full-screen or plain (the gateway's client too)
  kNobody,           // a session with no terminal asks nobody
  kOneShot,          // bravebot "...": asks nobody, and no allow rule decides a call
  kSkipPermissions,  // --dangerously-skip-permissions: yes without asking, nothing recorded
};

}  // namespace bravebot

#endif  // BRAVEBOT_SUPERVISOR_POLICY_ASKING_H_
