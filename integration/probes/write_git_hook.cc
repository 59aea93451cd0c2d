// Tries to write .git/hooks/pre-commit of a repository outside the reach (code
// the person's next commit would run): must be refused.
#include "integration/probes/probe.h"

int main() {
  const char* target = probe::Words("%s/.git/hooks/pre-commit", probe::Need("REPOSITORY"));
  long done = probe::Touch(target, O_WRONLY | O_CREAT | O_APPEND);
  return probe::Report(done, probe::Words("write %s", target));
}
