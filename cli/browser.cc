#include "cli/browser.h"

#include "base/plain_child.h"

namespace bravebot {

Status OpenInBrowser(const std::string& url) {
  // "$1" is expanded inside eval's double quotes: the url is one word,
  // whatever it holds. The trailing & leaves the browser to run on its own.
  static constexpr char kOpen[] =
      "{ if [ -n \"${BROWSER:-}\" ]; then eval \"$BROWSER\"' \"$1\"'; else xdg-open \"$1\"; fi; } "
      "</dev/null >/dev/null 2>&1 &";
  BRAVEBOT_ASSIGN_OR_RETURN(PlainChild shell,
                            PlainChild::Start({.program = "/bin/sh",
                                               .arguments = {"-c", kOpen, "sh", url},
                                               .error = kNullDevice,
                                               .our_environment = true}));
  shell.Wait();  // the shell only, which ends once the browser is started
  return Status();
}

}  // namespace bravebot
