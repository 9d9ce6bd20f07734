// SPDX-License-Identifier: LGPL-3.0-or-later
// What -o keeps of a regular file it replaces, and the temporary file it
// writes beside it (cli/output.hpp's atomic_file uses these).
//
// The rules (also in --help): a file is replaced by a new inode (rename), so
// its owner, group, permission bits and extended attributes (ACLs among them:
// system.posix_acl_access) are copied onto the new one; setuid/setgid are kept
// only when the owner/group they belong to is kept. Refused unless --force: a
// file with more than one hard link (renaming would split them), one the
// caller could not open for writing as a shell's `>` would (access(2) with
// the effective ids: root may, a user may not write a 0444 file), one whose
// owner or group the caller cannot give the new file, and an attribute that
// cannot be copied.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace bigmul::cli {

// Throws failure(exit_io) naming `shown` when `target` (an existing regular
// file whose stat is `st`) may not be replaced without --force.
void check_replaceable(const std::string& shown, const std::string& target, const struct stat& st, bool force);

// Gives the new file `fd` what the replaced file `target` (stat `st`) had:
// owner and group (chown as root, the group as a member), permission bits
// without setuid/setgid where their owner/group changed, extended attributes.
// What cannot be kept throws failure(exit_io) naming `shown`, unless `force`.
void keep_file_identity(int fd, const std::string& shown, const std::string& target, const struct stat& st, bool force);

// The temporary file for `name` (a directory entry, no slash):
// ".<name>.bigmul-<pid>-<8 hex>.tmp", within NAME_MAX: a long name is cut and
// ends in "~<16 hex>", a hash of the whole name.
std::string temporary_name(std::string_view name, long pid, std::uint32_t tag);

// Whether `entry` is one of temporary_name's names; its pid in *pid.
bool is_temporary_name(std::string_view entry, long* pid);

// Removes the temporaries in `directory` that a killed bigmul left: the exact
// pattern of temporary_name, a regular file owned by the caller (root: any),
// and a pid that is no longer running. Returns how many were removed.
unsigned remove_stale_temporaries(const std::string& directory);

}  // namespace bigmul::cli
