#include "launcher/sealed_memory_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace bravebot {

Result<UniqueFd> SealedMemoryFile(const char* name, std::string_view bytes) {
  UniqueFd file(::memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!file.valid()) return Error::FromErrno(std::string("make the memory file ") + name);
  for (size_t done = 0; done < bytes.size();) {
    ssize_t wrote = ::write(file.get(), bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return Error::FromErrno(std::string("write the memory file ") + name);
    done += static_cast<size_t>(wrote);
  }
  if (::fcntl(file.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) !=
      0) {
    return Error::FromErrno(std::string("seal the memory file ") + name);
  }
  // Read from its start by whoever is given it: the offset is shared.
  if (::lseek(file.get(), 0, SEEK_SET) != 0) {
    return Error::FromErrno(std::string("rewind the memory file ") + name);
  }
  return file;
}

}  // namespace bravebot
