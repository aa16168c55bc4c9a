// What of the host the sandbox shows: the system folders as they are on this machine (folders, or
// the symlinks of a merged-/usr system), the few /etc files the loader and the compilers read, and
// the NVIDIA device nodes.
#pragma once

#include <string>
#include <vector>

namespace sandbox {

struct SystemPath {
  std::string path;            // e.g. "/bin"
  std::string symlink_target;  // e.g. "usr/bin"; empty: a folder, bound read-only
};

struct HostLayout {
  std::vector<SystemPath> system;      // /usr first, then /bin, /sbin, /lib* as they exist
  std::vector<std::string> etc;        // /etc entries that exist, bound read-only
  std::vector<std::string> gpu_nodes;  // /dev/nvidia*, /dev/nvidia-caps/* (character devices)
};

HostLayout scan_host();

}  // namespace sandbox
