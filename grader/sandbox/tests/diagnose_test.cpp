// The words an instructor gets when the sandbox cannot work on their machine: each known cause
// named with its fix, one line each, from bubblewrap's own messages (as captured on the hosts
// where they happen) and from made-up /proc and /sys trees. Unknown failures are left to
// bubblewrap's words rather than guessed at.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "diagnose.hpp"

namespace sandbox {
namespace {

namespace fs = std::filesystem;

// A root folder holding the files a test writes, removed at the end.
class FakeRoot {
 public:
  FakeRoot() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("labgrade-diagnose-") + info->name() + "-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~FakeRoot() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  FakeRoot& file(const std::string& path, const std::string& text) {
    fs::create_directories((dir_ / path).parent_path());
    std::ofstream(dir_ / path) << text;
    return *this;
  }
  const fs::path& path() const { return dir_; }

 private:
  fs::path dir_;
};

// Docker's defaults: seccomp filter, its capability set (no CAP_SYS_ADMIN), docker-default.
FakeRoot& docker_container(FakeRoot& root) {
  return root.file(".dockerenv", "")
      .file("proc/self/status", "Name:\tlabgrade\nCapEff:\t00000000a80425fb\nSeccomp:\t2\n")
      .file("proc/self/attr/current", "docker-default (enforce)\n");
}

// Ubuntu 24.04 outside a container.
FakeRoot& ubuntu_host(FakeRoot& root, const std::string& restriction) {
  return root.file("proc/self/status", "Name:\tlabgrade\nCapEff:\t0000000000000000\nSeccomp:\t0\n")
      .file("proc/self/attr/current", "unconfined\n")
      .file("proc/sys/kernel/apparmor_restrict_unprivileged_userns", restriction + "\n");
}

void expect_one_line_each(const Diagnosis& found) {
  EXPECT_EQ(found.cause.find('\n'), std::string::npos) << found.cause;
  EXPECT_EQ(found.fix.find('\n'), std::string::npos) << found.fix;
  EXPECT_FALSE(found.cause.empty());
  EXPECT_FALSE(found.fix.empty());
}

TEST(DiagnoseBubblewrap, DockersSeccompProfileIsNamedWithTheFlagsThatLiftIt) {
  FakeRoot root;
  docker_container(root);
  // bubblewrap's words for a refused namespace, from the versions instructors have: 0.4 to 0.7
  // upstream, Debian 12's 0.8, 0.11, and as root ("Creating new namespace failed").
  for (const char* said :
       {"bwrap: No permissions to creating new namespace, likely because the kernel does not "
        "allow non-privileged user namespaces. On e.g. debian this can be enabled with "
        "'sysctl kernel.unprivileged_userns_clone=1'.",
        "bwrap: No permissions to create new namespace, likely because the kernel does not "
        "allow non-privileged user namespaces. See <https://deb.li/bubblewrap> or "
        "<file:///usr/share/doc/bubblewrap/README.Debian.gz>.",
        "bwrap: No permissions to create a new namespace, likely because the kernel does not "
        "allow non-privileged user namespaces.",
        "bwrap: Creating new namespace failed: Operation not permitted"}) {
    for (unsigned uid : {0u, 1000u}) {
      const auto found = diagnose_bubblewrap(std::string("sandbox: bubblewrap could not set up the "
                                                         "sandbox:\n") +
                                                 said + "\n",
                                             read_host_facts(root.path(), uid));
      ASSERT_TRUE(found) << said;
      expect_one_line_each(*found);
      {
        EXPECT_NE(found->cause.find("Docker's default confinement"), std::string::npos)
            << found->cause;
        EXPECT_NE(found->cause.find("seccomp"), std::string::npos) << found->cause;
        EXPECT_NE(found->cause.find("(bwrap: "), std::string::npos) << found->cause;
        EXPECT_NE(found->fix.find("--security-opt seccomp=unconfined"), std::string::npos);
        EXPECT_NE(found->fix.find("--security-opt apparmor=unconfined"), std::string::npos);
        EXPECT_NE(found->fix.find("--cap-add SYS_ADMIN"), std::string::npos);
        EXPECT_EQ(found->fix.find("run the grader as root") != std::string::npos, uid != 0)
            << found->fix;
      }
    }
  }
}

TEST(DiagnoseBubblewrap, RootWithoutCapSysAdminAndDockersAppArmorAreNamedToo) {
  FakeRoot root;
  docker_container(root).file("proc/self/status", "CapEff:\t00000000a80425fb\nSeccomp:\t0\n");
  const auto found = diagnose_bubblewrap("bwrap: Failed to make / slave: Permission denied\n",
                                         read_host_facts(root.path(), 0));
  ASSERT_TRUE(found);
  EXPECT_NE(found->cause.find("root has no CAP_SYS_ADMIN"), std::string::npos) << found->cause;
  EXPECT_NE(found->cause.find("docker-default blocks mounts"), std::string::npos) << found->cause;
  EXPECT_EQ(found->cause.find("seccomp"), std::string::npos) << "no filter here: " << found->cause;
}

TEST(DiagnoseBubblewrap, UbuntusUserNamespaceRestrictionIsNamedForANonRootUser) {
  for (const char* said : {"bwrap: setting up uid map: Permission denied",
                           "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted"}) {
    FakeRoot root;
    ubuntu_host(root, "1");
    const auto found = diagnose_bubblewrap(said, read_host_facts(root.path(), 1000));
    ASSERT_TRUE(found) << said;
    expect_one_line_each(*found);
    EXPECT_NE(found->cause.find("kernel.apparmor_restrict_unprivileged_userns = 1"),
              std::string::npos)
        << found->cause;
    EXPECT_NE(found->fix.find("run labgrade as root"), std::string::npos) << found->fix;
    EXPECT_NE(found->fix.find("AppArmor profile"), std::string::npos) << found->fix;
  }
}

TEST(DiagnoseBubblewrap, TheRestrictionIsNotBlamedWhereItIsOffOrForRoot) {
  FakeRoot off;
  ubuntu_host(off, "0");
  EXPECT_FALSE(diagnose_bubblewrap("bwrap: setting up uid map: Permission denied",
                                   read_host_facts(off.path(), 1000)));
  FakeRoot on;
  ubuntu_host(on, "1").file("proc/self/status", "CapEff:\t000001ffffffffff\nSeccomp:\t0\n");
  // Root makes no user namespace: the restriction cannot be why, and nothing else is known.
  EXPECT_FALSE(diagnose_bubblewrap("bwrap: Creating new namespace failed: Invalid argument",
                                   read_host_facts(on.path(), 0)));
}

TEST(DiagnoseBubblewrap, SwitchedOffUserNamespacesAreNamed) {
  FakeRoot debian;
  debian.file("proc/sys/kernel/unprivileged_userns_clone", "0\n");
  const auto clone_off =
      diagnose_bubblewrap("bwrap: No permissions to create new namespace, likely because ...",
                          read_host_facts(debian.path(), 1000));
  ASSERT_TRUE(clone_off);
  EXPECT_NE(clone_off->cause.find("kernel.unprivileged_userns_clone = 0"), std::string::npos);
  EXPECT_NE(clone_off->fix.find("sysctl -w kernel.unprivileged_userns_clone=1"), std::string::npos);

  FakeRoot rhel;
  rhel.file("proc/sys/user/max_user_namespaces", "0\n");
  const auto none = diagnose_bubblewrap(
      "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces "
      "exceeded (ENOSPC)",
      read_host_facts(rhel.path(), 1000));
  ASSERT_TRUE(none);
  EXPECT_NE(none->cause.find("user.max_user_namespaces = 0"), std::string::npos) << none->cause;
}

TEST(DiagnoseBubblewrap, AMaskedProcInAContainerIsNamedForANonRootGrader) {
  FakeRoot root;
  docker_container(root)
      .file("proc/self/status", "CapEff:\t0000000000000000\nSeccomp:\t0\n")
      .file("proc/self/attr/current", "unconfined\n");
  const auto found =
      diagnose_bubblewrap("bwrap: Can't mount proc on /newroot/proc: Operation not permitted",
                          read_host_facts(root.path(), 1000));
  ASSERT_TRUE(found);
  EXPECT_NE(found->cause.find("masks parts of /proc"), std::string::npos) << found->cause;
  EXPECT_NE(found->fix.find("systempaths=unconfined"), std::string::npos) << found->fix;
}

TEST(DiagnoseBubblewrap, AFailureOfAnotherKindIsLeftToBubblewrapsOwnWords) {
  FakeRoot root;
  docker_container(root);
  EXPECT_FALSE(diagnose_bubblewrap("bwrap: execvp true: No such file or directory",
                                   read_host_facts(root.path(), 0)));
  EXPECT_FALSE(diagnose_bubblewrap("", read_host_facts(root.path(), 0)));
}

TEST(HostFacts, AreReadFromProcAndTheContainersMarks) {
  FakeRoot root;
  docker_container(root)
      .file("proc/self/status", "Name:\tx\nCapEff:\t000001ffffffffff\nSeccomp:\t2\n")
      .file("proc/self/attr/apparmor/current", "docker-default (enforce)\n")
      .file("proc/sys/kernel/apparmor_restrict_unprivileged_userns", "1\n")
      .file("proc/sys/user/max_user_namespaces", "63000\n")
      .file("run/.containerenv", "");
  const HostFacts facts = read_host_facts(root.path(), 0);
  EXPECT_TRUE(facts.root);
  EXPECT_EQ(facts.seccomp_mode, 2);
  EXPECT_TRUE(facts.cap_sys_admin);
  EXPECT_EQ(facts.apparmor_label, "docker-default (enforce)");
  EXPECT_EQ(facts.restrict_unprivileged_userns, 1);
  EXPECT_EQ(facts.max_user_namespaces, 63000);
  EXPECT_FALSE(facts.unprivileged_userns_clone) << "a switch the kernel does not have";
  EXPECT_TRUE(facts.docker);
  EXPECT_TRUE(facts.podman);
  EXPECT_FALSE(facts.apptainer);
  EXPECT_FALSE(read_host_facts(root.path(), 1000).root);
  EXPECT_FALSE(read_host_facts(root.path() / "nothing", 0).docker);
}

// A container's cgroup v2 as Docker mounts it with --cgroupns=private: its own group is the top.
FakeRoot& container_cgroup(FakeRoot& root, const std::string& mount_options) {
  return root
      .file("proc/self/mountinfo", "1400 1390 0:30 / /sys/fs/cgroup " + mount_options +
                                       " - cgroup2 cgroup rw,nsdelegate,memory_recursiveprot\n")
      .file("proc/self/cgroup", "0::/\n")
      .file("sys/fs/cgroup/cgroup.type", "domain\n")
      .file("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n")
      .file("sys/fs/cgroup/cgroup.subtree_control", "\n")
      .file("sys/fs/cgroup/cgroup.procs", "1\n7\n");
}

TEST(DiagnoseCgroup, AReadOnlyCgroupInDockerIsNamedWithTheFlagsAndTheEntrypoint) {
  FakeRoot root;
  docker_container(root);
  container_cgroup(root, "ro,nosuid,nodev,noexec,relatime");
  const CgroupFacts cgroup = read_cgroup_facts(root.path(), "");
  EXPECT_TRUE(cgroup.read_only);
  EXPECT_TRUE(cgroup.own_is_namespace_root);
  const auto found = diagnose_cgroup(cgroup, read_host_facts(root.path(), 0));
  ASSERT_TRUE(found);
  expect_one_line_each(*found);
  EXPECT_NE(found->cause.find("/sys/fs/cgroup is mounted read-only"), std::string::npos)
      << found->cause;
  EXPECT_NE(found->fix.find("--cgroupns=private"), std::string::npos) << found->fix;
  EXPECT_NE(found->fix.find("entrypoint"), std::string::npos) << found->fix;
}

TEST(DiagnoseCgroup, AGroupWithProcessesIsNamedWithTheEntrypointThatMovesThem) {
  FakeRoot root;
  docker_container(root);
  container_cgroup(root, "rw,nosuid,nodev,noexec,relatime");
  const CgroupFacts cgroup = read_cgroup_facts(root.path(), "");
  EXPECT_FALSE(cgroup.read_only);
  EXPECT_FALSE(cgroup.own_is_hierarchy_root);
  EXPECT_EQ(cgroup.own_subtree, "");
  const auto found = diagnose_cgroup(cgroup, read_host_facts(root.path(), 0));
  ASSERT_TRUE(found);
  expect_one_line_each(*found);
  EXPECT_NE(found->cause.find("holds processes"), std::string::npos) << found->cause;
  EXPECT_NE(found->cause.find("top of this cgroup namespace"), std::string::npos) << found->cause;
  EXPECT_NE(found->fix.find("labgrade-entrypoint"), std::string::npos) << found->fix;
}

TEST(DiagnoseCgroup, AMemoryControllerNotDelegatedIsNamed) {
  FakeRoot root;
  container_cgroup(root, "rw").file("sys/fs/cgroup/cgroup.controllers", "cpu pids\n");
  const auto found =
      diagnose_cgroup(read_cgroup_facts(root.path(), ""), read_host_facts(root.path(), 0));
  ASSERT_TRUE(found);
  EXPECT_NE(found->cause.find("memory controller is not delegated"), std::string::npos)
      << found->cause;
  EXPECT_NE(found->cause.find("'cpu pids'"), std::string::npos) << found->cause;
  EXPECT_NE(found->fix.find("Delegate=yes"), std::string::npos) << found->fix;
}

TEST(DiagnoseCgroup, AUserWithoutADelegatedGroupIsToldHowToGetOne) {
  CgroupFacts cgroup;
  cgroup.v2_mounted = true;
  cgroup.mount_point = "/sys/fs/cgroup";
  cgroup.own = "/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope";
  cgroup.own_controllers = "memory pids";
  HostFacts host;
  host.uid = 1000;
  const auto found = diagnose_cgroup(cgroup, host);
  ASSERT_TRUE(found);
  EXPECT_NE(found->cause.find("no cgroup is delegated to uid 1000"), std::string::npos)
      << found->cause;
  EXPECT_NE(found->fix.find("systemd-run --user --scope -p Delegate=yes"), std::string::npos)
      << found->fix;
}

TEST(DiagnoseCgroup, AChosenGroupThatCannotHoldRunsIsNamed) {
  FakeRoot root;
  container_cgroup(root, "rw")
      .file("sys/fs/cgroup/graders/cgroup.subtree_control", "pids\n")
      .file("sys/fs/cgroup/graders/cgroup.controllers", "memory pids\n")
      .file("sys/fs/cgroup/graders/cgroup.type", "domain\n");
  const CgroupFacts cgroup = read_cgroup_facts(root.path(), "/sys/fs/cgroup/graders");
  const auto found = diagnose_cgroup(cgroup, read_host_facts(root.path(), 0));
  ASSERT_TRUE(found);
  EXPECT_NE(found->cause.find("LABGRADE_CGROUP=/sys/fs/cgroup/graders enables 'pids'"),
            std::string::npos)
      << found->cause;
  EXPECT_NE(found->fix.find("unset LABGRADE_CGROUP"), std::string::npos) << found->fix;
}

TEST(DiagnoseCgroup, TheHostsRootGroupIsToldToEnableMemory) {
  FakeRoot root;
  root.file("proc/self/mountinfo", "30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
      .file("proc/self/cgroup", "0::/\n")
      .file("sys/fs/cgroup/cgroup.controllers", "cpu memory pids\n")
      .file("sys/fs/cgroup/cgroup.subtree_control", "cpu\n");
  const CgroupFacts cgroup = read_cgroup_facts(root.path(), "");
  EXPECT_TRUE(cgroup.own_is_hierarchy_root) << "no cgroup.type: the real root";
  const auto found = diagnose_cgroup(cgroup, read_host_facts(root.path(), 0));
  ASSERT_TRUE(found);
  EXPECT_NE(found->fix.find("+memory +pids"), std::string::npos) << found->fix;
  EXPECT_EQ(found->cause.find("holds processes"), std::string::npos) << found->cause;
}

TEST(DiagnoseCgroup, NoCgroupV2IsLeftToTheCgroupV1Words) {
  FakeRoot root;
  root.file("proc/self/mountinfo",
            "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n");
  EXPECT_FALSE(diagnose_cgroup(read_cgroup_facts(root.path(), ""), HostFacts{}));
}

}  // namespace
}  // namespace sandbox
