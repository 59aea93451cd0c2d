# The hardening every program is built with, as a distribution would build a
# security tool: on by default, so that `cmake --install`, the Debian package
# and the tests all run what ships. scripts/check-hardening.sh checks the
# installed programs for each of these with readelf.
#
#   -D_FORTIFY_SOURCE=3         the C library's copies and reads checked against
#                               the size the compiler knows of the buffer
#                               (needs the optimizer; glibc 2.34 and later)
#   -fstack-protector-strong    a canary in every frame with an array or an
#                               address taken
#   -fstack-clash-protection    a large frame touched page by page, so that it
#                               cannot jump over the stack's guard page
#   -fcf-protection             landing pads for indirect branches and
#                               shadow-stack markings (x86 CET)
#   PIE                         the program's own code at a random address
#   -z relro -z now             every symbol bound at start, the tables
#                               they sit in read-only afterwards
#   -z noexecstack              no executable stack
#
# A build that cannot take one of them turns them all off with
# -DBRAVEBOT_HARDEN=OFF; the sanitizer and fuzzer builds keep them but the
# fortified C library calls (below).
include(CheckCXXCompilerFlag)
include(CheckLinkerFlag)
include(CheckPIESupported)

option(BRAVEBOT_HARDEN "Build with hardening flags (fortify, stack protector, CET, PIE, full RELRO)"
       ON)

# Sets `out` to those of `flags` the compiler takes; a compiler or target
# without one (-fcf-protection is x86's) still builds, with the rest.
function(bravebot_supported_compile_flags out)
  set(supported)
  foreach(flag IN LISTS ARGN)
    string(MAKE_C_IDENTIFIER "BRAVEBOT_CXX_HAS${flag}" variable)
    check_cxx_compiler_flag(${flag} ${variable})
    if(${variable})
      list(APPEND supported ${flag})
    endif()
  endforeach()
  set(${out} ${supported} PARENT_SCOPE)
endfunction()

function(bravebot_supported_link_flags out)
  set(supported)
  foreach(flag IN LISTS ARGN)
    string(MAKE_C_IDENTIFIER "BRAVEBOT_LD_HAS${flag}" variable)
    check_linker_flag(CXX ${flag} ${variable})
    if(${variable})
      list(APPEND supported ${flag})
    endif()
  endforeach()
  set(${out} ${supported} PARENT_SCOPE)
endfunction()

# Those bravebot-mcp-init takes too (launcher/CMakeLists.txt): it has no C
# library, so no canary (read from thread-local storage it never sets up)
# and no fortified calls; and it is static, so no PIE and nothing to bind.
set(BRAVEBOT_HARDEN_FREESTANDING_COMPILE_OPTIONS)
set(BRAVEBOT_HARDEN_FREESTANDING_LINK_OPTIONS)

if(BRAVEBOT_HARDEN)
  bravebot_supported_compile_flags(BRAVEBOT_HARDEN_FREESTANDING_COMPILE_OPTIONS
                                   -fstack-clash-protection -fcf-protection)
  bravebot_supported_compile_flags(stack_protector -fstack-protector-strong)
  bravebot_supported_link_flags(BRAVEBOT_HARDEN_FREESTANDING_LINK_OPTIONS -Wl,-z,noexecstack)
  bravebot_supported_link_flags(relro -Wl,-z,relro,-z,now)
  add_compile_options(${stack_protector} ${BRAVEBOT_HARDEN_FREESTANDING_COMPILE_OPTIONS})
  add_link_options(${relro} ${BRAVEBOT_HARDEN_FREESTANDING_LINK_OPTIONS})

  # AddressSanitizer does not see into the fortified copies (__memcpy_chk and
  # the like are not its interceptors), so fortifying would hide from it the
  # very overflows it looks for. Elsewhere: glibc warns, and -Werror fails,
  # where nothing is optimized, so only the optimized configurations.
  if(NOT BRAVEBOT_SANITIZE AND NOT BRAVEBOT_FUZZ)
    add_compile_options(
      "$<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-U_FORTIFY_SOURCE;-D_FORTIFY_SOURCE=3>")
  endif()

  # Every program a position-independent executable (CMake's -fPIE and -pie
  # once check_pie_supported has run). The libraries are static and linked
  # only into our programs, so they are compiled as PIE code too, not with
  # the -fPIC CMake gives them: -fPIC would keep GCC from inlining one of
  # their functions into another, as a shared library's user could replace it.
  check_pie_supported(OUTPUT_VARIABLE pie_message LANGUAGES CXX)
  if(NOT CMAKE_CXX_LINK_PIE_SUPPORTED)
    message(WARNING "bravebot: the programs cannot be built as PIE here: ${pie_message}")
  endif()
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  add_compile_options("$<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,STATIC_LIBRARY>:-fPIE>")
endif()
