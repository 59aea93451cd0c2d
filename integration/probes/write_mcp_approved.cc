// Tries to write mcp-approved in the profile directory (to approve itself):
// must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* profile = probe::Need("PROFILE");
  const char* target = probe::Words("%s/mcp-approved", profile);
  long done = probe::Touch(target, O_WRONLY | O_CREAT | O_APPEND);
  return probe::Report(done, probe::Words("write %s", target));
}
