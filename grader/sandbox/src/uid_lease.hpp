// An unprivileged uid of its own for each sandbox, when the grader runs as root (the lease itself
// is common/uid_lease.hpp, shared with the lab program's launcher): the binds made that uid's or
// checked readable by it.
#pragma once

#include <filesystem>
#include <string>

#include "common/uid_lease.hpp"

namespace sandbox {

using common::kSandboxUidBase;
using common::kSandboxUidSlots;
using common::UidLease;

// Gives `root` and everything under it to uid:uid; symbolic links themselves, never their
// targets (a previous run may have planted links). "" on success, else why.
std::string chown_tree(const std::filesystem::path& root, unsigned uid);

// "" when a process of another uid, without groups, can read `path` (and search it when it is a
// folder), else why not.
std::string unreadable_by_others(const std::filesystem::path& path);

}  // namespace sandbox
