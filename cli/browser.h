// Opening an address in the person's browser, for signing in.
#ifndef BRAVEBOT_CLI_BROWSER_H_
#define BRAVEBOT_CLI_BROWSER_H_

#include <string>

#include "base/result.h"

namespace bravebot {

// Opens `url` with $BROWSER where it is set (a shell command, as git and
// Python's webbrowser read it, given the url as its one argument: the url is
// never read as shell words), else with xdg-open. Started in the background
// and not waited for, as a browser may run long after the sign-in: whether a
// page opened is not known here, so the caller prints the url either way.
// An error only where no shell could be started.
Status OpenInBrowser(const std::string& url);

}  // namespace bravebot

#endif  // BRAVEBOT_CLI_BROWSER_H_
